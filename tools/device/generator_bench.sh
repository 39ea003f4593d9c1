#!/usr/bin/env bash
# Times the streaming graph generator (emogi.datasets.generators -> emogi.datasets.external_build) at the paper's scale on the
# GPU host (16 cores, 128 GiB, 64 GiB disk): wall time and peak RSS per graph, as the workflow makes it
# (8-byte ids, weights, checksum, fsync). Needs python3 with numpy and xxhash; no snakemake, no GPU.
#
#   (device) bash tools/device/generator_bench.sh kron        # scale 25 (quick check), then 27
#   (device) bash tools/device/generator_bench.sh urand 25 27
#
# One kind per call (a scale-27 graph is ~52 GB and the disk 64 GiB: each graph is deleted before the next,
# and a scale is skipped, with a row saying so, when the free disk cannot hold it). Each generator run is cut
# at GEN_TIMEOUT seconds (default 480) so that the call returns within the device's 10-minute limit.
# Output in $OUT: generator_bench_<kind>.csv (kind, scale, status, seconds, peak_rss_gib, V, E, buckets, workers,
# memory_limit_gib, phase seconds, disk_free_gib), the metadata JSON and the time -v log of each run.
set -uo pipefail
kind=${1:?usage: generator_bench.sh kron|urand [SCALE ...]}
shift
scales=${*:-25 27}
OUT=${OUT:-/tmp/out}
GRAPH_DIR=${GRAPH_DIR:-$PWD/resources/bench-graphs}
GEN_TIMEOUT=${GEN_TIMEOUT:-480}
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
mkdir -p "$OUT" "$GRAPH_DIR"
csv="$OUT/generator_bench_$kind.csv"
echo "kind,scale,status,seconds,peak_rss_gib,V,E,buckets,workers,memory_limit_gib,partition_s,sort_write_s,weights_s,checksum_sync_s,disk_free_gib" > "$csv"

echo "== host: $(nproc) cores; $(python3 -c 'import numpy, xxhash; print("numpy", numpy.__version__, "xxhash", xxhash.VERSION)')"
free -g | head -2
df -h "$GRAPH_DIR" /tmp 2>/dev/null
timer=""
[ -x /usr/bin/time ] && timer="/usr/bin/time -v"
[ -z "$timer" ] && echo "(no /usr/bin/time: peak RSS comes from the build's own getrusage record)"

for scale in $scales; do
  graph="$GRAPH_DIR/$kind$scale.w8.csr"; meta="$OUT/$kind$scale.w8.json"; log="$OUT/$kind$scale.log"
  # The final file: offsets 8(V+1) + edges 8E + weights 4E, E <= 32V (+1 GiB slack); the bucket files (8 B per
  # directed pair) shrink as it grows, so the file is the peak.
  need=$(( (8 + 12 * 32) * (1 << scale) + (1 << 30) ))
  free_bytes=$(df --output=avail -B1 "$GRAPH_DIR" | tail -1)
  free_gib=$(python3 -c "print(round($free_bytes / 2**30, 1))")
  if [ "$free_bytes" -lt "$need" ]; then
    echo "== $kind $scale: SKIPPED, $free_gib GiB free in $GRAPH_DIR, needs $(( need >> 30 )) GiB"
    echo "$kind,$scale,skipped-disk,,,,,,,,,,,,$free_gib" >> "$csv"
    continue
  fi
  echo "== $kind $scale: generating into $GRAPH_DIR ($free_gib GiB free) ($(date +%T))"
  start=$(date +%s.%N)
  timeout "$GEN_TIMEOUT" $timer python3 -m emogi.datasets.generators --kind "$kind" --scale "$scale" --seed "$scale" \
    --weights-seed "$scale" --out "$graph" --meta "$meta" > "$log" 2>&1
  rc=$?
  seconds=$(python3 -c "import time; print(round(time.time() - $start, 1))")
  grep -E "plan:|E=|error|warning|Maximum resident|Elapsed" "$log"
  ls -la "$graph" 2>/dev/null; df -h "$GRAPH_DIR" | tail -1; free -g | sed -n 2p  # page cache vs sandbox memory
  status=ok; [ $rc -eq 124 ] && status=timeout; [ $rc -ne 0 ] && [ $rc -ne 124 ] && status="failed-rc$rc"
  if [ "$status" = ok ] && [ "$scale" -le 25 ]; then  # a full read-back check where it is quick
    python3 -m emogi.csr verify "$graph" || status=verify-failed
  fi
  python3 - "$csv" "$kind" "$scale" "$status" "$seconds" "$meta" "$log" "$free_gib" <<'EOF'
import json, re, sys
from pathlib import Path
csv, kind, scale, status, seconds, meta, log, free_gib = sys.argv[1:]
m = json.loads(Path(meta).read_text()) if Path(meta).exists() else {}
build = m.get("build", {})
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", Path(log).read_text())
rss_gib = int(rss.group(1)) / 2**20 if rss else build.get("peak_rss_bytes", 0) / 2**30 or ""
phases = build.get("phase_seconds", {})
plan = build.get("plan", {})
row = [kind, scale, status, seconds, f"{rss_gib:.2f}" if rss_gib != "" else "", m.get("num_vertices", ""),
       m.get("num_edges", ""), plan.get("buckets", ""), plan.get("workers", ""),
       f"{plan['memory_limit'] / 2**30:.1f}" if plan else "",
       *[phases.get(p, "") for p in ("partition", "sort_write", "weights", "checksum_sync")], free_gib]
with open(csv, "a") as f:
    f.write(",".join(map(str, row)) + "\n")
EOF
  rm -f "$graph"
  rm -rf "$GRAPH_DIR"/.*.buckets "$GRAPH_DIR"/.*.tmp 2>/dev/null  # left only if the run was killed hard
done
rmdir "$GRAPH_DIR" 2>/dev/null
echo "== results ($csv)"
column -s, -t < "$csv" 2>/dev/null || cat "$csv"
