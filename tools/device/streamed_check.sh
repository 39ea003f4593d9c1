#!/usr/bin/env bash
# Issue 22 on a GPU: the streamed mode (CF'17's streamed blocks) and SpMV.
#   1. tests: tests/test_gpu_streamed.py (every streamed variant at several block sizes, split lists, 1-3 buffers,
#      poisoned buffers, refusals, the budget, compute-sanitizer memcheck and racecheck, a graph over 1 GiB) and
#      SpMV's cells of tests/test_gpu_algorithms.py, tests/test_gpu_uvm_capped.py and tests/test_gpu_budget.py;
#   2. sanitizer: compute-sanitizer memcheck and racecheck on one small streamed run of each algorithm (SpMV,
#      PageRank, CC, SSSP; blocks without an active vertex skipped, as by default), logs kept;
#   3. time: W (pinned cudaMemcpy, `emogi linkbw`), then each of ALGORITHMS on kron24 and urand24 (8- and 4-byte
#      ids) streamed (blocks of each STREAM_BLOCKS size, 2 buffers, --stream-skip SKIP) and zero-copy, and a table
#      last: median ms, blocks skipped as inactive, GB/s of bytes copied over the run time and over the copies'
#      time, and the first over W.
#   4. columns (issue 22, CF'17's column blocks; not in the default PARTS): tests/test_gpu_column_blocks.py, then W and
#      streamed SpMV with --stream-layout rows and columns side by side on COLUMN_GRAPHS (8-byte ids, weights) at each
#      COLUMN_BLOCKS size (the SpMV figure's: 64M 256M 1G), 2 buffers, 3 reps, with zero-copy and device rows for the
#      model's rate, into $OUT/columns/ as an archive folder (streamed_spmv_<G>_w8_b<size>_<rows|columns>.*, host.txt,
#      linkbw.csv) and the table `python -m emogi.streamed_runs` makes of it. Estimated (not yet run): tests ~1 min;
#      kron24 and urand24 ~2 min each to generate, ~1 min each to run (the column layout is built on the host, a few
#      seconds a run); SKIP_TESTS=1 leaves the tests out (the timing in a call of its own).
#      COLUMN_VARIANTS=merged-aligned,naive adds a thread per row (a column block's rows hold about one entry each
#      at 64M blocks; the figure then draws one variant's points over the other's).
#   (device) bash tools/device/streamed_check.sh   -> $OUT/{gpu_tests,sanitizer_*,linkbw,streamed_*}.{log,csv}
#   (device) PARTS=columns bash tools/device/streamed_check.sh   -> $OUT/gpu_tests_columns.log, $OUT/columns/
#   PARTS="tests sanitizer time" (default all three; name `columns` for part 4), GRAPHS="kron24 urand24", WIDTHS="8 4",
#   STREAM_BLOCKS="64M 256M", REPS=3, ALGORITHMS="spmv pagerank" (add cc sssp), SKIP=on (off: every block every
#   sweep). Estimated (not yet run): tests 5-7 min (two scale-23 graphs are generated),
#   sanitizer 2 min, time 10-15 min for spmv and pagerank (graph generation ~2 min each, PageRank zero-copy 2-4 s a
#   run): longer than one device call, so run it detached (tools/device/detached.sh) or one part per call.
set -uo pipefail
. tools/device/setup.sh
build_kernels
BIN=$EMOGI_BINARY
PARTS=${PARTS:-tests sanitizer time}
has() { [[ " $PARTS " == *" $1 "* ]]; }

if has tests; then
  TESTS="tests/test_gpu_streamed.py tests/test_gpu_column_blocks.py tests/test_gpu_algorithms.py \
    tests/test_gpu_uvm_capped.py tests/test_gpu_budget.py" gpu_tests -k "streamed or spmv or column"
fi

