#!/usr/bin/env bash
# Issue 24's held-out validation in ONE device session (docs/predictor.md, "Held-out validation (issue 24)"), part by
# part, each part one device call of at most 10 minutes, on one warm machine (state in /tmp/ho):
#   (device) PARTS=train bash tools/device/holdout_study.sh     build, host.txt, microbenchmarks + model.fit,
#                                                               kron/urand 20-22 (the train graphs)
#            PARTS="h23 rmat cnr" bash tools/device/holdout_study.sh   kron23, urand23, rmat21ef64, cnr2000
#            PARTS=h24 bash tools/device/holdout_study.sh       kron24, urand24 (BFS, SSSP, CC: no PageRank)
#            PARTS=judge bash tools/device/holdout_study.sh     CPU only, after every GPU part: the traces (one
#                                                               model.holdout --derive-only per graph, biggest
#                                                               first, done graphs skipped on a rerun), the fit,
#                                                               the judgement and figures/fig_holdout.py
# Cells per graph: every algorithm x the paper's merged-aligned and the project's fastest x device, zerocopy x 8
# and 4 bytes (CC skips the directed cnr2000), BFS/SSSP from 2 roots (emogi.datasets.roots --count 2 --seed 24),
# REPS=3 timed runs after WARMUP=1, each verified by the binary (python -m emogi.measure run). Graphs: generated
# with seed 24 as the bench makes them, 8-byte file + its 4-byte narrowing, each with its metadata JSON; cnr2000
# must be carried as resources/holdout/cnr2000.w8.csr (made where the WebGraph tools are, `python -m
# emogi.datasets.law --basename tests/data/law-cnr-2000/cnr-2000 --out resources/holdout/cnr2000.w8.csr --meta
# resources/holdout/cnr2000.w8.json --weights-seed 24`, checksum 1950126a19aa6401 as in
# tools/device/holdout_cnr2000.w8.json; 40 MB: carry=["resources/holdout"]); without it the part says so.
# Every call brings back $OUT/holdout: host.txt, parameters.json, micro/, runs/, graphs/*.json, logs/ and, after
# `judge`, work/<graph>/ (workloads), judged/ (holdout_cells.csv, holdout_costs.csv, holdout_summary.csv,
# source.json, fig_holdout.png/.csv). The judge runs anywhere from those files:
#   python -m model.holdout --runs H --graphs H/graphs --workloads H/work/* --out-dir D
# ESTIMATES (not measured; from archived H100 runs of similar cells: uvm-warm-h100-2026-11-21/bench21 for the
# times per cell at scale 21 and the whole bench's wall time, .../gap24 and kernel-bench-h100-2026-11-21-reads-
# ahead for scale 24, large-matrix-h100-2026-11-21 for scale 23, generator-bench for generation; per `emogi run`
# about 2 s + 1.6 s per 65 M edges of loading and CPU reference, plus the GPU time of 4 runs a cell):
#   train ~4.5 min (build 0.5, micro ~1, graphs 0.3, runs: GPU 46 s + 48 invocations' overhead ~3 min)
#   h23 ~3.5 min, rmat ~1.7, cnr ~0.2 (call 2: ~5.5 min)   h24 ~2.5 min (PageRank cut: docs/predictor.md)
#   judge ~6.5 min (longest trace: kron23 PageRank merged-aligned, ~6 min on one core of the development
#   machine; ~85 CPU-minutes in all over 16 cores), so about 19 minutes of device time in all.
# The judge's traces need no GPU: archive/holdout-h100-2026-11-27/commands.sh derived them on the development
# machine from the graphs regenerated with the same commands (their checksums checked against graphs/*.json).
# Options: PARTS (above), REPS=3, WARMUP=1, JOBS=16 (trace processes in all), EMOGI_BINARY (a prebuilt binary).
set -uo pipefail
. tools/device/setup.sh
. tools/device/holdout_session.sh
H=/tmp/ho; G=$H/graphs; S=$H/session
mkdir -p "$G" "$S/runs" "$S/logs" "$S/micro"
REPS=${REPS:-3}; WARMUP=${WARMUP:-1}
parts=(${PARTS:?name the parts: train, h23, rmat, cnr, h24, judge})

