#!/usr/bin/env bash
# Issue 24's held-out validation v3 in ONE device session (docs/holdout-v3-v6.md, "GPU-work term v3 and held-out
# validation v3"; the split is model/holdout_split_v3.py), two device calls on one warm machine (state in /tmp/ho3):
#   (device) PARTS=call1 bash tools/device/holdout_v3.sh   build, host.txt, the link microbenchmarks + model.fit,
#            the L2 table (l2.csv) and a device chase; cnr2000, kron18, urand18, kron22, urand22, rmat21ef64
#            (train), kron17, urand17, rmat22ef32 (held out), kron20, urand20 (train)     ESTIMATE ~8.5 min
#            PARTS=call2 bash tools/device/holdout_v3.sh   urand24, kron24 (train), urand25, kron25 (held out): BFS,
#            SSSP and CC, 8-byte edges only                                                   ESTIMATE ~8.0 min
#   (any machine, CPU) PARTS=derive bash tools/device/holdout_v3.sh   regenerate each graph whose .csr is not
#            there with the session's command and seed (checksums checked by model.holdout against the device's
#            metadata), derive its workloads (one model.holdout --split v3 --derive-only per graph, one graph at a
#            time; done graphs skipped; scale 24-25 files deleted once derived), then the judgement into
#            $H3/judged. H: a writable copy of the folder the device calls brought back ($OUT/holdout3).
# A time guard keeps each call inside one device command: a graph is started only if the call's elapsed time
# plus its estimate (EST below, seconds) stays under BUDGET_S (default 540); a graph left out says DEFERRED, and
# running the same PARTS again on the warm machine measures only what is missing (done tables are skipped).
# Graph files of scale >= 24 are deleted once measured (disk: 64 GiB; KEEP_GRAPHS=1 keeps them); metadata and
# roots stay. cnr2000 is carried as resources/holdout/cnr2000.w8.csr (+ .json), as for tools/device/
# holdout_study.sh (its header: how it is made; carry=["resources/holdout"]).
# ESTIMATES (not measurements): the wall time between consecutive graphs of archive/holdout-h100-2026-11-27's
# session, generation included (scale 20 ~24 s a graph, 22 ~60 s, rmat21ef64 ~72 s, cnr2000 ~24 s, scale 24
# 8-byte BFS+SSSP+CC: kron 45 s + generation, urand 73 s + generation; build and microbenchmarks 75 s there, 110
# here), scale 17-18 ~15 s, rmat22ef32 ~80 s, scale 25 twice scale 24 plus generation; the L2 table and the
# device chase ~15 s. call1 ~510 s, call2 ~470 s: under BUDGET_S, with little room.
# Every call brings back $OUT/holdout3: host.txt, parameters.json, micro/ (with l2.csv), runs/, graphs/*.json,
# *.roots.txt, logs/ and deferred.txt (what the guard left out). The judge (after PARTS=derive):
#   python -m model.holdout --split v3 --runs H --graphs H/graphs --workloads H/work/* --out-dir D
# Options: PARTS, REPS=3, WARMUP=1, BUDGET_S=540, KEEP_GRAPHS, CALL1_GRAPHS and CALL2_GRAPHS (other lists, for a
# dry run), EMOGI_BINARY (a prebuilt binary), H3 (state, default /tmp/ho3), H (derive: the folder with runs/,
# graphs/), G (derive: where the graphs are made; default H/graphs), JOBS (derive: trace processes a graph,
# default 2; 1 at scales 24-25).
set -uo pipefail
. tools/device/setup.sh
. tools/device/holdout_session.sh
H3=${H3:-/tmp/ho3}
if [ -n "${H:-}" ]; then S=$H; G=${G:-$H/graphs}; else S=$H3/session; G=${G:-$H3/graphs}; fi
mkdir -p "$G" "$S/runs" "$S/logs" "$S/micro"
REPS=${REPS:-3}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-540}
parts=(${PARTS:?name the parts: call1, call2, derive})
declare -A EST=([cnr2000]=24 [kron17]=12 [urand17]=12 [kron18]=15 [urand18]=15 [kron20]=24 [urand20]=24
  [kron22]=55 [urand22]=66 [rmat21ef64]=72 [rmat22ef32]=80 [kron24]=70 [urand24]=90 [kron25]=130
  [urand25]=180)
