#!/usr/bin/env bash
# Issue 24's held-out validation v11 in ONE device call (docs/holdout-v11.md; the split is model/holdout_split_v11.py,
# the term v8's, model/gpu_work_v8.py, unchanged). The train table is NOT measured again: it is the archived v10
# session's (archive/holdout-v10-h100-2026-11-27, 17 graphs; its call took 501 s). This call measures the four
# held-out graphs first, then six train graphs again only to compare with the archived cells (the drift between
# the sessions, never fitted nor judged): holdout_split_session.sh's body, 5 timed repetitions after 1 warm-up, every
# `emogi run` given `--run-order rounds` (as v9 and v10).
#   (device) EMOGI_COMMIT=<commit> bash tools/device/holdout_v11.sh   (PARTS=session, the default) build, host.txt,
#            the link microbenchmarks + model.fit, the L2 table (l2.csv); the held-out kron19ef6, kron20ef3,
#            urand19ef6, urand19ef14 (seed 33); then the train kron17, urand17 (seed 25), kron19ef14, urand20ef3
#            (seed 32), kron20ef7 (seed 31), urand21ef4 (seed 28) again: every algorithm, both variants, device and
#            zero-copy, 8- and 4-byte edges. ESTIMATE ~5.1 min on a warm build, ~5.6 min with a fresh one.
#            EMOGI_COMMIT is required: the device copy's own `git rev-parse` is stale. The binary must know
#            `--run-order` (without it every cell FAILS at once).
#   (any machine, CPU) H=DIR PARTS=derive bash tools/device/holdout_v11.sh   DIR: a writable copy of the session
#            folder the call brought back (holdout11.tgz unpacked: DIR = .../session). model.holdout_combine
#            assembles $H11/combined (the train graphs' runs, metadata, parameters.json and micro/ from the v10
#            archive; the held-out graphs' from DIR) and drift.csv; each held-out graph is regenerated and its
#            workloads derived (the train graphs' are the v10 archive's workloads/); then the judgement into
#            $H11/judged and the secondary one with the call's own link parameters into $H11/judged_call_link.
# Time guard (holdout_split_session.sh): a graph starts only if the call's elapsed time (build included) plus its
# estimate (EST, seconds) stays under BUDGET_S (default 480); one left out says DEFERRED in deferred.txt (the same
# call again on the warm machine measures only what is missing). The held-out graphs come first, so a guard
# deferral costs only re-measured train graphs. No file needs carrying.
# ESTIMATES (not measurements), from the v10 call (archive/holdout-v10-h100-2026-11-27, 22:38:39-22:47:00, 501 s,
# warm build; per graph its runs' first timestamps apart): start to the first run 69 s; the re-measured train graphs
# their own v10 durations, kron17 20, urand17 19, kron19ef14 21, urand20ef3 24, kron20ef7 27, urand21ef4 32 (143 s).
# The held-out graphs, new, by the v10 graph of about their vertices and entries (generated here with seed 33,
# nothing measured): kron19ef6 21 (6.03 M entries: kron19ef3 3.07 M took 20 s, kron19ef14 13.6 M 21 s), kron20ef3 23
# (6.16 M: kron20ef4 8.17 M took 23 s), urand19ef6 22 (6.29 M: urand20ef3 6.29 M took 24 s at twice the vertices),
# urand19ef14 26 (14.7 M: urand19ef12 12.6 M took 25 s, urand20ef7 14.7 M 29 s) (92 s). 2 400 runs (v10: 4 080).
# Total ~307 s warm (69 + 92 + 143 + the last pack ~3), ~339 s with a fresh build (+32), under BUDGET_S; one device
# command has 600 s.
# Everything goes under one folder, $H11/session, packed as $OUT/holdout11.tgz after the microbenchmarks and again
# after every graph. The judge (after PARTS=derive, C = $H11/combined):
#   python -m model.holdout --split v11 --runs C --graphs C/graphs --l2 C/micro/l2.csv \
#     --workloads archive/holdout-v10-h100-2026-11-27/workloads/* H11/work/* --out-dir D
# Options: PARTS, REPS=5, WARMUP=1, RUN_ORDER=rounds, BUDGET_S=480, GRAPHS (another list, for a dry run),
# EMOGI_BINARY (a prebuilt binary), H11 (state, default /tmp/ho11), H, G, JOBS, KEEP_GRAPHS (as holdout_v5.sh),
# TRAIN (the train session's archive, default the split's TRAIN_SESSION).
set -uo pipefail
. tools/device/require_commit.sh  # EMOGI_COMMIT, required for a session part
. tools/device/setup.sh
. tools/device/holdout_session.sh
SPLIT=v11 TGZ=holdout11 ST=${H11:-/tmp/ho11}
BUDGET_S=${BUDGET_S:-480}
REPS=${REPS:-5}    # registered: 5 timed repetitions, each cell their min (as v8 to v10)
WARMUP=${WARMUP:-1}  # registered: 1 warm-up run before them
RUN_ORDER=${RUN_ORDER:-rounds}  # registered: interleaved runs (as v9, v10)
TRAIN=${TRAIN:-archive/holdout-v10-h100-2026-11-27}  # registered: the train table (holdout_split_v11.TRAIN_SESSION)
HELD_GRAPHS="kron19ef6 kron20ef3 urand19ef6 urand19ef14"
SESSION_GRAPHS="kron19ef6 kron20ef3 urand19ef6 urand19ef14 kron17 urand17 kron19ef14 urand20ef3 kron20ef7
  urand21ef4"
declare -A EST=([kron19ef6]=21 [kron20ef3]=23 [urand19ef6]=22 [urand19ef14]=26 [kron17]=20 [urand17]=19
  [kron19ef14]=21 [urand20ef3]=24 [kron20ef7]=27 [urand21ef4]=32)
# name -> generator arguments and seed (model/holdout_split_v11.py is the registered table)
declare -A HOW=()
seed_of() { case $1 in kron19ef6 | kron20ef3 | urand19ef6 | urand19ef14) echo 33 ;;
  kron19ef3 | urand20ef3 | kron19ef14) echo 32 ;; kron21ef3 | urand21ef3 | kron20ef7 | urand20ef7) echo 31 ;;
  kron20ef5 | urand20ef5 | kron19ef10 | urand19ef10) echo 30 ;; kron19ef12 | urand19ef12) echo 29 ;;
  kron20ef4 | urand21ef4) echo 28 ;; kron17 | urand17) echo 25 ;; *) echo 24 ;; esac; }
. tools/device/holdout_names.sh
. tools/device/holdout_split_session.sh
. tools/device/holdout_combined.sh  # derive and judge: the combined session
split_main
