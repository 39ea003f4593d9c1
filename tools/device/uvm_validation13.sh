#!/usr/bin/env bash
# Issue 21, the UVM simulator's validation 13: ONE of its three device calls (docs/uvm-validation13.md; the set is
# model/uvm_validation13.py's SET). CALL (a, b or c) names the call; each runs on a fresh lease:
#   (device) CALL=a EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none DETACH_WAIT=560 bash tools/device/detached.sh \
#              start uvm13a bash tools/device/uvm_validation13.sh                              ~6.5 min, H200
# then give the machine back, and the same with CALL=b and CALL=c. Validation 12's call unchanged but for the graphs
# (seed 38) and the name: validation 10's steps, guard and estimates (uvm_session.sh validation_call: uvmfault's GPU
# test, copies and uvmfault at the start and end, per graph `device` beside cold `uvm`, 1 warm-up and 9 timed runs in
# rounds). ESTIMATE: ~370 s with a fresh build, from validation 12's H200 call (321 s with a built binary,
# archive/uvm-validation12-h200-2026-11-28) and capped validation 8's builds (~30 s). The guard (BUDGET_S 430, HARD_S
# 450) keeps it under ~470 s.
# Everything comes back as $OUT/uvm13$CALL.tgz. The judge (CPU, all calls at once; regenerates the graphs, derives
# the traces once for the three calls; ~15-25 min):
#   python -m model.uvm_validation13 judge --tarballs uvm13a.tgz uvm13b.tgz uvm13c.tgz --graph-dir /tmp/uvm13g \
#     --out D --jobs 2
set -uo pipefail
case ${CALL:-} in a | b | c) ;; *) echo "uvm_validation13.sh: set CALL to a, b or c (got '${CALL:-}')"; exit 2;; esac
. tools/device/setup.sh
. tools/device/uvm_session.sh
validation_dirs 13$CALL
REPS=${REPS:-9}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-430}; RUN_LIMIT_S=${RUN_LIMIT_S:-150}
HARD_S=${HARD_S:-450}  # no `emogi run` goes past this (s)
RUN_ORDER=${RUN_ORDER:-rounds}
# the registered set (model/uvm_validation13.py SET): name -> generator arguments; seed 38 for all
declare -A HOW=([kron23s38]="--kind kron --scale 23 --edge-factor 16"
  [urand23s38]="--kind urand --scale 23 --edge-factor 16"
  [rmat22ef32s38]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20")
declare -A EST=([kron23s38]=150 [urand23s38]=125 [rmat22ef32s38]=100)
SEED=38; VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"; UVMFAULT_AFTER=0
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

validation_call 13$CALL ${GRAPHS:-kron23s38 urand23s38 rmat22ef32s38}
