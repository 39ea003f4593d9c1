# Sourced last by a held-out validation whose held-out cells are each measured by several separate processes
# (holdout_v13.sh, docs/holdout-v13.md), after holdout_split_session.sh, whose derive and judge it replaces. Needs
# SPLIT, PASSES, PASS, ROOT (the state: ROOT/p1, ROOT/p2, ... one folder per pass; ROOT/graphs shared), TGZ_BASE,
# TRAIN, HELD_GRAPHS, G and holdout_session.sh's log; then the script calls passes_main.
#   session (device): the script runs itself once per pass, each a new process (its own build check, link
#     microbenchmarks, parameters.json, L2 table and `emogi run` processes), one after another; pass P's session
#     goes under ROOT/pP/session, packed as $OUT/${TGZ_BASE}_pP.tgz, its output in $OUT/${TGZ_BASE}_pP.log. The
#     time guard (BUDGET_S) counts the whole call: each pass starts its clock at the call's start (CALL_T0).
#   derive (CPU, TGZS=DIR: the folder holding the passes' tgz): each pass unpacked and assembled with the train
#     session (model.holdout_combine; SAME_GPU=1 adds --same-gpu: each pass and the train session on one GPU),
#     the held-out graphs' workloads derived once (pass 1's session: every pass measures the same graph files),
#     each pass judged alone (model.holdout --split SPLIT, the registered link, and with the pass's own link),
#     then the passes' statistic (model.holdout_passes) and its figure.
. tools/device/holdout_judge.sh  # judge_both: a pass's registered judgement and its own link
passes_session() {  # the parent process: one child process per pass
  local p r rc=0 t0=${CALL_T0:-$(date +%s)}
  log "$PASSES passes, each its own process (budget ${BUDGET_S} s for the whole call)"
  for p in $(seq 1 "$PASSES"); do
    IN_PASS=1 PASS=$p CALL_T0=$t0 bash "$0" > "$OUT/${TGZ_BASE}_p$p.log" 2>&1
    r=$? && [ $r -eq 0 ] || rc=$r
    echo "pass $p rc $r $(date -u +%T): $(tail -1 "$OUT/${TGZ_BASE}_p$p.log")"
  done
  for p in $(seq 1 "$PASSES"); do sed "s/^/pass $p: /" "$ROOT/p$p/session/deferred.txt" 2> /dev/null; done
  return $rc
}
derive() {  # CPU: the passes assembled, the held-out graphs' workloads derived once
  local p c
  [ -n "${TGZS:-}" ] || { echo "TGZS=<the folder holding ${TGZ_BASE}_p1.tgz ...> is required"; return 1; }
  for p in $(seq 1 "$PASSES"); do
    c=$ROOT/p$p
    rm -rf "$c/call" && mkdir -p "$c/call" && tar xzf "$TGZS/${TGZ_BASE}_p$p.tgz" -C "$c/call" || return 1
    python3 -m model.holdout_combine --split "$SPLIT" --train-session "$TRAIN/session" --call "$c/call/session" \
      --out "$c/combined" ${SAME_GPU:+--same-gpu} > "$c/combine.log" 2>&1 || { cat "$c/combine.log"; return 1; }
    cat "$c/combine.log"
  done
  for name in $HELD_GRAPHS; do derive_graph "$name" "$ROOT/p1/combined"; done
}
judge() {  # each pass alone (registered link; its own link beside), then the registered statistic over the passes
  log judge
  local p c work=("$TRAIN"/workloads/* "$ROOT"/work/*) judged=() own=()
  for p in $(seq 1 "$PASSES"); do
    c=$ROOT/p$p/combined
    judge_both "$c" "$ROOT/p$p/call/session/parameters.json" "$ROOT/p$p" "${work[@]}" || return 1
    judged+=("$ROOT/p$p/judged") own+=("$ROOT/p$p/judged_call_link")
  done
  python3 -m model.holdout_passes --split "$SPLIT" --judged "${judged[@]}" --own "${own[@]}" \
    --out-dir "$ROOT/judged" > "$ROOT/judge.log" 2>&1 || { tail -3 "$ROOT/judge.log"; return 1; }
  python3 -m "figures.fig_holdout_$SPLIT" --holdout "$ROOT/judged/holdout_cells.csv" \
    --source "$ROOT/judged/source.json" --out "$ROOT/judged/fig_holdout_$SPLIT.png" > "$ROOT/fig.log" 2>&1 \
    || tail -2 "$ROOT/fig.log"
  cat "$ROOT/judge.log"
}
passes_main() {  # PARTS session: the parent runs the passes, a pass (IN_PASS) its session part; derive as above
  case " ${PARTS:-session} " in
    *" session "*)
      if [ -z "${IN_PASS:-}" ]; then passes_session; return; fi
      SECONDS=$(($(date +%s) - CALL_T0))  # the guard's clock: the call's, not this pass's
      log "pass $PASS of $PASSES"; split_main ;;
    *) split_main ;;
  esac
}
