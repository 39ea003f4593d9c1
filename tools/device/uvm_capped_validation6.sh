#!/usr/bin/env bash
# Issue 21 item 4, capped validation 6 in ONE device call on an H200 (docs/uvm-capped-validations.md, "Capped
# validation 6"; the set is model/uvm_capped_validation6.py's SET):
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none DETACH_WAIT=580 bash tools/device/detached.sh start uvmc6 \
#              bash tools/device/uvm_capped_validation6.sh                                     ~7.5 min, H200
# EMOGI_COMMIT names the commit in host.txt and every row (the device copy's git metadata may be stale); without it
# the script warns and records the copy's git HEAD. Capped validation 5's design unchanged (uvm_capped_session.sh:
# copies, uvmfault, device and cold `uvm` with traces, REPS=5; each uvm-capped (capacity, K) in 3 separate processes
# of CAPPED_REPS=2 timed runs, in the three orders of PASS_ORDERS, model/uvm_capped_validation5.py ORDERS);
# runs/capped.<algorithm>.<graph>.f<f>.k<K>.p<pass>.csv. The judge refuses a call on any GPU but an NVIDIA H200.
# ESTIMATE (the docs section): ~445 s with the build there, ~480 s with a fresh one, ~495 s with the packing, from the
# graph-or-machine check's H200 call log (archive/uvm-capped-graph-check-h200-2026-11-28, 368 s with a warm build: 2.4-2.6
# s of per-process overhead and 54-65 s of timed capped runs a graph; here 3 x overhead + 6/5 x runs = 185-192 s of
# capped work a graph, ~18 s of device and cold runs a graph, ~25 s of copies and uvmfault). The guard
# (BUDGET_S=540, HARD_S=570) stops it before 600 s; run it detached (tools/device/detached.sh).
# Everything comes back as $OUT/uvmc6.tgz and $OUT/uvmc6_traces.tar.xz.part00, ... (split -b 15M -d). The judge (CPU;
# regenerates the graphs, simulates the traces):
#   python -m model.uvm_capped_validation6 judge --tarball uvmc6.tgz --graph-dir /tmp/ucap6g --out D --jobs 2
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
# the registered set (model/uvm_capped_validation6.py SET): name -> generator arguments; seed 36 for all
N=6; NAMES="kron20s36 urand20s36"
declare -A HOW=([kron20s36]="--kind kron --scale 20 --edge-factor 16" [urand20s36]="--kind urand --scale 20 --edge-factor 16")
declare -A EST=([kron20s36]=240 [urand20s36]=230)
SEED=36;
BUDGET_S=${BUDGET_S:-540}; HARD_S=${HARD_S:-570}
. tools/device/uvm_capped_session.sh
CAPPED_REPS=2
PASS_ORDERS="0.25:1 0.25:4 0.5:1 0.5:4|0.5:4 0.5:1 0.25:4 0.25:1|0.5:1 0.25:1 0.5:4 0.25:4"
capped_session
