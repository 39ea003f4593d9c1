# What the UVM simulator's validation sessions share (uvm_validation3.sh, 4, 5 and 6), sourced after setup.sh. Each
# script sets S (the session folder: runs/, graphs/, logs/, micro/, host.txt), G (where graphs are made), HOW (name
# -> generator arguments), SEED, VARIANTS, ALGORITHMS, REPS, WARMUP, RUN_LIMIT_S and HARD_S (no `emogi run` goes
# past HARD_S seconds of the call; one with less than 20 s left is DEFERRED); validations 4-6 also EST (name ->
# estimated seconds), BUDGET_S, UVMFAULT and UVMFAULT_STRIDE (uvmfault's arguments) and UVMFAULT_AFTER (1: the
# four patterns again after each graph; default 1); validations 8 and 9 also RUN_ORDER (`emogi run --run-order`, e.g.
# rounds; unset: the binary's default order, as validations 3-7 ran). uvm_validation3.sh defines its own uvmfault,
# link and main after sourcing this.

validation_dirs() {  # N: W=/tmp/uvmN (the tarball's root), S=W/uvmN (the session folder), G=W/graphs
  W=/tmp/uvm$1; S=$W/uvm$1; G=$W/graphs
  mkdir -p "$S/runs" "$S/micro" "$S/logs" "$S/graphs" "$G"
}
provenance() {  # host.txt; the commit is $EMOGI_COMMIT where set (the device copy's git may be stale)
  [ -n "${EMOGI_COMMIT:-}" ] || echo "WARNING: EMOGI_COMMIT unset: the commit recorded is the device copy's git HEAD"
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
    --reps "$REPS" --warmup "$WARMUP" ${RUN_ORDER:+--run-order "$RUN_ORDER"} > "$S/logs/run_$a.$name.log" 2>&1 \
    || { echo "FAILED: $a $name: $(tail -1 "$S/logs/run_$a.$name.log")"; rm -f "$out"; }
}
uvmfault() {  # TAG: the four back-to-back patterns into micro/uvmfault_TAG.csv
  log "uvmfault $1"
  timeout 60 "$EMOGI_BINARY" uvmfault "${UVMFAULT[@]}" --out "$S/micro/uvmfault_$1.csv" \
    > "$S/logs/uvmfault_$1.log" 2>&1 || echo "FAILED: uvmfault $1: $(tail -1 "$S/logs/uvmfault_$1.log")"
  grep "^uvmfault" "$S/logs/uvmfault_$1.log"
}
uvmfault_stride() {  # the 64 KiB-stride pattern (reported, no rule uses it)
  timeout 30 "$EMOGI_BINARY" uvmfault "${UVMFAULT_STRIDE[@]}" --out "$S/micro/uvmfault_stride_start.csv" \
    > "$S/logs/uvmfault_stride.log" 2>&1 || echo "FAILED: uvmfault stride"
}
link() {  # FILE: linkbw into micro/FILE
  log "linkbw $1"
  python3 -m emogi.measure linkbw --binary "$EMOGI_BINARY" --out "$S/micro/$1" -- \
    --sizes 1M,16M,64M,256M,1G --reps 5 > "$S/logs/$1.log" 2>&1 || echo "FAILED: linkbw $1"
}
session_graph() {  # NAME: made and measured within the budget, then uvmfault again (UVMFAULT_AFTER); else DEFERRED
  local name=$1 a
  if [ $((SECONDS + ${EST[$name]})) -gt "$BUDGET_S" ]; then
    echo "DEFERRED: $name (elapsed ${SECONDS} s + estimate ${EST[$name]} s > ${BUDGET_S} s)" | tee -a "$S/deferred.txt"
    return 0
  fi
  graph "$name" || return 0
  for a in $ALGORITHMS; do measure "$name" "$a"; done
  rm -f "$G/$name".w8.csr  # the judge regenerates it; disk stays free
  [ "${UVMFAULT_AFTER:-1}" = 1 ] && uvmfault "after_$name"
  return 0
}
validation_body() {  # N GRAPH...: validations 4-6's steps, in order
  log "uvm validation $1 (budget ${BUDGET_S} s, REPS=$REPS, WARMUP=$WARMUP, run order ${RUN_ORDER:-default})"; shift
  : > "$S/deferred.txt"
  provenance
  build_kernels
  "$EMOGI_BINARY" device > "$S/device.json" 2> /dev/null
  TESTS=tests/test_gpu_micro.py gpu_tests -k uvmfault  # its GPU test (~10 s), log in logs/gpu_tests.log
  link link.csv
  uvmfault start
  uvmfault_stride
  for n in "$@"; do session_graph "$n"; done
  uvmfault end
  link link_end.csv
  for f in "$S"/runs/*.csv; do [ -f "$f" ] && echo "$(($(wc -l < "$f") - 1)) rows $(basename "$f")"; done
  log "done after ${SECONDS} s"
}
validation_call() {  # N GRAPH...: the steps into S/call.log, then W/uvmN (S) as $OUT/uvmN.tgz
  validation_body "$@" 2>&1 | tee "$S/call.log"
  mv "$OUT/build.log" "$OUT/gpu_tests.log" "$S/logs/" 2> /dev/null
  tar czf "$OUT/uvm$1.tgz" -C "$W" "uvm$1"
  ls -l "$OUT"
}
