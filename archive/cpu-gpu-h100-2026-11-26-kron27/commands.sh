#!/usr/bin/env bash
# Session B (2026-11-26): GPU tests of the new code (directed graphs, streamed CC/SSSP, the unverified ones),
# a directed graph through every algorithm, kron27 cache blocking, CPU SpMV and GAP-rule PageRank beside the GPU.
set -uo pipefail
export EMOGI_WHEELS=.devrun/whl
. tools/device/setup.sh
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
mkdir -p "$OUT/b"
O=$OUT/b
{ date -u; nvidia-smi; echo "nproc $(nproc)"; lscpu | head -25; free -g; df -h /tmp .; echo "commit $EMOGI_COMMIT";
  command -v perf || echo "no perf"; } > "$O/host.txt" 2>&1
el build; build_kernels; el built
BIN=$EMOGI_BINARY
G27=$PWD/resources/cpu-graphs; mkdir -p "$G27" /tmp/g
# kron27 at 4-byte ids, generated while the GPU tests run (neither is timed)
( timeout 500 python3 -m emogi.datasets.generators --kind kron --scale 27 --edge-factor 16 --seed 24 --weights-seed 24 \
    --index-bytes 4 --out "$G27/kron27.w4.csr" > "$O/generate_kron27.log" 2>&1; echo "gen27 exit $?" >> "$O/generate_kron27.log" ) &
GEN=$!

# 1. GPU tests of this session's code and of last session's unverified tests
el "gpu tests: directed, streamed"
OUT=$O/t1 TESTS="tests/test_gpu_directed.py tests/test_gpu_streamed.py" timeout ${T1:-260} bash -c \
  '. tools/device/setup.sh; gpu_tests -k "not sanitizer and not one_gib"'
el "gpu tests: sssp/cc every mode, traces, capped, budget"
OUT=$O/t2 TESTS="tests/test_gpu_algorithms.py tests/test_gpu_traces.py tests/test_gpu_uvm_capped.py tests/test_gpu_budget.py" \
  timeout ${T2:-200} bash -c '. tools/device/setup.sh; gpu_tests -k "${K2:-sssp or cc or capped or budget}"'
el "sanitizer: streamed cc, sssp"
python3 -m emogi.datasets.generators --kind urand --scale 12 --edge-factor 16 --seed 24 --weights-seed 24 \
  --out /tmp/g/urand12.w8.csr > /dev/null 2>&1
for t in memcheck racecheck; do for a in cc sssp; do
  timeout 60 compute-sanitizer --tool $t --error-exitcode 9 "$BIN" run --algorithm $a --graph /tmp/g/urand12.w8.csr \
    --variants merged-aligned --modes streamed --stream-block-bytes 16K --stream-buffers 2 --reps 1 --warmup 0 \
    $([ $a = sssp ] && echo --roots 1) --out /tmp/${a}_$t.csv > "$O/sanitizer_${t}_$a.log" 2>&1
  echo "$t $a exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/sanitizer_${t}_$a.log" | tail -1)"
done; done

# 2. A directed graph through every algorithm and variant, default modes (issue 27 part 2)
python3 -m emogi.datasets.generators --kind kron --scale 20 --edge-factor 16 --seed 24 --weights-seed 24 --directed \
  --out /tmp/g/dkron20.w8.csr > "$O/dkron20.log" 2>&1 && python3 -m emogi.csr transpose /tmp/g/dkron20.w8.csr >> "$O/dkron20.log" 2>&1
python3 -m emogi.datasets.roots /tmp/g/dkron20.w8.csr --count 2 --seed 24 --out /tmp/g/dkron20.roots.txt >> "$O/dkron20.log" 2>&1
R=$(paste -sd, /tmp/g/dkron20.roots.txt)
for a in bfs sssp cc pagerank spmv; do
  r=(); case $a in bfs | sssp) r=(--roots "$R");; esac
  timeout 120 "$BIN" run --algorithm $a --graph /tmp/g/dkron20.w8.csr --name dkron20 --modes device,zerocopy,uvm "${r[@]}" \
    --reps 1 --warmup 0 --out "$O/dkron20_$a.csv" >> "$O/dkron20.log" 2>&1; echo "dkron20 $a exit $?"
