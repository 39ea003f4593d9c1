# What the UVM simulator's validation sessions share (uvm_validation3.sh, uvm_validation4.sh), sourced after
# setup.sh. Each script sets S (the session folder: runs/, graphs/, logs/, host.txt), G (where graphs are made),
# HOW (name -> generator arguments), SEED, VARIANTS, REPS, WARMUP, RUN_LIMIT_S and HARD_S (no `emogi run` goes past
# HARD_S seconds of the call; one with less than 20 s left is DEFERRED).

provenance() {
  { date -u; nvidia-smi; echo "commit: ${EMOGI_COMMIT:-$(git rev-parse HEAD 2> /dev/null)}"
    git status --short 2> /dev/null | head -20; nproc; free -g; df -h /tmp; } >> "$S/host.txt" 2>&1
}
graph() {  # NAME: NAME.w8.csr/.json and NAME.roots.txt (2 roots)
  local name=$1
  log "generate $name"
  python3 -m emogi.datasets.generators ${HOW[$name]} --seed "$SEED" --weights-seed "$SEED" \
    --out "$G/$name.w8.csr" --meta "$S/graphs/$name.w8.json" > "$S/logs/gen_$name.log" 2>&1 \
    && python3 -m emogi.datasets.roots "$G/$name.w8.csr" --count 2 --seed "$SEED" --out "$S/graphs/$name.roots.txt" \
      >> "$S/logs/gen_$name.log" 2>&1 \
    || { echo "FAILED: generate $name: $(tail -1 "$S/logs/gen_$name.log")"; return 1; }
}
measure() {  # NAME ALGORITHM: device and cold uvm of both variants into runs/ALGORITHM.NAME.csv
  local name=$1 a=$2 roots=() out="$S/runs/$2.$1.csv" limit=$((HARD_S - SECONDS))
  [ "$limit" -gt "$RUN_LIMIT_S" ] && limit=$RUN_LIMIT_S
  if [ "$limit" -lt 20 ]; then echo "DEFERRED: $a $name (elapsed ${SECONDS} s)" | tee -a "$S/deferred.txt"; return 0; fi
  [ "$a" = bfs ] || [ "$a" = sssp ] && roots=(--roots-file "$S/graphs/$name.roots.txt")
  log "$a $name (limit ${limit} s)"
  timeout "$limit" python3 -m emogi.measure run --binary "$EMOGI_BINARY" --out "$out" -- --algorithm "$a" \
    --graph "$G/$name.w8.csr" --name "$name" --variants "$VARIANTS" --modes device,uvm "${roots[@]}" \
    --reps "$REPS" --warmup "$WARMUP" > "$S/logs/run_$a.$name.log" 2>&1 \
    || { echo "FAILED: $a $name: $(tail -1 "$S/logs/run_$a.$name.log")"; rm -f "$out"; }
}
