#!/usr/bin/env bash
# Issue 24's held-out validation v7 in ONE device call (docs/holdout-v7-v10.md, "GPU-work term v7 and held-out
# validation v7"; the split is model/holdout_split_v7.py, the term model/gpu_work_v7.py). holdout_v6.sh's body
# (holdout_split_session.sh) with split v7's graph tables and 5 timed repetitions (REPS=5, registered):
#   (device) EMOGI_COMMIT=<commit> bash tools/device/holdout_v7.sh   (PARTS=session, the default) build, host.txt,
#            the link microbenchmarks + model.fit, the L2 table (l2.csv); then the train graphs kron17, urand17
#            (seed 25), kron20, urand20 (seed 24), kron21ef4, urand20ef4 (seed 27, split v5's held out),
#            kron20ef4, kron19ef8, urand21ef4, urand20ef8 (seed 28, split v6's held out), and the held-out
#            kron20ef6, urand20ef6, kron19ef12, urand19ef12 (seed 29): every algorithm, both variants, device and
#            zero-copy, 8- and 4-byte edges. ESTIMATE ~6.6 min on a warm build, ~7.1 min with a fresh one.
#            EMOGI_COMMIT is required here: the device copy's own `git rev-parse` is stale, so the runs' and
#            host.txt's commit come from it.
#   (any machine, CPU) H=DIR PARTS=derive bash tools/device/holdout_v7.sh   DIR: a writable copy of the session
#            folder the call brought back (holdout7.tgz unpacked: DIR = .../session). Regenerates each graph with
#            the session's command and seed, derives its workloads (one model.holdout --split v7 --derive-only per
#            graph), then the judgement into $H7/judged.
# Time guard (holdout_split_session.sh, as v5's and v6's): a graph is started only if the call's elapsed time (build
# included) plus its estimate (EST below, seconds) stays under BUDGET_S (default 470); a graph left out says
# DEFERRED in deferred.txt (the same call again on the warm machine measures only what is missing). No file needs
# carrying.
# ESTIMATES (not measurements), from archive/holdout-v6-h100-2026-11-27's runs tables (their `date` column: one
# graph's first run to the next graph's, the next graph's generation included; the call 371 s on a build that had
# nothing to do; its logs.tgz device/detached.log): start to kron17's first run 66 s, plus a fresh build ~32 s; per
# graph v6's time plus 2 s for the two more repetitions (v6's timed kernels summed 21.7 s over 3 repetitions, so
# two more add ~14.5 s over 14 graphs): kron17 20, urand17 21, kron20 28, urand20 28, kron21ef4 26, urand20ef4 22,
# kron20ef4 21, kron19ef8 20, urand21ef4 26, urand20ef8 24. The held-out graphs, new, by the v6 graph of the same
# vertices and about the entries (nothing measured): kron20ef6 and urand20ef6 (1 M vertices, ~12 M entries) 23 each,
# kron19ef12 and urand19ef12 (0.5 M, ~12 M) 22 each. Total ~395 s warm (66 + 326 + the last pack ~3), ~427 s with
# a fresh build, under BUDGET_S; one device command has 600 s. The held-out graphs come last.
# Everything goes under one folder, $H7/session, packed as $OUT/holdout7.tgz after the microbenchmarks and again
# after every graph. The judge (after PARTS=derive):
#   python -m model.holdout --split v7 --runs H --graphs H/graphs --workloads H7/work/* --out-dir D
# Options: PARTS, REPS=5, WARMUP=1, BUDGET_S=470, GRAPHS (another list, for a dry run), EMOGI_BINARY (a prebuilt
# binary), H7 (state, default /tmp/ho7), H, G, JOBS, KEEP_GRAPHS (as holdout_v5.sh).
set -uo pipefail
. tools/device/require_commit.sh  # EMOGI_COMMIT, required for a session part
. tools/device/setup.sh
. tools/device/holdout_session.sh
SPLIT=v7 TGZ=holdout7 ST=${H7:-/tmp/ho7}
BUDGET_S=${BUDGET_S:-470}
REPS=${REPS:-5}  # registered: the median of 5 timed repetitions (archive/gpu-work-v7-exploration-2026-11-27, qa)
SESSION_GRAPHS="kron17 urand17 kron20 urand20 kron21ef4 urand20ef4 kron20ef4 kron19ef8 urand21ef4 urand20ef8
  kron20ef6 urand20ef6 kron19ef12 urand19ef12"
declare -A EST=([kron17]=20 [urand17]=21 [kron20]=28 [urand20]=28 [kron21ef4]=26 [urand20ef4]=22 [kron20ef4]=21
  [kron19ef8]=20 [urand21ef4]=26 [urand20ef8]=24 [kron20ef6]=23 [urand20ef6]=23 [kron19ef12]=22 [urand19ef12]=22)
# name -> generator arguments and seed (model/holdout_split_v7.py is the registered table)
declare -A HOW=()
seed_of() { case $1 in kron20ef6 | urand20ef6 | kron19ef12 | urand19ef12) echo 29 ;;
  kron20ef4 | kron19ef8 | urand21ef4 | urand20ef8) echo 28 ;; *ef*) echo 27 ;;
  kron17 | urand17) echo 25 ;; *) echo 24 ;; esac; }
. tools/device/holdout_names.sh
. tools/device/holdout_split_session.sh
split_main
