# A registered split's held-out session in one device call, and its CPU part (holdout_v4.sh, holdout_v5.sh), sourced
# after setup.sh and holdout_session.sh by a script that sets:
#   SPLIT (v4, v5, ...: model.holdout --split), ST (the state folder: session/, work/, judged/), TGZ (the tarball's
#   name in $OUT, without .tgz), SESSION_GRAPHS (the order the call measures them in), EST (name -> estimated
#   seconds, generation included), seed_of NAME and how_of NAME (the generator's seed and arguments), BUDGET_S,
# and H (derive: the session folder a call brought back) or nothing; then calls split_main.
# Time guard: a graph starts only if the call's elapsed time plus its estimate stays under BUDGET_S; one left out
# says DEFERRED in deferred.txt, and the same call again on the warm machine measures only what is missing.
# The session goes under $ST/session (or $H) and is packed as $OUT/$TGZ.tgz after the microbenchmarks and after
# every graph, so that a call cut short still brings back what it measured.
if [ -n "${H:-}" ]; then S=$H; G=${G:-$H/graphs}; else S=$ST/session; G=${G:-$ST/graphs}; fi
mkdir -p "$G" "$S/runs" "$S/logs" "$S/micro" "$S/graphs"
REPS=${REPS:-3}; WARMUP=${WARMUP:-1}
WIDTHS="8 4"
ALGORITHMS="bfs sssp cc pagerank"

micro() {  # the link parameters (as holdout_v3.sh) and the L2 table C is fitted from
  [ -f "$S/parameters.json" ] && [ -f "$S/micro/l2.csv" ] && return 0
  log micro
  link_micro
  local l2=4M,8M,12M,16M,24M,32M,40M,48M,64M,96M,128M,256M,512M,1G
  python3 -m emogi.measure concurrency --binary "$EMOGI_BINARY" --out "$S/micro/l2.csv" -- --modes device \
    --footprints "$l2" --request-bytes 32 --warps 8192 --reads-per-warp 4 --iterations 256 --reps 3 \
    > "$S/logs/micro_l2.log" 2>&1 && python3 -m model.l2_capacity "$S/micro/l2.csv" >> "$S/logs/micro_l2.log" 2>&1
  tail -1 "$S/logs/micro_l2.log"
}
generate() {  # NAME META_DIR LOG: NAME.w8.csr in $G (metadata into META_DIR), and its 4-byte narrowing
  local name=$1 seed; seed=$(seed_of "$1")
  python3 -m emogi.datasets.generators $(how_of "$name") --seed "$seed" --weights-seed "$seed" \
    --out "$G/$name.w8.csr" --meta "$2/$name.w8.json" > "$3" 2>&1 || { tail -2 "$3"; return 1; }
  python3 -m emogi.csr narrow "$G/$name.w8.csr" --out "$G/$name.w4.csr" --meta "$2/$name.w4.json" >> "$3" 2>&1 \
    || { tail -2 "$3"; return 1; }
}
graph() {  # NAME: the files, metadata and 2 roots (with the graph's seed) in $G; nothing if made already
  local name=$1
  [ -f "$G/$name.w8.json" ] && [ -f "$G/$name.w4.csr" ] && [ -f "$G/$name.roots.txt" ] && return 0
  generate "$name" "$G" "$S/logs/gen_$name.log" || return 1
  python3 -m emogi.datasets.roots "$G/$name.w8.csr" --count 2 --seed "$(seed_of "$name")" \
    --out "$G/$name.roots.txt" >> "$S/logs/gen_$name.log" 2>&1 || { tail -2 "$S/logs/gen_$name.log"; return 1; }
}
measured() { local a w; for w in $WIDTHS; do for a in $ALGORITHMS; do
  [ -f "$S/runs/$a.$1.w$w.csv" ] || return 1; done; done; }
