#!/usr/bin/env bash
# Issue 24's held-out validation v5 in ONE device call (docs/holdout-v3-v6.md, "GPU-work term v5 and held-out validation
# v5"; the split is model/holdout_split_v5.py, the term model/gpu_work_v5.py). Derived from holdout_v4.sh:
#   (device) bash tools/device/holdout_v5.sh   (PARTS=session, the default) build, host.txt, the link
#            microbenchmarks + model.fit, the L2 table (l2.csv); then the train graphs kron17, urand17 (seed 25),
#            kron18, urand18, kron20, urand20 (seed 24), urand21ef8, rmat21ef24 (seed 26), and the held-out
#            urand20ef4, kron21ef4, urand19ef8, kron20ef8, urand19ef24, kron19ef24 (seed 27): every algorithm, both
#            variants, device and zero-copy, 8- and 4-byte edges                            ESTIMATE ~7.4 min
#   (any machine, CPU) H=DIR PARTS=derive bash tools/device/holdout_v5.sh   DIR: a writable copy of the session
#            folder the call brought back (holdout5.tgz unpacked: DIR = .../session). Regenerates each graph with
#            the session's command and seed (checksums checked by model.holdout against the device's metadata),
#            derives its workloads (one model.holdout --split v5 --derive-only per graph, one graph at a time;
#            done graphs skipped), then the judgement into $H5/judged.
# Time guard: a graph is started only if the call's elapsed time (build included) plus its estimate (EST below,
# seconds) stays under BUDGET_S (default 470); a graph left out says DEFERRED in deferred.txt (the same call again
# on the warm machine measures only what is missing: done tables are skipped). No file needs carrying.
# ESTIMATES (not measurements), from archive/holdout-v4-h100-2026-11-27's device logs (logs.tgz, device/ho4.log:
# the time from one graph's first run to the next graph's, its generation included): build ~32 s, microbenchmarks
# 55 s; kron17 15, urand17 17, kron18 18, urand18 19, kron20 24, urand20 25, urand21ef8 33, rmat21ef24 51. The
# held-out graphs, new, by their entries and vertices between those (kron19 15.5 M entries 21 s, urand19 16.8 M
# 22 s; the entries from the graphs generated on the development machine, 2026-11-27, nothing measured):
# urand19ef8 (8.4 M entries) 18, urand20ef4 (8.4 M, 1 M vertices, more levels) 25, kron20ef8 (16.1 M) 22,
# kron21ef4 (16.4 M, 2 M vertices) 30, urand19ef24 (25.2 M) 24, kron19ef24 (22.7 M) 24. Total ~435 s with the build,
# under BUDGET_S; one device command has 600 s. The held-out graphs come last; a deferral is measured by the same
# call again.
# Everything goes under one folder, $H5/session (runs/, micro/ with l2.csv, parameters.json, graphs/*.json and
# *.roots.txt, logs/ with the build log, host.txt, deferred.txt), packed as $OUT/holdout5.tgz (one file) after the
# microbenchmarks and again after every graph, so that a call cut short at its limit still brings back everything
# measured before the cut. The judge (after PARTS=derive):
#   python -m model.holdout --split v5 --runs H --graphs H/graphs --workloads H5/work/* --out-dir D
# Options: PARTS, REPS=3, WARMUP=1, BUDGET_S=470, GRAPHS (another list, for a dry run), EMOGI_BINARY (a prebuilt
# binary), H5 (state, default /tmp/ho5), H (derive: the session folder with runs/, graphs/), G (where the graphs
# are made: H5/graphs on the device, H/graphs in derive, beside the device's metadata; the local metadata goes to
# H5/localmeta), JOBS (derive: trace processes a graph, default 2), KEEP_GRAPHS (derive: keep each .csr once
# derived).
set -uo pipefail
. tools/device/setup.sh
. tools/device/holdout_session.sh
SPLIT=v5 TGZ=holdout5 ST=${H5:-/tmp/ho5}
BUDGET_S=${BUDGET_S:-470}
SESSION_GRAPHS="kron17 urand17 kron18 urand18 kron20 urand20 urand21ef8 rmat21ef24 urand19ef8 urand20ef4 kron20ef8
  kron21ef4 urand19ef24 kron19ef24"
declare -A EST=([kron17]=15 [urand17]=17 [kron18]=18 [urand18]=19 [kron20]=24 [urand20]=25 [urand21ef8]=33
  [rmat21ef24]=51 [urand19ef8]=18 [urand20ef4]=25 [kron20ef8]=22 [kron21ef4]=30 [urand19ef24]=24 [kron19ef24]=24)
# name -> generator arguments and seed (model/holdout_split_v5.py is the registered table)
declare -A HOW=([rmat21ef24]="--kind kron --scale 21 --edge-factor 24 --rmat-abc 0.55,0.20,0.20")
seed_of() { case $1 in urand21ef8 | rmat21ef24) echo 26 ;; *ef*) echo 27 ;; kron17 | urand17) echo 25 ;; *) echo 24 ;;
  esac; }
. tools/device/holdout_names.sh
. tools/device/holdout_split_session.sh
split_main
