# Device: one warm lent NVIDIA H200 machine (nvidia-h200), started fresh for T1; the calls one after another, each
# within seconds of the last (run tool, timeout_s 600, nothing carried). The tree was main at ee51fe9.
EMOGI_COMMIT=ee51fe9 EMOGI_WHEELS=none DETACH_WAIT=560 \
  bash tools/device/detached.sh start ho14t1 bash tools/device/holdout_v13h.sh   # T1 23:26:32-23:34:52 (device clock)
EMOGI_COMMIT=ee51fe9 EMOGI_WHEELS=none DETACH_WAIT=560 \
  bash tools/device/detached.sh start ho14t2 bash tools/device/holdout_v13h.sh   # T2 23:35:06-23:36:49
EMOGI_COMMIT=ee51fe9 EMOGI_WHEELS=none DETACH_WAIT=560 \
  bash tools/device/detached.sh start ho14 bash tools/device/holdout_v13.sh      # H  23:37:02-23:43:21
#   T2's holdout13t.tgz holds the whole train session (T1's is a subset of it): train/holdout13t.tgz. H's seven
#   files are call/ as they came back.

# Development machine (CPU, 2 cores), from the repository root at ee51fe9, 23:43-23:44 UTC.
# DIR held T2's holdout13t.tgz and H's holdout13_p{1,2,3}.tgz. Its logs: logs.tgz (cpu/).
source /work/main/.venv/bin/activate
TGZS=DIR PARTS=derive bash tools/device/holdout_v13h.sh
#   then: passes/pP/session = /tmp/ho13h/pP/combined (less its empty drift.csv), passes/pP/call_parameters.json =
#   /tmp/ho13h/pP/call/session/parameters.json (each pass's own link), workloads/ = the v13h archive's 25 train
#   graphs' (the v12 archive's) and /tmp/ho13h/work/* (the 4 held-out graphs, derived again).

# The judgement as archived here, from the repository root (each table equals the derive's own byte for byte; the
# passes' folders under /tmp are named in source.json).
A=archive/holdout-v14-h200-2026-11-28 J=/tmp/v14j
for p in p1 p2 p3; do
  python -m model.holdout --split v13 --runs $A/passes/$p/session --workloads $A/workloads/* \
    --archive-id holdout-v14-h200-2026-11-28 --out-dir $J/$p
  python -m model.holdout --split v13 --runs $A/passes/$p/session --parameters $A/passes/$p/call_parameters.json \
    --workloads $A/workloads/* --archive-id holdout-v14-h200-2026-11-28 --out-dir $J/own_$p
done
python -m model.holdout_passes --split v13 --judged $J/p1 $J/p2 $J/p3 --own $J/own_p1 $J/own_p2 $J/own_p3 \
  --out-dir $J/judged
cp $J/judged/*.csv $J/judged/source.json $A/ && cp -r $J/judged/judged_call_link $A/
