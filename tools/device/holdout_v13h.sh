#!/usr/bin/env bash
# v13 on the lent machine, "v13h" (docs/holdout-v13.md, "v13 on an H200", registered 2026-11-28 before any H200
# data). Split v13 (model/holdout_split_v13.py), term v12 refitted, the 3-process held-out design, its statistic and
# the targets are unchanged. Only the TRAIN table changes: it is no longer the archived H100 session
# (archive/holdout-v12-h100-2026-11-28/session). It is measured again on the machine that measures the held-out
# cells, in the same warm machine session. This script's session part measures that train session: split v13's 25
# train graphs, one process per cell (each `emogi run` a new process, as in the archive), 5 timed runs after 1
# warm-up, `--run-order rounds`, the generator arguments and seeds split v13 registers, and one set of link and L2
# microbenchmarks (the registered link of v13h). THREE device calls on ONE warm machine, each made at once after
# the last (a machine idle for 30 s is given back, and /tmp with it):
#   T1 EMOGI_COMMIT=<commit> EMOGI_WHEELS=none DETACH_WAIT=560 \
#        bash tools/device/detached.sh start ho13t1 bash tools/device/holdout_v13h.sh
#   T2 the same, named ho13t2: it measures only what T1 deferred (the state is kept under $H13T; no micro again).
#      A graph T2 defers too: the same again (ho13t3) before H.
#   H  EMOGI_COMMIT=<commit> EMOGI_WHEELS=none DETACH_WAIT=560 \
#        bash tools/device/detached.sh start ho13 bash tools/device/holdout_v13.sh   (the held-out call, unchanged)
#   (any machine, CPU) TGZS=DIR PARTS=derive bash tools/device/holdout_v13h.sh   DIR: a folder holding
#        holdout13t.tgz (the last train call's: it holds the whole train session) and holdout13_p1.tgz,
#        holdout13_p2.tgz, holdout13_p3.tgz (H's); TRAIN_TGZ names another path for the first. It unpacks the train
#        session into $H13/train/session, links the v12 archive's workloads/ beside it (the train graphs' workloads
#        depend only on the graph files, checked here: the same checksums and roots), then runs holdout_v13.sh's
#        derive with TRAIN=$H13/train and SAME_GPU=1 (model.holdout_combine --same-gpu: each pass and the train
#        session measured on one GPU, by the runs' `gpu` and host.txt's UUID). The judgement goes to $H13/judged.
# Time guard (holdout_split_session.sh): a graph starts only if this call's elapsed time (build included) plus its
# estimate (EST, seconds) stays under BUDGET_S (default 500); one left out says DEFERRED in deferred.txt, and the
# next call measures it. No file needs carrying.
# ESTIMATES (not measurements; H100 durations, no H200 data exists), each graph's the largest of its archived
# durations (its runs' first timestamps apart, generation of the next graph included; the last graph of a call to
# its "done"): v10's call (archive/holdout-v10-h100-2026-11-27, warm build, start to the first run 69 s), v11's
# (59 s), v12's and the processes repeat's three passes (start 62 s, a fresh build +33 s). Start 69 s (+33 s with a
# fresh build); graphs (599 s): kron17 20, urand17 19, kron20ef4 23, urand21ef4 32, kron19ef12 24, urand19ef12 25,
# kron20ef5 27, urand20ef5 29, kron19ef10 26, urand19ef10 25, kron21ef3 29, urand21ef3 32, kron20ef7 27, urand20ef7
# 29, kron19ef3 20 (v10's), urand20ef3 24, kron19ef14 21 (v10's, v11's), kron19ef6 20, kron20ef3 21, urand19ef6 20,
# urand19ef14 23 (v11's), kron19ef7 20, kron19ef11 22, urand19ef7 21, urand19ef11 20 (v12's and the repeat's).
#   T1 on a fresh machine: 102 s start, then the first 15 graphs (387 s; urand20ef3 would end past 500), the last
#      pack 3 s: ~492 s. T2: build check ~2 s, the other 10 graphs (212 s), pack 3 s: ~217 s. (A build warm
#      already: T1 ~503 s with urand20ef3 and kron19ef6, T2 ~173 s.) H: ~444 s (holdout_v13.sh's, warm build).
#   With the machine's start (~35 s): ~1 188 s of device time, plus each call's transfers, against 1 800 s.
# Everything goes under $H13T (default /tmp/ho13t): the session under $H13T/session and the graph files under
# $H13T/graphs, packed as $OUT/holdout13t.tgz after the microbenchmarks and again after every graph. 4 800 timed
# runs (25 graphs x 8 tables x 24). Options: PARTS, REPS=5, WARMUP=1, RUN_ORDER=rounds, BUDGET_S=500, GRAPHS
# (another list, for a dry run), EMOGI_BINARY (a prebuilt binary), H13T (the session's state), H13 (derive's state,
# default /tmp/ho13h), TGZS and TRAIN_TGZ (derive), JOBS, KEEP_GRAPHS (as holdout_v5.sh).
set -uo pipefail
. tools/device/require_commit.sh  # EMOGI_COMMIT, required for a session part
. tools/device/setup.sh
. tools/device/holdout_session.sh
SPLIT=v13 TGZ=holdout13t ST=${H13T:-/tmp/ho13t}
ROOT=${H13:-/tmp/ho13h}  # derive: the v13h judgement's state (not v13's /tmp/ho13)
BUDGET_S=${BUDGET_S:-500}
REPS=${REPS:-5}    # as the archived train session: 5 timed repetitions, each cell their min
WARMUP=${WARMUP:-1}  # 1 warm-up run before them
RUN_ORDER=${RUN_ORDER:-rounds}  # interleaved runs (as v9 to v13)
V12=archive/holdout-v12-h100-2026-11-28  # the graphs' checksums and roots, and the train graphs' workloads
# split v13's train graphs, in the order the archived sessions measured them (v10's call, then v11's and v12's
# held-out graphs); no held-out graph of v13
SESSION_GRAPHS="kron17 urand17 kron20ef4 urand21ef4 kron19ef12 urand19ef12 kron20ef5 urand20ef5 kron19ef10
  urand19ef10 kron21ef3 urand21ef3 kron20ef7 urand20ef7 kron19ef3 urand20ef3 kron19ef14 kron19ef6 kron20ef3
  urand19ef6 urand19ef14 kron19ef7 kron19ef11 urand19ef7 urand19ef11"
