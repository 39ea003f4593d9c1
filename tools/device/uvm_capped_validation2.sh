#!/usr/bin/env bash
# Issue 21 item 4, capped validation 2 in ONE device call (docs/uvm-capped-validations.md, "Capped validation 2";
# the set is model/uvm_capped_validation2.py's SET):
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none bash tools/device/uvm_capped_validation2.sh   ~5 min, H100
# EMOGI_COMMIT names the commit in host.txt and every row (the device copy's git metadata may be stale); without it
# the script warns and records the copy's git HEAD. The call's steps, time guard (BUDGET_S=${BUDGET_S:-400},
# HARD_S=${HARD_S:-430}, REPS=${REPS:-5}) and what comes back are uvm_capped_session.sh's (run 2026-11-27 as
# archive/uvm-capped-validation2-h100-2026-11-27, before those steps moved there unchanged).
# ESTIMATE (docs/uvm-capped-validations.md, from the registered rule on the graphs' CPU-derived traces): ~320 s.
# Everything comes back as $OUT/uvmc2.tgz and $OUT/uvmc2_traces.tar.xz.part00, ... (split -b 15M -d). The judge (CPU;
# regenerates the graphs, simulates the traces):
#   python -m model.uvm_capped_validation2 judge --tarball uvmc2.tgz --graph-dir /tmp/ucap2g --out D --jobs 2
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
# the registered set (model/uvm_capped_validation2.py SET): name -> generator arguments; seed 30 for all
N=2; NAMES="kron20s30 urand20s30"
declare -A HOW=([kron20s30]="--kind kron --scale 20 --edge-factor 16" [urand20s30]="--kind urand --scale 20 --edge-factor 16")
declare -A EST=([kron20s30]=130 [urand20s30]=130)
SEED=30;
. tools/device/uvm_capped_session.sh
capped_session
