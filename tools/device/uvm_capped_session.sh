# What uvm-capped's validation calls share (uvm_capped_validation2.sh and 3), sourced after setup.sh and
# uvm_session.sh by a script that sets N (the validation: the session folder uvmcN, $OUT/uvmcN.tgz), NAMES (the
# graphs in order), HOW (name -> generator arguments), EST (name -> estimated seconds) and SEED, then calls
# `capped_session`.
# Validation 7's call pieces (uvm_session.sh: provenance, build, linkbw and uvmfault at the start and the end, the
# graphs made and their 2 roots drawn) with a per-(graph, algorithm) step of its own: one `emogi run` of `device` and
# cold `uvm` (WARMUP=1, REPS=5) that records each variant's traces (--trace-out; the device-mode ones are kept, the
# judge simulates them), then `uvm-capped` at capacities of 1/4 and 1/2 of the edge list (whole 2 MiB chunks) with
# K = 1 and 4 sub-launches, REPS=5 timed runs and no warm-up each (the OOM study's runs the rule was fitted on had
# none). Managed memory is never oversubscribed: uvm-capped allocates as `uvm` does, within the guard, and a capacity
# larger than the lists is refused by the binary. The run order is left alone: uvm-capped refuses a choice.
# Time guard: a graph starts only if elapsed + its estimate (EST, s) <= BUDGET_S (400), else DEFERRED (deferred.txt);
# each `emogi run` is stopped after RUN_LIMIT_S (90) and none runs past HARD_S (430); the closing uvmfault, copies
# and tarball take ~15 s more. Everything comes back as $OUT/uvmcN.tgz (uvmcN/: host.txt, device.json, micro/, runs/,
# graphs/*.json and *.roots.txt, logs/, deferred.txt, call.log) and $OUT/uvmcN_traces.tar.xz.part00, ... (uvmcN/traces/,
# the device-mode traces, split in 15 MiB parts: a file brought back is at most 16 MiB; keep them beside uvmcN.tgz
# for the judge, which joins them).
# Options: BUDGET_S, RUN_LIMIT_S, HARD_S, REPS=5, WARMUP=1, GRAPHS (another list, for a dry run), EMOGI_BINARY.
# PASS_ORDERS (capped validation 5): if set, "f:k f:k ...|f:k ..." (one order of capacity:K per pass) replaces the
# FRACTIONS x SUBLAUNCHES loop: each pass runs every (capacity, K) once, in its order, as its own `emogi run` of
# CAPPED_REPS (default REPS) runs, into runs/capped.$a.$name.f$f.k$k.p$p.csv.
validation_dirs "c$N"
mkdir -p "$S/traces"
REPS=${REPS:-5}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-400}; RUN_LIMIT_S=${RUN_LIMIT_S:-90}
HARD_S=${HARD_S:-430}  # no `emogi run` goes past this (s)
VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"; UVMFAULT_AFTER=0
FRACTIONS="0.25 0.5"; SUBLAUNCHES="1 4"
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

