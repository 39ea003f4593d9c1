# Sourced by the held-out validations whose train table is an archived session (holdout_v11.sh, holdout_v12.sh, ...):
# their derive and judge parts, after holdout_split_session.sh (which they replace). Needs SPLIT, ST, TRAIN,
# HELD_GRAPHS, S and G set, and holdout_session.sh's generate and log.
C=$ST/combined
derive() {  # the combined session (model.holdout_combine), then only the held-out graphs' workloads
  local name
  mkdir -p "$ST"
  python3 -m model.holdout_combine --split "$SPLIT" --train-session "$TRAIN/session" --call "$S" --out "$C" \
    > "$ST/combine.log" 2>&1 || { cat "$ST/combine.log"; return 1; }
  cat "$ST/combine.log"
  for name in $HELD_GRAPHS; do
    [ -f "$ST/work/$name/workloads.csv" ] && continue
    if [ ! -f "$G/$name.w8.csr" ] || [ ! -f "$G/$name.w4.csr" ]; then
      mkdir -p "$ST/localmeta"
      generate "$name" "$ST/localmeta" "$ST/localmeta/gen_$name.log" || { echo "gen $name failed"; continue; }
    fi
    log "derive $name"
    python3 -m model.holdout --split "$SPLIT" --runs "$C" --graphs "$G" --only "$name" --derive-only \
      --jobs "${JOBS:-2}" --out-dir "$ST/work/$name" > "$ST/derive_$name.log" 2>&1 \
      || { echo "derive $name failed"; tail -2 "$ST/derive_$name.log"; }
    [ -z "${KEEP_GRAPHS:-}" ] && [ -f "$ST/work/$name/workloads.csv" ] && rm -f "$G/$name".w*.csr
  done
}
judge() {  # the registered judgement (the train session's link and L2), then the call's own link beside it
  log judge
  local work=("$TRAIN"/workloads/* "$ST"/work/*)
  python3 -m model.holdout --split "$SPLIT" --runs "$C" --graphs "$C/graphs" --l2 "$C/micro/l2.csv" \
    --workloads "${work[@]}" --out-dir "$ST/judged" > "$ST/judge.log" 2>&1 || { tail -3 "$ST/judge.log"; return 1; }
  python3 -m model.holdout --split "$SPLIT" --runs "$C" --graphs "$C/graphs" --l2 "$C/micro/l2.csv" \
    --parameters "$S/parameters.json" --workloads "${work[@]}" --out-dir "$ST/judged_call_link" \
    > "$ST/judge_call_link.log" 2>&1 || tail -3 "$ST/judge_call_link.log"
  python3 -m "figures.fig_holdout_$SPLIT" --holdout "$ST/judged/holdout_cells.csv" \
    --source "$ST/judged/source.json" --out "$ST/judged/fig_holdout_$SPLIT.png" > "$ST/fig.log" 2>&1 \
    || tail -2 "$ST/fig.log"
  cat "$ST/judge.log"
}
