#!/usr/bin/env bash
# Issue 21 item 3, the UVM simulator's validation 3 in ONE device call (docs/uvm-validations.md, "Session-calibrated
# simulator and validation 3: registered before the session"; the set is model/uvm_validation3.py's SET):
#   (device) bash tools/device/uvm_validation3.sh                                         ESTIMATE ~7 min, H100
# build; host.txt; uvmfault's GPU test; the calibration microbenchmarks at the start (`emogi uvmfault`: a 1 GiB
# cold managed buffer read once as lists, a thread or a warp per list; `emogi linkbw`: pinned and pageable
# copies); then, per graph,
# generate it (seed 25), draw 2 roots and measure cold `uvm` beside `device` for every algorithm and the two
# registered variants; the same uvmfault once more at the end (the drift within the call). Managed memory is
# never oversubscribed: uvmfault keeps 1 GiB (it refuses more than a quarter of the free GPU memory) and a scale-23
# edge list is ~2 GiB (the binary's guard refuses any managed allocation beyond the free memory).
# A time guard keeps the call inside one device command: a graph is started only if the elapsed time plus its
# estimate (EST, seconds) stays under BUDGET_S (default 470); a graph left out says DEFERRED (deferred.txt); each
# `emogi run` is stopped after RUN_LIMIT_S (default 150) and none runs past HARD_S (default 515: a run with less
# than 20 s left is DEFERRED, one stopped there is FAILED and its table removed). Everything comes back as ONE
# file, $OUT/uvm3.tgz (uvm3/: host.txt, micro/, runs/, graphs/*.json and *.roots.txt, logs/, deferred.txt,
# call.log).
# ESTIMATES (not measurements): build 30-110 s (archive/holdout-v3-h100-2026-11-27's calls); generating a
# scale-22/23 graph 15-30 s there; a graph's 4 algorithms x 2 variants x (device, uvm) x 3 runs at ~2 GiB of
# lists: ~60-90 s (cold runs move the edge list at 10-25 GB/s, PageRank ~20-60 rounds); uvmfault ~10 s a time.
# The judge (CPU, after the call; regenerates the graphs with the same seeds and derives the traces):
#   python -m model.uvm_validation3 judge --tarball uvm3.tgz --graph-dir /tmp/uvm3g --out D --jobs 2
#   python -m figures.fig_uvm_validation3 --cells D/validation3_cells.csv --source D/source.json --out D/fig.png
# Options: BUDGET_S, RUN_LIMIT_S, REPS=2, WARMUP=1, GRAPHS (another list, for a dry run), EMOGI_BINARY (prebuilt).
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
validation_dirs 3
REPS=${REPS:-2}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-470}; RUN_LIMIT_S=${RUN_LIMIT_S:-150}
HARD_S=${HARD_S:-515}  # no `emogi run` goes past this (s); the closing uvmfault and the tarball take ~20 s more
# the registered set (model/uvm_validation3.py SET): name -> generator arguments; seed 25 for all
declare -A HOW=([kron23s25]="--kind kron --scale 23 --edge-factor 16"
  [urand23s25]="--kind urand --scale 23 --edge-factor 16"
  [rmat22ef32]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20"
  [urand24s25]="--kind urand --scale 24 --edge-factor 16")
declare -A EST=([kron23s25]=110 [urand23s25]=100 [rmat22ef32]=110 [urand24s25]=170)
SEED=25; VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"
UVMFAULT_AFTER=0  # session_graph (uvm_session.sh): no uvmfault after a graph
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

uvmfault() {  # TAG: the calibration microbenchmark into micro/uvmfault_TAG.csv (contiguous) and _stride (64 KiB)
  log "uvmfault $1"
  timeout 60 "$EMOGI_BINARY" uvmfault "${UVMFAULT[@]}" --out "$S/micro/uvmfault_$1.csv" \
    > "$S/logs/uvmfault_$1.log" 2>&1 || echo "FAILED: uvmfault $1: $(tail -1 "$S/logs/uvmfault_$1.log")"
  timeout 30 "$EMOGI_BINARY" uvmfault "${UVMFAULT_STRIDE[@]}" --out "$S/micro/uvmfault_stride_$1.csv" \
    >> "$S/logs/uvmfault_$1.log" 2>&1 || echo "FAILED: uvmfault stride $1: $(tail -1 "$S/logs/uvmfault_$1.log")"
  grep "^uvmfault" "$S/logs/uvmfault_$1.log"
}
link() {
  log linkbw
  python3 -m emogi.measure linkbw --binary "$EMOGI_BINARY" --out "$S/micro/link.csv" -- \
    --sizes 1M,16M,64M,256M,1G --reps 5 > "$S/logs/linkbw.log" 2>&1 || echo "FAILED: linkbw"
}
main() {
  log "uvm validation 3 (budget ${BUDGET_S} s)"
  : > "$S/deferred.txt"
  provenance
  build_kernels
  "$EMOGI_BINARY" device > "$S/device.json" 2> /dev/null
  TESTS=tests/test_gpu_micro.py gpu_tests -k uvmfault  # its GPU test (~10 s), log in logs/gpu_tests.log
  uvmfault start
  link
  for n in ${GRAPHS:-kron23s25 urand23s25 rmat22ef32 urand24s25}; do session_graph "$n"; done
  uvmfault end
  for f in "$S"/runs/*.csv; do [ -f "$f" ] && echo "$(($(wc -l < "$f") - 1)) rows $(basename "$f")"; done
  log "done after ${SECONDS} s"
}
main 2>&1 | tee "$S/call.log"
mv "$OUT/build.log" "$OUT/gpu_tests.log" "$S/logs/" 2> /dev/null
tar czf "$OUT/uvm3.tgz" -C "$W" uvm3
ls -l "$OUT"
