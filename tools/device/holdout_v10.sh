#!/usr/bin/env bash
# Issue 24's held-out validation v10 in ONE device call (docs/holdout-v7-v10.md, "Held-out validation v10"; the split is
# model/holdout_split_v10.py, the term v8's, model/gpu_work_v8.py, unchanged). holdout_v9.sh's body
# (holdout_split_session.sh) with split v10's graph tables: 5 timed repetitions after 1 warm-up, every `emogi run`
# given `--run-order rounds` (RUN_ORDER, registered, as v9).
#   (device) EMOGI_COMMIT=<commit> bash tools/device/holdout_v10.sh   (PARTS=session, the default) build, host.txt,
#            the link microbenchmarks + model.fit, the L2 table (l2.csv); then the fourteen train graphs of the v9
#            session: kron17, urand17 (seed 25), kron20ef4, urand21ef4 (seed 28), kron19ef12, urand19ef12 (seed
#            29), kron20ef5, urand20ef5, kron19ef10, urand19ef10 (seed 30), kron21ef3, urand21ef3, kron20ef7,
#            urand20ef7 (seed 31, split v9's held out), and the held-out kron19ef3, urand20ef3, kron19ef14 (seed
#            32): every algorithm, both variants, device and zero-copy, 8- and 4-byte edges. ESTIMATE ~7.4 min on a
#            warm build, ~7.9 min with a fresh one. EMOGI_COMMIT is required: the device copy's own `git rev-parse`
#            is stale. The binary must know `--run-order` (without it every cell FAILS at once).
#   (any machine, CPU) H=DIR PARTS=derive bash tools/device/holdout_v10.sh   DIR: a writable copy of the session
#            folder the call brought back (holdout10.tgz unpacked: DIR = .../session). Regenerates each graph with
#            the session's command and seed, derives its workloads (one model.holdout --split v10 --derive-only per
#            graph), then the judgement into $H10/judged (each cell the min of its runs, split v10's STATISTIC).
# Time guard (holdout_split_session.sh, as v5's to v9's): a graph is started only if the call's elapsed time (build
# included) plus its estimate (EST below, seconds) stays under BUDGET_S (default 500); a graph left out says
# DEFERRED in deferred.txt (the same call again on the warm machine measures only what is missing). No file needs
# carrying.
# ESTIMATES (not measurements): v9's call took 380 s (archive/holdout-v9-h100-2026-11-27, 20:46:07-20:52:27, the
# same fourteen graphs, 5 reps + 1 warm-up in rounds order, warm build): start to kron17's first run 57 s, then per
# graph (its runs' first timestamps apart) kron17 16, urand17 17, kron20ef4 21, urand21ef4 29, kron19ef12 22,
# urand19ef12 24, kron20ef5 25, urand20ef5 24, kron19ef10 22, urand19ef10 21, kron21ef3 26, urand21ef3 29, kron20ef7
# 24, urand20ef7 ~21 (its last pack included); kept below. The held-out graphs, new, by the measured graphs of about
# as many entries (generated here, nothing measured): kron19ef3 18 (3.1 M entries: kron17 3.7 M took 16 s),
# urand20ef3 22 (6.3 M: urand17 4.2 M took 17 s, urand19ef10 10.5 M 21 s), kron19ef14 23 (13.6 M: kron19ef12
# 11.8 M took 22 s, kron20ef7 14.1 M 24 s). 4 080 runs (v9: 3 360). Total ~444 s warm (57 + 321
# + 63 + the last pack ~3), ~476 s with a fresh build (+32), under BUDGET_S; one device command has 600 s. The
# held-out graphs come last.
# Everything goes under one folder, $H10/session, packed as $OUT/holdout10.tgz after the microbenchmarks and again
# after every graph. The judge (after PARTS=derive):
#   python -m model.holdout --split v10 --runs H --graphs H/graphs --l2 H/micro/l2.csv --workloads H10/work/* \
#     --out-dir D
# Options: PARTS, REPS=5, WARMUP=1, RUN_ORDER=rounds, BUDGET_S=500, GRAPHS (another list, for a dry run),
# EMOGI_BINARY (a prebuilt binary), H10 (state, default /tmp/ho10), H, G, JOBS, KEEP_GRAPHS (as holdout_v5.sh).
set -uo pipefail
. tools/device/require_commit.sh  # EMOGI_COMMIT, required for a session part
. tools/device/setup.sh
. tools/device/holdout_session.sh
SPLIT=v10 TGZ=holdout10 ST=${H10:-/tmp/ho10}
BUDGET_S=${BUDGET_S:-500}
REPS=${REPS:-5}    # registered: 5 timed repetitions, each cell their min (as v8, v9)
WARMUP=${WARMUP:-1}  # registered: 1 warm-up run before them
RUN_ORDER=${RUN_ORDER:-rounds}  # registered: interleaved runs (as v9)
SESSION_GRAPHS="kron17 urand17 kron20ef4 urand21ef4 kron19ef12 urand19ef12 kron20ef5 urand20ef5 kron19ef10
  urand19ef10 kron21ef3 urand21ef3 kron20ef7 urand20ef7 kron19ef3 urand20ef3 kron19ef14"
declare -A EST=([kron17]=16 [urand17]=17 [kron20ef4]=21 [urand21ef4]=29 [kron19ef12]=22 [urand19ef12]=24
  [kron20ef5]=25 [urand20ef5]=24 [kron19ef10]=22 [urand19ef10]=21 [kron21ef3]=26 [urand21ef3]=29 [kron20ef7]=24
  [urand20ef7]=21 [kron19ef3]=18 [urand20ef3]=22 [kron19ef14]=23)
# name -> generator arguments and seed (model/holdout_split_v10.py is the registered table)
declare -A HOW=()
seed_of() { case $1 in kron19ef3 | urand20ef3 | kron19ef14) echo 32 ;;
  kron21ef3 | urand21ef3 | kron20ef7 | urand20ef7) echo 31 ;;
  kron20ef5 | urand20ef5 | kron19ef10 | urand19ef10) echo 30 ;; kron19ef12 | urand19ef12) echo 29 ;;
  kron20ef4 | urand21ef4) echo 28 ;; kron17 | urand17) echo 25 ;; *) echo 24 ;; esac; }
. tools/device/holdout_names.sh
. tools/device/holdout_split_session.sh
split_main
