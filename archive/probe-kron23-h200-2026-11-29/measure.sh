#!/usr/bin/env bash
# A probe of term v16 at scale 23 (README.md here; registered before any data): kron23 as config/config.yaml makes it
# (the study's GK stand-in: kron, scale 23, edge factor 16, seed 23, weights seed 23), 8-byte edges, every algorithm,
# the paper's and this project's fastest variants, device and zero-copy; BFS and SSSP from the vertex of largest
# degree (838099, model.graph_predict.default_root). Each cell as the train cells of split v13 are measured: one
# process, 1 warm-up and 5 timed runs in rounds (`--run-order rounds`), every run verified by the binary.
#   (device) EMOGI_COMMIT=<commit> EMOGI_WHEELS=none timeout 280 bash archive/probe-kron23-h200-2026-11-29/measure.sh
# An algorithm starts only while the call's elapsed time plus its estimate (EST, seconds; estimates from the H100's
# kron23 runs of archive/holdout-h100-2026-11-27, not measurements) stays under BUDGET_S (default 230); one left out
# says DEFERRED. Out: $OUT/probe23.tgz (runs/, logs/, host.txt, checksum.txt), packed after every algorithm.
set -uo pipefail
. tools/device/require_commit.sh
. tools/device/setup.sh
. tools/device/holdout_session.sh
S=/tmp/probe23 G=/tmp/probe23-graphs REPS=5 WARMUP=1 RUN_ORDER=rounds BUDGET_S=${BUDGET_S:-230}
declare -A EST=([bfs]=20 [cc]=20 [sssp]=25 [pagerank]=50)
start=$(date +%s)
mkdir -p "$S/runs" "$S/logs" "$G"
pack() { tar czf "$OUT/probe23.tgz" -C "$(dirname "$S")" "$(basename "$S")"; }
provenance
build_kernels
log generate kron23
python3 -m emogi.datasets.generators --kind kron --scale 23 --edge-factor 16 --seed 23 --weights-seed 23 \
  --out "$G/kron23.w8.csr" > "$S/logs/gen_kron23.log" 2>&1 || { echo "generation failed"; tail -3 "$S/logs/gen_kron23.log"; exit 1; }
python3 -c "import sys; from emogi.csr_header import read_header; print(f'{read_header(sys.argv[1]).checksum:016x}')" \
  "$G/kron23.w8.csr" | tee "$S/checksum.txt"
echo 838099 > "$G/kron23.roots.txt"
pack
for a in bfs cc sssp pagerank; do
  elapsed=$(($(date +%s) - start))
  if [ $((elapsed + EST[$a])) -gt "$BUDGET_S" ]; then
    echo "DEFERRED $a (elapsed ${elapsed} s + ${EST[$a]} s > $BUDGET_S s)" | tee -a "$S/deferred.txt"
    continue
  fi
  measure_cell kron23 "$a" 8
  pack
done
log done
grep -h "median" "$S"/logs/run_*.log
