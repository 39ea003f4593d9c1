#!/usr/bin/env bash
# Does the floor's step between scales 22 and 23 (archive/term-v16-issue-split-retrospective-2026-11-29) come with
# the GPU's DRAM reading more than the lists? Device-mode runs of Merged+Aligned BFS (from the vertex of largest
# degree) and Jacobi PageRank on kron and urand graphs at scales 21-23 (edge factor 16, seed 23, 8-byte ids, no
# weights): per graph and algorithm one `emogi run` (1 warm-up, 5 timed runs, every run verified) and one Nsight
# Compute profile of one run (`emogi.profile run`, launch by launch: DRAM bytes read, time).
#   (device) EMOGI_COMMIT=<commit> EMOGI_WHEELS=none timeout 400 bash archive/l2-step-probe-h200-2026-11-29/measure.sh
# A graph starts only while the elapsed time plus its estimate (EST, seconds, a guess from the kron23 probe's
# generation and runs, not a measurement) stays under BUDGET_S (default 330); one left out says DEFERRED.
# Out: $OUT/l2step.tgz (host.txt, runs/, profile/, logs/, roots.txt, deferred.txt), packed after every graph.
set -uo pipefail
. tools/device/require_commit.sh
. tools/device/setup.sh
S=/tmp/l2step G=/tmp/l2step-graphs BUDGET_S=${BUDGET_S:-330}
declare -A EST=([kron21]=25 [kron22]=40 [kron23]=80 [urand22]=40 [urand23]=80)
start=$(date +%s)
mkdir -p "$S/runs" "$S/profile" "$S/logs" "$G"
pack() { tar czf "$OUT/l2step.tgz" -C "$(dirname "$S")" "$(basename "$S")"; }
{ date -u; nvidia-smi; nvidia-smi -L; echo "commit: ${EMOGI_COMMIT:-}"; nproc; free -g; } > "$S/host.txt" 2>&1
build_kernels
for name in kron21 kron22 kron23 urand22 urand23; do
  elapsed=$(($(date +%s) - start))
  if [ $((elapsed + EST[$name])) -gt "$BUDGET_S" ]; then
    echo "DEFERRED $name (elapsed ${elapsed} s + ${EST[$name]} s > $BUDGET_S s)" | tee -a "$S/deferred.txt"
    continue
  fi
  log "generate $name"
  graph="$G/$name.w8.csr"
  python3 -m emogi.datasets.generators --kind "${name%%[0-9]*}" --scale "${name##*[a-z]}" --edge-factor 16 --seed 23 \
    --out "$graph" > "$S/logs/gen_$name.log" 2>&1 || { echo "$name: generation failed"; continue; }
  root=$(python3 -c "import sys; from emogi.csr import read_csr; from model.graph_predict import default_root
print(default_root(read_csr(sys.argv[1])))" "$graph")
  echo "$name,$root" >> "$S/roots.txt"
  for a in bfs pagerank; do
    args=(--algorithm "$a" --graph "$graph" --name "$name" --variants merged-aligned --modes device)
    [ "$a" = bfs ] && args+=(--roots "$root")
    log "$a $name"
    python3 -m emogi.measure run --binary "$EMOGI_BINARY" --out "$S/runs/$a.$name.csv" -- "${args[@]}" --reps 5 \
      --warmup 1 > "$S/logs/run_$a.$name.log" 2>&1 || echo "FAILED: run $a $name: $(tail -1 "$S/logs/run_$a.$name.log")"
    python3 -m emogi.profile run --binary "$EMOGI_BINARY" --report "/tmp/$a.$name.ncu-rep" \
      --out "$S/profile/$a.$name.csv" --launches "$S/profile/launches_$a.$name.csv" -- "${args[@]}" \
      > "$S/logs/profile_$a.$name.log" 2>&1 || echo "FAILED: profile $a $name: $(tail -1 "$S/logs/profile_$a.$name.log")"
  done
  rm -f "$graph"
  pack
done
log "done after $(($(date +%s) - start)) s"
grep -h "median" "$S"/logs/run_*.log
