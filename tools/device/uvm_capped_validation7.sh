#!/usr/bin/env bash
# Issue 21 item 4, capped validation 7 in ONE device call (docs/uvm-capped-validations.md, "Capped validation 7"; the
# set is model/uvm_capped_validation7.py's SET):
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none DETACH_WAIT=580 bash tools/device/detached.sh start uvmc7 \
#              bash tools/device/uvm_capped_validation7.sh                                     ~7.5 min, H200
# EMOGI_COMMIT names the commit in host.txt and every row (the device copy's git metadata may be stale); without it
# the script warns and records the copy's git HEAD. Capped validation 6's call unchanged but for the graphs (seed 37):
# capped validation 5's design (uvm_capped_session.sh: copies, uvmfault, device and cold `uvm` with traces, REPS=5;
# each uvm-capped (capacity, K) in 3 separate processes of CAPPED_REPS=2 timed runs, in the three orders of
# PASS_ORDERS); the closing uvmfault (micro/uvmfault_end.csv) gives the rule its call factor.
# ESTIMATE (the docs section): ~470 s with a fresh build, from capped validation 6's H200 call (438 s with the build,
# archive/uvm-capped-validation6-h200-2026-11-28). The guard (BUDGET_S=540, HARD_S=570) stops it before 600 s; run it
# detached (tools/device/detached.sh).
# Everything comes back as $OUT/uvmc7.tgz and $OUT/uvmc7_traces.tar.xz.part00, ... (split -b 15M -d). The judge (CPU;
# regenerates the graphs, simulates the traces):
#   python -m model.uvm_capped_validation7 judge --tarball uvmc7.tgz --graph-dir /tmp/ucap7g --out D --jobs 2
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
# the registered set (model/uvm_capped_validation7.py SET): name -> generator arguments; seed 37 for all
N=7; NAMES="kron20s37 urand20s37"
declare -A HOW=([kron20s37]="--kind kron --scale 20 --edge-factor 16" [urand20s37]="--kind urand --scale 20 --edge-factor 16")
declare -A EST=([kron20s37]=240 [urand20s37]=230)
SEED=37;
BUDGET_S=${BUDGET_S:-540}; HARD_S=${HARD_S:-570}
. tools/device/uvm_capped_session.sh
CAPPED_REPS=2
PASS_ORDERS="0.25:1 0.25:4 0.5:1 0.5:4|0.5:4 0.5:1 0.25:4 0.25:1|0.5:1 0.25:1 0.5:4 0.25:4"
capped_session
