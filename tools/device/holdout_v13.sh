#!/usr/bin/env bash
# Issue 24's held-out validation v13 in ONE device call (docs/holdout-v13.md; the split is model/holdout_split_v13.py,
# the term v12's, model/gpu_work_v12.py, unchanged, refitted on 25 graphs). A DESIGN change: every held-out cell is
# measured by PASSES=3 separate processes (holdout_passes.sh: the session part, holdout_split_session.sh's body, run
# once per pass, each a new process), and judged on the median over the passes of each pass's min of 5 timed runs
# after 1 warm-up (model/holdout_passes.py); every `emogi run` given `--run-order rounds` (as v9 to v12). The train
# table is NOT measured again: it is the archived v12 combined session's (archive/holdout-v12-h100-2026-11-28/session,
# 25 graphs). This call measures ONLY the four held-out graphs, three times. On an H200 (the only machine lent since
# 2026-11-28) v13 runs as v13h: holdout_v13h.sh measures the train session first on the same warm machine, and its
# derive runs this script's with TRAIN and SAME_GPU set (docs/holdout-v13.md, "v13 on an H200").
#   (device, best detached) EMOGI_COMMIT=<commit> EMOGI_WHEELS=none DETACH_WAIT=560 \
#            bash tools/device/detached.sh start ho13 bash tools/device/holdout_v13.sh
#            Per pass: build (check), host.txt, the link microbenchmarks + model.fit, the L2 table (l2.csv); the
#            held-out kron19ef9, kron19ef13, urand19ef9, urand19ef13 (seed 35): every algorithm, both variants, device
#            and zero-copy, 8- and 4-byte edges. ESTIMATE ~7.4 min on a warm build, ~7.9 min with a fresh one.
#            EMOGI_COMMIT is required: the device copy's own `git rev-parse` is stale. The binary must know
#            `--run-order` (without it every cell FAILS at once).
#   (any machine, CPU) TGZS=DIR PARTS=derive bash tools/device/holdout_v13.sh   DIR: the folder holding the
#            call's holdout13_p1.tgz, holdout13_p2.tgz, holdout13_p3.tgz (read only is fine). Each pass is
#            assembled with the v12 archive's session into $H13/pP/combined (model.holdout_combine --split v13),
#            the held-out graphs regenerated and their workloads derived once (the train graphs' are the v12
#            archive's workloads/), each pass judged alone ($H13/pP/judged, and with its own link
#            $H13/pP/judged_call_link), then the registered judgement over the passes into $H13/judged
#            (model.holdout_passes; its judged_call_link/ the secondary) and fig_holdout_v13.
# Time guard (holdout_split_session.sh, its clock the WHOLE call's, holdout_passes.sh): a graph starts only if the
# call's elapsed time (every pass and build so far) plus its estimate (EST, seconds) stays under BUDGET_S (default
# 540); one left out says DEFERRED in its pass's deferred.txt and log (the same script again on the warm machine,
# e.g. `detached.sh start ho13b ...`, measures only what is missing: the state is kept under $H13). No file needs
# carrying.
# ESTIMATES (not measurements), from the processes repeat (archive/holdout-v12-processes-h100-2026-11-28: v12's
# session part run 3 times in one call, the same shape: 3 passes of 4 scale-19 graphs; 04:43:41-04:51:20, 459 s
# with a fresh build; pass 1 174 s with the build, passes 2 and 3 141 and 144 s; in pass 2 the start to the first
# run 62 s, each graph 19-21 s) and v11's per-graph durations (kron19ef6 6.0 M entries 20 s, kron19ef14 13.6 M
# 21 s, urand19ef6 6.3 M 20 s, urand19ef14 14.7 M 23 s): per pass the start 59 s, kron19ef9 21, kron19ef13 21,
# urand19ef9 21, urand19ef13 23 (86 s), the pack 3 s: 148 s a pass, 3 passes ~444 s warm, ~476 s with a fresh build
# (+32; v12's estimates give 470 s for the repeat's measured 459 s). The graph files are made once (pass 1) and
# shared by the passes (not counted). 2 880 timed runs (960 a pass).
# Everything goes under $H13 (default /tmp/ho13): pass P's session under $H13/pP/session, packed as
# $OUT/holdout13_pP.tgz after the microbenchmarks and again after every graph; its output $OUT/holdout13_pP.log.
# With detached.sh's detached.log, 7 files come back (each pass's tgz ~50 KB). The judge (after PARTS=derive):
#   python -m model.holdout_passes --split v13 --judged $H13/p1/judged $H13/p2/judged $H13/p3/judged \
#     --own $H13/p1/judged_call_link $H13/p2/judged_call_link $H13/p3/judged_call_link --out-dir D
# Options: PARTS, PASSES=3, REPS=5, WARMUP=1, RUN_ORDER=rounds, BUDGET_S=540, GRAPHS (another list, for a dry run),
# EMOGI_BINARY (a prebuilt binary), H13 (state), TGZS (derive), JOBS, KEEP_GRAPHS (as holdout_v5.sh), TRAIN (the
# train session's archive, default the split's TRAIN_SESSION), SAME_GPU (derive: model.holdout_combine --same-gpu).
set -uo pipefail
. tools/device/require_commit.sh  # EMOGI_COMMIT, required for a session part
. tools/device/setup.sh
. tools/device/holdout_session.sh
PASSES=${PASSES:-3}  # registered: every held-out cell measured by 3 separate processes
PASS=${PASS:-1}      # this process's pass (holdout_passes.sh sets it for each)
SPLIT=v13 TGZ_BASE=holdout13 ROOT=${H13:-/tmp/ho13}
TGZ=${TGZ_BASE}_p$PASS
case " ${PARTS:-session} " in *" session "*) ST=$ROOT/p$PASS ;; *) ST=$ROOT ;; esac  # derive: the shared work/
G=${G:-$ROOT/graphs}  # the graph files, made once and shared by the passes
BUDGET_S=${BUDGET_S:-540}  # the whole call's guard (all passes)
REPS=${REPS:-5}    # registered: 5 timed repetitions, each pass's cell their min (as v8 to v12)
WARMUP=${WARMUP:-1}  # registered: 1 warm-up run before them
RUN_ORDER=${RUN_ORDER:-rounds}  # registered: interleaved runs (as v9 to v12)
TRAIN=${TRAIN:-archive/holdout-v12-h100-2026-11-28}  # registered: the train table (holdout_split_v13.TRAIN_SESSION)
HELD_GRAPHS="kron19ef9 kron19ef13 urand19ef9 urand19ef13"
SESSION_GRAPHS="kron19ef9 kron19ef13 urand19ef9 urand19ef13"  # the held-out graphs only: no train graph again
declare -A EST=([kron19ef9]=21 [kron19ef13]=21 [urand19ef9]=21 [urand19ef13]=23)
# name -> generator arguments and seed (model/holdout_split_v13.py is the registered table)
declare -A HOW=()
seed_of() { case $1 in kron19ef9 | kron19ef13 | urand19ef9 | urand19ef13) echo 35 ;;
  *) echo "seed_of: $1 is not a held-out graph of split v13" >&2; return 1 ;; esac; }
. tools/device/holdout_names.sh
. tools/device/holdout_split_session.sh
. tools/device/holdout_passes.sh  # the passes (session), and derive and judge over them
passes_main
