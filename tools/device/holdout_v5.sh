#!/usr/bin/env bash
# Issue 24's held-out validation v5 in ONE device call (docs/predictor.md, "GPU-work term v5 and held-out validation
# v5"; the split is model/holdout_split_v5.py, the term model/gpu_work_v5.py). Derived from holdout_v4.sh:
#   (device) bash tools/device/holdout_v5.sh   (PARTS=session, the default) build, host.txt, the link
#            microbenchmarks + model.fit, the L2 table (l2.csv); then the train graphs kron17, urand17 (seed 25),
#            kron18, urand18, kron20, urand20 (seed 24), urand21ef8, rmat21ef24 (seed 26), and the held-out
#            urand20ef4, kron21ef4, urand19ef8, kron20ef8, urand19ef24, kron19ef24 (seed 27): every algorithm, both
#            variants, device and zero-copy, 8- and 4-byte edges                            ESTIMATE ~7.4 min
#   (any machine, CPU) H=DIR PARTS=derive bash tools/device/holdout_v5.sh   DIR: a writable copy of the session
#            folder the call brought back (holdout5.tgz unpacked: DIR = .../session). Regenerates each graph with
#            the session's command and seed (checksums checked by model.holdout against the device's metadata),
#            derives its workloads (one model.holdout --split v5 --derive-only per graph, one graph at a time;
#            done graphs skipped), then the judgement into $H5/judged.
# Time guard: a graph is started only if the call's elapsed time (build included) plus its estimate (EST below,
# seconds) stays under BUDGET_S (default 470); a graph left out says DEFERRED in deferred.txt (the same call again
# on the warm machine measures only what is missing: done tables are skipped). No file needs carrying.
# ESTIMATES (not measurements), from archive/holdout-v4-h100-2026-11-27's device logs (logs.tgz, device/ho4.log:
# the time from one graph's first run to the next graph's, its generation included): build ~32 s, microbenchmarks
# 55 s; kron17 15, urand17 17, kron18 18, urand18 19, kron20 24, urand20 25, urand21ef8 33, rmat21ef24 51. The
# held-out graphs, new, by their entries and vertices between those (kron19 15.5 M entries 21 s, urand19 16.8 M
# 22 s; the entries from the graphs generated on the development machine, 2026-11-27, nothing measured):
# urand19ef8 (8.4 M entries) 18, urand20ef4 (8.4 M, 1 M vertices, more levels) 25, kron20ef8 (16.1 M) 22,
# kron21ef4 (16.4 M, 2 M vertices) 30, urand19ef24 (25.2 M) 24, kron19ef24 (22.7 M) 24. Total ~435 s with the build,
# under BUDGET_S; one device command has 600 s. The held-out graphs come last; a deferral is measured by the same
# call again.
# Everything goes under one folder, $H5/session (runs/, micro/ with l2.csv, parameters.json, graphs/*.json and
# *.roots.txt, logs/ with the build log, host.txt, deferred.txt), packed as $OUT/holdout5.tgz (one file) after the
# microbenchmarks and again after every graph, so that a call cut short at its limit still brings back everything
# measured before the cut. The judge (after PARTS=derive):
#   python -m model.holdout --split v5 --runs H --graphs H/graphs --workloads H5/work/* --out-dir D
# Options: PARTS, REPS=3, WARMUP=1, BUDGET_S=470, GRAPHS (another list, for a dry run), EMOGI_BINARY (a prebuilt
# binary), H5 (state, default /tmp/ho5), H (derive: the session folder with runs/, graphs/), G (where the graphs
# are made: H5/graphs on the device, H/graphs in derive, beside the device's metadata; the local metadata goes to
# H5/localmeta), JOBS (derive: trace processes a graph, default 2), KEEP_GRAPHS (derive: keep each .csr once
# derived).
set -uo pipefail
. tools/device/setup.sh
. tools/device/holdout_session.sh
H5=${H5:-/tmp/ho5}
if [ -n "${H:-}" ]; then S=$H; G=${G:-$H/graphs}; else S=$H5/session; G=${G:-$H5/graphs}; fi
mkdir -p "$G" "$S/runs" "$S/logs" "$S/micro" "$S/graphs"
REPS=${REPS:-3}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-470}
parts=(${PARTS:-session})
SESSION_GRAPHS="kron17 urand17 kron18 urand18 kron20 urand20 urand21ef8 rmat21ef24 urand19ef8 urand20ef4 kron20ef8
  kron21ef4 urand19ef24 kron19ef24"
