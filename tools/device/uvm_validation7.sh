#!/usr/bin/env bash
# Issue 21, the UVM simulator's validation 7 in ONE device call (docs/uvm-validations.md, "Validation 7 of the UVM
# simulator: registered before the session"; the set is model/uvm_validation7.py's SET):
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none bash tools/device/uvm_validation7.sh   ESTIMATE ~6-7 min, H100
# EMOGI_COMMIT names the commit in host.txt and every row (the device copy's git metadata may be stale); without it
# the script warns and records the copy's git HEAD.
# Validation 6's call (uvm_session.sh validation_call) with: the seed-29 graphs kron23s29, urand23s29 and
# rmat22ef32s29, 1 warm-up and REPS=9 timed runs per (mode, variant) in one `emogi run` per step, uvmfault at the
# start and the end only (UVMFAULT_AFTER=0), linkbw at the start and the end (the primary rule's measure is the
# median of both). Managed memory is never oversubscribed. Time guard: a graph starts only if elapsed + its estimate
# (EST, s: validation 6's measured 106, 85, ~74 s per graph at REPS=7, plus 2 reps at most each graph's summed cold
# and device medians, with margin) <= BUDGET_S (400), else DEFERRED (deferred.txt; the last graph goes first rather
# than reps being cut); each `emogi run` is stopped after RUN_LIMIT_S (150) and none runs past HARD_S (420); the
# closing uvmfault, copies and tarball take ~10 s more.
# ESTIMATE (archive/uvm-validation6-analysis-2026-11-27, "Validation 7 should register", from validation 6's 329 s
# call with a 37 s build): ~350 s; a slow build defers the last graph. Everything comes back as $OUT/uvm7.tgz (uvm7/:
# host.txt, device.json, micro/, runs/, graphs/*.json and *.roots.txt, logs/, deferred.txt, call.log).
# The judge (CPU, after the call; regenerates the graphs with the same seeds and derives the traces):
#   python -m model.uvm_validation7 judge --tarball uvm7.tgz --graph-dir /tmp/uvm7g --out D --jobs 2
# Options: BUDGET_S, RUN_LIMIT_S, HARD_S, REPS=9, WARMUP=1, GRAPHS (another list, for a dry run), EMOGI_BINARY.
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
validation_dirs 7
REPS=${REPS:-9}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-400}; RUN_LIMIT_S=${RUN_LIMIT_S:-150}
HARD_S=${HARD_S:-420}  # no `emogi run` goes past this (s)
# the registered set (model/uvm_validation7.py SET): name -> generator arguments; seed 29 for all
declare -A HOW=([kron23s29]="--kind kron --scale 23 --edge-factor 16"
  [urand23s29]="--kind urand --scale 23 --edge-factor 16"
  [rmat22ef32s29]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20")
declare -A EST=([kron23s29]=135 [urand23s29]=110 [rmat22ef32s29]=95)
SEED=29; VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"; UVMFAULT_AFTER=0
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

validation_call 7 ${GRAPHS:-kron23s29 urand23s29 rmat22ef32s29}