session_graph() {  # NAME: made and measured within the call's budget, else DEFERRED
  local name=$1 a w
  measured "$name" && return 0
  if [ $((SECONDS + ${EST[$name]})) -gt "$BUDGET_S" ]; then
    echo "DEFERRED: $name (elapsed ${SECONDS} s + estimate ${EST[$name]} s > ${BUDGET_S} s): run the call again" \
      | tee -a "$S/deferred.txt"
    return 0
  fi
  graph "$name" || return 0
  for w in $WIDTHS; do for a in $ALGORITHMS; do measure_cell "$name" "$a" "$w"; done; done
  [ "$G" = "$S/graphs" ] || cp "$G/$name".w*.json "$G/$name.roots.txt" "$S/graphs/"
}
pack() {  # the session so far as $OUT/$TGZ.tgz, replaced whole (a call cut short brings back what it measured)
  tar czf "$OUT/$TGZ.part.tgz" -C "$(dirname "$S")" "$(basename "$S")" && mv -f "$OUT/$TGZ.part.tgz" "$OUT/$TGZ.tgz"
}
derive_graph() {  # NAME RUNS (CPU): NAME regenerated where missing, its workloads derived against the session RUNS
  # the graph files go beside the session's metadata (RUNS/graphs), the one folder model.holdout reads both from
  local name=$1 runs=$2 G=$2/graphs
  [ -f "$ST/work/$name/workloads.csv" ] && return 0
  if [ ! -f "$G/$name.w8.csr" ] || [ ! -f "$G/$name.w4.csr" ]; then
    mkdir -p "$ST/localmeta"
    generate "$name" "$ST/localmeta" "$ST/localmeta/gen_$name.log" || { echo "gen $name failed"; return 0; }
  fi
  log "derive $name"
  python3 -m model.holdout --split "$SPLIT" --runs "$runs" --graphs "$G" --only "$name" --derive-only \
    --jobs "${JOBS:-2}" --out-dir "$ST/work/$name" > "$ST/derive_$name.log" 2>&1 \
    || { echo "derive $name failed"; tail -2 "$ST/derive_$name.log"; }
  [ -z "${KEEP_GRAPHS:-}" ] && [ -f "$ST/work/$name/workloads.csv" ] && rm -f "$G/$name".w*.csr
  return 0
}
derive() {  # CPU: each graph of the runs regenerated where missing, its workloads derived, one graph at a time
  local name
  for name in $(ls "$S"/runs/*.csv | xargs -n1 basename | cut -d. -f2 | sort -u); do derive_graph "$name" "$S"; done
}
judge() {
  log judge
  python3 -m model.holdout --split "$SPLIT" --runs "$S" --graphs "$G" --workloads "$ST"/work/* \
    --out-dir "$ST/judged" > "$ST/judge.log" 2>&1 || { tail -3 "$ST/judge.log"; return 1; }
  python3 -m figures.fig_holdout --holdout "$ST/judged/holdout_cells.csv" --source "$ST/judged/source.json" \
    --out "$ST/judged/fig_holdout.png" --out-csv "$ST/judged/fig_holdout.csv" > "$ST/fig.log" 2>&1 || tail -2 "$ST/fig.log"
  cat "$ST/judge.log"
}

split_main() {  # the parts PARTS names (session, the default; derive)
  local parts=(${PARTS:-session}) part n f
  log "parts: ${parts[*]} (budget ${BUDGET_S} s)"
  for part in "${parts[@]}"; do
    case $part in
      session) : > "$S/deferred.txt"  # this call's deferrals only
        provenance; build_kernels; [ -f "$OUT/build.log" ] && mv "$OUT/build.log" "$S/logs/build.log"; micro; pack
        for n in ${GRAPHS:-$SESSION_GRAPHS}; do session_graph "$n"; pack; done
        for f in "$S"/runs/*.csv; do [ -f "$f" ] && echo "$(($(wc -l < "$f") - 1)) rows $(basename "$f")"; done \
          > "$S/logs/rows.txt"
        log "done after ${SECONDS} s" | tee -a "$S/logs/rows.txt"
        pack && ls -l "$OUT/$TGZ.tgz"
        cat "$S/deferred.txt" ;;
      derive) derive; judge ;;
      *) echo "unknown part $part (session, derive)"; exit 2 ;;
    esac
  done
}
