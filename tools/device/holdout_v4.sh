#!/usr/bin/env bash
# Issue 24's held-out validation v4 in ONE device call (docs/holdout-v3-v6.md, "GPU-work term v4 and held-out validation
# v4"; the split is model/holdout_split_v4.py):
#   (device) bash tools/device/holdout_v4.sh   (PARTS=session, the default) build, host.txt, the link
#            microbenchmarks + model.fit, the L2 table (l2.csv); then the train graphs kron17, urand17 (seed 25),
#            kron18, urand18, kron20, urand20 (seed 24), the held-out kron19, urand19, urand21ef8 (seed 26), the
#            train kron22 (seed 24), the held-out rmat21ef24 (seed 26) and the train rmat22ef32 (seed 25): every
#            algorithm, both variants, device and zero-copy, 8- and 4-byte edges          ESTIMATE ~8.2 min
#   (any machine, CPU) H=DIR PARTS=derive bash tools/device/holdout_v4.sh   DIR: a writable copy of the session
#            folder the call brought back (holdout4.tgz unpacked: DIR = .../session). Regenerates each graph with
#            the session's command and seed (checksums checked by model.holdout against the device's metadata),
#            derives its workloads (one model.holdout --split v4 --derive-only per graph, one graph at a time;
#            done graphs skipped), then the judgement into $H4/judged.
# Time guard: a graph is started only if the call's elapsed time plus its estimate (EST below, seconds) stays under
# BUDGET_S (default 530); a graph left out says DEFERRED in deferred.txt (the same call again on the warm machine
# measures only what is missing: done tables are skipped). No file needs carrying (no real graph in split v4).
# ESTIMATES (not measurements), from archive/holdout-v3-h100-2026-11-27's device logs (logs.tgz, device/call1):
# build 32 s and microbenchmarks 64 s there (the device chase, recorded but unused, is left out here: ~5 s less);
# per graph, generation included: kron17 16 s, urand17 17, kron18 17, urand18 22, kron20 ~22 (urand20 as
# kron20), kron22 60, rmat22ef32 95; new here, by their stored edges (generated on the development machine,
# 2026-11-27) between those: kron19 15.5 M and urand19 16.8 M edges ~20 s, urand21ef8 (about 33 M, as kron20's
# 31 M) ~25 s, rmat21ef24 96 M (between kron20's 31 M, 22 s, and kron22's 128 M, 60 s) ~50 s. Total ~490 s,
# under BUDGET_S; one device command has 600 s.
# Everything goes under one folder, $H4/session (runs/, micro/ with l2.csv, parameters.json, graphs/*.json and
# *.roots.txt, logs/ with the build log, host.txt, deferred.txt), packed as $OUT/holdout4.tgz (one file: the device
# brings back at most 8) after the microbenchmarks and again after every graph, so that a call cut short at its
# limit still brings back everything measured before the cut. The judge (after PARTS=derive):
#   python -m model.holdout --split v4 --runs H --graphs H/graphs --workloads H4/work/* --out-dir D
# Options: PARTS, REPS=3, WARMUP=1, BUDGET_S=530, GRAPHS (another list, for a dry run), EMOGI_BINARY (a prebuilt
# binary), H4 (state, default /tmp/ho4), H (derive: the session folder with runs/, graphs/), G (where the graphs
# are made: H4/graphs on the device, H/graphs in derive, beside the device's metadata; the local metadata goes to
# H4/localmeta), JOBS (derive: trace processes a graph, default 2), KEEP_GRAPHS (derive: keep each .csr once
# derived).
set -uo pipefail
. tools/device/setup.sh
. tools/device/holdout_session.sh
SPLIT=v4 TGZ=holdout4 ST=${H4:-/tmp/ho4}
BUDGET_S=${BUDGET_S:-530}
SESSION_GRAPHS="kron17 urand17 kron18 urand18 kron20 urand20 kron19 urand19 urand21ef8 kron22 rmat21ef24 rmat22ef32"
declare -A EST=([kron17]=16 [urand17]=17 [kron18]=17 [urand18]=22 [kron20]=24 [urand20]=24 [kron19]=20
  [urand19]=20 [urand21ef8]=25 [kron22]=60 [rmat21ef24]=50 [rmat22ef32]=95)
# name -> generator arguments and seed (model/holdout_split_v4.py is the registered table)
declare -A HOW=([rmat22ef32]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20"
  [rmat21ef24]="--kind kron --scale 21 --edge-factor 24 --rmat-abc 0.55,0.20,0.20"
  [urand21ef8]="--kind urand --scale 21 --edge-factor 8")
seed_of() { case $1 in kron19 | urand19 | urand21ef8 | rmat21ef24) echo 26 ;; kron17 | urand17 | rmat22ef32) echo 25 ;;
  *) echo 24 ;; esac; }
how_of() { [ -n "${HOW[$1]:-}" ] && echo "${HOW[$1]}" || echo "--kind ${1%%[0-9]*} --scale ${1##*[a-z]} --edge-factor 16"; }
. tools/device/holdout_split_session.sh
split_main
