#!/usr/bin/env bash
# Issue 21, the UVM simulator's validation 8 in ONE device call (docs/uvm-validations.md, "Validation 8 of the UVM
# simulator: registered before the session"; the set is model/uvm_validation8.py's SET):
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none bash tools/device/uvm_validation8.sh   ESTIMATE ~7 min, H100
# EMOGI_COMMIT names the commit in host.txt and every row (the device copy's git metadata may be stale); without it
# the script warns and records the copy's git HEAD. The binary must know `emogi run --run-order`.
# Validation 7's call (uvm_session.sh validation_call) with: the seed-30 graphs kron23s30, urand23s30 and
# rmat22ef32s30, 1 warm-up and REPS=9 timed runs per (mode, variant) in one `emogi run` per step with RUN_ORDER=rounds
# (`--run-order rounds`: each round times one run of every variant and root, so a slow stretch spreads over the
# step's cells), uvmfault at the start and the end only, linkbw at the start and the end (the primary rule's measure
# is the median of both). Managed memory is never oversubscribed. Time guard: a graph starts only if elapsed + its
# estimate (EST, s: validation 7's measured 136, 104, 91 s per graph at REPS=9, plus ~10%) <= BUDGET_S (430), else
# DEFERRED (deferred.txt; the last graph goes first rather than reps being cut); each `emogi run` is stopped after
# RUN_LIMIT_S (150) and none runs past HARD_S (450); the closing uvmfault, copies and tarball take ~15 s more.
# ESTIMATE (archive/uvm-validation7-h100-2026-11-27/session/uvm7/call.log: 400 s with a 44 s build at the same
# sizes and reps; the order changes no run's count): ~405 s; at most ~470 s. Everything comes back as $OUT/uvm8.tgz
# (uvm8/: host.txt, device.json, micro/, runs/, graphs/*.json and *.roots.txt, logs/, deferred.txt, call.log).
# The judge (CPU, after the call; regenerates the graphs with the same seeds and derives the traces):
#   python -m model.uvm_validation8 judge --tarball uvm8.tgz --graph-dir /tmp/uvm8g --out D --jobs 2
# Options: BUDGET_S, RUN_LIMIT_S, HARD_S, REPS=9, WARMUP=1, RUN_ORDER=rounds, GRAPHS (another list, for a dry run),
# EMOGI_BINARY.
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
validation_dirs 8
REPS=${REPS:-9}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-430}; RUN_LIMIT_S=${RUN_LIMIT_S:-150}
HARD_S=${HARD_S:-450}  # no `emogi run` goes past this (s)
RUN_ORDER=${RUN_ORDER:-rounds}
# the registered set (model/uvm_validation8.py SET): name -> generator arguments; seed 30 for all
declare -A HOW=([kron23s30]="--kind kron --scale 23 --edge-factor 16"
  [urand23s30]="--kind urand --scale 23 --edge-factor 16"
  [rmat22ef32s30]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20")
declare -A EST=([kron23s30]=145 [urand23s30]=115 [rmat22ef32s30]=100)
SEED=30; VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"; UVMFAULT_AFTER=0
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

validation_call 8 ${GRAPHS:-kron23s30 urand23s30 rmat22ef32s30}
