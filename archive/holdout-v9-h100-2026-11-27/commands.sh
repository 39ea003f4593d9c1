# Device: one warm NVIDIA H100 (nvidia-h100-x1; the machine had just run the UVM simulator's validation 8, so its
# build was there), one call at 9ed36c8 (the merge that registered v9 and added `emogi run --run-order`):
EMOGI_COMMIT=9ed36c8 EMOGI_WHEELS=none DETACH_WAIT=560 bash tools/device/detached.sh start ho9 bash tools/device/holdout_v9.sh
#   2026-11-27 20:46:07-20:52:27 UTC (device clock, 380 s). It brought back holdout9.tgz: this folder's session/
#   (its logs/ moved to logs.tgz, device/session_logs; the call's log is device/detached.log).

# Development machine (CPU, 2 cores, 24 GiB), from the repository root at 68eb8fe (model/ as at 9ed36c8), 20:59-21:03
# UTC: every graph regenerated with the session's command and seed (model.holdout checks each file's checksum
# against session/graphs/*.json), one `model.holdout --split v9 --derive-only` per graph (workloads/<graph>/), then
# the judge (its logs: logs.tgz, cpu/).
source /work/main/.venv/bin/activate
mkdir -p /tmp/j && tar xzf holdout9.tgz -C /tmp/j
EMOGI_WHEELS=none H=/tmp/j/session PARTS=derive JOBS=1 bash tools/device/holdout_v9.sh

# The judgement as archived here, from this folder (the derive's judge gave the same three tables, byte for byte):
PYTHONPATH=/work/main python -m model.holdout --split v9 --runs session --graphs session/graphs \
  --l2 session/micro/l2.csv --workloads workloads/* --archive-id holdout-v9-h100-2026-11-27 --out-dir .
