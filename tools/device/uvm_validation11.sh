#!/usr/bin/env bash
# Issue 21, the UVM simulator's validation 11 in ONE device call (docs/uvm-validations-10-12.md, "Validation 11 of the UVM
# simulator: registered before the session"; the set is model/uvm_validation11.py's SET): validation 10's call
# (tools/device/uvm_validation10.sh: the same steps, reps, order, guard and estimates) on the seed-34 graphs
# kron23s34, urand23s34 and rmat22ef32s34.
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none bash tools/device/uvm_validation11.sh   ESTIMATE ~7 min, H100
# ESTIMATE (archive/uvm-validation10-h100-2026-11-28/session/uvm10/call.log: 421 s on a fresh machine with the
# build: opening 58 s, kron 144, urand 109, rmat 98, closing 12): ~420 s with a fresh build, ~385 s with a built
# binary; at most ~470 s (no `emogi run` past HARD_S 450 s).
# Everything comes back as $OUT/uvm11.tgz (uvm11/: host.txt, device.json, micro/, runs/, graphs/, logs/, deferred.txt,
# call.log). The judge (CPU, after the call):
#   python -m model.uvm_validation11 judge --tarball uvm11.tgz --graph-dir /tmp/uvm11g --out D --jobs 2
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
validation_dirs 11
REPS=${REPS:-9}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-430}; RUN_LIMIT_S=${RUN_LIMIT_S:-150}
HARD_S=${HARD_S:-450}  # no `emogi run` goes past this (s)
RUN_ORDER=${RUN_ORDER:-rounds}
# the registered set (model/uvm_validation11.py SET): name -> generator arguments; seed 34 for all
declare -A HOW=([kron23s34]="--kind kron --scale 23 --edge-factor 16"
  [urand23s34]="--kind urand --scale 23 --edge-factor 16"
  [rmat22ef32s34]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20")
declare -A EST=([kron23s34]=150 [urand23s34]=125 [rmat22ef32s34]=100)
SEED=34; VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"; UVMFAULT_AFTER=0
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

validation_call 11 ${GRAPHS:-kron23s34 urand23s34 rmat22ef32s34}
