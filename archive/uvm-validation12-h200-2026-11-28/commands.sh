# Device: the lent NVIDIA H200 (nvidia-h200), warm (it had just run capped validation 6; the build there), from the
# repository root at 0628657; one call with timeout_s 600:
EMOGI_COMMIT=0628657 EMOGI_WHEELS=none DETACH_WAIT=560 bash tools/device/detached.sh start uvm12 bash tools/device/uvm_validation12.sh
#   2026-11-28 14:11:04-14:16:25 UTC by its own log (321 s; the call 325 s). It brought back $OUT/uvm12.tgz (here) and
#   detached.log (session/).

# Development machine (CPU), the tarball in /work/dev/uvm12. First at 0628657 (14:24-14:41 UTC):
source /work/main/.venv/bin/activate
python -m model.uvm_validation12 judge --tarball /work/dev/uvm12/uvm12.tgz --graph-dir /tmp/uvm12g --out /tmp/j12/out --jobs 1
#   none: median 4.4%, worst 25.1% over 36 cells; source.json said "commit": "628657" (the hash read as a number).
# Again at 19ba1c5 (provenance read as text), 14:47-15:02 UTC; the tables here are this run's:
python -m model.uvm_validation12 judge --tarball /work/dev/uvm12/uvm12.tgz --graph-dir /tmp/uvm12g --out /tmp/j12b/out --jobs 1
for f in /tmp/j12/out/validation12_*; do cmp "$f" "/tmp/j12b/out/${f##*/}"; done  # all 8 identical
#   source.json: "commit": "0628657"; archive_id set to this folder's name.
python -m figures.fig_uvm_validation12 --cells validation12_cells.csv --source source.json --out fig.png
