# Device: one warm NVIDIA H100 (nvidia-h100-x1; the machine had just run the UVM simulator's validation 9, so its
# build was there), one call at ce2198e (main with split v10 registered; the has_mode refactor of run_command.cu):
EMOGI_COMMIT=ce2198e EMOGI_WHEELS=none bash tools/device/holdout_v10.sh
#   2026-11-27 22:38:39-22:47:00 UTC (device clock, 501 s; nothing deferred). It brought back holdout10.tgz: this
#   folder's session/ (its logs/ moved to logs.tgz, device/session_logs).

# Development machine (CPU, 2 cores, 24 GiB), from the repository root at ce2198e, 23:02-23:07 UTC: every graph
# regenerated with the session's command and seed (model.holdout checks each file's checksum against
# session/graphs/*.json), one `model.holdout --split v10 --derive-only` per graph (workloads/<graph>/), then the
# judge (its logs: logs.tgz, cpu/).
source /work/main/.venv/bin/activate
mkdir -p /tmp/j10 && tar xzf holdout10.tgz -C /tmp/j10
EMOGI_WHEELS=none H=/tmp/j10/session PARTS=derive JOBS=1 bash tools/device/holdout_v10.sh

# The judgement as archived here, from this folder (the derive's judge gave the same three tables, byte for byte):
PYTHONPATH=/work/main python -m model.holdout --split v10 --runs session --graphs session/graphs \
  --l2 session/micro/l2.csv --workloads workloads/* --archive-id holdout-v10-h100-2026-11-27 --out-dir .
