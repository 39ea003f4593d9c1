#!/usr/bin/env bash
# The `bench` target as a user runs it, whole matrix: build, generate, verify and time every algorithm x variant x
# mode x width (one GPU job per algorithm x graph x width), print the table.
#   (device) bash tools/device/bench_workflow.sh [extra snakemake args]  -> $OUT/bench/{runs,summary}.csv, logs
set -uo pipefail
. tools/device/setup.sh
start=$(date +%s)
echo "== snakemake --cores all bench $* ($(date +%T))"
snakemake --cores all bench "$@" > "$OUT/snakemake.log" 2>&1; rc=$?
echo "snakemake exit $rc after $(( $(date +%s) - start )) s"
[ $rc -eq 0 ] || tail -30 "$OUT/snakemake.log"
mkdir -p "$OUT/bench" && cp results/bench/*.csv results/bench/*.txt "$OUT/bench/" 2>/dev/null
cp -r logs/bench "$OUT/bench/logs" 2>/dev/null
grep -hE "written|link limit" logs/datasets/generate_*.log logs/bench/summary.log 2>/dev/null | sed 's/^/  /' | head -40
cut -d, -f1-9,11 results/bench/summary.csv 2>/dev/null
