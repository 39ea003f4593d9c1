# Sourced: the held-out judge of one assembled session (model.holdout_combine's: its parameters.json and micro/l2.csv
# are the train session's, the registered link and L2), in one place for holdout_combined.sh, holdout_passes.sh and
# the workflow's holdout_judge_passes rule. Needs SPLIT.
judge_session() {  # SESSION [model.holdout's other arguments]: model.holdout --split SPLIT on its runs, graphs, L2
  local s=$1
  shift
  python3 -m model.holdout --split "$SPLIT" --runs "$s" --graphs "$s/graphs" --l2 "$s/micro/l2.csv" "$@"
}
judge_both() {  # SESSION OWN DIR WORKLOADS...: the registered judgement (DIR/judged, log DIR/judge.log; its failure
  # fails), then the call's own link beside it (OWN: the call's parameters.json; DIR/judged_call_link, log
  # DIR/judge_call_link.log; secondary, so its failure only shows the log's tail)
  local s=$1 own=$2 d=$3
  shift 3
  judge_session "$s" --workloads "$@" --out-dir "$d/judged" > "$d/judge.log" 2>&1 \
    || { tail -3 "$d/judge.log"; return 1; }
  judge_session "$s" --parameters "$own" --workloads "$@" --out-dir "$d/judged_call_link" \
    > "$d/judge_call_link.log" 2>&1 || tail -3 "$d/judge_call_link.log"
}
