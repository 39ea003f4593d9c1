#!/usr/bin/env bash
# Issue 21, the UVM simulator's validation 4 in ONE device call (docs/uvm-validations.md, "Validation 4 of the UVM
# simulator: registered before the session"; the set is model/uvm_validation4.py's SET):
#   (device) bash tools/device/uvm_validation4.sh                                         ESTIMATE ~6-8 min, H100
# build; host.txt; uvmfault's GPU test; the calibration at the start (`emogi linkbw`: pinned and pageable copies,
# the primary rule's measure; `emogi uvmfault`: a 1 GiB cold managed buffer read once as back-to-back lists, a
# thread or a warp per list, and the 64 KiB-stride pattern, reported only); then per graph: generate it (seed 26),
# draw 2 roots, measure cold `uvm` beside `device` for every algorithm and both registered variants, and run the
# four back-to-back uvmfault patterns again (micro/uvmfault_after_NAME.csv); at the end uvmfault and linkbw once
# more (uvmfault_end.csv, link_end.csv). Managed memory is never oversubscribed (validation 3's reasons).
# Time guard as validation 3's: a graph starts only if elapsed + its estimate (EST, s) <= BUDGET_S (default 400),
# else DEFERRED (deferred.txt); each `emogi run` is stopped after RUN_LIMIT_S (150) and none runs past HARD_S
# (default 440); the closing calibration and the tarball take ~25 s more. Everything comes back as $OUT/uvm4.tgz
# (uvm4/: host.txt, device.json, micro/, runs/, graphs/*.json and *.roots.txt, logs/, deferred.txt, call.log).
# ESTIMATES (not measurements): build 30-110 s; archive/uvm-validation3-h100-2026-11-27's call took 188 s for
# three scale-22/23 graphs with its calibration, the urand24s25 call of the same day ~150 s for that graph alone;
# uvmfault's four patterns ~5 s a time.
# The judge (CPU, after the call; regenerates the graphs with the same seeds and derives the traces):
#   python -m model.uvm_validation4 judge --tarball uvm4.tgz --graph-dir /tmp/uvm4g --out D --jobs 2
# Options: BUDGET_S, RUN_LIMIT_S, HARD_S, REPS=2, WARMUP=1, GRAPHS (another list, for a dry run), EMOGI_BINARY.
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
validation_dirs 4
REPS=${REPS:-2}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-400}; RUN_LIMIT_S=${RUN_LIMIT_S:-150}
HARD_S=${HARD_S:-440}  # no `emogi run` goes past this (s)
# the registered set (model/uvm_validation4.py SET): name -> generator arguments; seed 26 for all
declare -A HOW=([kron23s26]="--kind kron --scale 23 --edge-factor 16"
  [urand23s26]="--kind urand --scale 23 --edge-factor 16"
  [rmat22ef32s26]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20"
  [urand24s26]="--kind urand --scale 24 --edge-factor 16")
declare -A EST=([kron23s26]=80 [urand23s26]=75 [rmat22ef32s26]=70 [urand24s26]=170)
SEED=26; VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

validation_call 4 ${GRAPHS:-kron23s26 urand23s26 rmat22ef32s26 urand24s26}