micro() {  # the link parameters of this session (docs/model.md's table): W, L, N_max, S of zero-copy
  log micro
  link_micro
}
graph() {  # NAME [generator args]: NAME.w8.csr/.json, its w4 narrowing, NAME.roots.txt; nothing if made already
  local name=$1; shift
  [ -f "$G/$name.w4.json" ] && return 0
  if [ "$name" = cnr2000 ]; then
    [ -f resources/holdout/cnr2000.w8.csr ] || { echo "cnr2000: resources/holdout/cnr2000.w8.csr not carried"; return 1; }
    cp resources/holdout/cnr2000.w8.csr "$G/"
    # its metadata: the carried one, else the repository's copy (the same checksum, tools/device/)
    cp "$( [ -f resources/holdout/cnr2000.w8.json ] && echo resources/holdout/cnr2000.w8.json \
      || echo tools/device/holdout_cnr2000.w8.json)" "$G/cnr2000.w8.json"
  else
    python3 -m emogi.datasets.generators "$@" --seed 24 --weights-seed 24 --out "$G/$name.w8.csr" \
      --meta "$G/$name.w8.json" > "$S/logs/gen_$name.log" 2>&1 || { tail -2 "$S/logs/gen_$name.log"; return 1; }
  fi
  python3 -m emogi.datasets.roots "$G/$name.w8.csr" --count 2 --seed 24 --out "$G/$name.roots.txt" \
    >> "$S/logs/gen_$name.log" 2>&1 &&
  python3 -m emogi.csr narrow "$G/$name.w8.csr" --out "$G/$name.w4.csr" --meta "$G/$name.w4.json" \
    >> "$S/logs/gen_$name.log" 2>&1 || { tail -2 "$S/logs/gen_$name.log"; return 1; }
  if [ "$name" = cnr2000 ]; then  # directed: direction-optimizing BFS reads in-lists from the transpose (G.t.csr)
    for w in 8 4; do python3 -m emogi.csr transpose "$G/$name.w$w.csr" >> "$S/logs/gen_$name.log" 2>&1 \
      || { tail -2 "$S/logs/gen_$name.log"; return 1; }; done
  fi
}
measure() {  # NAME [ALGORITHMS]: every cell of the graph, one `emogi run` per algorithm and width
  local name=$1 a w
  for w in 8 4; do for a in ${2:-bfs sssp cc pagerank}; do measure_cell "$name" "$a" "$w"; done; done
}
gap() { graph "$1" --kind "${1%%[0-9]*}" --scale "${1##*[a-z]}" --edge-factor 16 && measure "$1" "${2:-}"; }

derive() {  # the workloads of every graph measured, biggest first, JOBS/4 trace processes a graph and at most 4
  # graphs at a time (JOBS processes in all); done ones skipped
  local name per=$(( ${JOBS:-16} / 4 )) slots=4; [ "$per" -ge 1 ] || per=1
  for name in $(ls -S "$G"/*.w8.csr | xargs -n1 basename | sed 's/\.w8\.csr$//'); do
    [ -f "$H/work/$name/workloads.csv" ] && continue
    ls "$S"/runs/*."$name".w*.csv > /dev/null 2>&1 || continue
    while [ "$(jobs -rp | wc -l)" -ge "$slots" ]; do wait -n; done
    python3 -m model.holdout --runs "$S" --graphs "$G" --only "$name" --derive-only --jobs "$per" \
      --out-dir "$H/work/$name" > "$S/logs/derive_$name.log" 2>&1 &
  done
  wait
  for name in $(ls "$G"/*.w8.csr | xargs -n1 basename | sed 's/\.w8\.csr$//'); do
    [ -f "$H/work/$name/workloads.csv" ] || echo "no workloads yet for $name: $(tail -1 "$S/logs/derive_$name.log" 2> /dev/null)"
  done
}
judge() {
  log judge
  python3 -m model.holdout --runs "$S" --graphs "$G" --workloads "$H"/work/* --out-dir "$S/judged" \
    > "$S/logs/judge.log" 2>&1 || { tail -3 "$S/logs/judge.log"; return 1; }
  python3 -m figures.fig_holdout --holdout "$S/judged/holdout_cells.csv" --source "$S/judged/source.json" \
    --out "$S/judged/fig_holdout.png" --out-csv "$S/judged/fig_holdout.csv" > "$S/logs/fig.log" 2>&1 \
    || tail -2 "$S/logs/fig.log"
  cat "$S/logs/judge.log"
}

log "parts: ${parts[*]}"
provenance
for part in "${parts[@]}"; do
  case $part in
    train) build_kernels; micro; for n in kron20 urand20 kron21 urand21 kron22 urand22; do gap "$n"; done ;;
    h23) build_kernels; gap kron23; gap urand23 ;;
    rmat) build_kernels; graph rmat21ef64 --kind kron --scale 21 --edge-factor 64 --rmat-abc 0.45,0.15,0.15 \
      && measure rmat21ef64 ;;
    cnr) build_kernels; graph cnr2000 && measure cnr2000 ;;
    h24) build_kernels; gap kron24 "bfs sssp cc"; gap urand24 "bfs sssp cc" ;;
    judge) log derive; derive; judge ;;
    *) echo "unknown part $part (train, h23, rmat, cnr, h24, judge)"; exit 2 ;;
  esac
done
mkdir -p "$OUT/holdout/graphs"
cp -r "$S"/. "$OUT/holdout/"; cp "$G"/*.json "$G"/*.roots.txt "$OUT/holdout/graphs/" 2> /dev/null
[ -d "$H/work" ] && cp -r "$H/work" "$OUT/holdout/"
for f in "$S"/runs/*.csv; do [ -f "$f" ] && echo "$(($(wc -l < "$f") - 1)) rows $(basename "$f")"; done | column -c 160
log done
