# Device: one warm NVIDIA H100 (nvidia-h100-x1, the machine that had just run validation 4 of the UVM simulator,
# so its build was there), one call at 0c69faa:
EMOGI_COMMIT=0c69faa EMOGI_WHEELS=none bash tools/device/holdout_v5.sh   # 2026-11-27 15:09:43-15:16:30 UTC (device clock)
# It brought back holdout5.tgz: this folder's session/ (its logs/ moved to logs.tgz, device/session_logs).

# Development machine (CPU, 2 cores, 24 GiB), from the repository root at 0c69faa, 15:16-15:23 UTC: every graph of
# the runs regenerated with the session's command and seed (model.holdout checks each file's checksum against
# session/graphs/*.json), one `model.holdout --split v5 --derive-only` per graph (workloads/<graph>/), then the judge.
source /work/main/.venv/bin/activate
mkdir -p /work/ho5 && tar xzf holdout5.tgz -C /work/ho5
EMOGI_WHEELS=none H=/work/ho5/session H5=/work/ho5/state OUT=/work/ho5/out PARTS=derive bash tools/device/holdout_v5.sh

# The judgement as archived here (the derive's judge part gave the same cells):
python -m model.holdout --split v5 --runs session --graphs session/graphs --l2 session/micro/l2.csv \
  --workloads workloads/* --archive-id holdout-v5-h100-2026-11-27 --out-dir .
