# Device: one warm NVIDIA H100 (nvidia-h100-x1), two calls at b6b390c, carrying resources/holdout (cnr2000's
# file, as tools/device/holdout_study.sh's header says); state in /tmp/ho3 between the calls. Each call brought
# back $OUT/holdout3 (this folder's session/, logs in logs.tgz).
PARTS=call1 bash tools/device/holdout_v3.sh   # 2026-11-27 09:30-09:38 UTC (device clock); deferred urand20
PARTS=call2 bash tools/device/holdout_v3.sh   # 2026-11-27 09:39-09:46 UTC; deferred kron25

# Development machine (CPU, 2 cores, 24 GiB), from the repository root at 57eec57 (what model.holdout imports
# unchanged since b6b390c), resources/holdout/cnr2000.w8.csr present; run twice: the first stopped at the judge
# (4-byte metadata asked of kron24; model/holdout.py fixed, README), the second only judged: H a writable copy of call 2's holdout3 (the complete state:
# call 1's files and call 2's), H3 the derivation's state. Every graph of the runs regenerated with the session's
# command and seed, its checksum checked against session/graphs/*.json by model.holdout, then one
# `model.holdout --split v3 --derive-only` per graph (workloads/<graph>/), then the judgement.
source /work/main/.venv/bin/activate
OUT=/work/ho3/out PARTS=derive H=/work/ho3/h H3=/work/ho3/state bash tools/device/holdout_v3.sh

# The judgement as archived here (the derive's judge part with --archive-id; the workflow's holdout_judge_v3 runs
# the same from this folder), and the L2 curve behind C:
python -m model.holdout --split v3 --runs session --graphs session/graphs --l2 session/micro/l2.csv \
  --workloads workloads/* --archive-id holdout-v3-h100-2026-11-27 --out-dir .
python -m model.l2_capacity session/micro/l2.csv
