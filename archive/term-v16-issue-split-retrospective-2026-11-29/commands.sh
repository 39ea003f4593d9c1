# What ran, in order (README.md), on the development machine (2 cores), 2026-11-29.
# 1. Each graph of archive/holdout-h100-2026-11-27 with a PageRank cell, regenerated with that session's command and
#    seeds; its header checksum printed (equal to the session's metadata for all nine), its critical-path table made,
#    the file deleted (08:14-08:19 UTC):
one() { local name=$1; shift
  python -m emogi.datasets.generators "$@" --seed 24 --weights-seed 24 --out /tmp/retro/$name.w8.csr
  python3 -c "import sys; from emogi.csr_header import read_header; print(sys.argv[2], f'{read_header(sys.argv[1]).checksum:016x}')" \
    /tmp/retro/$name.w8.csr $name
  mkdir -p critical/$name && python -m model.critical_path --graph /tmp/retro/$name.w8.csr --out critical/$name/critical.csv
  rm -f /tmp/retro/$name.w8.csr
}
for n in 20 21 22 23; do for k in kron urand; do one $k$n --kind $k --scale $n --edge-factor 16; done; done
one rmat21ef64 --kind kron --scale 21 --edge-factor 64 --rmat-abc 0.45,0.15,0.15
# 2. The judgement (4 s): retro_cells.csv, retro_costs.csv, retro_summary.csv, retro_per_graph.csv
PYTHONPATH=. python archive/term-v16-issue-split-retrospective-2026-11-29/explore.py archive/term-v16-issue-split-retrospective-2026-11-29
