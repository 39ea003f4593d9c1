# Device: the lent NVIDIA H200 (nvidia-h200), a fresh machine (the session's first call), from the repository root
# at 90f7711; one call with timeout_s 600 (DETACH_WAIT 575, not the registered 580: the call ended after 466 s):
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt; EMOGI_COMMIT=90f7711 EMOGI_WHEELS=none DETACH_WAIT=575 bash tools/device/detached.sh start uvmc7 bash tools/device/uvm_capped_validation7.sh
#   2026-11-28 17:09:25-17:16:42 UTC by its own log (437 s with the fresh build; the call 466 s). It brought back
#   $OUT/gpu.txt (GPU-ad552c29-c663-ec1e-ffe3-1d450aceb52c: session/gpu.txt), $OUT/uvmc7.tgz (here) and
#   $OUT/uvmc7_traces.tar.xz.part00 (5.6 MB, 24 traces, sha256
#   7da4c8e6ea68edd89177e1d1100050b6650d0c9c8ecac181064d9c00ee030d2a; in git history only: see README.md, Files).

# Development machine (CPU), main at 90f7711, the tarball and the trace part side by side in /tmp/uvmc7 (47 s):
source /work/main/.venv/bin/activate
python -m model.uvm_capped_validation7 judge --tarball /tmp/uvmc7/uvmc7.tgz --graph-dir /tmp/ucap7g --out /tmp/uvmc7/judged --jobs 2
#   micro_end (g = 1.528, uvmfault_end 3.35866 us): median 5.9%, worst 32.4% over 96 cells: median met, worst
#   missed; 0 registered cells not measured.
#   The tables here are /tmp/uvmc7/judged's capped_validation7_* and source.json, its archive_id set to this folder's
#   name.
# fig.png, drawn from this folder's tables (the workflow draws the same from here):
python -m figures.fig_uvm_capped_validation7 --cells archive/uvm-capped-validation7-h200-2026-11-28/capped_validation7_cells.csv --source archive/uvm-capped-validation7-h200-2026-11-28/source.json --out archive/uvm-capped-validation7-h200-2026-11-28/fig.png

# Reproduced from this folder (the judge needs the trace part beside the tarball), from the repository root:
A=archive/uvm-capped-validation7-h200-2026-11-28
mkdir -p /tmp/uc7rep && cp $A/uvmc7.tgz /tmp/uc7rep/
git show a3ca83f:$A/uvmc7_traces.tar.xz.part00 > /tmp/uc7rep/uvmc7_traces.tar.xz.part00  # in a full clone
python -m model.uvm_capped_validation7 judge --tarball /tmp/uc7rep/uvmc7.tgz --graph-dir /tmp/ucap7g2 --out /tmp/uc7j2 --jobs 2
for f in $A/capped_validation7_*; do cmp "$f" "/tmp/uc7j2/${f##*/}"; done  # all identical; source.json: archive_id
