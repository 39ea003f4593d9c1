#!/usr/bin/env bash
# The most of the link the paper's list walks can use on graphs of over 1 B edges (issue 3's 90% of W):
#   `emogi lists` reads every list of GAP-25 (8-byte ids) once per access pattern, with no traversal around it,
#   timed and then profiled (requests, sectors and link bytes); BFS and CC merged+aligned on the same graphs in the
#   same call; the aligned walks once more reading whole first and last lines (--whole-lines); whole-line streaming (`emogi toy`, 8 GiB) and W (`emogi linkbw`) for the ceiling.
#   (device) bash tools/device/list_ceiling.sh -> $OUT/list_ceiling.tgz and a table on stdout.
#   GRAPHS (default "kron25 urand25"), VARIANTS (merged-aligned,chunked,merged), SKIP_TESTS=1.
set -uo pipefail
. tools/device/setup.sh
build_kernels
export PATH=$PATH:/usr/local/cuda/bin
BIN=$EMOGI_BINARY G=/tmp/g R=$OUT/list_ceiling
VARIANTS=${VARIANTS:-merged-aligned,chunked,merged}
mkdir -p "$R"
[ "${SKIP_TESTS:-0}" = 1 ] || TESTS=tests/test_gpu_micro.py gpu_tests
log "W and whole-line streaming"
"$BIN" linkbw --sizes 256M,1G --reps 5 --out "$R/link.csv" 2> "$R/linkbw.log" || echo "linkbw failed"
"$BIN" toy --bytes 8G --modes zerocopy --patterns merged-aligned --elements 8 --reps 5 --out "$R/toy.csv" \
  2> "$R/toy.log" || echo "toy failed"
python3 -m emogi.profile toy --binary "$BIN" --report /tmp/toy.ncu-rep --out "$R/toy_profile.csv" -- --bytes 8G \
  --modes zerocopy --patterns merged-aligned --elements 8 > "$R/toy_profile.log" 2>&1 || echo "toy profile failed"
for g in ${GRAPHS:-kron25 urand25}; do
  log "$g"
  gap_graph "$g" > "$R/gen_$g.log" 2>&1 || { echo "$g: generation failed"; tail -3 "$R/gen_$g.log"; continue; }
  f=$G/$g.w8.csr
  "$BIN" lists --graph "$f" --name "$g" --modes zerocopy,device --variants "$VARIANTS" --reps 5 --warmup 1 \
    --out "$R/lists_$g.csv" 2> "$R/lists_$g.log" || { echo "$g: lists failed"; tail -3 "$R/lists_$g.log"; }
  python3 -m emogi.profile lists --binary "$BIN" --report "/tmp/lists_$g.ncu-rep" --out "$R/lists_profile_$g.csv" \
    -- --graph "$f" --name "$g" --modes zerocopy --variants "$VARIANTS" > "$R/lists_profile_$g.log" 2>&1 \
    || { echo "$g: lists profile failed"; tail -3 "$R/lists_profile_$g.log"; }
  # the aligned walks again, reading whole first and last lines (not the paper's walk)
  "$BIN" lists --graph "$f" --name "$g" --modes zerocopy --variants merged-aligned,chunked --whole-lines --reps 5 \
    --warmup 1 --out "$R/lists_wl_$g.csv" 2> "$R/lists_wl_$g.log" || { echo "$g: whole lines failed"; tail -3 "$R/lists_wl_$g.log"; }
  python3 -m emogi.profile lists --binary "$BIN" --report "/tmp/lists_wl_$g.ncu-rep" --out "$R/lists_profile_wl_$g.csv" \
    -- --graph "$f" --name "$g" --modes zerocopy --variants merged-aligned,chunked --whole-lines \
    > "$R/lists_profile_wl_$g.log" 2>&1 || { echo "$g: whole lines profile failed"; tail -3 "$R/lists_profile_wl_$g.log"; }
  for a in bfs cc; do
    "$BIN" run --algorithm $a --graph "$f" --name "$g" --variants merged-aligned --modes zerocopy \
      --roots "$(cat $G/$g.roots)" --reps 2 --warmup 1 --out "$R/run_${g}_$a.csv" 2> "$R/run_${g}_$a.log" \
      || { echo "$g $a failed"; tail -3 "$R/run_${g}_$a.log"; }
  done
  rm -f $G/$g.*  # 9 GB each of the machine's disk
done
log "table"
python3 - "$R" <<'PY' | tee "$R/summary.txt"
import sys
from pathlib import Path

import pandas as pd

r = Path(sys.argv[1])
W = pd.read_csv(r / "link.csv").query("direction == 'h2d' and host_memory == 'pinned'").groupby("size_bytes").gbps.median().max()
toy = pd.read_csv(r / "toy_profile.csv").iloc[0]
payload = pd.read_csv(r / "toy.csv").gbps.median()
# the link's rate with protocol when every request is a whole line: the timed copy's payload rate times the
# profile's link bytes per payload byte (the profiled run's own time is the profiler's, not kept)
C = payload * toy.pcie_read_bytes / (32 * toy.sysmem_read_sectors)
print(f"W = {W:.2f} GB/s; whole-line streaming (toy, 8 GiB): {payload:.1f} GB/s payload, {C:.1f} GB/s on the link "
      f"({toy.pcie_read_bytes / toy.sysmem_read_requests:.1f} B a request)")
print(f"{'graph':8} {'what':32} {'mode':9} {'ms':>8} {'GB/s':>6} {'of W':>5} {'d B':>6} {'req pred/meas':>13} "
      f"{'link B/req':>10} {'ceiling':>7}")
for path in sorted(r.glob("lists_*.csv")):
    if "profile" in path.name:
        continue
    t = pd.read_csv(path)
    g = t.graph.iloc[0]
    prof = path.with_name(path.name.replace("lists_", "lists_profile_"))
    prof = pd.read_csv(prof).set_index("variant") if prof.exists() else pd.DataFrame()
    for (v, m), s in t.groupby(["variant", "mode"], sort=False):
        ms = s.time_ms.median()
        gbps = s.list_bytes.iloc[0] / ms / 1e6
        line = f"{g:8} {'lists ' + v:32} {m:9} {ms:8.1f} {gbps:6.1f} {gbps / W:5.2f}"
        if m == "zerocopy" and v in prof.index:
            p = prof.loc[v]
            d = p.avg_request_bytes
            per_req = (p.pcie_read_bytes - 32 * p.sysmem_read_sectors) / p.sysmem_read_requests
            ceiling = C * d / (d + per_req) / W
            line += f" {d:6.1f} {s.requests.iloc[0] / p.sysmem_read_requests:13.3f} {per_req:10.1f} {ceiling:7.2f}"
        print(line)
    for a in ("bfs", "cc"):
        p = r / f"run_{g}_{a}.csv"
        if p.exists() and not path.name.startswith("lists_wl_"):
            s = pd.read_csv(p)
            ms = s.time_ms.median()
            gbps = (s.edges_traversed * s.edge_bytes).median() / ms / 1e6
            print(f"{g:8} {a + ' merged-aligned':32} {'zerocopy':9} {ms:8.1f} {gbps:6.1f} {gbps / W:5.2f}")
PY
tar -C "$OUT" -czf "$OUT/list_ceiling.tgz" list_ceiling && rm -rf "$R"
log done
