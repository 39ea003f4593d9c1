# What ran, in order (README.md). Development machine, before the call (598 s on 2 shared cores):
python -m emogi.datasets.generators --kind kron --scale 23 --edge-factor 16 --seed 23 --weights-seed 23 \
  --out /tmp/p23/kron23.w8.csr
python -m model.whatif --term v16 --graph-file /tmp/p23/kron23.w8.csr --json > predictions.json
# Device, one call at 7c4632b (107 s; out: probe23.tgz, build.log):
EMOGI_COMMIT=7c4632b EMOGI_WHEELS=none BUDGET_S=215 timeout 265 bash archive/probe-kron23-h200-2026-11-29/measure.sh
# Development machine, the judgement (writes probe_cells.csv, probe_summary.csv):
tar xzf archive/probe-kron23-h200-2026-11-29/probe23.tgz -C /tmp
PYTHONPATH=. python archive/probe-kron23-h200-2026-11-29/judge.py /tmp/probe23