limit_s() {  # seconds the next `emogi run` may take (0: none left)
  local limit=$((HARD_S - SECONDS))
  [ "$limit" -gt "$RUN_LIMIT_S" ] && limit=$RUN_LIMIT_S
  [ "$limit" -lt 20 ] && limit=0
  echo "$limit"
}
capacity() {  # NAME FRACTION: FRACTION of the edge list in whole 2 MiB chunks (capacity_bytes in the judge)
  python3 -c "import json,sys; b=json.load(open(sys.argv[1]))['edge_list_bytes']; print(int(b*float(sys.argv[2]))>>21<<21)" \
    "$S/graphs/$1.w8.json" "$2"
}
one_run() {  # OUT_CSV LOG ARGS...: one `emogi run` within the guard; a failed or stopped run leaves no table
  local out=$1 logf=$2 limit; shift 2
  limit=$(limit_s)
  if [ "$limit" = 0 ]; then echo "DEFERRED: $(basename "$out") (elapsed ${SECONDS} s)" | tee -a "$S/deferred.txt"; return 1; fi
  timeout "$limit" python3 -m emogi.measure run --binary "$EMOGI_BINARY" --out "$out" -- "$@" > "$logf" 2>&1 \
    || { echo "FAILED: $(basename "$out"): $(tail -1 "$logf")"; rm -f "$out"; return 1; }
}
measure() {  # NAME ALGORITHM: device + cold uvm (traces), then uvm-capped at each capacity and K
  local name=$1 a=$2 roots=() f k cap base
  [ "$a" = bfs ] || [ "$a" = sssp ] && roots=(--roots-file "$S/graphs/$name.roots.txt")
  base=(--algorithm "$a" --graph "$G/$name.w8.csr" --name "$name" --variants "$VARIANTS" "${roots[@]}")
  log "$a $name: device, uvm, traces"
  one_run "$S/runs/$a.$name.csv" "$S/logs/run_$a.$name.log" "${base[@]}" --modes device,uvm --reps "$REPS" \
    --warmup "$WARMUP" --trace-out "$G/traces" || return 0
  mv "$G"/traces/"$name".*.device.*.trace "$S/traces/" 2> /dev/null; rm -f "$G"/traces/*.trace
  if [ -n "${PASS_ORDERS:-}" ]; then capped_passes "$name" "$a" "${base[@]}"; return 0; fi
  for f in $FRACTIONS; do
    cap=$(capacity "$name" "$f")
    for k in $SUBLAUNCHES; do
      log "$a $name: uvm-capped $f ($cap bytes), K = $k"
      one_run "$S/runs/capped.$a.$name.f$f.k$k.csv" "$S/logs/run_capped.$a.$name.f$f.k$k.log" "${base[@]}" \
        --modes uvm-capped --uvm-capacity "$cap" --uvm-sublaunches "$k" --reps "$REPS" --warmup 0 || continue
      grep "uvm-capped," "$S/logs/run_capped.$a.$name.f$f.k$k.log"
    done
  done
}
capped_passes() {  # NAME ALGORITHM BASE...: uvm-capped in the passes of PASS_ORDERS, one process a cell and pass
  local name=$1 a=$2 p=0 order fk f k cap tag orders=()
  shift 2
  IFS='|' read -ra orders <<< "$PASS_ORDERS"
  for order in "${orders[@]}"; do
    p=$((p + 1))
    for fk in $order; do
      f=${fk%:*}; k=${fk#*:}; cap=$(capacity "$name" "$f"); tag="$a.$name.f$f.k$k.p$p"
      log "$a $name: uvm-capped $f ($cap bytes), K = $k, pass $p"
      one_run "$S/runs/capped.$tag.csv" "$S/logs/run_capped.$tag.log" "$@" --modes uvm-capped \
        --uvm-capacity "$cap" --uvm-sublaunches "$k" --reps "${CAPPED_REPS:-$REPS}" --warmup 0 || continue
      grep "uvm-capped," "$S/logs/run_capped.$tag.log"
    done
  done
}
capped_body() {
  log "capped validation $N (budget ${BUDGET_S} s, REPS=$REPS, WARMUP=$WARMUP, seed $SEED${PASS_ORDERS:+, passes $PASS_ORDERS, CAPPED_REPS=${CAPPED_REPS:-$REPS}})"
  capped_open
  for n in ${GRAPHS:-$NAMES}; do session_graph "$n"; done
  capped_close
}
capped_open() {  # what every capped call does before its graphs: provenance, build, copies and uvmfault
  : > "$S/deferred.txt"
  provenance
  build_kernels
  "$EMOGI_BINARY" device > "$S/device.json" 2> /dev/null
  link link.csv
  uvmfault start
  uvmfault_stride
  mkdir -p "$G/traces"
}
capped_close() {  # and after them: copies and uvmfault again, the rows and traces it made
  uvmfault end
  link link_end.csv
  for f in "$S"/runs/*.csv; do [ -f "$f" ] && echo "$(($(wc -l < "$f") - 1)) rows $(basename "$f")"; done
  echo "$(ls "$S/traces" | wc -l) device-mode traces"
  log "done after ${SECONDS} s"
}
capped_session() {  # the call, its tarball and the traces in 15 MiB parts
  capped_body 2>&1 | tee "$S/call.log"
  mv "$OUT/build.log" "$S/logs/" 2> /dev/null
  tar czf "$OUT/uvmc$N.tgz" -C "$W" --exclude="uvmc$N/traces" "uvmc$N"
  # xz -9e: ~3x smaller than gzip on traces, so the archived parts keep the repository under the device's copy limit
  XZ_OPT="-9e -T0" tar cJf "$W/traces.tar.xz" -C "$W" "uvmc$N/traces" &&
    split -b 15M -d "$W/traces.tar.xz" "$OUT/uvmc${N}_traces.tar.xz.part"
  ls -l "$OUT"
}
