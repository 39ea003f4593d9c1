#!/usr/bin/env bash
# Issue 22 closure: PageRank's L1 distance to a tightly converged reference (CPU under both stopping rules, GPU
# zero-copy and streamed best, 4- and 8-byte ids) on kron24/urand24; then the GPU tests of the streamed mode
# (sanitizer packed too, the >1 GiB graph), --pr-reference's GPU test, PageRank's GPU tests. Everything under /tmp/s13, packed into $OUT/s13.tgz after
# each stage (the device brings back at most 8 files).
set -uo pipefail
export EMOGI_WHEELS=none
FINAL=$OUT
. tools/device/setup.sh
R=/tmp/s13; mkdir -p $R/pr $R/cpu
pack() { tar czf $FINAL/s13.tgz -C $R . ; }
{ date -u; nvidia-smi; echo "commit $EMOGI_COMMIT"; lscpu | head -20; free -g; } > $R/host.txt 2>&1
OUT=$R build_kernels
BIN=$EMOGI_BINARY
for name in kron24 urand24; do
  log "graph $name"
  gap_graph $name > $R/gen_$name.log 2>&1
  python3 -m emogi.csr narrow /tmp/g/$name.w8.csr --out /tmp/g/$name.w4.csr --meta /tmp/g/$name.w4.json >> $R/gen_$name.log 2>&1
done
for name in kron24 urand24; do
  ref=/tmp/g/$name.ref.f64
  log "cpu pagerank $name (reference first)"
  for stop in residual total-change; do
    timeout 300 build/emogi_cpu pagerank --graph /tmp/g/$name.w4.csr --bind close --places cores --kernels blocked \
      --segments auto --form gauss-seidel --stop $stop --reps 3 --warmup 0 --reference $ref \
      > $R/cpu/cpu_pr_${name}_$stop.csv 2> $R/cpu/cpu_pr_${name}_$stop.log || tail -3 $R/cpu/cpu_pr_${name}_$stop.log
  done
  ls -l $ref
done
pack
pr() {  # NAME WIDTH TAG MODE-ARGS...
  local name=$1 w=$2 tag=$3; shift 3
  local o=$R/pr/pr_${name}_w${w}_$tag
  log "pagerank $name w$w $tag"
  timeout 200 "$BIN" run --algorithm pagerank --graph /tmp/g/$name.w$w.csr --name $name --variants ${VARIANTS:-gauss-seidel,merged-aligned} \
    --reps 3 --warmup 1 --out $o.csv --pr-reference /tmp/g/$name.ref.f64 "$@" > $o.log 2>&1 || tail -2 $o.log
}
S="--modes streamed --stream-buffers 2"
for name in kron24 urand24; do
  pr $name 4 zerocopy --modes zerocopy
  VARIANTS=gauss-seidel pr $name 4 b64M_pack_in0.5 $S --stream-block-bytes 64M --stream-pack on --stream-direct-below 0.5
  pr $name 4 b64M_pack_in0.75 $S --stream-block-bytes 64M --stream-pack on --stream-direct-below 0.75
  VARIANTS=gauss-seidel pr $name 8 zerocopy --modes zerocopy
  VARIANTS=gauss-seidel pr $name 8 b64M_pack_in0 $S --stream-block-bytes 64M --stream-pack on
done
log "table"
python3 - <<'PY' | tee $R/l1_table.txt
import glob, os, re, pandas as pd
R = "/tmp/s13"
rows = []
for f in sorted(glob.glob(f"{R}/pr/*.csv")):
    d = pd.read_csv(f)
    log = open(f[:-4] + ".log").read()
    l1 = {}
    for x, what in re.findall(r"pagerank l1_to_reference: (\S+) \((.*?)\)", log):
        l1.setdefault(what, []).append(float(x))
    for (v, m), g in d.groupby(["variant", "mode"]):
        vals = [x for w, xs in l1.items() if v in w for x in xs]
        rows.append((os.path.basename(f)[3:-4], v, m, round(g.time_ms.median(), 1), int(g.iterations.median()),
                     bool(g.verified.all()), len(vals), max(vals) if vals else None))
t = pd.DataFrame(rows, columns=["run", "variant", "mode", "median_ms", "iters", "verified", "l1_runs", "l1_max"])
t.to_csv(f"{R}/l1_table.csv", index=False)
print(t.to_string(index=False))
for f in sorted(glob.glob(f"{R}/cpu/*.csv")):
    d = pd.read_csv(f)
    print(os.path.basename(f), d[["form", "stop", "iterations", "l1_to_reference", "median_ms"]].to_string(index=False))
PY
pack
log "gpu tests"
OUT=$R TESTS="tests/test_gpu_streamed.py tests/test_pr_reference_args.py" timeout 900 bash -c '. tools/device/setup.sh; gpu_tests'
mv $R/gpu_tests.log $R/gpu_tests_streamed.log
OUT=$R TESTS="tests/test_gpu_algorithms.py" timeout 400 bash -c '. tools/device/setup.sh; gpu_tests -k pagerank'
mv $R/gpu_tests.log $R/gpu_tests_pagerank.log
pack
log done