# name -> generator arguments and seed (model/holdout_split_v3.py is the registered table)
declare -A HOW=([rmat21ef64]="--kind kron --scale 21 --edge-factor 64 --rmat-abc 0.45,0.15,0.15"
  [rmat22ef32]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20")
seed_of() { case $1 in kron25 | urand25 | rmat22ef32 | kron17 | urand17) echo 25 ;; *) echo 24 ;; esac; }
how_of() { [ -n "${HOW[$1]:-}" ] && echo "${HOW[$1]}" || echo "--kind ${1%%[0-9]*} --scale ${1##*[a-z]} --edge-factor 16"; }
widths_of() { case $1 in kron24 | urand24 | kron25 | urand25) echo 8 ;; *) echo "8 4" ;; esac; }
algorithms_of() { case $1 in kron24 | urand24 | kron25 | urand25) echo "bfs sssp cc" ;; *) echo "bfs sssp cc pagerank" ;; esac; }

micro() {  # the link parameters (as holdout_study.sh), the L2 table of split v3 and a device chase (recorded)
  [ -f "$S/parameters.json" ] && [ -f "$S/micro/l2.csv" ] && return 0
  log micro
  link_micro
  local m=(--binary "$EMOGI_BINARY")
  local l2=4M,8M,12M,16M,24M,32M,40M,48M,64M,96M,128M,256M,512M,1G
  python3 -m emogi.measure concurrency "${m[@]}" --out "$S/micro/l2.csv" -- --modes device --footprints "$l2" \
    --request-bytes 32 --warps 8192 --reads-per-warp 4 --iterations 256 --reps 3 > "$S/logs/micro_l2.log" 2>&1 \
    && python3 -m model.l2_capacity "$S/micro/l2.csv" >> "$S/logs/micro_l2.log" 2>&1
  tail -1 "$S/logs/micro_l2.log"
  python3 -m emogi.measure chase "${m[@]}" --out "$S/micro/chase_device.csv" -- --modes device \
    --footprints "$l2" --steps 20000 --reps 3 > "$S/logs/micro_chase_device.log" 2>&1 || echo "device chase failed"
}
graph() {  # NAME: NAME.w8.csr/.json, its w4 narrowing where measured, NAME.roots.txt; nothing if made already
  local name=$1 seed; seed=$(seed_of "$1")
  [ -f "$G/$name.w8.json" ] && [ -f "$G/$name.w8.csr" ] && return 0
  if [ "$name" = cnr2000 ]; then
    [ -f resources/holdout/cnr2000.w8.csr ] || { echo "cnr2000: resources/holdout/cnr2000.w8.csr not carried"; return 1; }
    cp resources/holdout/cnr2000.w8.csr "$G/"
    cp "$( [ -f resources/holdout/cnr2000.w8.json ] && echo resources/holdout/cnr2000.w8.json \
      || echo tools/device/holdout_cnr2000.w8.json)" "$G/cnr2000.w8.json"
  else
    python3 -m emogi.datasets.generators $(how_of "$name") --seed "$seed" --weights-seed "$seed" \
      --out "$G/$name.w8.csr" --meta "$G/$name.w8.json" > "$S/logs/gen_$name.log" 2>&1 \
      || { tail -2 "$S/logs/gen_$name.log"; return 1; }
  fi
  [ -f "$G/$name.roots.txt" ] || python3 -m emogi.datasets.roots "$G/$name.w8.csr" --count 2 --seed "$seed" \
    --out "$G/$name.roots.txt" >> "$S/logs/gen_$name.log" 2>&1 || { tail -2 "$S/logs/gen_$name.log"; return 1; }
  if [[ " $(widths_of "$name") " == *" 4 "* ]]; then
    python3 -m emogi.csr narrow "$G/$name.w8.csr" --out "$G/$name.w4.csr" --meta "$G/$name.w4.json" \
      >> "$S/logs/gen_$name.log" 2>&1 || { tail -2 "$S/logs/gen_$name.log"; return 1; }
  fi
  if [ "$name" = cnr2000 ]; then  # directed: direction-optimizing BFS reads in-lists from the transpose (G.t.csr)
    for w in $(widths_of "$name"); do python3 -m emogi.csr transpose "$G/$name.w$w.csr" >> "$S/logs/gen_$name.log" 2>&1 \
      || { tail -2 "$S/logs/gen_$name.log"; return 1; }; done
  fi
}
measure() {  # NAME: every cell of the graph, one `emogi run` per algorithm and width
  local a w
  for w in $(widths_of "$1"); do for a in $(algorithms_of "$1"); do measure_cell "$1" "$a" "$w"; done; done
}
measured() { local a w; for w in $(widths_of "$1"); do for a in $(algorithms_of "$1"); do
  [ -f "$S/runs/$a.$1.w$w.csv" ] || return 1; done; done; }
