# Device: the lent NVIDIA H200 (nvidia-h200), a fresh machine (this session's second lease), from the repository
# root at 27051af; one call with timeout_s 470, run directly:
EMOGI_COMMIT=27051af EMOGI_WHEELS=none BUDGET_S=400 HARD_S=420 timeout 455 bash tools/device/uvm_capped_graph_check.sh > $OUT/call_stdout.log 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $OUT/gpu.txt
#   2026-11-28 14:39:59-14:45:54 UTC by its own log (355 s). It brought back $OUT/uvmcg.tgz (session/ here) and
#   $OUT/uvmcg_traces.tar.xz.part00 (8.4 MB, sha256 3d9999d809c170ecb9aa1c863756d21c8da703d1023dbabb6524617007e72106;
#   in git history only, at e2b522b below).

# Development machine (CPU), main at 27051af, the tarball and the trace part side by side in /work/dev/gcr:
source /work/main/.venv/bin/activate
python -m model.uvm_capped_graph_check judge --tarball /work/dev/gcr/uvmcg.tgz --graph-dir /tmp/ucapg --out /tmp/gcr/out --jobs 1
#   DECISION: inconclusive (on NVIDIA H200: the difference -5.6% is in neither band of the amended rule)
#   the tables here are /tmp/gcr/out's capped_graph_check_* and source.json, its archive_id set to this folder's name.
python archive/uvm-capped-graph-check-repeat-h200-2026-11-28/repeat.py
#   DECISION: inconclusive (rho urand20s33 0.878, urand20s35 0.942)

# Restoring the trace part for the judge, in a full clone (e2b522b: the commit that added this folder):
A=archive/uvm-capped-graph-check-repeat-h200-2026-11-28
git show e2b522b:$A/session/uvmcg_traces.tar.xz.part00 > /tmp/gcrrep/uvmcg_traces.tar.xz.part00