done
grep -E "placed the in-lists|skipp|refus|error" "$O/dkron20.log" | head -8

# 3. kron27: cache blocking on the CPU (nothing on the GPU meanwhile)
el "waiting for kron27"; wait $GEN; tail -2 "$O/generate_kron27.log"
el "pr27"
EMOGI_BINARY=$BIN G27=$G27 STEPS="${CPU_STEPS27:-pr27}" OUT=$O/cpu27 bash tools/device/cpu_study.sh > "$O/cpu27.out" 2>&1
el "pr27 done"; tail -30 "$O/cpu27.out"
rm -rf "$G27"

# 4. kron24 / urand24: CPU SpMV (GraphBLAS) beside streamed SpMV; PageRank under GAP's rule beside the GPU's
for name in kron24 urand24; do
  el "graph $name"; gap_graph $name > "$O/gen_$name.log" 2>&1
  python3 -m emogi.csr narrow /tmp/g/$name.w8.csr --out /tmp/g/$name.w4.csr --meta /tmp/g/$name.w4.json >> "$O/gen_$name.log" 2>&1
  timeout 120 python3 -m emogi.cpu_peer --graph /tmp/g/$name.w8.csr --algorithms spmv --reps 5 --warmup 1 \
    --emogi "$BIN" > "$O/cpu_spmv_$name.csv" 2> "$O/cpu_spmv_$name.log" || tail -3 "$O/cpu_spmv_$name.log"
  timeout 120 "$BIN" run --algorithm spmv --graph /tmp/g/$name.w8.csr --name $name --variants merged-aligned \
    --modes streamed --stream-block-bytes 256M --stream-buffers 2 --reps 5 --warmup 1 \
    --out "$O/streamed_spmv_${name}_w8_b256M.csv" > "$O/streamed_spmv_${name}_w8_b256M.log" 2>&1
done
el "cpu gap-rule"
EMOGI_BINARY=$BIN G=/tmp/g GAP_GRAPHS="${GAP_GRAPHS:-kron24}" STEPS="${CPU_STEPS24:-pr24gap}" OUT=$O/cpu24 bash tools/device/cpu_study.sh > "$O/cpu24.out" 2>&1
el "cpu gap-rule done"; tail -30 "$O/cpu24.out"
# 5. streamed CC and SSSP on kron24 (8-byte ids), skipping on and off, against zero-copy
R=$(cat /tmp/g/kron24.roots)
for a in cc sssp; do
  r=(); [ $a = sssp ] && r=(--roots "${R%%,*}")
  timeout 100 "$BIN" run --algorithm $a --graph /tmp/g/kron24.w8.csr --name kron24 --variants merged-aligned --modes zerocopy \
    "${r[@]}" --reps 3 --warmup 1 --out "$O/streamed_${a}_kron24_w8_zerocopy.csv" > "$O/streamed_${a}_kron24_w8_zerocopy.log" 2>&1
  for skip in on off; do
    el "streamed $a skip $skip"
    timeout 150 "$BIN" run --algorithm $a --graph /tmp/g/kron24.w8.csr --name kron24 --variants merged-aligned --modes streamed \
      --stream-block-bytes 256M --stream-buffers 2 --stream-skip $skip "${r[@]}" --reps 3 --warmup 1 \
      --out "$O/streamed_${a}_kron24_w8_b256M_skip$skip.csv" > "$O/streamed_${a}_kron24_w8_b256M_skip$skip.log" 2>&1 \
      || tail -2 "$O/streamed_${a}_kron24_w8_b256M_skip$skip.log"
  done
done
el done
tar -czf "$OUT/s2.tgz" -C "$OUT" b
