# Device: one warm lent NVIDIA H200 machine (nvidia-h200), started fresh for T1; the calls one after another, each
# within seconds of the last (run tool, nothing carried). The tree was main at 0724f05 (no kernel file changed
# since v15's 743eec3).
EMOGI_COMMIT=0724f05 EMOGI_WHEELS=none DETACH_WAIT=560 \
  bash tools/device/detached.sh start ho16t1 bash tools/device/holdout_v13h.sh   # T1 04:47:58-04:55:59 (device clock)
EMOGI_COMMIT=0724f05 EMOGI_WHEELS=none DETACH_WAIT=560 \
  bash tools/device/detached.sh start ho16t2 bash tools/device/holdout_v13h.sh   # T2 04:56:38-04:57:33
EMOGI_COMMIT=0724f05 EMOGI_WHEELS=none DETACH_WAIT=560 \
  bash tools/device/detached.sh start ho16 bash tools/device/holdout_v13.sh      # H  04:57:42-05:03:13
#   T1 deferred 3 graphs, T2 measured them; T2's holdout13t.tgz holds the whole train session: train/holdout13t.tgz;
#   T1's and T2's detached.log beside it. H deferred nothing; its seven files are call/ as they came back.

# Development machine (CPU, 2 cores), from the repository root at 0724f05, 05:03-05:08 UTC.
# DIR held T2's holdout13t.tgz and H's holdout13_p{1,2,3}.tgz. Their logs: logs.tgz.
source /work/main/.venv/bin/activate
TGZS=DIR PARTS=derive bash tools/device/holdout_v13h.sh
#   the registered derive: it judges split v13 with term v12 (reported beside: term_v12/ holds its tables). Then
#   passes.tgz = passes/pP/session (/tmp/ho13h/pP/combined less its empty drift.csv) and
#   passes/pP/call_parameters.json (/tmp/ho13h/pP/call/session/parameters.json), packed as v15's. The held-out
#   graphs' workloads the derive made equal v15's but for the derivation's own timing (`trace_s`), so workloads/ is a
#   copy of v15's, with each graph's critical-path table added from its 8-byte file regenerated with split v13's
#   generator arguments (NAME, KIND, SCALE, EF, SEED as model/holdout_split_v13.py's GRAPHS; the judge checks each
#   table's checksum against the workloads'):
#     python -m emogi.datasets.generators --kind KIND --scale SCALE --edge-factor EF --seed SEED \
#       --weights-seed SEED --out G/NAME.csr
#     python -m model.critical_path --graph G/NAME.csr --out workloads/NAME/critical.csv

# The judgement as archived here, from the repository root (each table equals the one first judged from /tmp byte for
# byte; source.json differs only in its paths).
A=archive/holdout-v16-h200-2026-11-29 W=archive/holdout-v16-h200-2026-11-29/workloads X=/tmp/v16x J=/tmp/v16j
mkdir -p $X && tar xzf $A/passes.tgz -C $X
for p in p1 p2 p3; do
  python -m model.holdout --split v16 --runs $X/passes/$p/session --workloads $W/* \
    --archive-id holdout-v16-h200-2026-11-29 --out-dir $J/$p
  python -m model.holdout --split v16 --runs $X/passes/$p/session --parameters $X/passes/$p/call_parameters.json \
    --workloads $W/* --archive-id holdout-v16-h200-2026-11-29 --out-dir $J/own_$p
done
python -m model.holdout_passes --split v16 --judged $J/p1 $J/p2 $J/p3 --own $J/own_p1 $J/own_p2 $J/own_p3 \
  --out-dir $J/judged
cp $J/judged/*.csv $J/judged/source.json $A/ && cp -r $J/judged/judged_call_link $A/
# term v12 beside (split v13, the registered derive's judgement), the same way with --split v13 into $J/v13, then
cp $J/v13/judged/*.csv $A/term_v12/