if has sanitizer; then
  log "compute-sanitizer on small streamed runs"
  mkdir -p /tmp/g
  python3 -m emogi.datasets.generators --kind urand --scale 12 --edge-factor 16 --seed 24 --weights-seed 24 \
    --out /tmp/g/urand12.w8.csr > "$OUT/gen_small.log" 2>&1 || tail -3 "$OUT/gen_small.log"
  ROOTS=$(python3 -c "
import numpy as np
from emogi import csr
d = np.diff(np.asarray(csr.read_csr('/tmp/g/urand12.w8.csr').offsets))
print(f'{int(np.flatnonzero(d)[0])},{int(d.argmax())}')")
  for tool in memcheck racecheck; do
    for a in spmv pagerank cc sssp; do
      v=$([ $a = pagerank ] && echo naive,merged-aligned,chunked || echo naive,merged,merged-aligned,chunked)
      [ $a = cc ] || [ $a = sssp ] && v=merged-aligned,chunked  # their passes relaunch every block: fewer variants
      # 16K blocks: about 40 of them, more than the buffers, lists split; SSSP from the first vertex with edges
      # and from the hub.
      timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 "$BIN" run --algorithm $a \
        --graph /tmp/g/urand12.w8.csr --variants $v --modes streamed --stream-block-bytes 16K --stream-buffers 2 \
        $([ $a = sssp ] && echo --roots "$ROOTS") \
        --reps 1 --warmup 0 --out "$OUT/sanitizer_${tool}_$a.csv" > "$OUT/sanitizer_${tool}_$a.log" 2>&1
      echo "$tool $a: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer_${tool}_$a.log" | tail -1)"
    done
  done
fi

