# Device: the lent NVIDIA H200 (nvidia-h200), three calls from the repository root at 8e322d0 (d771919, the
# registration, plus judge-side commits only: tests, the counts' memo, the shared over-calls code, an archive
# README), each on a fresh machine: the machine was given back (`give_back`) after each call. timeout_s 600 each:
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt; CALL=a EMOGI_COMMIT=8e322d0 EMOGI_WHEELS=none DETACH_WAIT=560 bash tools/device/detached.sh start uvm13a bash tools/device/uvm_validation13.sh
#   2026-11-29 14:58:41-15:04:45 UTC by its own log (364 s with the fresh build), GPU-3d4b4238-...
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt; CALL=b EMOGI_COMMIT=8e322d0 EMOGI_WHEELS=none DETACH_WAIT=560 bash tools/device/detached.sh start uvm13b bash tools/device/uvm_validation13.sh
#   15:05:29-15:11:34 UTC (365 s), GPU-043caa40-...
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt; CALL=c EMOGI_COMMIT=8e322d0 EMOGI_WHEELS=none DETACH_WAIT=560 bash tools/device/detached.sh start uvm13c bash tools/device/uvm_validation13.sh
#   15:12:19-15:18:31 UTC (372 s), GPU-23578e23-...
# Each brought back gpu.txt and detached.log (session/uvm13<call>/) and uvm13<call>.tgz (here), sha256:
#   a 9e57a795d1e7f72c65be4d9c30caf1e83f3a2045e36123edc3d5efcab4e4752e
#   b d8e49a198f2980c9cf92657958f788262f8edc3eea7c41943db30dc10fb4d5d1
#   c ceb5374400f9d2d963fabdf106fc68af18ef4c9c420819b1c2482e7508670e1f

# Development machine (CPU), main at 8e322d0, the three tarballs in /work/uvm13 (20 min 12 s):
source /work/main/.venv/bin/activate
python -m model.uvm_validation13 judge --tarballs uvm13a.tgz uvm13b.tgz uvm13c.tgz --graph-dir /tmp/uvm13g --out /work/uvm13/judge --jobs 2
#   none: median 4.7%, worst 10.7% over 36 cells, each judged over 3 calls: both targets met;
#   0 registered cells not judged.
#   The tables here are /work/uvm13/judge's validation13_* and source.json (its archive_id set to this folder's
#   name), and calls/uvm13<call>/'s tables and source.json (each call's own judgement; its unpacked session left
#   out: the tarball holds it).
# fig.png, drawn from this folder's tables (the workflow draws the same from here):
python -m figures.fig_uvm_validation13 --cells archive/uvm-validation13-h200-2026-11-29/validation13_cells.csv --source archive/uvm-validation13-h200-2026-11-29/source.json --out archive/uvm-validation13-h200-2026-11-29/fig.png

# Reproduced from this folder, from the repository root:
A=archive/uvm-validation13-h200-2026-11-29
mkdir -p /tmp/u13rep && cp $A/uvm13?.tgz /tmp/u13rep/
python -m model.uvm_validation13 judge --tarballs /tmp/u13rep/uvm13a.tgz /tmp/u13rep/uvm13b.tgz /tmp/u13rep/uvm13c.tgz --graph-dir /tmp/uvm13g2 --out /tmp/u13rep/judge --jobs 1
for f in $A/validation13_*; do cmp "$f" "/tmp/u13rep/judge/${f##*/}"; done
