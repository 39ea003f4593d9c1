#!/usr/bin/env bash
# Issue 21 item 4, capped validation 4 in ONE device call (docs/uvm-capped-validations.md, "Capped validation 4";
# the set is model/uvm_capped_validation4.py's SET):
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none bash tools/device/uvm_capped_validation4.sh   ~5 min, H100
# EMOGI_COMMIT names the commit in host.txt and every row (the device copy's git metadata may be stale); without it
# the script warns and records the copy's git HEAD. The call's steps, time guard (BUDGET_S=${BUDGET_S:-400},
# HARD_S=${HARD_S:-430}, REPS=${REPS:-5}) and what comes back are uvm_capped_session.sh's, as capped validations 2
# and 3 ran them (archive/uvm-capped-validation3-h100-2026-11-27: 289 s on the same design at seed 31, its build
# already there; a fresh build adds ~40 s).
# ESTIMATE (docs/uvm-capped-validations.md, "Capped validation 4"): ~300 s (~330 s with a fresh build).
# Everything comes back as $OUT/uvmc4.tgz and $OUT/uvmc4_traces.tar.xz.part00, ... (split -b 15M -d). The judge (CPU;
# regenerates the graphs, simulates the traces):
#   python -m model.uvm_capped_validation4 judge --tarball uvmc4.tgz --graph-dir /tmp/ucap4g --out D --jobs 2
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
# the registered set (model/uvm_capped_validation4.py SET): name -> generator arguments; seed 33 for all
N=4; NAMES="kron20s33 urand20s33"
declare -A HOW=([kron20s33]="--kind kron --scale 20 --edge-factor 16" [urand20s33]="--kind urand --scale 20 --edge-factor 16")
declare -A EST=([kron20s33]=130 [urand20s33]=130)
SEED=33;
. tools/device/uvm_capped_session.sh
capped_session
