# What the held-out sessions share (holdout_study.sh, registered split v2; holdout_v3.sh, split v3), sourced after
# setup.sh. Each script sets S (the session folder: runs/, micro/, logs/, host.txt), G (the graphs), REPS and WARMUP.

# The variants each algorithm's cells run: the paper's merged-aligned and this project's fastest (docs/predictor.md).
variants_of() { case $1 in bfs) echo merged-aligned,direction-optimizing ;; sssp) echo merged-aligned,frontier ;;
  cc) echo merged-aligned,afforest ;; pagerank) echo merged-aligned,gauss-seidel ;; esac; }

provenance() {  # `nvidia-smi -L`: the GPU's UUID, so that two sessions can be shown to share one GPU (holdout_combine)
  { date -u; nvidia-smi; nvidia-smi -L; echo "commit: ${EMOGI_COMMIT:-$(git rev-parse HEAD 2> /dev/null)}"; nproc
    free -g; df -h /tmp; } >> "$S/host.txt" 2>&1
}

# One cell group: ALGORITHM on NAME at WIDTH bytes, device and zero-copy, into $S/runs/ALGORITHM.NAME.wWIDTH.csv
# (BFS and SSSP from $G/NAME.roots.txt); nothing if that table exists, and none left behind when the run fails.
# RUN_ORDER (opt-in, split v9 on; unset: the binary's default, `blocks`, as v3-v8 ran): `emogi run --run-order`.
measure_cell() {  # NAME ALGORITHM WIDTH
  local name=$1 a=$2 w=$3 roots=()
  local out="$S/runs/$a.$name.w$w.csv"
  [ -f "$out" ] && return 0
  [ "$a" = bfs ] || [ "$a" = sssp ] && roots=(--roots-file "$G/$name.roots.txt")
  log "$a $name w$w"
  python3 -m emogi.measure run --binary "$EMOGI_BINARY" --out "$out" -- --algorithm "$a" \
    --graph "$G/$name.w$w.csr" --name "$name" --variants "$(variants_of "$a")" --modes device,zerocopy \
    "${roots[@]}" --reps "$REPS" --warmup "$WARMUP" ${RUN_ORDER:+--run-order "$RUN_ORDER"} \
    > "$S/logs/run_$a.$name.w$w.log" 2>&1 \
    || { echo "FAILED: $a $name w$w: $(tail -1 "$S/logs/run_$a.$name.w$w.log")"; rm -f "$out"; }
}

# The zero-copy link parameters of a session (docs/model.md's table: W, L, N_max, S): the link, chase and
# concurrency microbenchmarks into $S/micro/ (logs in $S/logs/) and their model.fit into $S/parameters.json.
link_micro() {
  local m=(--binary "$EMOGI_BINARY")
  python3 -m emogi.measure linkbw "${m[@]}" --out "$S/micro/link.csv" -- --sizes 1M,16M,64M,256M,1G --reps 5 \
    > "$S/logs/micro_link.log" 2>&1
  python3 -m emogi.measure chase "${m[@]}" --out "$S/micro/latency.csv" -- --modes zerocopy \
    --footprints 4M,64M,256M,1G,4G,8G --steps 20000 --reps 3 > "$S/logs/micro_chase.log" 2>&1
  python3 -m emogi.measure concurrency "${m[@]}" --out "$S/micro/concurrency_warps.csv" -- --modes zerocopy \
    --footprints 256M,8G --warps 1,2,4,8,16,32,64,128,256,512,1024,2048,4096 --reads-per-warp 1,4 \
    --iterations 256 --reps 3 > "$S/logs/micro_concurrency.log" 2>&1
  python3 -m emogi.measure concurrency "${m[@]}" --out "$S/micro/concurrency_footprints.csv" -- --modes zerocopy \
    --footprints 64M,256M,512M,1G,2G,4G,8G --warps 4096 --reads-per-warp 4 --iterations 256 --reps 3 \
    >> "$S/logs/micro_concurrency.log" 2>&1
  python3 -c "import pandas as pd, sys; pd.concat([pd.read_csv(p) for p in sys.argv[2:]]).to_csv(sys.argv[1], index=False)" \
    "$S/micro/concurrency.csv" "$S/micro/concurrency_warps.csv" "$S/micro/concurrency_footprints.csv"
  python3 -m model.fit --link "$S/micro/link.csv" --latency "$S/micro/latency.csv" \
    --concurrency "$S/micro/concurrency.csv" --out "$S/parameters.json" > "$S/logs/fit.log" 2>&1 \
    || { echo "model.fit failed"; tail -3 "$S/logs/fit.log"; }
}
