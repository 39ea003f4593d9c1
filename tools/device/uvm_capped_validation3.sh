#!/usr/bin/env bash
# Issue 21 item 4, capped validation 3 in ONE device call (docs/uvm-capped-validations.md, "Capped validation 3";
# the set is model/uvm_capped_validation3.py's SET):
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none bash tools/device/uvm_capped_validation3.sh   ~5 min, H100
# EMOGI_COMMIT names the commit in host.txt and every row (the device copy's git metadata may be stale); without it
# the script warns and records the copy's git HEAD. The call's steps, time guard (BUDGET_S=${BUDGET_S:-400},
# HARD_S=${HARD_S:-430}, REPS=${REPS:-5}) and what comes back are uvm_capped_session.sh's, as capped validation 2
# ran them (archive/uvm-capped-validation2-h100-2026-11-27: 290 s on the same design at seed 30).
# ESTIMATE (docs/uvm-capped-validations.md, "Capped validation 3"): ~300 s.
# Everything comes back as $OUT/uvmc3.tgz and $OUT/uvmc3_traces.tar.xz.part00, ... (split -b 15M -d). The judge (CPU;
# regenerates the graphs, simulates the traces):
#   python -m model.uvm_capped_validation3 judge --tarball uvmc3.tgz --graph-dir /tmp/ucap3g --out D --jobs 2
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
# the registered set (model/uvm_capped_validation3.py SET): name -> generator arguments; seed 31 for all
N=3; NAMES="kron20s31 urand20s31"
declare -A HOW=([kron20s31]="--kind kron --scale 20 --edge-factor 16" [urand20s31]="--kind urand --scale 20 --edge-factor 16")
declare -A EST=([kron20s31]=130 [urand20s31]=130)
SEED=31;
. tools/device/uvm_capped_session.sh
capped_session
