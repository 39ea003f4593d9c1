# Device: one warm NVIDIA H100 (nvidia-h100-x1), one detached job at 4477049 (EMOGI_COMMIT=447704982b41), the
# session script .devho/s14.sh (git-excluded; its text is in logs.tgz, device/s14.sh): build once, then, with that
# binary (EMOGI_BINARY), this folder's session first and other studies' calls after it:
bash tools/device/detached.sh start s14 bash .devho/s14.sh        # 2026-11-27 14:06 UTC (device clock)
#   inside it:  OUT=/tmp/s14/ho4 H4=/tmp/ho4 bash tools/device/holdout_v4.sh   # 14:06:34-14:13:53, nothing deferred
# It brought back /tmp/s14/ho4/holdout4.tgz: this folder's session/ (its logs/ moved to logs.tgz, device/session_logs).

# Development machine (CPU, 2 cores, 24 GiB), from the repository root at 4477049, 14:26-14:46 UTC: every graph of
# the runs regenerated with the session's command and seed (model.holdout checks each file's checksum against
# session/graphs/*.json), one `model.holdout --split v4 --derive-only` per graph (workloads/<graph>/), then the judge.
source /work/main/.venv/bin/activate
mkdir -p /work/ho4 && tar xzf holdout4.tgz -C /work/ho4
EMOGI_WHEELS=none H=/work/ho4/session H4=/work/ho4/state OUT=/work/ho4/out PARTS=derive bash tools/device/holdout_v4.sh

# The judgement as archived here (the derive's judge part gave the same cells; the workflow's holdout_judge_v4
# runs the same from this folder):
python -m model.holdout --split v4 --runs session --graphs session/graphs --l2 session/micro/l2.csv \
  --workloads workloads/* --archive-id holdout-v4-h100-2026-11-27 --out-dir .