declare -A EST=([kron17]=15 [urand17]=17 [kron18]=18 [urand18]=19 [kron20]=24 [urand20]=25 [urand21ef8]=33
  [rmat21ef24]=51 [urand19ef8]=18 [urand20ef4]=25 [kron20ef8]=22 [kron21ef4]=30 [urand19ef24]=24 [kron19ef24]=24)
# name -> generator arguments and seed (model/holdout_split_v5.py is the registered table)
declare -A HOW=([rmat21ef24]="--kind kron --scale 21 --edge-factor 24 --rmat-abc 0.55,0.20,0.20")
seed_of() { case $1 in urand21ef8 | rmat21ef24) echo 26 ;; *ef*) echo 27 ;; kron17 | urand17) echo 25 ;; *) echo 24 ;;
  esac; }
how_of() {  # NAME = KIND SCALE [ef EDGE_FACTOR], e.g. kron21ef4; edge factor 16 where none is named
  [ -n "${HOW[$1]:-}" ] && { echo "${HOW[$1]}"; return; }
  local kind=${1%%[0-9]*} rest=${1#"${1%%[0-9]*}"} ef=16
  [[ $rest == *ef* ]] && ef=${rest#*ef}
  echo "--kind $kind --scale ${rest%%ef*} --edge-factor $ef"
}
WIDTHS="8 4"
ALGORITHMS="bfs sssp cc pagerank"

micro() {  # the link parameters (as holdout_v3.sh) and the L2 table C is fitted from
  [ -f "$S/parameters.json" ] && [ -f "$S/micro/l2.csv" ] && return 0
  log micro
  link_micro
  local l2=4M,8M,12M,16M,24M,32M,40M,48M,64M,96M,128M,256M,512M,1G
  python3 -m emogi.measure concurrency --binary "$EMOGI_BINARY" --out "$S/micro/l2.csv" -- --modes device \
    --footprints "$l2" --request-bytes 32 --warps 8192 --reads-per-warp 4 --iterations 256 --reps 3 \
    > "$S/logs/micro_l2.log" 2>&1 && python3 -m model.l2_capacity "$S/micro/l2.csv" >> "$S/logs/micro_l2.log" 2>&1
  tail -1 "$S/logs/micro_l2.log"
}
generate() {  # NAME META_DIR LOG: NAME.w8.csr in $G (metadata into META_DIR), and its 4-byte narrowing
  local name=$1 seed; seed=$(seed_of "$1")
  python3 -m emogi.datasets.generators $(how_of "$name") --seed "$seed" --weights-seed "$seed" \
    --out "$G/$name.w8.csr" --meta "$2/$name.w8.json" > "$3" 2>&1 || { tail -2 "$3"; return 1; }
  python3 -m emogi.csr narrow "$G/$name.w8.csr" --out "$G/$name.w4.csr" --meta "$2/$name.w4.json" >> "$3" 2>&1 \
    || { tail -2 "$3"; return 1; }
}
graph() {  # NAME: the files, metadata and 2 roots (with the graph's seed) in $G; nothing if made already
  local name=$1
  [ -f "$G/$name.w8.json" ] && [ -f "$G/$name.w4.csr" ] && [ -f "$G/$name.roots.txt" ] && return 0
  generate "$name" "$G" "$S/logs/gen_$name.log" || return 1
  python3 -m emogi.datasets.roots "$G/$name.w8.csr" --count 2 --seed "$(seed_of "$name")" \
    --out "$G/$name.roots.txt" >> "$S/logs/gen_$name.log" 2>&1 || { tail -2 "$S/logs/gen_$name.log"; return 1; }
}
measured() { local a w; for w in $WIDTHS; do for a in $ALGORITHMS; do
  [ -f "$S/runs/$a.$1.w$w.csv" ] || return 1; done; done; }
session_graph() {  # NAME: made and measured within the call's budget, else DEFERRED
  local name=$1 a w
  measured "$name" && return 0
  if [ $((SECONDS + ${EST[$name]})) -gt "$BUDGET_S" ]; then
    echo "DEFERRED: $name (elapsed ${SECONDS} s + estimate ${EST[$name]} s > ${BUDGET_S} s): run the call again" \
      | tee -a "$S/deferred.txt"
    return 0
  fi
  graph "$name" || return 0
  for w in $WIDTHS; do for a in $ALGORITHMS; do measure_cell "$name" "$a" "$w"; done; done
  [ "$G" = "$S/graphs" ] || cp "$G/$name".w*.json "$G/$name.roots.txt" "$S/graphs/"
}
pack() {  # the session so far as $OUT/holdout5.tgz, replaced whole (a call cut short brings back what it measured)
  tar czf "$OUT/holdout5.part.tgz" -C "$(dirname "$S")" "$(basename "$S")" \
    && mv -f "$OUT/holdout5.part.tgz" "$OUT/holdout5.tgz"
}
derive() {  # CPU: each graph of the runs regenerated where missing, its workloads derived, one graph at a time
  local name
  for name in $(ls "$S"/runs/*.csv | xargs -n1 basename | cut -d. -f2 | sort -u); do
    [ -f "$H5/work/$name/workloads.csv" ] && continue
    if [ ! -f "$G/$name.w8.csr" ] || [ ! -f "$G/$name.w4.csr" ]; then
      mkdir -p "$H5/localmeta"
      generate "$name" "$H5/localmeta" "$H5/localmeta/gen_$name.log" || { echo "gen $name failed"; continue; }
    fi
    log "derive $name"
    python3 -m model.holdout --split v5 --runs "$S" --graphs "$G" --only "$name" --derive-only \
      --jobs "${JOBS:-2}" --out-dir "$H5/work/$name" > "$H5/derive_$name.log" 2>&1 \
      || { echo "derive $name failed"; tail -2 "$H5/derive_$name.log"; }
    [ -z "${KEEP_GRAPHS:-}" ] && [ -f "$H5/work/$name/workloads.csv" ] && rm -f "$G/$name".w*.csr
  done
}
judge() {
  log judge
  python3 -m model.holdout --split v5 --runs "$S" --graphs "$G" --workloads "$H5"/work/* \
    --out-dir "$H5/judged" > "$H5/judge.log" 2>&1 || { tail -3 "$H5/judge.log"; return 1; }
  python3 -m figures.fig_holdout --holdout "$H5/judged/holdout_cells.csv" --source "$H5/judged/source.json" \
    --out "$H5/judged/fig_holdout.png" --out-csv "$H5/judged/fig_holdout.csv" > "$H5/fig.log" 2>&1 || tail -2 "$H5/fig.log"
  cat "$H5/judge.log"
}

log "parts: ${parts[*]} (budget ${BUDGET_S} s)"
for part in "${parts[@]}"; do
  case $part in
    session) : > "$S/deferred.txt"  # this call's deferrals only
      provenance; build_kernels; [ -f "$OUT/build.log" ] && mv "$OUT/build.log" "$S/logs/build.log"; micro; pack
      for n in ${GRAPHS:-$SESSION_GRAPHS}; do session_graph "$n"; pack; done
      for f in "$S"/runs/*.csv; do [ -f "$f" ] && echo "$(($(wc -l < "$f") - 1)) rows $(basename "$f")"; done \
        > "$S/logs/rows.txt"
      log "done after ${SECONDS} s" | tee -a "$S/logs/rows.txt"
      pack && ls -l "$OUT/holdout5.tgz"
      cat "$S/deferred.txt" ;;
    derive) derive; judge ;;
    *) echo "unknown part $part (session, derive)"; exit 2 ;;
  esac
done
