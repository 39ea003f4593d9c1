#!/usr/bin/env bash
# Session E3: streamed PageRank at 8-byte ids (the artifact's width) beside zero-copy, for issue 22's verdict
# against the artifact's 4294 / 3077 ms (FACTS.md, 2026-11-24 side by side).
set -uo pipefail
export EMOGI_WHEELS=none
. tools/device/setup.sh
{ date -u; nvidia-smi; echo "commit $EMOGI_COMMIT"; lscpu | head -20; } > $OUT/host.txt 2>&1
build_kernels
BIN=$EMOGI_BINARY
mkdir -p $OUT/pr
for name in kron24 urand24; do
  log "graph $name"; gap_graph $name > $OUT/gen_$name.log 2>&1
  g=/tmp/g/$name.w8.csr
  log "pagerank zerocopy $name"
  o=$OUT/pr/streamed_pagerank_${name}_w8_zerocopy
  timeout 150 "$BIN" run --algorithm pagerank --graph $g --name $name --variants merged-aligned,gauss-seidel \
    --modes zerocopy --reps 3 --warmup 1 --out $o.csv > $o.log 2>&1 || tail -2 $o.log
  for f in ${FS:-0.75}; do
    log "pagerank streamed $name 64M in$f"
    o=$OUT/pr/streamed_pagerank_${name}_w8_b64M_skipon_in$f
    timeout 200 "$BIN" run --algorithm pagerank --graph $g --name $name --variants merged-aligned,gauss-seidel \
      --modes streamed --stream-block-bytes 64M --stream-buffers 2 --stream-direct-below $f --reps 3 --warmup 1 \
      --out $o.csv > $o.log 2>&1 || tail -2 $o.log
  done
done
python3 - <<'PY'
import glob, os, pandas as pd
out = os.environ["OUT"]
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
log done
