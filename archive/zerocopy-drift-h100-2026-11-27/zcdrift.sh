#!/usr/bin/env bash
# Exploration (not registered): do zero-copy runs of one cell speed up over its timed runs, and does a longer warm-up
# remove it? kron20ef6 (v7's held-out graph, seed 29), SSSP frontier and merged-aligned, 8-byte ids, zero-copy, both
# of v7's roots (980121 first, as in the v7 call); three processes with v7's protocol (1 warm-up) and 10 timed runs,
# then two with 5 warm-ups; BFS merged-aligned with 4-byte ids the same way.
set -uo pipefail
. tools/device/setup.sh
S=$OUT/zcdrift; mkdir -p $S/runs $S/logs; G=/tmp/zg; mkdir -p $G
{ date -u; nvidia-smi; echo "commit: $EMOGI_COMMIT"; nproc; free -g; } > $S/host.txt 2>&1
build_kernels
python3 -m emogi.datasets.generators --kind kron --scale 20 --edge-factor 6 --seed 29 --weights-seed 29 \
  --out $G/k.w8.csr --meta $S/k.w8.json > $S/logs/gen.log 2>&1 \
  && python3 -m emogi.csr narrow $G/k.w8.csr --out $G/k.w4.csr --meta $S/k.w4.json >> $S/logs/gen.log 2>&1 \
  || { tail -3 $S/logs/gen.log; exit 1; }
printf '980121\n52490\n' > $S/roots.txt
one() {  # TAG ALGO W VARIANTS WARMUP
  timeout 60 python3 -m emogi.measure run --binary "$EMOGI_BINARY" --out $S/runs/$1.csv -- --algorithm $2 \
    --graph $G/k.w$3.csr --name kron20ef6 --variants $4 --modes zerocopy --roots-file $S/roots.txt --reps 10 \
    --warmup $5 > $S/logs/$1.log 2>&1 || echo "FAILED $1: $(tail -1 $S/logs/$1.log)"
}
for p in 1 2 3; do one sssp_w1_p$p sssp 8 frontier,merged-aligned 1; one bfs_w1_p$p bfs 4 merged-aligned 1; done
for p in 1 2; do one sssp_w5_p$p sssp 8 frontier,merged-aligned 5; one bfs_w5_p$p bfs 4 merged-aligned 5; done
log "done ($SECONDS s)"
python3 - "$S" <<'PY'
import glob, sys, pandas as pd
rows = []
for f in sorted(glob.glob(sys.argv[1] + "/runs/*.csv")):
    d = pd.read_csv(f); tag = f.rsplit("/", 1)[1][:-4]
    for (v, r), g in d.groupby(["variant", "root"], sort=False):
        rows.append({"tag": tag, "variant": v, "root": r, "ok": bool(g.verified.all()),
                     "runs": " ".join(f"{t:.2f}" for t in g.time_ms)})
t = pd.DataFrame(rows); t.to_csv(sys.argv[1] + "/summary.csv", index=False); print(t.to_string(index=False))
PY
tar czf $OUT/zcdrift.tgz -C $OUT zcdrift && rm -rf $S
