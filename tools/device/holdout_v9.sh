#!/usr/bin/env bash
# Issue 24's held-out validation v9 in ONE device call (docs/holdout-v7-v10.md, "Held-out validation v9"; the split is
# model/holdout_split_v9.py, the term v8's, model/gpu_work_v8.py, unchanged). holdout_v8.sh's body
# (holdout_split_session.sh) with split v9's graph tables, 5 timed repetitions after 1 warm-up, and every `emogi
# run` given `--run-order rounds` (RUN_ORDER, registered): each table's cells' runs interleaved, rep by rep.
#   (device) EMOGI_COMMIT=<commit> bash tools/device/holdout_v9.sh   (PARTS=session, the default) build, host.txt,
#            the link microbenchmarks + model.fit, the L2 table (l2.csv); then the train graphs kron17, urand17
#            (seed 25), kron20ef4, urand21ef4 (seed 28, split v6's held out), kron19ef12, urand19ef12 (seed 29,
#            split v7's held out), kron20ef5, urand20ef5, kron19ef10, urand19ef10 (seed 30, split v8's held out),
#            and the held-out kron21ef3, urand21ef3, kron20ef7, urand20ef7 (seed 31): every algorithm, both
#            variants, device and zero-copy, 8- and 4-byte edges. ESTIMATE ~6.6 min on a warm build, ~7.2 min with
#            a fresh one. EMOGI_COMMIT is required: the device copy's own `git rev-parse` is stale. The binary
#            must know `--run-order` (the lead's measure loop change): without it every cell FAILS at once.
#   (any machine, CPU) H=DIR PARTS=derive bash tools/device/holdout_v9.sh   DIR: a writable copy of the session
#            folder the call brought back (holdout9.tgz unpacked: DIR = .../session). Regenerates each graph with
#            the session's command and seed, derives its workloads (one model.holdout --split v9 --derive-only per
#            graph), then the judgement into $H9/judged (each cell the min of its runs, split v9's STATISTIC).
# Time guard (holdout_split_session.sh, as v5's to v8's): a graph is started only if the call's elapsed time (build
# included) plus its estimate (EST below, seconds) stays under BUDGET_S (default 470); a graph left out says
# DEFERRED in deferred.txt (the same call again on the warm machine measures only what is missing). No file needs
# carrying.
# ESTIMATES (not measurements): v8's call took 381 s (archive/holdout-v8-h100-2026-11-27, 18:47:59-18:54:20, 14
# graphs, 5 reps + 1 warm-up, warm build): start to kron17's first run 67 s, then per graph (its runs' first
# timestamps apart) kron17 18, urand17 18, kron20ef4 23, urand21ef4 28, kron19ef12 22, urand19ef12 22, kron20ef5 23,
# urand20ef5 25, kron19ef10 22, urand19ef10 ~21; kept below, the 18 s ones as 20 and the last as 22. The held-out
# graphs, new, by the measured graph of the same vertices and about the entries (nothing measured): kron21ef3 25
# (kron21ef4 took 25 s in v7), urand21ef3 26 (urand21ef4 28 s with a third more entries), kron20ef7 24 (kron20ef6
# 23 s), urand20ef7 25 (urand20ef6 24 s, urand20ef8 26 s). The run order changes which run comes when, not how
# many: 3 360 runs, as v8. Total ~397 s warm (67 + 227 + 100 + the last pack ~3), ~429 s with a fresh build (+32),
# under BUDGET_S; one device command has 600 s. The held-out graphs come last.
# Everything goes under one folder, $H9/session, packed as $OUT/holdout9.tgz after the microbenchmarks and again
# after every graph. The judge (after PARTS=derive):
#   python -m model.holdout --split v9 --runs H --graphs H/graphs --l2 H/micro/l2.csv --workloads H9/work/* --out-dir D
# Options: PARTS, REPS=5, WARMUP=1, RUN_ORDER=rounds, BUDGET_S=470, GRAPHS (another list, for a dry run),
# EMOGI_BINARY (a prebuilt binary), H9 (state, default /tmp/ho9), H, G, JOBS, KEEP_GRAPHS (as holdout_v5.sh).
set -uo pipefail
. tools/device/require_commit.sh  # EMOGI_COMMIT, required for a session part
. tools/device/setup.sh
. tools/device/holdout_session.sh
SPLIT=v9 TGZ=holdout9 ST=${H9:-/tmp/ho9}
BUDGET_S=${BUDGET_S:-470}
REPS=${REPS:-5}    # registered: 5 timed repetitions, each cell their min (as v8)
WARMUP=${WARMUP:-1}  # registered: 1 warm-up run before them
RUN_ORDER=${RUN_ORDER:-rounds}  # registered: interleaved runs (archive/gpu-work-v9-exploration-2026-11-27, qc)
SESSION_GRAPHS="kron17 urand17 kron20ef4 urand21ef4 kron19ef12 urand19ef12 kron20ef5 urand20ef5 kron19ef10
  urand19ef10 kron21ef3 urand21ef3 kron20ef7 urand20ef7"
declare -A EST=([kron17]=20 [urand17]=20 [kron20ef4]=23 [urand21ef4]=28 [kron19ef12]=22 [urand19ef12]=22
  [kron20ef5]=23 [urand20ef5]=25 [kron19ef10]=22 [urand19ef10]=22 [kron21ef3]=25 [urand21ef3]=26 [kron20ef7]=24
  [urand20ef7]=25)
# name -> generator arguments and seed (model/holdout_split_v9.py is the registered table)
declare -A HOW=()
seed_of() { case $1 in kron21ef3 | urand21ef3 | kron20ef7 | urand20ef7) echo 31 ;;
  kron20ef5 | urand20ef5 | kron19ef10 | urand19ef10) echo 30 ;; kron19ef12 | urand19ef12) echo 29 ;;
  kron20ef4 | urand21ef4) echo 28 ;; kron17 | urand17) echo 25 ;; *) echo 24 ;; esac; }
. tools/device/holdout_names.sh
. tools/device/holdout_split_session.sh
split_main
