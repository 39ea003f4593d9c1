# Device: the lent NVIDIA H100 (nvidia-h100-x1), warm: it had just run the UVM simulator's validation 11 (its build
# reused). One call at 2b9dbf9 (main with split v12 registered). BUDGET_S=190 (registered: 480) only to fit the
# session's remaining device time; nothing was deferred:
EMOGI_COMMIT=2b9dbf9 EMOGI_WHEELS=none BUDGET_S=190 bash tools/device/holdout_v12.sh > $OUT/call.txt 2>&1
#   2026-11-28 02:26:25-02:28:50 UTC (device clock, 145 s). It brought back holdout12.tgz: this folder's call/ (its
#   logs/ moved to logs.tgz, device/session_logs; the call's output is device/call.txt).

# Development machine (CPU, 2 cores, 24 GiB), from the repository root at 2b9dbf9, 02:29:05-02:31:00 UTC: the
# combined session (model.holdout_combine --split v12: the train graphs' runs from the v11 archive's session, the
# held-out graphs' from the call), each held-out graph regenerated with the registered command and seed (checksums
# checked against the call's graphs/*.json) and its workloads derived, then both judgements (logs: logs.tgz, cpu/).
source /work/main/.venv/bin/activate
mkdir -p /tmp/ho12in && tar xzf holdout12.tgz -C /tmp/ho12in
EMOGI_WHEELS=none JOBS=1 H=/tmp/ho12in/session PARTS=derive bash tools/device/holdout_v12.sh
#   then: session/ = /tmp/ho12/combined (less its empty drift.csv), workloads/ = the v11 archive's workloads/ and
#   /tmp/ho12/work/*, call/ = /tmp/ho12in/session.

# The judgements as archived here, from this folder (each equals the derive's own, byte for byte):
PYTHONPATH=/work/main python -m model.holdout --split v12 --runs session --graphs session/graphs \
  --l2 session/micro/l2.csv --workloads workloads/* --archive-id holdout-v12-h100-2026-11-28 --out-dir .
PYTHONPATH=/work/main python -m model.holdout --split v12 --runs session --graphs session/graphs \
  --l2 session/micro/l2.csv --parameters call/parameters.json --workloads workloads/* \
  --archive-id holdout-v12-h100-2026-11-28 --out-dir judged_call_link
