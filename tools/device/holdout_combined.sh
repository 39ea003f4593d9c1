# Sourced by the held-out validations whose train table is an archived session (holdout_v11.sh, holdout_v12.sh, ...):
# their derive and judge parts, after holdout_split_session.sh (which they replace; its derive_graph derives each
# held-out graph). Needs SPLIT, ST, TRAIN, HELD_GRAPHS, S and G set, and holdout_session.sh's generate and log.
. tools/device/holdout_judge.sh  # judge_both: the registered judgement and the call's own link
C=$ST/combined
derive() {  # the combined session (model.holdout_combine), then only the held-out graphs' workloads
  local name
  mkdir -p "$ST"
  python3 -m model.holdout_combine --split "$SPLIT" --train-session "$TRAIN/session" --call "$S" --out "$C" \
    > "$ST/combine.log" 2>&1 || { cat "$ST/combine.log"; return 1; }
  cat "$ST/combine.log"
  for name in $HELD_GRAPHS; do derive_graph "$name" "$C"; done
}
judge() {  # the registered judgement (the train session's link and L2), then the call's own link beside it
  log judge
  local work=("$TRAIN"/workloads/* "$ST"/work/*)
  judge_both "$C" "$S/parameters.json" "$ST" "${work[@]}" || return 1
  python3 -m "figures.fig_holdout_$SPLIT" --holdout "$ST/judged/holdout_cells.csv" \
    --source "$ST/judged/source.json" --out "$ST/judged/fig_holdout_$SPLIT.png" > "$ST/fig.log" 2>&1 \
    || tail -2 "$ST/fig.log"
  cat "$ST/judge.log"
}
