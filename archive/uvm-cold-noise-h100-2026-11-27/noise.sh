#!/usr/bin/env bash
# Exploration (not registered): within one call, does the cold-UVM time of one cell track the pageable copy speed
# measured just before it? kron23s27 (validation 5's graph, seed 27), BFS merged-aligned from root 21503 and CC
# merged-aligned, cold uvm, 2 timed runs after no warm-up per emogi run; pageable/pinned copies of 256 MiB before each.
set -uo pipefail
. tools/device/setup.sh
S=$OUT/noise; mkdir -p $S/runs $S/link $S/logs; G=/tmp/ng; mkdir -p $G
{ date -u; nvidia-smi; echo "commit: $EMOGI_COMMIT"; nproc; free -g; } > $S/host.txt 2>&1
build_kernels
log "generate"
python3 -m emogi.datasets.generators --kind kron --scale 23 --edge-factor 16 --seed 27 --weights-seed 27 \
  --out $G/k.w8.csr --meta $S/k.json > $S/logs/gen.log 2>&1 || { tail -3 $S/logs/gen.log; exit 1; }
echo 21503 > $S/root.txt
for i in $(seq 1 ${ITER:-8}); do
  [ $SECONDS -gt ${BUDGET_S:-200} ] && { log "budget reached at iteration $i"; break; }
  python3 -m emogi.measure linkbw --binary "$EMOGI_BINARY" --out $S/link/link_$i.csv -- --sizes 256M --reps 3 \
    > $S/logs/link_$i.log 2>&1 || echo "FAILED link $i"
  for a in bfs cc; do
    r=(); [ $a = bfs ] && r=(--roots-file $S/root.txt)
    timeout 60 python3 -m emogi.measure run --binary "$EMOGI_BINARY" --out $S/runs/${a}_$i.csv -- --algorithm $a \
      --graph $G/k.w8.csr --name kron23s27 --variants merged-aligned --modes uvm "${r[@]}" --reps 2 --warmup 0 \
      > $S/logs/run_${a}_$i.log 2>&1 || echo "FAILED $a $i: $(tail -1 $S/logs/run_${a}_$i.log)"
  done
  log "iteration $i done ($SECONDS s)"
done
python3 - <<'PY' "$S"
import glob, sys, pandas as pd
S = sys.argv[1]; rows = []
for f in sorted(glob.glob(f"{S}/link/link_*.csv")):
    i = int(f.rsplit("_", 1)[1].split(".")[0]); d = pd.read_csv(f)
    pg = d[d.host_memory == "pageable"].gbps.median(); pn = d[d.host_memory == "pinned"].gbps.median()
    row = {"iter": i, "pageable_gbps": pg, "pinned_gbps": pn}
    for a in ("bfs", "cc"):
        try:
            r = pd.read_csv(f"{S}/runs/{a}_{i}.csv"); row[a] = " ".join(f"{t:.1f}" for t in r.time_ms)
            row[a + "_ok"] = bool(r.verified.all())
        except Exception as e:
            row[a] = "-"
    rows.append(row)
t = pd.DataFrame(rows).sort_values("iter"); t.to_csv(f"{S}/summary.csv", index=False); print(t.to_string(index=False))
PY
tar czf $OUT/noise.tgz -C $OUT noise && rm -rf $S
