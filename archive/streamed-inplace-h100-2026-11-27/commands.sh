#!/usr/bin/env bash
# Session D1 (2026-11-27): streamed blocks read in place (--stream-direct-below): GPU tests, then PageRank at
# 4-byte ids on kron24 / urand24 against zero-copy, in one call.
set -uo pipefail
CFGS=${CFGS:-"64M:0 64M:0.5 64M:0.75 64M:1 16M:0.5 16M:0.75 16M:1"}
export EMOGI_WHEELS=.devrun/whl
. tools/device/setup.sh
{ date -u; nvidia-smi; echo "commit $EMOGI_COMMIT"; lscpu | head -20; } > $OUT/host.txt 2>&1
build_kernels
BIN=$EMOGI_BINARY
log "gpu tests"
[ "${SKIP_TESTS:-0}" = 1 ] || TESTS="tests/test_gpu_streamed.py" timeout 240 bash -c '. tools/device/setup.sh; gpu_tests -k "in_place"'
for name in kron24 urand24; do
  log "graph $name"; [ -f /tmp/g/$name.w4.csr ] && continue
  gap_graph $name > $OUT/gen_$name.log 2>&1
  python3 -m emogi.csr narrow /tmp/g/$name.w8.csr --out /tmp/g/$name.w4.csr --meta /tmp/g/$name.w4.json >> $OUT/gen_$name.log 2>&1

done
mkdir -p $OUT/pr
for name in kron24 urand24; do
  g4=/tmp/g/$name.w4.csr
  log "pagerank zerocopy $name"
  timeout 120 "$BIN" run --algorithm pagerank --graph $g4 --name $name --variants merged-aligned,gauss-seidel \
    --modes zerocopy --reps 3 --warmup 1 --out $OUT/pr/streamed_pagerank_${name}_w4_zerocopy.csv \
    > $OUT/pr/streamed_pagerank_${name}_w4_zerocopy.log 2>&1 || tail -2 $OUT/pr/streamed_pagerank_${name}_w4_zerocopy.log
  for cfg in $CFGS; do
    b=${cfg%%:*} f=${cfg##*:}
    log "pagerank streamed $name $b in$f"
    o=$OUT/pr/streamed_pagerank_${name}_w4_b${b}_skipon_in$f
    timeout 150 "$BIN" run --algorithm pagerank --graph $g4 --name $name --variants merged-aligned,gauss-seidel \
      --modes streamed --stream-block-bytes $b --stream-buffers 2 --stream-direct-below $f --reps 3 --warmup 1 \
      --out $o.csv > $o.log 2>&1 || tail -2 $o.log
  done
done
log "table"
python3 - <<'PY'
import glob, os, pandas as pd
out = os.environ.get("OUT", "/tmp/out")
rows = []
for f in sorted(glob.glob(f"{out}/pr/*.csv")):
    d = pd.read_csv(f)
    for (v, m), g in d.groupby(["variant", "mode"]):
        rows.append((os.path.basename(f)[18:-4], v, m, round(g.time_ms.median(), 1), round(g.time_ms.min(), 1),
                     round(g.time_ms.max(), 1), int(g.iterations.median()), bool(g.verified.all())))
t = pd.DataFrame(rows, columns=["run", "variant", "mode", "median_ms", "min", "max", "iters", "verified"])
t.to_csv(f"{out}/pr_table.csv", index=False)
print(t.to_string(index=False))
PY
