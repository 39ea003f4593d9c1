#!/usr/bin/env bash
# Issue 21, the UVM simulator's validation 6 in ONE device call (docs/uvm-validations.md, "Validation 6 of the UVM
# simulator: registered before the session"; the set is model/uvm_validation6.py's SET):
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none bash tools/device/uvm_validation6.sh   ESTIMATE ~6-7 min, H100
# EMOGI_COMMIT names the commit in host.txt and every row (the device copy's git metadata may be stale); without it
# the script warns and records the copy's git HEAD.
# Validation 5's call (uvm_session.sh validation_call) with: the seed-28 graphs kron23s28, urand23s28 and
# rmat22ef32s28, 1 warm-up and REPS=7 timed runs per (mode, variant) in one `emogi run` per step, uvmfault at the
# start and the end only (UVMFAULT_AFTER=0), linkbw at the start and the end (the primary rule's measure is the
# median of both). Managed memory is never oversubscribed. Time guard: a graph starts only if elapsed + its estimate
# (EST, s: validation 5's measured 102, 83, 70 s per graph at REPS=5, plus 2 reps, with margin) <= BUDGET_S (400),
# else DEFERRED (deferred.txt; the last graph goes first rather than reps being cut); each `emogi run` is stopped
# after RUN_LIMIT_S (150) and none runs past HARD_S (420); the closing uvmfault, copies and tarball take ~10 s more.
# ESTIMATE (archive/uvm-validation5-analysis-2026-11-27, "Validation 6 should register", from validation 5's 326 s
# call with a 39 s build): ~365 s; a slow build defers the last graph. Everything comes back as $OUT/uvm6.tgz (uvm6/:
# host.txt, device.json, micro/, runs/, graphs/*.json and *.roots.txt, logs/, deferred.txt, call.log).
# The judge (CPU, after the call; regenerates the graphs with the same seeds and derives the traces):
#   python -m model.uvm_validation6 judge --tarball uvm6.tgz --graph-dir /tmp/uvm6g --out D --jobs 2
# Options: BUDGET_S, RUN_LIMIT_S, HARD_S, REPS=7, WARMUP=1, GRAPHS (another list, for a dry run), EMOGI_BINARY.
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
validation_dirs 6
REPS=${REPS:-7}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-400}; RUN_LIMIT_S=${RUN_LIMIT_S:-150}
HARD_S=${HARD_S:-420}  # no `emogi run` goes past this (s)
# the registered set (model/uvm_validation6.py SET): name -> generator arguments; seed 28 for all
declare -A HOW=([kron23s28]="--kind kron --scale 23 --edge-factor 16"
  [urand23s28]="--kind urand --scale 23 --edge-factor 16"
  [rmat22ef32s28]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20")
declare -A EST=([kron23s28]=135 [urand23s28]=110 [rmat22ef32s28]=90)
SEED=28; VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"; UVMFAULT_AFTER=0
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

validation_call 6 ${GRAPHS:-kron23s28 urand23s28 rmat22ef32s28}
