#!/usr/bin/env bash
# Issue 21 item 4, capped validation 8: ONE of its three device calls (docs/uvm-capped-validation8.md; the set is
# model/uvm_capped_validation8.py's SET). CALL (a, b or c) names the call; each runs on a fresh lease:
#   (device) CALL=a EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none DETACH_WAIT=580 bash tools/device/detached.sh \
#              start uvmc8a bash tools/device/uvm_capped_validation8.sh                        ~7.5 min, H200
# then give the machine back, and the same with CALL=b and CALL=c. Capped validation 7's call unchanged but for the
# graphs (seed 38) and the name: capped validation 5's design (uvm_capped_session.sh: copies, uvmfault, device and
# cold `uvm` with traces, REPS=5; each uvm-capped (capacity, K) in 3 separate processes of CAPPED_REPS=2 timed runs, in
# the three orders of PASS_ORDERS); the closing uvmfault (micro/uvmfault_end.csv) gives the rule its call factor.
# ESTIMATE: ~470 s with a fresh build, as capped validation 7's call (466 s, archive/uvm-capped-validation7-h200-...).
# The guard (BUDGET_S=540, HARD_S=570) stops it before 600 s; run it detached (tools/device/detached.sh).
# Everything comes back as $OUT/uvmc8$CALL.tgz and $OUT/uvmc8${CALL}_traces.tar.xz.part00, ... The judge (CPU, all
# calls at once; regenerates the graphs, simulates each call's traces):
#   python -m model.uvm_capped_validation8 judge --tarballs uvmc8a.tgz uvmc8b.tgz uvmc8c.tgz --graph-dir /tmp/ucap8g \
#     --out D --jobs 2
set -uo pipefail
case ${CALL:-} in a | b | c) ;; *) echo "uvm_capped_validation8.sh: set CALL to a, b or c (got '${CALL:-}')"; exit 2;; esac
. tools/device/setup.sh
. tools/device/uvm_session.sh
# the registered set (model/uvm_capped_validation8.py SET): name -> generator arguments; seed 38 for all
N=8$CALL; NAMES="kron20s38 urand20s38"
declare -A HOW=([kron20s38]="--kind kron --scale 20 --edge-factor 16" [urand20s38]="--kind urand --scale 20 --edge-factor 16")
declare -A EST=([kron20s38]=240 [urand20s38]=230)
SEED=38;
BUDGET_S=${BUDGET_S:-540}; HARD_S=${HARD_S:-570}
. tools/device/uvm_capped_session.sh
CAPPED_REPS=2
PASS_ORDERS="0.25:1 0.25:4 0.5:1 0.5:4|0.5:4 0.5:1 0.25:4 0.25:1|0.5:1 0.25:1 0.5:4 0.25:4"
capped_session