if has time; then
  log "W: pinned cudaMemcpy host to device"
  "$BIN" linkbw --sizes 256M,1G --reps 5 --out "$OUT/linkbw.csv" > "$OUT/linkbw.log" 2>&1 || tail -3 "$OUT/linkbw.log"
  W=$(python3 -c "
import pandas as pd
d = pd.read_csv('$OUT/linkbw.csv')
print(round(d[(d.direction == 'h2d') & (d.host_memory == 'pinned')].gbps.max(), 2))")
  echo "W = $W GB/s (this machine's pinned H2D peak)"
  for name in ${GRAPHS:-kron24 urand24}; do
    log "graph $name"
    gap_graph "$name" > "$OUT/gen_$name.log" 2>&1 || { tail -3 "$OUT/gen_$name.log"; continue; }
    for w in ${WIDTHS:-8 4}; do
      g=/tmp/g/$name.w$w.csr
      [ "$w" = 8 ] || [ -f "$g" ] || python3 -m emogi.csr narrow /tmp/g/$name.w8.csr --out "$g" \
        --meta /tmp/g/$name.w$w.json > /dev/null
      for a in ${ALGORITHMS:-spmv pagerank}; do
        v=$([ $a = pagerank ] && echo merged-aligned,gauss-seidel || echo merged-aligned)
        tag=${a}_${name}_w$w
        roots=$([ $a = sssp ] && echo --roots "$(cat /tmp/g/$name.roots)")
        timeout 540 "$BIN" run --algorithm $a --graph "$g" --name "$name" --variants $v --modes zerocopy $roots \
          --reps ${REPS:-3} --warmup 1 --out "$OUT/streamed_${tag}_zerocopy.csv" \
          > "$OUT/streamed_${tag}_zerocopy.log" 2>&1 || tail -3 "$OUT/streamed_${tag}_zerocopy.log"
        for b in ${STREAM_BLOCKS:-64M 256M}; do
          timeout 540 "$BIN" run --algorithm $a --graph "$g" --name "$name" --variants $v --modes streamed $roots \
            --stream-block-bytes "$b" --stream-buffers 2 --stream-skip ${SKIP:-on} --reps ${REPS:-3} --warmup 1 \
            --out "$OUT/streamed_${tag}_b$b.csv" > "$OUT/streamed_${tag}_b$b.log" 2>&1 \
            || tail -3 "$OUT/streamed_${tag}_b$b.log"
        done
      done
      [ "$w" = 8 ] || rm -f "$g"
    done
  done
  log "table"
  W=$W OUT=$OUT python3 - << 'EOF'
import glob, os, re
import pandas as pd
W = float(os.environ["W"])
line = re.compile(r"streamed run: (\S+) (\S+): (\d+) sweeps, (\d+) blocks, (\d+) inactive, .*? (\d+) bytes copied in "
                  r"([\d.]+) ms of copies .*?, run ([\d.]+) ms")
rows = []
for csv in sorted(glob.glob(os.environ["OUT"] + "/streamed_*.csv")):
    d = pd.read_csv(csv)
    block = re.search(r"_b(\w+)\.csv$", csv)
    copies = {}
    if block:  # per variant: bytes copied over the run time and over the copies' time, medians of the timed runs
        runs = pd.DataFrame([m.groups() for m in line.finditer(open(csv[:-4] + ".log").read())],
                            columns=["algorithm", "variant", "sweeps", "blocks", "inactive", "bytes", "copy_ms",
                                     "run_ms"]).astype(
                                {"blocks": float, "inactive": float, "bytes": float, "copy_ms": float,
                                 "run_ms": float})
        for v, r in runs.groupby("variant"):
            copies[v] = ((r.bytes / r.run_ms / 1e6).median(), (r.bytes / r.copy_ms / 1e6).median(),
                         (r.inactive / (r.blocks + r.inactive)).median())
    for (v, m), r in d.groupby(["variant", "mode"]):
        run_gbps, copy_gbps, inactive = copies.get(v, (float("nan"),) * 3)
        rows.append([r.graph.iloc[0], r.edge_bytes.iloc[0], r.algorithm.iloc[0], v,
                     m + (f" {block[1]}" if block else ""), r.time_ms.median(), r.iterations.median(), inactive,
                     run_gbps, copy_gbps, run_gbps / W])
t = pd.DataFrame(rows, columns=["graph", "w", "algorithm", "variant", "mode", "median_ms", "sweeps",
                                "inactive_frac", "copied_GBps_run", "copied_GBps_copies", "of_W"])
print(t.sort_values(["algorithm", "graph", "w", "variant", "mode"]).to_string(index=False, float_format="%.3g"))
EOF
fi
if has columns; then
  if [ "${SKIP_TESTS:-0}" != 1 ]; then
    log "column blocks: GPU tests"
    python3 -m pytest -q --durations=8 -m gpu tests/test_gpu_column_blocks.py > "$OUT/gpu_tests_columns.log" 2>&1
    tail -2 "$OUT/gpu_tests_columns.log"
  fi
  C=$OUT/columns
  mkdir -p "$C"
  { nvidia-smi; lscpu | head -20; echo "commit ${EMOGI_COMMIT:-$(git rev-parse --short HEAD)}"; } > "$C/host.txt"
  "$BIN" linkbw --sizes 64M,256M,1G --reps 5 --out "$C/linkbw.csv" > "$C/linkbw.log" 2>&1 || tail -3 "$C/linkbw.log"
  for name in ${COLUMN_GRAPHS:-kron24 urand24}; do
    log "column blocks: $name"
    gap_graph "$name" > "$C/gen_$name.log" 2>&1 || { tail -3 "$C/gen_$name.log"; continue; }
    g=/tmp/g/$name.w8.csr
    timeout 300 "$BIN" run --algorithm spmv --graph "$g" --name "$name" --variants ${COLUMN_VARIANTS:-merged-aligned} \
      --modes zerocopy,device --reps 3 --warmup 1 --out "$C/streamed_spmv_${name}_w8_zerocopy.csv" \
      > "$C/streamed_spmv_${name}_w8_zerocopy.log" 2>&1 || tail -3 "$C/streamed_spmv_${name}_w8_zerocopy.log"
    for b in ${COLUMN_BLOCKS:-64M 256M 1G}; do
      for layout in rows columns; do
        f=$C/streamed_spmv_${name}_w8_b${b}_$layout
        timeout 300 "$BIN" run --algorithm spmv --graph "$g" --name "$name" \
          --variants ${COLUMN_VARIANTS:-merged-aligned} --modes streamed --stream-layout $layout \
          --stream-block-bytes "$b" --stream-buffers 2 --reps 3 --warmup 1 --out "$f.csv" > "$f.log" 2>&1 \
          || tail -3 "$f.log"
        grep -h "placed streamed" "$f.log" | cut -c1-220
      done
    done
  done
  log "column blocks: table"
  python3 -m emogi.streamed_runs --archive "$C" --out-dir "$C/tables" || true
  python3 - "$C/tables/streamed.csv" << 'EOF'
import sys
import pandas as pd
t = pd.read_csv(sys.argv[1])
s = t[t["mode"] == "streamed"]
g = s.groupby(["graph", "variant", "block_bytes", "layout"])
out = g.agg(blocks=("blocks", "first"), median_ms=("time_ms", "median"), bytes_copied=("bytes_copied", "median"),
            of_w=("of_w", "median"), verified=("verified", "all"))
out["GBps_lists"] = g["list_bytes"].first() / out["median_ms"] / 1e6
print(out.to_string(float_format="%.4g"))
other = t[t["mode"] != "streamed"].groupby(["graph", "variant", "mode"])["time_ms"].median()
print(other.to_string(float_format="%.4g"))
EOF
fi
log done
