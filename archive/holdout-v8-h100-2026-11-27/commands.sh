# Device: one warm NVIDIA H100 (nvidia-h100-x1, the machine that had just run the UVM simulator's validation 7,
# so its build was there), one call at 661906b (the merge that registered v8):
EMOGI_COMMIT=661906b EMOGI_WHEELS=none bash tools/device/detached.sh start ho8 bash tools/device/holdout_v8.sh
#   2026-11-27 18:47:59-18:54:20 UTC (device clock, 381 s). It brought back holdout8.tgz: this folder's session/
#   (its logs/ moved to logs.tgz, device/session_logs; the call's log is device/detached.log).

# Development machine (CPU, 2 cores, 24 GiB), from the repository root at 661906b, 18:54-18:58 UTC: every graph of
# the runs regenerated with the session's command and seed (model.holdout checks each file's checksum against
# session/graphs/*.json), one `model.holdout --split v8 --derive-only` per graph (workloads/<graph>/), then the
# judge (its logs: logs.tgz, cpu/).
source /work/main/.venv/bin/activate
mkdir -p /work/ho8 && tar xzf holdout8.tgz -C /work/ho8
EMOGI_WHEELS=none H=/work/ho8/session H8=/work/ho8/state OUT=/work/ho8/out PARTS=derive JOBS=1 bash tools/device/holdout_v8.sh

# The judgement as archived here, from this folder (the derive's judge part gave the same three tables, byte for byte):
PYTHONPATH=/work/main python -m model.holdout --split v8 --runs session --graphs session/graphs \
  --l2 session/micro/l2.csv --workloads workloads/* --archive-id holdout-v8-h100-2026-11-27 --out-dir .
