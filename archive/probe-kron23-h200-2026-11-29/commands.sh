# What ran, in order (README.md). Development machine, before the call (598 s on 2 shared cores):
python -m emogi.datasets.generators --kind kron --scale 23 --edge-factor 16 --seed 23 --weights-seed 23 \
  --out /tmp/p23/kron23.w8.csr
python -m model.whatif --term v16 --graph-file /tmp/p23/kron23.w8.csr --json > predictions.json
