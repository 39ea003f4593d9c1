#!/usr/bin/env bash
# Recomputes this folder's CSVs from session/pass{1,2,3}.tgz (CPU, repository root, ~40 s; W=/tmp/procs by default):
# each pass assembled with the v12 train session (model.holdout_combine, as holdout_v12.sh PARTS=derive does), judged
# by v12's registered rule (model.holdout --split v12; the held-out graphs' workloads are the v12 archive's, derived
# from the same seed-34 files: the judge checks their checksums), once with the registered link (the train
# session's parameters.json) and once with the pass's own, then model.process_repeat.
#   bash archive/holdout-v12-processes-h100-2026-11-28/recompute.sh
set -euo pipefail
A=archive/holdout-v12-processes-h100-2026-11-28
W=${W:-/tmp/procs}
T=archive/holdout-v11-h100-2026-11-28/session
WL=(archive/holdout-v12-h100-2026-11-28/workloads/*)
for p in 1 2 3; do
  rm -rf "$W/in$p" "$W/c$p" && mkdir -p "$W/in$p" && tar xzf "$A/session/pass$p.tgz" -C "$W/in$p"
  python -m model.holdout_combine --split v12 --call "$W/in$p/session" --out "$W/c$p" --train-session "$T"
  python -m model.holdout --split v12 --runs "$W/c$p" --graphs "$W/c$p/graphs" --l2 "$W/c$p/micro/l2.csv" \
    --workloads "${WL[@]}" --out-dir "$W/j$p" > "$W/j$p.log"
  python -m model.holdout --split v12 --runs "$W/c$p" --graphs "$W/c$p/graphs" --l2 "$W/c$p/micro/l2.csv" \
    --parameters "$W/in$p/session/parameters.json" --workloads "${WL[@]}" --out-dir "$W/k$p" > "$W/k$p.log"
done
python -m model.process_repeat --judged "$W"/j{1,2,3} --own "$W"/k{1,2,3} --sessions "$W"/in{1,2,3}/session \
  --v12 archive/holdout-v12-h100-2026-11-28 --out-dir "$A"
