# Device: one warm lent NVIDIA H200 machine (nvidia-h200), started fresh for T1; the calls one after another, each
# within seconds of the last (run tool, nothing carried). The tree was main at 743eec3.
EMOGI_COMMIT=743eec3 EMOGI_WHEELS=none DETACH_WAIT=560 \
  bash tools/device/detached.sh start ho15t1 bash tools/device/holdout_v13h.sh   # T1 01:44:29-01:52:43 (device clock)
EMOGI_COMMIT=743eec3 EMOGI_WHEELS=none DETACH_WAIT=560 \
  bash tools/device/detached.sh start ho15t2 bash tools/device/holdout_v13h.sh   # T2 01:52:56-01:54:48
EMOGI_COMMIT=743eec3 EMOGI_WHEELS=none DETACH_WAIT=500 BUDGET_S=490 \
  bash tools/device/detached.sh start ho15 bash tools/device/holdout_v13.sh      # H  01:55:02-02:01:59
#   BUDGET_S=490 (H's guard, default 540) so that H ended within the session's device time (515 s left); it
#   deferred nothing. T2's holdout13t.tgz holds the whole train session: train/holdout13t.tgz; T1's and T2's
#   detached.log beside it. H's seven files are call/ as they came back.

# Development machine (CPU, 2 cores), from the repository root at 743eec3, 02:02-02:03 UTC.
# DIR held T2's holdout13t.tgz and H's holdout13_p{1,2,3}.tgz. Its logs: logs.tgz.
source /work/main/.venv/bin/activate
TGZS=DIR PARTS=derive bash tools/device/holdout_v13h.sh
#   then passes.tgz = passes/pP/session (/tmp/ho13h/pP/combined less its empty drift.csv) and
#   passes/pP/call_parameters.json (/tmp/ho13h/pP/call/session/parameters.json), packed: three copies of the same
#   train cells would not fit the tree's room (tests/test_tree_size.py). The held-out graphs' workloads the derive
#   made equal archive/holdout-v14-h200-2026-11-28/workloads/ but for the derivation's own timing (`trace_s`), so
#   workloads/ is a copy of that one.

# The judgement as archived here, from the repository root (each table equals the derive's own byte for byte).
A=archive/holdout-v15-h200-2026-11-29 W=archive/holdout-v15-h200-2026-11-29/workloads X=/tmp/v15x J=/tmp/v15j
mkdir -p $X && tar xzf $A/passes.tgz -C $X
for p in p1 p2 p3; do
  python -m model.holdout --split v13 --runs $X/passes/$p/session --workloads $W/* \
    --archive-id holdout-v15-h200-2026-11-29 --out-dir $J/$p
  python -m model.holdout --split v13 --runs $X/passes/$p/session --parameters $X/passes/$p/call_parameters.json \
    --workloads $W/* --archive-id holdout-v15-h200-2026-11-29 --out-dir $J/own_$p
done
python -m model.holdout_passes --split v13 --judged $J/p1 $J/p2 $J/p3 --own $J/own_p1 $J/own_p2 $J/own_p3 \
  --out-dir $J/judged
cp $J/judged/*.csv $J/judged/source.json $A/ && cp -r $J/judged/judged_call_link $A/
