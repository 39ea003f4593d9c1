#!/usr/bin/env bash
# `auto` where only part of the lists fits in GPU memory, as on the paper's 16 GB V100: --gpu-memory-budget caps
# what auto may place (and, as on a small GPU, refuses managed memory beyond it, so the rest is read from pinned
# host memory), on GAP-24 with 8-byte ids. Each algorithm's variants at each budget and auto order (--auto-order),
# and in zerocopy-pinned, the fixed mode auto falls back to.
#   (device) bash tools/device/auto_partial.sh  -> $OUT/auto_partial.tgz (a CSV and log per graph, algorithm,
#   budget and order; runs.csv: every row with its provenance, budget, order and what was placed) and a table.
#   BUDGETS (default "1536M 2560M 4608M"), GRAPHS (default "kron24 urand24"), ORDERS (default "prefix
#   longest-first shortest-first"), RUNS (default "pagerank:merged-aligned,gauss-seidel sssp:merged-aligned,frontier"),
#   PINNED (default 1: also the zerocopy-pinned baseline).
set -uo pipefail
. tools/device/setup.sh
build_kernels
G=/tmp/g R=$OUT/auto_partial
mkdir -p "$R"
for name in ${GRAPHS:-kron24 urand24}; do
  gap_graph "$name"
done
one() {  # graph algorithm variants tag mode-args...
  local g=$1 a=$2 v=$3 tag=$4; shift 4
  local extra=()
  [ "$a" = sssp ] || [ "$a" = bfs ] && extra=(--roots "$(cat $G/$g.roots)")
  "$EMOGI_BINARY" run --algorithm "$a" --graph $G/$g.w8.csr --name "$g" --variants "$v" --reps 2 --warmup 1 \
    "${extra[@]}" "$@" --out "$R/$g.$a.$tag.csv" > "$R/$g.$a.$tag.log" 2>&1 || echo "$g $a $tag failed"
}
for g in ${GRAPHS:-kron24 urand24}; do
  log "$g"
  for run in ${RUNS:-pagerank:merged-aligned,gauss-seidel sssp:merged-aligned,frontier}; do
    a=${run%%:*} v=${run#*:}
    [ "${PINNED:-1}" = 1 ] && one "$g" "$a" "$v" pinned --modes zerocopy-pinned
    for b in ${BUDGETS:-1536M 2560M 4608M}; do
      for o in ${ORDERS:-prefix longest-first shortest-first}; do
        one "$g" "$a" "$v" "auto$b.$o" --modes auto --gpu-memory-budget "$b" --auto-reserve 512M --auto-order "$o"
      done
    done
  done
done
# One table: each CSV's rows with the budget and order from its name and what its log says was placed.
python3 - "$R" "$EMOGI_BINARY" <<'PY'
import re, sys
from emogi import provenance

def annotate(path, log):  # GRAPH.ALGORITHM.BUDGET.ORDER.csv (BUDGET: pinned or autoNNNM)
    budget, _, order = path.stem.split(".", 2)[2].partition(".")
    placed = next((l for l in log.splitlines() if ": placed " in l), "")
    entries = re.search(r"\((\d+) of \d+ entries(?:, (\d+) whole lists)?\)", placed)
    weights = re.search(r"weights (\d+) MiB in GPU memory", placed)
    return {"gpu_memory_budget": "" if budget == "pinned" else budget.removeprefix("auto"), "auto_order": order,
            "edge_entries_in_gpu": int(entries[1]) if entries else 0,
            "lists_in_gpu": int(entries[2]) if entries and entries[2] else 0,
            "weight_mib_in_gpu": int(weights[1]) if weights else 0}

runs = provenance.stamp_runs(sys.argv[1], sys.argv[2], annotate)
t = runs.groupby(["graph", "algorithm", "variant", "gpu_memory_budget", "auto_order"], sort=False)
print(t.agg(median_ms=("time_ms", "median"), in_gpu=("edge_entries_in_gpu", "first"),
            lists=("lists_in_gpu", "first"), verified=("verified", "all")).to_string())
PY
tar -C "$OUT" -czf "$OUT/auto_partial.tgz" auto_partial && rm -rf /tmp/auto_partial.last \
  && mv "$R" /tmp/auto_partial.last  # only the archive comes back
log done
