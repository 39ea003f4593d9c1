# Device: the lent NVIDIA H200 (nvidia-h200), warm: it had just run other calls (its build reused). One call, run
# directly (not through detached.sh as registered), from the repository root. BUDGET_S=420 HARD_S=440 (registered:
# 520 / 540) only to end inside the session's remaining device time (509 s); nothing was deferred, 144 of 144 cells:
EMOGI_COMMIT=f7fec6f EMOGI_WHEELS=none BUDGET_S=420 HARD_S=440 timeout 480 bash tools/device/uvm_capped_graph_check.sh
#   2026-11-28 11:09:40-11:15:48 UTC by its own log (368 s; with the packing ~11:16:10). It brought back
#   $OUT/uvmcg.tgz (this folder's session/uvmcg.tgz) and $OUT/uvmcg_traces.tar.xz.part00 (8.4 MB, 36 traces, sha256
#   451db57b589447f42745e183ed5eb4814979f374b7c39fd85a42e02b67ddadf3; in git history at bcfc0e6, out of the tree: its size limit).

# Development machine (CPU), from main at 4f26975, the tarball and the trace part side by side in /tmp/ucg (68 s):
source /work/main/.venv/bin/activate
python -m model.uvm_capped_graph_check judge --tarball /tmp/ucg/uvmcg.tgz --graph-dir /tmp/ucapg --out /tmp/ucgj --jobs 2
#   DECISION: machines (on NVIDIA H200: the two urand graphs within 5% of each other (-0.8%))
#   the tables here are /tmp/ucgj's capped_graph_check_* and source.json, its archive_id set to this folder's name.

# Reproduced from this folder's tarball (the judge needs the trace part beside it), from the repository root at
# 4f26975 (122 s):
A=archive/uvm-capped-graph-check-h200-2026-11-28
mkdir -p /tmp/ucgrep && cp $A/session/uvmcg.tgz /tmp/ucgrep/
ln -sf /tmp/ucg/uvmcg_traces.tar.xz.part00 /tmp/ucgrep/uvmcg_traces.tar.xz.part00
#   (in a full clone: git show bcfc0e6:$A/session/uvmcg_traces.tar.xz.part00 > /tmp/ucgrep/uvmcg_traces.tar.xz.part00)
python -m model.uvm_capped_graph_check judge --tarball /tmp/ucgrep/uvmcg.tgz --graph-dir /tmp/ucapg2 --out /tmp/ucgj2 --jobs 1
for f in $A/capped_graph_check_*; do cmp "$f" "/tmp/ucgj2/${f##*/}"; done  # all 8 identical; source.json: archive_id
#   Without the trace part the judge stops: "no device-mode trace to simulate" (rc 1).
