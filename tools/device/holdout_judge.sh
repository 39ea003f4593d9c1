# Sourced: the held-out judge of one assembled session, the registered link and the call's own, in one place for
# holdout_combined.sh and holdout_passes.sh (model.holdout_combine's session: its parameters.json, micro/l2.csv and
# graphs/, which model.holdout reads by default, are the train session's link and L2). Needs SPLIT.
judge_both() {  # SESSION OWN DIR WORKLOADS...: the registered judgement (DIR/judged, log DIR/judge.log; its failure
  # fails), then the call's own link beside it (OWN: the call's parameters.json; DIR/judged_call_link, log
  # DIR/judge_call_link.log; secondary, so its failure only shows the log's tail)
  local s=$1 own=$2 d=$3
  shift 3
  python3 -m model.holdout --split "$SPLIT" --runs "$s" --workloads "$@" --out-dir "$d/judged" > "$d/judge.log" 2>&1 \
    || { tail -3 "$d/judge.log"; return 1; }
  python3 -m model.holdout --split "$SPLIT" --runs "$s" --parameters "$own" --workloads "$@" \
    --out-dir "$d/judged_call_link" > "$d/judge_call_link.log" 2>&1 || tail -3 "$d/judge_call_link.log"
}
