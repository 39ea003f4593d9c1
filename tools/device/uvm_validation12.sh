#!/usr/bin/env bash
# Issue 21, the UVM simulator's validation 12 in ONE device call, on the H200 (docs/uvm-validations-10-12.md, "Validation 12
# of the UVM simulator, on the H200: registered before the session"; the set is model/uvm_validation12.py's SET):
# validation 10's call (tools/device/uvm_validation10.sh: the same steps, reps, order, guard and estimates) on the
# seed-36 graphs kron23s36, urand23s36 and rmat22ef32s36. Nothing here asks which GPU it is on: the rule is meant to
# transfer, and every row, host.txt and device.json name the GPU.
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none DETACH_WAIT=560 bash tools/device/detached.sh start uvm12 \
#              bash tools/device/uvm_validation12.sh   ESTIMATE ~7 min (H100 basis; H200 unknown, below)
# ESTIMATE on the H100 (call.log of validation 10, archive/uvm-validation10-h100-2026-11-28/session/uvm10: 421 s on a
# fresh machine with the build: opening 58 s, kron 144, urand 109, rmat 98, closing 12; validation 11's,
# archive/uvm-validation11-h100-2026-11-28/session/uvm11: 412 s: opening 53, kron 144, urand 106, rmat 94, closing
# 15): ~420 s with a fresh build, ~385 s with a built binary. On the H200 no call at these sizes has run; in the only
# H200 call of this kind (archive/uvm-capped-graph-check-h200-2026-11-28, scale 20) device mode ran at 0.91-0.98 of
# the H100's times and cold uvm at 0.94 (median cell). The guard holds the call under 600 s whatever the H200 does:
# a graph starts only if elapsed + its estimate <= BUDGET_S 430, else DEFERRED (the last graph first); no `emogi run`
# past HARD_S 450 s or longer than RUN_LIMIT_S 150 s; the closing uvmfault, copies and tarball ~15 s: at most ~470 s.
# Everything comes back as $OUT/uvm12.tgz (uvm12/: host.txt, device.json, micro/, runs/, graphs/, logs/, deferred.txt,
# call.log). The judge (CPU, after the call):
#   python -m model.uvm_validation12 judge --tarball uvm12.tgz --graph-dir /tmp/uvm12g --out D --jobs 2
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
validation_dirs 12
REPS=${REPS:-9}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-430}; RUN_LIMIT_S=${RUN_LIMIT_S:-150}
HARD_S=${HARD_S:-450}  # no `emogi run` goes past this (s)
RUN_ORDER=${RUN_ORDER:-rounds}
# the registered set (model/uvm_validation12.py SET): name -> generator arguments; seed 36 for all
declare -A HOW=([kron23s36]="--kind kron --scale 23 --edge-factor 16"
  [urand23s36]="--kind urand --scale 23 --edge-factor 16"
  [rmat22ef32s36]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20")
declare -A EST=([kron23s36]=150 [urand23s36]=125 [rmat22ef32s36]=100)
SEED=36; VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"; UVMFAULT_AFTER=0
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

validation_call 12 ${GRAPHS:-kron23s36 urand23s36 rmat22ef32s36}