session_graph() {  # NAME: made and measured within the call's budget, else DEFERRED
  local name=$1
  measured "$name" && return 0
  if [ $((SECONDS + ${EST[$name]})) -gt "$BUDGET_S" ]; then
    echo "DEFERRED: $name (elapsed ${SECONDS} s + estimate ${EST[$name]} s > ${BUDGET_S} s): run the same PARTS again" \
      | tee -a "$S/deferred.txt"
    return 0
  fi
  graph "$name" && measure "$name"
  big "$name" && [ -z "${KEEP_GRAPHS:-}" ] && measured "$name" && rm -f "$G/$name".w*.csr
  return 0
}
big() { case $1 in kron24 | urand24 | kron25 | urand25) return 0 ;; *) return 1 ;; esac; }
derive() {  # CPU: each graph of the runs regenerated where missing, its workloads derived, one graph at a time
  local name
  for name in $(ls "$S"/runs/*.csv | xargs -n1 basename | cut -d. -f2 | sort -u); do
    [ -f "$H3/work/$name/workloads.csv" ] && continue
    if [ ! -f "$G/$name.w8.csr" ]; then
      mkdir -p "$H3/localmeta"
      if [ "$name" = cnr2000 ]; then cp resources/holdout/cnr2000.w8.csr "$G/" || continue
      else python3 -m emogi.datasets.generators $(how_of "$name") --seed "$(seed_of "$name")" \
        --weights-seed "$(seed_of "$name")" --out "$G/$name.w8.csr" --meta "$H3/localmeta/$name.w8.json" \
        > "$H3/localmeta/gen_$name.log" 2>&1 || { echo "gen $name failed"; continue; }; fi
      [ -f "$G/$name.w4.json" ] && { python3 -m emogi.csr narrow "$G/$name.w8.csr" --out "$G/$name.w4.csr" \
        --meta "$H3/localmeta/$name.w4.json" >> "$H3/localmeta/gen_$name.log" 2>&1 || continue; }
    fi
    log "derive $name"
    local jobs=${JOBS:-2}; big "$name" && jobs=1  # scale 24-25: one trace at a time (memory)
    python3 -m model.holdout --split v3 --runs "$S" --graphs "$G" --only "$name" --derive-only --jobs "$jobs" \
      --out-dir "$H3/work/$name" > "$H3/derive_$name.log" 2>&1 || { echo "derive $name failed"; tail -2 "$H3/derive_$name.log"; }
    big "$name" && [ -z "${KEEP_GRAPHS:-}" ] && [ -f "$H3/work/$name/workloads.csv" ] && rm -f "$G/$name".w*.csr
  done
}
judge() {
  log judge
  python3 -m model.holdout --split v3 --runs "$S" --graphs "$G" --workloads "$H3"/work/* --out-dir "$H3/judged" \
    > "$H3/judge.log" 2>&1 || { tail -3 "$H3/judge.log"; return 1; }
  python3 -m figures.fig_holdout --holdout "$H3/judged/holdout_cells.csv" --source "$H3/judged/source.json" \
    --out "$H3/judged/fig_holdout.png" --out-csv "$H3/judged/fig_holdout.csv" > "$H3/fig.log" 2>&1 || tail -2 "$H3/fig.log"
  cat "$H3/judge.log"
}

log "parts: ${parts[*]} (budget ${BUDGET_S} s a call)"
: > "$S/deferred.txt"  # this call's deferrals only
for part in "${parts[@]}"; do
  case $part in
    call1) provenance; build_kernels; micro
      for n in ${CALL1_GRAPHS:-cnr2000 kron18 urand18 kron22 urand22 rmat21ef64 kron17 urand17 rmat22ef32 kron20 urand20}; do
        session_graph "$n"; done ;;
    call2) [ -f "$S/parameters.json" ] || echo "WARNING: no state of call1 in $H3: this machine starts a new" \
      "session, and split v3 is judged on one session (run call1 here first)"
      provenance; build_kernels; micro
      for n in ${CALL2_GRAPHS:-urand24 kron24 urand25 kron25}; do session_graph "$n"; done ;;
    derive) derive; judge; exit 0 ;;
    *) echo "unknown part $part (call1, call2, derive)"; exit 2 ;;
  esac
done
mkdir -p "$OUT/holdout3/graphs"
cp -r "$S"/. "$OUT/holdout3/"
cp "$G"/*.json "$G"/*.roots.txt "$OUT/holdout3/graphs/" 2> /dev/null
for f in "$S"/runs/*.csv; do [ -f "$f" ] && echo "$(($(wc -l < "$f") - 1)) rows $(basename "$f")"; done
log "done after ${SECONDS} s"
