#!/usr/bin/env bash
# A diagnostic, not a validation (archive/uvm-capped-validation3-analysis-2026-11-27, "(b)"): capped validation 3's
# urand20s31 BFS at K = 4 ran faster at 1/4 of the edge list than at 1/2 (Naive 48.6-51.2 against 69.9-74.4 ms),
# while the simulator (and the kernel's own LRU, which evicted the same chunks) moves the same bytes at both. Is it
# the capacity or the order the runs came in? The same graph (seed 31), BFS only, both variants, uvm-capped with the
# capacities in DESCENDING order (1/2, 3/8, 1/4, 1/8) at K = 4 and then K = 1, 5 timed runs and no warm-up each, as
# capped validation 3 ran them; no uvmfault (the copies at the start and end are kept).
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none bash tools/device/uvm_capped_order_check.sh   ~110 s, H100
# Everything comes back as $OUT/uvmc3d.tgz (and $OUT/uvmc3d_traces.tar.xz.part00): runs/capped.bfs.urand20s31.f*.k*.csv
# and their logs, each with the kernel's per-run evictions. Expected, if it is the capacity: at K = 4 the 1/4 and 1/8
# medians below 1/2's again (as in capped validation 3); if it was the order: 1/2 at or below 1/4.
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
N=3d; NAMES="urand20s31"
declare -A HOW=([urand20s31]="--kind urand --scale 20 --edge-factor 16")
declare -A EST=([urand20s31]=60)
SEED=31;
. tools/device/uvm_capped_session.sh
ALGORITHMS=bfs; FRACTIONS="0.5 0.375 0.25 0.125"; SUBLAUNCHES="4 1"
uvmfault() { :; }
uvmfault_stride() { :; }
capped_session
