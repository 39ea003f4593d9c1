# Device: the lent NVIDIA H200 (nvidia-h200), a fresh machine (the session's first call), from the repository root
# at 0628657; one call with timeout_s 600:
EMOGI_COMMIT=0628657 EMOGI_WHEELS=none DETACH_WAIT=580 bash tools/device/detached.sh start uvmc6 bash tools/device/uvm_capped_validation6.sh
#   2026-11-28 14:03:11-14:10:29 UTC by its own log (438 s; the call 466 s). It brought back $OUT/uvmc6.tgz (here)
#   and $OUT/uvmc6_traces.tar.xz.part00 (5.5 MB, 24 traces, sha256
#   a70d274c1b92423af95de19aa48919f93aaf527ea596df9f881b1e1297a2f4c3; in git history only: see README.md, Files).

# Development machine (CPU), main at 0628657 with the provenance-as-text fix (emogi.schema.read_measured_csv),
# the tarball and the trace part side by side in /work/dev/uvmc6 (90 s):
source /work/main/.venv/bin/activate
python -m model.uvm_capped_validation6 judge --tarball /work/dev/uvmc6/uvmc6.tgz --graph-dir /tmp/ucap6g --out /tmp/j6/out --jobs 1
#   h200: median 12.7%, worst 41.8% over 96 cells: both targets missed; 0 registered cells not measured.
#   The tables here are /tmp/j6/out's capped_validation6_* and source.json, its archive_id set to this folder's name.
python -m figures.fig_uvm_capped_validation6 --cells /tmp/j6/out/capped_validation6_cells.csv --source /tmp/j6/out/source.json --out fig.png

# Reproduced from this folder (the judge needs the trace part beside the tarball), from the repository root:
A=archive/uvm-capped-validation6-h200-2026-11-28
mkdir -p /tmp/uc6rep && cp $A/uvmc6.tgz /tmp/uc6rep/
git show 71e0c6c:$A/uvmc6_traces.tar.xz.part00 > /tmp/uc6rep/uvmc6_traces.tar.xz.part00  # in a full clone
python -m model.uvm_capped_validation6 judge --tarball /tmp/uc6rep/uvmc6.tgz --graph-dir /tmp/ucap6g2 --out /tmp/uc6j2 --jobs 1
for f in $A/capped_validation6_*; do cmp "$f" "/tmp/uc6j2/${f##*/}"; done  # all identical; source.json: archive_id
