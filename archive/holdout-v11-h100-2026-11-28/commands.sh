# Device: the lent NVIDIA H100 (nvidia-h100-x1), warm: it had just run the UVM simulator's validation 10 (its
# build reused). One call at 34c4619 (main with split v11 registered):
EMOGI_COMMIT=34c4619 EMOGI_WHEELS=none DETACH_WAIT=560 bash tools/device/detached.sh start ho11 bash tools/device/holdout_v11.sh
#   2026-11-28 01:43:32-01:48:10 UTC (device clock, 278 s; nothing deferred). It brought back holdout11.tgz: this
#   folder's call/ (its logs/ moved to logs.tgz, device/session_logs; the detached call's log is device/detached.log).

# Development machine (CPU, 2 cores, 24 GiB), from the repository root at 34c4619, 01:55:45-01:57:05 UTC: the
# combined session (model.holdout_combine: the train graphs' runs from the v10 archive, the held-out graphs' from
# the call; drift.csv), each held-out graph regenerated with the registered command and seed (checksums checked
# against the call's graphs/*.json) and its workloads derived, then both judgements (logs: logs.tgz, cpu/).
source /work/main/.venv/bin/activate
mkdir -p /tmp/ho11in && tar xzf holdout11.tgz -C /tmp/ho11in
EMOGI_WHEELS=none JOBS=1 H=/tmp/ho11in/session PARTS=derive bash tools/device/holdout_v11.sh
#   then: session/ = /tmp/ho11/combined (less drift.csv, here at the top), workloads/ = the v10 archive's
#   workloads/ and /tmp/ho11/work/*, call/ = /tmp/ho11in/session.

# The judgements as archived here, from this folder (each equals the derive's own, byte for byte):
PYTHONPATH=/work/main python -m model.holdout --split v11 --runs session --graphs session/graphs \
  --l2 session/micro/l2.csv --workloads workloads/* --archive-id holdout-v11-h100-2026-11-28 --out-dir .
PYTHONPATH=/work/main python -m model.holdout --split v11 --runs session --graphs session/graphs \
  --l2 session/micro/l2.csv --parameters call/parameters.json --workloads workloads/* \
  --archive-id holdout-v11-h100-2026-11-28 --out-dir judged_call_link
