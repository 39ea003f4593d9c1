#!/usr/bin/env bash
# Issue 22, session F1: streamed PageRank with packed copies (--stream-pack on) and in-place runs as one launch,
# Gauss-Seidel 32 vertices per warp; zero-copy beside it in the same call; the CPU's PageRank after; GPU tests last.
set -uo pipefail
export EMOGI_WHEELS=none
. tools/device/setup.sh
{ date -u; nvidia-smi; echo "commit $EMOGI_COMMIT"; lscpu | head -20; } > $OUT/host.txt 2>&1
build_kernels
BIN=$EMOGI_BINARY
mkdir -p $OUT/pr
for name in kron24 urand24; do
  log "graph $name"; [ -f /tmp/g/$name.w4.csr ] && continue
  gap_graph $name > $OUT/gen_$name.log 2>&1
  python3 -m emogi.csr narrow /tmp/g/$name.w8.csr --out /tmp/g/$name.w4.csr --meta /tmp/g/$name.w4.json >> $OUT/gen_$name.log 2>&1
done
pr() {  # NAME WIDTH TAG MODE-ARGS...
  local name=$1 w=$2 tag=$3; shift 3
  local o=$OUT/pr/pr_${name}_w${w}_$tag
  log "pagerank $name w$w $tag"
  timeout 200 "$BIN" run --algorithm pagerank --graph /tmp/g/$name.w$w.csr --name $name --variants ${VARIANTS:-gauss-seidel,merged-aligned} \
    --reps 3 --warmup 1 --out $o.csv "$@" > $o.log 2>&1 || tail -2 $o.log
}
S="--modes streamed --stream-buffers 2"
for name in kron24 urand24; do
  pr $name 4 zerocopy --modes zerocopy
  pr $name 4 b64M_pack_in0 $S --stream-block-bytes 64M --stream-pack on
  pr $name 4 b64M_pack_in0.75 $S --stream-block-bytes 64M --stream-pack on --stream-direct-below 0.75
  pr $name 4 b64M_nopack_in0.75 $S --stream-block-bytes 64M --stream-direct-below 0.75
  VARIANTS=gauss-seidel pr $name 4 b64M_pack_in0.5 $S --stream-block-bytes 64M --stream-pack on --stream-direct-below 0.5
  VARIANTS=gauss-seidel pr $name 4 b16M_pack_in0.75 $S --stream-block-bytes 16M --stream-pack on --stream-direct-below 0.75
done
for name in kron24 urand24; do
  pr $name 8 zerocopy --modes zerocopy
  pr $name 8 b64M_pack_in0.75 $S --stream-block-bytes 64M --stream-pack on --stream-direct-below 0.75
  VARIANTS=gauss-seidel pr $name 8 b64M_pack_in0 $S --stream-block-bytes 64M --stream-pack on
done
log "table"
python3 - <<'PY'
import glob, os, re, pandas as pd
out = os.environ["OUT"]
rows = []
for f in sorted(glob.glob(f"{out}/pr/*.csv")):
    d = pd.read_csv(f)
    log = open(f[:-4] + ".log").read()
    gb = [float(x) for x in re.findall(r"(\d+) bytes copied", log)]
    for (v, m), g in d.groupby(["variant", "mode"]):
        rows.append((os.path.basename(f)[3:-4], v, m, round(g.time_ms.median(), 1), round(g.time_ms.min(), 1),
                     round(g.time_ms.max(), 1), int(g.iterations.median()), bool(g.verified.all())))
t = pd.DataFrame(rows, columns=["run", "variant", "mode", "median_ms", "min", "max", "iters", "verified"])
t.to_csv(f"{out}/pr_table.csv", index=False)
print(t.to_string(index=False))
PY
log "cpu pagerank"
for name in kron24 urand24; do
  timeout 120 build/emogi_cpu pagerank --graph /tmp/g/$name.w4.csr --bind close --places cores --kernels blocked \
    --segments auto --form gauss-seidel --reps 3 --warmup 0 > $OUT/cpu_pr_$name.csv 2> $OUT/cpu_pr_$name.log || tail -3 $OUT/cpu_pr_$name.log
done
log "gpu tests"
TESTS="tests/test_gpu_streamed.py tests/test_gpu_algorithms.py" timeout 420 bash -c '. tools/device/setup.sh; gpu_tests -k "pagerank or packed or poison or in_place"'
log done

# --- Afterwards, on the development machine (2026-11-27): the files renamed as emogi/streamed_runs.FILE names
# them (pr_<graph>_w<W>_b64M_pack_in0.75 -> streamed_pagerank_<graph>_w<W>_b64M_skipon_in0.75_packon), and the
# tables pr_table_w4.csv / pr_table_w8.csv made from them (medians of the 3 timed runs; bytes and copy time of the
# `streamed run:` lines, medians):
#   python3 - (the snippet in this archive's README, "Tables")
