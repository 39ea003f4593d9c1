#!/usr/bin/env bash
# Issue 24's held-out validation v8 in ONE device call (docs/holdout-v7-v10.md, "GPU-work term v8 and held-out
# validation v8"; the split is model/holdout_split_v8.py, the term model/gpu_work_v8.py). holdout_v7.sh's body
# (holdout_split_session.sh) with split v8's graph tables and 5 timed repetitions after 1 warm-up (registered):
#   (device) EMOGI_COMMIT=<commit> bash tools/device/holdout_v8.sh   (PARTS=session, the default) build, host.txt,
#            the link microbenchmarks + model.fit, the L2 table (l2.csv); then the train graphs kron17, urand17
#            (seed 25), kron20ef4, urand21ef4, kron19ef8, urand20ef8 (seed 28, split v6's held out), kron20ef6,
#            urand20ef6, kron19ef12, urand19ef12 (seed 29, split v7's held out), and the held-out kron20ef5,
#            urand20ef5, kron19ef10, urand19ef10 (seed 30): every algorithm, both variants, device and zero-copy,
#            8- and 4-byte edges. ESTIMATE ~6.3 min on a warm build, ~6.8 min with a fresh one.
#            EMOGI_COMMIT is required here: the device copy's own `git rev-parse` is stale, so the runs' and
#            host.txt's commit come from it.
#   (any machine, CPU) H=DIR PARTS=derive bash tools/device/holdout_v8.sh   DIR: a writable copy of the session
#            folder the call brought back (holdout8.tgz unpacked: DIR = .../session). Regenerates each graph with
#            the session's command and seed, derives its workloads (one model.holdout --split v8 --derive-only per
#            graph), then the judgement into $H8/judged (each cell the min of its runs, split v8's STATISTIC).
# Time guard (holdout_split_session.sh, as v5's to v7's): a graph is started only if the call's elapsed time (build
# included) plus its estimate (EST below, seconds) stays under BUDGET_S (default 470); a graph left out says
# DEFERRED in deferred.txt (the same call again on the warm machine measures only what is missing). No file needs
# carrying.
# ESTIMATES (not measurements): v7's call took 366 s (archive/holdout-v7-h100-2026-11-27, 18:02:05-18:08:11, 14
# graphs, 5 reps + 1 warm-up); v7's estimates kept for the ten graphs it measured (start to kron17's first run 66 s,
# plus a fresh build ~32 s): kron17 20, urand17 21, kron20ef4 21, kron19ef8 20, urand21ef4 26, urand20ef8 24,
# kron20ef6 23, urand20ef6 23, kron19ef12 22, urand19ef12 22. The held-out graphs, new, by the v7 graph of the same
# vertices and about the entries (nothing measured): kron20ef5 and urand20ef5 (1 M vertices, ~10 M entries) 22 each,
# kron19ef10 and urand19ef10 (0.5 M, ~10 M) 21 each. Total ~377 s warm (66 + 308 + the last pack ~3), ~409 s with a
# fresh build, under BUDGET_S and the registered ~390 s warm; one device command has 600 s. The held-out graphs come
# last.
# Everything goes under one folder, $H8/session, packed as $OUT/holdout8.tgz after the microbenchmarks and again
# after every graph. The judge (after PARTS=derive):
#   python -m model.holdout --split v8 --runs H --graphs H/graphs --workloads H8/work/* --out-dir D
# Options: PARTS, REPS=5, WARMUP=1, BUDGET_S=470, GRAPHS (another list, for a dry run), EMOGI_BINARY (a prebuilt
# binary), H8 (state, default /tmp/ho8), H, G, JOBS, KEEP_GRAPHS (as holdout_v5.sh).
set -uo pipefail
. tools/device/require_commit.sh  # EMOGI_COMMIT, required for a session part
. tools/device/setup.sh
. tools/device/holdout_session.sh
SPLIT=v8 TGZ=holdout8 ST=${H8:-/tmp/ho8}
BUDGET_S=${BUDGET_S:-470}
REPS=${REPS:-5}    # registered: 5 timed repetitions, each cell their min (archive/gpu-work-v8-exploration-2026-11-27)
WARMUP=${WARMUP:-1}  # registered: 1 warm-up run before them
SESSION_GRAPHS="kron17 urand17 kron20ef4 urand21ef4 kron19ef8 urand20ef8 kron20ef6 urand20ef6 kron19ef12 urand19ef12
  kron20ef5 urand20ef5 kron19ef10 urand19ef10"
declare -A EST=([kron17]=20 [urand17]=21 [kron20ef4]=21 [urand21ef4]=26 [kron19ef8]=20 [urand20ef8]=24
  [kron20ef6]=23 [urand20ef6]=23 [kron19ef12]=22 [urand19ef12]=22 [kron20ef5]=22 [urand20ef5]=22 [kron19ef10]=21
  [urand19ef10]=21)
# name -> generator arguments and seed (model/holdout_split_v8.py is the registered table)
declare -A HOW=()
seed_of() { case $1 in kron20ef5 | urand20ef5 | kron19ef10 | urand19ef10) echo 30 ;;
  kron20ef6 | urand20ef6 | kron19ef12 | urand19ef12) echo 29 ;;
  kron20ef4 | kron19ef8 | urand21ef4 | urand20ef8) echo 28 ;; kron17 | urand17) echo 25 ;; *) echo 24 ;; esac; }
. tools/device/holdout_names.sh
. tools/device/holdout_split_session.sh
split_main