declare -A EST=([kron17]=20 [urand17]=19 [kron20ef4]=23 [urand21ef4]=32 [kron19ef12]=24 [urand19ef12]=25
  [kron20ef5]=27 [urand20ef5]=29 [kron19ef10]=26 [urand19ef10]=25 [kron21ef3]=29 [urand21ef3]=32 [kron20ef7]=27
  [urand20ef7]=29 [kron19ef3]=20 [urand20ef3]=24 [kron19ef14]=21 [kron19ef6]=20 [kron20ef3]=21 [urand19ef6]=20
  [urand19ef14]=23 [kron19ef7]=20 [kron19ef11]=22 [urand19ef7]=21 [urand19ef11]=20)
# name -> generator arguments and seed (model/holdout_split_v13.py is the registered table)
declare -A HOW=()
seed_of() { case $1 in kron19ef7 | kron19ef11 | urand19ef7 | urand19ef11) echo 34 ;;
  kron19ef6 | kron20ef3 | urand19ef6 | urand19ef14) echo 33 ;; kron19ef3 | urand20ef3 | kron19ef14) echo 32 ;;
  kron21ef3 | urand21ef3 | kron20ef7 | urand20ef7) echo 31 ;;
  kron20ef5 | urand20ef5 | kron19ef10 | urand19ef10) echo 30 ;; kron19ef12 | urand19ef12) echo 29 ;;
  kron20ef4 | urand21ef4) echo 28 ;; kron17 | urand17) echo 25 ;;
  *) echo "seed_of: $1 is not a train graph of split v13" >&2; return 1 ;; esac; }
. tools/device/holdout_names.sh
. tools/device/holdout_split_session.sh

derive() {  # CPU: the train session unpacked beside the v12 archive's workloads, its graphs checked against v12's
  local t=$ROOT/train g w want have
  [ -n "${TGZS:-}" ] || { echo "TGZS=<the folder holding holdout13t.tgz, holdout13_p1.tgz ...> is required"; return 1; }
  rm -rf "$t" && mkdir -p "$t" && tar xzf "${TRAIN_TGZ:-$TGZS/$TGZ.tgz}" -C "$t" || return 1
  ln -s "$PWD/$V12/workloads" "$t/workloads"
  for g in ${GRAPHS:-$SESSION_GRAPHS}; do  # the same files, so the same workloads (model.holdout checks again)
    for w in 8 4; do
      want=$(grep -m1 '"checksum"' "$V12/session/graphs/$g.w$w.json")
      have=$(grep -m1 '"checksum"' "$t/session/graphs/$g.w$w.json" 2> /dev/null)
      [ "$have" = "$want" ] || { echo "$g.w$w: checksum ${have:-missing}, the v12 archive's $want"; return 1; }
    done
    cmp -s "$t/session/graphs/$g.roots.txt" "$V12/session/graphs/$g.roots.txt" \
      || { echo "$g: its roots differ from the v12 archive's"; return 1; }
  done
  log "train session: $t/session ($(ls "$t/session/runs" | wc -l) runs tables)"
  # holdout_v13.sh's derive and judge (the passes), with this train session and the same-GPU check
  TRAIN=$t SAME_GPU=1 H13=$ROOT PARTS=derive bash tools/device/holdout_v13.sh
}
judge() { :; }  # done by holdout_v13.sh above, only where the train session passed its checks
split_main
