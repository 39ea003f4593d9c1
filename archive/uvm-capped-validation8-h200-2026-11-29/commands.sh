# Device: the lent NVIDIA H200 (nvidia-h200), three calls from the repository root at 0caa2f8 (the registration),
# each on a fresh machine: the machine was given back (`give_back`) after each call. timeout_s 600 each:
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt; CALL=a EMOGI_COMMIT=0caa2f8 EMOGI_WHEELS=none DETACH_WAIT=575 bash tools/device/detached.sh start uvmc8a bash tools/device/uvm_capped_validation8.sh
#   2026-11-29 11:34:08-11:41:43 UTC by its own log (455 s with the fresh build; the call 476 s), GPU-825c119f-...
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt; CALL=b EMOGI_COMMIT=0caa2f8 EMOGI_WHEELS=none DETACH_WAIT=575 bash tools/device/detached.sh start uvmc8b bash tools/device/uvm_capped_validation8.sh 2>&1 | tail -5
#   11:42:51-11:50:38 UTC (467 s; the call 496 s), GPU-d2a0bf86-...
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt; CALL=c EMOGI_COMMIT=0caa2f8 EMOGI_WHEELS=none DETACH_WAIT=575 bash tools/device/detached.sh start uvmc8c bash tools/device/uvm_capped_validation8.sh 2>&1 | tail -5
#   11:51:51-11:59:26 UTC (455 s; the call 476 s), GPU-8f0dca1c-...
# Each brought back gpu.txt and detached.log (session/uvmc8<call>/), uvmc8<call>.tgz (here) and
# uvmc8<call>_traces.tar.xz.part00 (5.6 MB each, 24 traces; in git history only, see README.md, Files), sha256:
#   a ba44849139c785420dc3c1529fb14784c92274f651e5de1c7daf853a94e52a29
#   b 8c43bb8ee698b4f1ba53bc6686c63148302cbbeb7f5160f17114da1b5f00d17c
#   c 0b46022a0ca24b6964656ecabe1a0c2de75da5261b4af863369d8aeb5e431163

# Development machine (CPU), main at 0caa2f8 plus the judge's uvm_ms column (commit with this folder), each call's
# tarball and trace part side by side in /tmp/ucap8/<call> (3 min 16 s):
source /work/main/.venv/bin/activate
python -m model.uvm_capped_validation8 judge --tarballs /tmp/ucap8/a/uvmc8a.tgz /tmp/ucap8/b/uvmc8b.tgz /tmp/ucap8/c/uvmc8c.tgz --graph-dir /tmp/ucap8g --out /tmp/ucap8/judge --jobs 2
#   micro_end: median 4.4%, worst 15.4% over 96 cells, each judged over 3 calls: both targets met;
#   0 registered cells not judged.
#   The tables here are /tmp/ucap8/judge's capped_validation8_* and source.json (its archive_id set to this folder's
#   name), and calls/<call>/'s tables and source.json (each call's own judgement; its unpacked session left out).
# fig.png, drawn from this folder's tables (the workflow draws the same from here):
python -m figures.fig_uvm_capped_validation8 --cells archive/uvm-capped-validation8-h200-2026-11-29/capped_validation8_cells.csv --source archive/uvm-capped-validation8-h200-2026-11-29/source.json --out archive/uvm-capped-validation8-h200-2026-11-29/fig.png

# Reproduced from this folder (the judge needs each trace part beside its tarball), from the repository root:
A=archive/uvm-capped-validation8-h200-2026-11-29
mkdir -p /tmp/uc8rep && cp $A/uvmc8?.tgz /tmp/uc8rep/
for c in a b c; do git show 3245ef8:$A/uvmc8${c}_traces.tar.xz.part00 > /tmp/uc8rep/uvmc8${c}_traces.tar.xz.part00; done  # in a full clone
python -m model.uvm_capped_validation8 judge --tarballs /tmp/uc8rep/uvmc8a.tgz /tmp/uc8rep/uvmc8b.tgz /tmp/uc8rep/uvmc8c.tgz --graph-dir /tmp/ucap8g2 --out /tmp/uc8j2 --jobs 2
for f in $A/capped_validation8_*; do cmp "$f" "/tmp/uc8j2/${f##*/}"; done  # identical; source.json: archive_id
