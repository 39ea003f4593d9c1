#!/usr/bin/env bash
# Issue 24's held-out validation v6 in ONE device call (docs/holdout-v3-v6.md, "GPU-work term v6 and held-out validation
# v6"; the split is model/holdout_split_v6.py, the term model/gpu_work_v6.py). holdout_v5.sh's body
# (holdout_split_session.sh) with split v6's graph tables:
#   (device) EMOGI_COMMIT=<commit> bash tools/device/holdout_v6.sh   (PARTS=session, the default) build, host.txt,
#            the link microbenchmarks + model.fit, the L2 table (l2.csv); then the train graphs kron17, urand17
#            (seed 25), kron20, urand20 (seed 24), urand19ef8, urand20ef4, kron20ef8, kron21ef4, urand19ef24,
#            kron19ef24 (seed 27, split v5's held out), and the held-out kron19ef8, kron20ef4, urand20ef8,
#            urand21ef4 (seed 28): every algorithm, both variants, device and zero-copy, 8- and 4-byte edges
#            ESTIMATE ~6.9 min with a fresh build. EMOGI_COMMIT is required here: the device copy's own
#            `git rev-parse` is stale, so the runs' and host.txt's commit come from it.
#   (any machine, CPU) H=DIR PARTS=derive bash tools/device/holdout_v6.sh   DIR: a writable copy of the session
#            folder the call brought back (holdout6.tgz unpacked: DIR = .../session). Regenerates each graph with
#            the session's command and seed, derives its workloads (one model.holdout --split v6 --derive-only per
#            graph), then the judgement into $H6/judged (holdout_cells.csv with each cell's iterations min-max).
# Time guard (holdout_split_session.sh, as v5's): a graph is started only if the call's elapsed time (build
# included) plus its estimate (EST below, seconds) stays under BUDGET_S (default 470); a graph left out says
# DEFERRED in deferred.txt (the same call again on the warm machine measures only what is missing). No file needs
# carrying.
# ESTIMATES (not measurements), from archive/holdout-v5-h100-2026-11-27's runs tables (their `date` column: the
# time from one graph's first run to the next graph's, the next graph's generation included; the call 407 s with a
# build that had nothing to do): start to kron17's first run 65 s (host.txt, the microbenchmarks, kron17's
# generation), plus a fresh build ~32 s (v4's call; 30-110 s seen); kron17 16, urand17 17, kron20 29, urand20 29,
# urand19ef8 20, urand20ef4 23, kron20ef8 21, kron21ef4 25, urand19ef24 23, kron19ef24 22 (17 s of runs, then the
# next graph's generation). The held-out graphs, new, by the v5 graph of the same vertices and entries (sizes from
# the development machine's generation of them, 2026-11-27, nothing measured): kron19ef8 (0.5 M vertices, 8.0 M
# entries) as urand19ef8 20, kron20ef4 (1 M, 8.2 M) as urand20ef4 23, urand20ef8 (1 M, 16.8 M) as kron20ef8 22,
# urand21ef4 (2 M, 16.8 M) as kron21ef4 26. Total ~416 s (32 + 65 + 316 + the last pack ~3), under BUDGET_S; one
# device command has 600 s. The held-out graphs come last; a deferral is measured by the same call again.
# Everything goes under one folder, $H6/session, packed as $OUT/holdout6.tgz after the microbenchmarks and again
# after every graph. The judge (after PARTS=derive):
#   python -m model.holdout --split v6 --runs H --graphs H/graphs --workloads H6/work/* --out-dir D
# Options: PARTS, REPS=3, WARMUP=1, BUDGET_S=470, GRAPHS (another list, for a dry run), EMOGI_BINARY (a prebuilt
# binary), H6 (state, default /tmp/ho6), H, G, JOBS, KEEP_GRAPHS (as holdout_v5.sh).
set -uo pipefail
. tools/device/require_commit.sh  # EMOGI_COMMIT, required for a session part
. tools/device/setup.sh
. tools/device/holdout_session.sh
SPLIT=v6 TGZ=holdout6 ST=${H6:-/tmp/ho6}
BUDGET_S=${BUDGET_S:-470}
SESSION_GRAPHS="kron17 urand17 kron20 urand20 urand19ef8 urand20ef4 kron20ef8 kron21ef4 urand19ef24 kron19ef24
  kron19ef8 kron20ef4 urand20ef8 urand21ef4"
declare -A EST=([kron17]=16 [urand17]=17 [kron20]=29 [urand20]=29 [urand19ef8]=20 [urand20ef4]=23 [kron20ef8]=21
  [kron21ef4]=25 [urand19ef24]=23 [kron19ef24]=22 [kron19ef8]=20 [kron20ef4]=23 [urand20ef8]=22 [urand21ef4]=26)
# name -> generator arguments and seed (model/holdout_split_v6.py is the registered table)
declare -A HOW=()
seed_of() { case $1 in kron19ef8 | kron20ef4 | urand20ef8 | urand21ef4) echo 28 ;; *ef*) echo 27 ;;
  kron17 | urand17) echo 25 ;; *) echo 24 ;; esac; }
. tools/device/holdout_names.sh
. tools/device/holdout_split_session.sh
split_main
