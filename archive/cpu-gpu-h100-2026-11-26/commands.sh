#!/usr/bin/env bash
# Session A (2026-11-26): issue 23's GPU-vs-CPU on one host, issue 22's streamed targets. Run detached.
set -uo pipefail
export EMOGI_WHEELS=.devrun/whl
. tools/device/setup.sh
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
mkdir -p "$OUT/a"
{ date -u; nvidia-smi; echo "nproc $(nproc)"; lscpu | head -25; free -g; df -h /tmp .; echo "commit $EMOGI_COMMIT";
  python3 -c 'import sys,numpy;print(sys.version.split()[0], "numpy", numpy.__version__)'; } > "$OUT/a/host.txt" 2>&1
# graphs first (CPU) while nothing else runs, then the build
for name in kron24 urand24; do
  el "graph $name"; gap_graph "$name" > "$OUT/a/gen_$name.log" 2>&1 || { tail -3 "$OUT/a/gen_$name.log"; }
  python3 -m emogi.csr narrow /tmp/g/$name.w8.csr --out /tmp/g/$name.w4.csr --meta /tmp/g/$name.w4.json \
    >> "$OUT/a/gen_$name.log" 2>&1 || tail -3 "$OUT/a/gen_$name.log"
done
el build; build_kernels; el "built"
BIN=$EMOGI_BINARY

# 1. Issue 23, GPU side: the same w4 files and roots as the CPU side below
best() { case $1 in bfs) echo direction-optimizing;; sssp) echo frontier;; cc) echo afforest;; pagerank) echo gauss-seidel;; esac; }
for name in kron24 urand24; do
  for a in bfs sssp cc pagerank; do
    el "gpu $a $name"
    r=(); case $a in bfs | sssp) r=(--roots "$(cat /tmp/g/$name.roots)");; esac
    timeout 300 "$BIN" run --algorithm $a --graph /tmp/g/$name.w4.csr --name $name --variants merged-aligned,$(best $a) \
      --modes zerocopy,device "${r[@]}" --reps 3 --warmup 1 --out "$OUT/a/gpu_${name}_$a.csv" \
      > "$OUT/a/gpu_${name}_$a.log" 2>&1 || { echo "gpu $a $name failed"; tail -3 "$OUT/a/gpu_${name}_$a.log"; }
  done
done

# 2. Issue 22: W, streamed SpMV (8-byte ids, weights) and PageRank (4-byte ids) against zero-copy
el linkbw
"$BIN" linkbw --sizes 256M,1G --reps 5 --out "$OUT/a/linkbw.csv" > "$OUT/a/linkbw.log" 2>&1 || tail -3 "$OUT/a/linkbw.log"
for name in kron24 urand24; do
  g8=/tmp/g/$name.w8.csr g4=/tmp/g/$name.w4.csr
  el "spmv $name"
  timeout 200 "$BIN" run --algorithm spmv --graph $g8 --name $name --variants merged-aligned --modes zerocopy,device \
    --reps 3 --warmup 1 --out "$OUT/a/streamed_spmv_${name}_w8_zerocopy.csv" > "$OUT/a/streamed_spmv_${name}_w8_zerocopy.log" 2>&1
  for b in 64M 256M 1G; do
    timeout 200 "$BIN" run --algorithm spmv --graph $g8 --name $name --variants merged-aligned --modes streamed \
      --stream-block-bytes $b --stream-buffers 2 --reps 3 --warmup 1 --out "$OUT/a/streamed_spmv_${name}_w8_b$b.csv" \
      > "$OUT/a/streamed_spmv_${name}_w8_b$b.log" 2>&1 || tail -2 "$OUT/a/streamed_spmv_${name}_w8_b$b.log"
  done
  el "pagerank streamed $name"
  for b in 64M 256M; do
    timeout 240 "$BIN" run --algorithm pagerank --graph $g4 --name $name --variants merged-aligned,gauss-seidel \
      --modes streamed --stream-block-bytes $b --stream-buffers 2 --reps 3 --warmup 1 \
      --out "$OUT/a/streamed_pagerank_${name}_w4_b$b.csv" > "$OUT/a/streamed_pagerank_${name}_w4_b$b.log" 2>&1 \
      || tail -2 "$OUT/a/streamed_pagerank_${name}_w4_b$b.log"
  done
done

# 3. Issue 23, CPU side on the same host, same files (cpu_study finds the w4 graphs and roots in /tmp/g)
el "cpu study"
EMOGI_BINARY=$BIN G=/tmp/g STEPS="membench pr24 peer peer_scaling" PEER_GRAPHS="kron24 urand24" PEER_TIMEOUT=330 \
  OUT="$OUT/a" bash tools/device/cpu_study.sh > "$OUT/a/cpu_study.out" 2>&1
el "cpu study done"; tail -60 "$OUT/a/cpu_study.out"
rm -f "$OUT/a/cpu_study.tgz"
tar -czf "$OUT/s1.tgz" -C "$OUT" a
el "all done"
