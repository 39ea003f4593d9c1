#!/usr/bin/env bash
# stop-17 call 2: block-level counters (tally) and warp-min of the left-behind distance (cgmin) against head
set -uo pipefail
. tools/device/setup.sh
export PATH=$PATH:/usr/local/cuda/bin
X=$PWD/build/exp
BINARIES="head=$X/emogi-head tally=$X/emogi-tally cgmin=$X/emogi-cgmin" EMOGI_BINARY=$X/emogi-cgmin SKIP_TESTS=1 \
  CASES="sssp:frontier,merged-aligned bfs:frontier pagerank:frontier" bash tools/device/compare_builds.sh
for b in tally cgmin; do
  for g in kron24 urand24; do
    log "profile $b $g"
    timeout 150 python3 -m emogi.profile run --binary "$X/emogi-$b" --report /tmp/$b$g.ncu-rep --out "$OUT/profile_${b}_$g.csv" \
      --launches "$OUT/launches_${b}_$g.csv" -- --algorithm sssp --graph /tmp/g/$g.w8.csr --name $g --variants frontier \
      --modes zerocopy --roots "$(cut -d, -f1 /tmp/g/$g.roots)" > "$OUT/profile_${b}_$g.log" 2>&1 || echo "$b $g profile failed"
  done
done
python3 - "$OUT" <<'PY'
import sys, glob, pandas as pd
for f in sorted(glob.glob(sys.argv[1] + "/launches_*.csv")):
    t = pd.read_csv(f)
    t["ms"] = t["gpu_time_ns"] / 1e6
    print(f, t.groupby("kernel")["ms"].agg(["count", "sum", "max"]).round(2).to_string(), sep="\n")
PY
EMOGI_BINARY=$X/emogi-cgmin gpu_tests
log done
