#!/usr/bin/env bash
# Issue 21, the UVM simulator's validation 10 in ONE device call (docs/uvm-validations-10-12.md, "Validation 10 of the UVM
# simulator: registered before the session"; the set is model/uvm_validation10.py's SET):
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none bash tools/device/uvm_validation10.sh   ESTIMATE ~6-7 min, H100
# EMOGI_COMMIT names the commit in host.txt and every row (the device copy's git metadata may be stale); without it
# the script warns and records the copy's git HEAD. The binary must know `emogi run --run-order`.
# Validation 9's call (uvm_session.sh validation_call) on the seed-33 graphs kron23s33, urand23s33 and rmat22ef32s33:
# 1 warm-up and REPS=9 timed runs per (mode, variant) in one `emogi run` per step with RUN_ORDER=rounds, uvmfault at
# the start and the end only, linkbw at the start and the end (the primary rule, f = 1, reads neither: they are for
# the pageable and micro_start rules judged and reported beside it). Managed memory is never oversubscribed. Time
# guard: a graph starts only if elapsed + its estimate (EST, s: validation 9's measured 134, 110, 86 s per graph at
# REPS=9 in rounds, plus ~10%) <= BUDGET_S (430), else DEFERRED (deferred.txt; the last graph goes first rather than
# reps being cut); each `emogi run` is stopped after RUN_LIMIT_S (150) and none runs past HARD_S (450); the closing
# uvmfault, copies and tarball take ~15 s more.
# ESTIMATE (archive/uvm-validation9-h100-2026-11-27/session/uvm9/call.log: 364 s with a built binary at the same
# sizes, reps and order: opening 21 s, kron 134, urand 110, rmat 86, closing 13): ~365 s with a built binary, ~410 s
# with a fresh build (validation 7's took 44 s); at most ~470 s.
# Everything comes back as $OUT/uvm10.tgz (uvm10/: host.txt, device.json, micro/, runs/, graphs/*.json and
# *.roots.txt, logs/, deferred.txt, call.log).
# The judge (CPU, after the call; regenerates the graphs with the same seeds and derives the traces):
#   python -m model.uvm_validation10 judge --tarball uvm10.tgz --graph-dir /tmp/uvm10g --out D --jobs 2
# Options: BUDGET_S, RUN_LIMIT_S, HARD_S, REPS=9, WARMUP=1, RUN_ORDER=rounds, GRAPHS (another list, for a dry run),
# EMOGI_BINARY.
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
validation_dirs 10
REPS=${REPS:-9}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-430}; RUN_LIMIT_S=${RUN_LIMIT_S:-150}
HARD_S=${HARD_S:-450}  # no `emogi run` goes past this (s)
RUN_ORDER=${RUN_ORDER:-rounds}
# the registered set (model/uvm_validation10.py SET): name -> generator arguments; seed 33 for all
declare -A HOW=([kron23s33]="--kind kron --scale 23 --edge-factor 16"
  [urand23s33]="--kind urand --scale 23 --edge-factor 16"
  [rmat22ef32s33]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20")
declare -A EST=([kron23s33]=150 [urand23s33]=125 [rmat22ef32s33]=100)
SEED=33; VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"; UVMFAULT_AFTER=0
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

validation_call 10 ${GRAPHS:-kron23s33 urand23s33 rmat22ef32s33}
