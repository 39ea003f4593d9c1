#!/usr/bin/env bash
# Issue 24's held-out validation v12 in ONE device call (docs/holdout-v12.md; the split is model/holdout_split_v12.py,
# the term v12's, model/gpu_work_v12.py: v8's floor, v4's link terms and a cost per list). The train table is NOT
# measured again: it is the archived v11 combined session's (archive/holdout-v11-h100-2026-11-28/session, 21
# graphs). This call measures ONLY the four held-out graphs: holdout_split_session.sh's body, 5 timed repetitions
# after 1 warm-up, every `emogi run` given `--run-order rounds` (as v9 to v11). No train graph is measured again.
#   (device) EMOGI_COMMIT=<commit> bash tools/device/holdout_v12.sh   (PARTS=session, the default) build, host.txt,
#            the link microbenchmarks + model.fit, the L2 table (l2.csv); the held-out kron19ef7, kron19ef11,
#            urand19ef7, urand19ef11 (seed 34): every algorithm, both variants, device and zero-copy, 8- and 4-byte
#            edges. ESTIMATE ~2.4 min on a warm build, ~3.0 min with a fresh one.
#            EMOGI_COMMIT is required: the device copy's own `git rev-parse` is stale. The binary must know
#            `--run-order` (without it every cell FAILS at once).
#   (any machine, CPU) H=DIR PARTS=derive bash tools/device/holdout_v12.sh   DIR: a writable copy of the session
#            folder the call brought back (holdout12.tgz unpacked: DIR = .../session). model.holdout_combine
#            assembles $H12/combined (the train graphs' runs, metadata, parameters.json and micro/ from the v11
#            archive's session; the held-out graphs' from DIR; drift.csv empty: nothing re-measured); each held-out
#            graph is regenerated and its workloads derived (the train graphs' are the v11 archive's workloads/); then
#            the judgement into $H12/judged and the secondary one with the call's own link parameters into
#            $H12/judged_call_link.
# Time guard (holdout_split_session.sh): a graph starts only if the call's elapsed time (build included) plus its
# estimate (EST, seconds) stays under BUDGET_S (default 480); one left out says DEFERRED in deferred.txt (the same
# call again on the warm machine measures only what is missing). No file needs carrying.
# ESTIMATES (not measurements), from the v11 call (archive/holdout-v11-h100-2026-11-28, 01:43:32-01:48:10, 278 s,
# warm build reused; per graph its runs' first timestamps apart, call/runs): start to the first run 59 s (v10's
# call, whose build was warm too: 69 s); the held-out graphs, new, by the v11 call's graphs of about their vertices
# and entries (generated on the development machine with seed 34, nothing measured; all four of scale 19, as
# kron19ef6 20 s, kron19ef14 21 s, urand19ef6 20 s and urand19ef14 23 s were): kron19ef7 20 (7.00 M entries:
# kron19ef6 6.03 M took 20 s), kron19ef11 21 (10.8 M: kron19ef14 13.6 M 21 s), urand19ef7 21 (7.34 M: urand19ef6
# 6.29 M 20 s), urand19ef11 22 (11.5 M: urand19ef14 14.7 M 23 s) (84 s). 960 runs (v11: 2 400). Total ~146 s warm
# (59 + 84 + the last pack ~3; ~156 s with v10's 69 s start), ~178-188 s with a fresh build (+32), far under
# BUDGET_S.
# Everything goes under one folder, $H12/session, packed as $OUT/holdout12.tgz after the microbenchmarks and again
# after every graph. The judge (after PARTS=derive, C = $H12/combined):
#   python -m model.holdout --split v12 --runs C --graphs C/graphs --l2 C/micro/l2.csv \
#     --workloads archive/holdout-v11-h100-2026-11-28/workloads/* H12/work/* --out-dir D
# Options: PARTS, REPS=5, WARMUP=1, RUN_ORDER=rounds, BUDGET_S=480, GRAPHS (another list, for a dry run),
# EMOGI_BINARY (a prebuilt binary), H12 (state, default /tmp/ho12), H, G, JOBS, KEEP_GRAPHS (as holdout_v5.sh),
# TRAIN (the train session's archive, default the split's TRAIN_SESSION).
set -uo pipefail
. tools/device/require_commit.sh  # EMOGI_COMMIT, required for a session part
. tools/device/setup.sh
. tools/device/holdout_session.sh
SPLIT=v12 TGZ=holdout12 ST=${H12:-/tmp/ho12}
BUDGET_S=${BUDGET_S:-480}
REPS=${REPS:-5}    # registered: 5 timed repetitions, each cell their min (as v8 to v11)
WARMUP=${WARMUP:-1}  # registered: 1 warm-up run before them
RUN_ORDER=${RUN_ORDER:-rounds}  # registered: interleaved runs (as v9 to v11)
TRAIN=${TRAIN:-archive/holdout-v11-h100-2026-11-28}  # registered: the train table (holdout_split_v12.TRAIN_SESSION)
HELD_GRAPHS="kron19ef7 kron19ef11 urand19ef7 urand19ef11"
SESSION_GRAPHS="kron19ef7 kron19ef11 urand19ef7 urand19ef11"  # the held-out graphs only: no train graph again
declare -A EST=([kron19ef7]=20 [kron19ef11]=21 [urand19ef7]=21 [urand19ef11]=22)
# name -> generator arguments and seed (model/holdout_split_v12.py is the registered table)
declare -A HOW=()
seed_of() { case $1 in kron19ef7 | kron19ef11 | urand19ef7 | urand19ef11) echo 34 ;;
  kron19ef6 | kron20ef3 | urand19ef6 | urand19ef14) echo 33 ;;
  kron19ef3 | urand20ef3 | kron19ef14) echo 32 ;; kron21ef3 | urand21ef3 | kron20ef7 | urand20ef7) echo 31 ;;
  kron20ef5 | urand20ef5 | kron19ef10 | urand19ef10) echo 30 ;; kron19ef12 | urand19ef12) echo 29 ;;
  kron20ef4 | urand21ef4) echo 28 ;; kron17 | urand17) echo 25 ;; *) echo 24 ;; esac; }
. tools/device/holdout_names.sh
. tools/device/holdout_split_session.sh
. tools/device/holdout_combined.sh  # derive and judge: the combined session
split_main
