# Device: one warm NVIDIA H100 (nvidia-h100-x1, the machine that had just run the UVM simulator's validation 6,
# so its build was there), one call at 2cb1a44 (the merge that registered v7):
EMOGI_COMMIT=2cb1a44 EMOGI_WHEELS=none bash tools/device/detached.sh start ho7 bash tools/device/holdout_v7.sh
#   2026-11-27 18:02:05-18:08:11 UTC (device clock, 366 s). It brought back holdout7.tgz: this folder's session/
#   (its logs/ moved to logs.tgz, device/session_logs; the call's log is device/detached.log).

# Development machine (CPU, 2 cores, 24 GiB), from the repository root at 2cb1a44, 18:17-18:20 UTC: every graph of
# the runs regenerated with the session's command and seed (model.holdout checks each file's checksum against
# session/graphs/*.json), one `model.holdout --split v7 --derive-only` per graph (workloads/<graph>/), then the
# judge (its logs: logs.tgz, cpu/).
source /work/main/.venv/bin/activate
mkdir -p /work/ho7 && tar xzf holdout7.tgz -C /work/ho7
EMOGI_WHEELS=none H=/work/ho7/session H7=/work/ho7/state OUT=/work/ho7/out PARTS=derive bash tools/device/holdout_v7.sh

# The judgement as archived here, from this folder (the derive's judge part gave the same three tables, byte for byte):
PYTHONPATH=/work/main python -m model.holdout --split v7 --runs session --graphs session/graphs \
  --l2 session/micro/l2.csv --workloads workloads/* --archive-id holdout-v7-h100-2026-11-27 --out-dir .
