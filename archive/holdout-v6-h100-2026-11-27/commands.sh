# Device: one warm NVIDIA H100 (nvidia-h100-x1, the machine that had just run the UVM simulator's validation 5,
# so its build was there), one call at 189d526 (the merge that registered v6):
EMOGI_COMMIT=189d526a EMOGI_WHEELS=none bash tools/device/detached.sh start ho6 bash tools/device/holdout_v6.sh
#   2026-11-27 17:05:09-17:11:20 UTC (device clock, 371 s). It brought back holdout6.tgz: this folder's session/
#   (its logs/ moved to logs.tgz, device/session_logs; the call's log is device/detached.log).

# Development machine (CPU, 2 cores, 24 GiB), from the repository root at 189d526, 17:25-17:29 UTC: every graph of
# the runs regenerated with the session's command and seed (model.holdout checks each file's checksum against
# session/graphs/*.json), one `model.holdout --split v6 --derive-only` per graph (workloads/<graph>/), then the
# judge (its logs: logs.tgz, cpu/).
source /work/main/.venv/bin/activate
mkdir -p /work/ho6 && tar xzf holdout6.tgz -C /work/ho6
EMOGI_WHEELS=none H=/work/ho6/session H6=/work/ho6/state OUT=/work/ho6/out PARTS=derive bash tools/device/holdout_v6.sh

# The judgement as archived here, from this folder (the derive's judge part gave the same three tables, byte for byte):
PYTHONPATH=/work/main python -m model.holdout --split v6 --runs session --graphs session/graphs \
  --l2 session/micro/l2.csv --workloads workloads/* --archive-id holdout-v6-h100-2026-11-27 --out-dir .
