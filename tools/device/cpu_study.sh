#!/usr/bin/env bash
# The CPU side of the study (docs/cpu.md, issue 23) on the GPU host's CPU: the thesis' memory micro-benchmark,
# unblocked against cache-blocked pull PageRank, and the CPU peer library, on the GAP graphs at 4-byte ids (as the
# GAP reference figures in ../shared/FACTS.md). No GPU needed, but `emogi reference` checks the peer, so the
# kernels are built as usual.
#
#   (device) STEPS="membench" bash tools/device/cpu_study.sh                # the build (first call) + ~1 min
#   (device) STEPS="pr24" bash tools/device/cpu_study.sh                    # ~5-6 min (kron24: ~70 s to generate)
#   (device) STEPS="pr24gap" bash tools/device/cpu_study.sh                 # ~6 min: GAP's rule + access A/B
#   (device) STEPS="peer" PEER_GRAPHS=kron24 bash tools/device/cpu_study.sh  # one graph per call; carry build/whl-cpu
#   (device) STEPS="peer" PEER_GRAPHS=urand24 bash tools/device/cpu_study.sh
#   (device) STEPS="peer_scaling" bash tools/device/cpu_study.sh            # the peer on kron22: 1 thread vs all
#   (device) STEPS="pr27" bash tools/device/cpu_study.sh                    # ~6 min (~2.5 min to generate)
#   (device) STEPS="pr27cc" bash tools/device/cpu_study.sh                  # after pr27 on the same machine
#
# The peer's wheels (python-graphblas, graphblas-algorithms, suitesparse-graphblas, donfig, cffi, pycparser; ~20 MB)
# come from `bash tools/cpu_peer_wheels.sh` here, into build/whl-cpu: carry ["build/whl-cpu"] (the script sets
# EMOGI_WHEELS to it when present). Threads: all cores, OMP_PROC_BIND=close, OMP_PLACES=cores unless set.
# Output in $OUT: machine.json, lscpu.txt, membench.csv, pagerank*_<graph>.csv, cc_<graph>.csv, peer_<graph>.csv,
# perf_*.txt (pr27: `perf stat` of each kernel's run, or why there is none), the logs, and
# cpu_study.tgz with all of them; a short table is printed last.
set -uo pipefail
[ -d build/whl-cpu ] && export EMOGI_WHEELS=${EMOGI_WHEELS:-build/whl-cpu}
. tools/device/setup.sh
STEPS=${STEPS:-membench}
PEER_GRAPHS=${PEER_GRAPHS:-kron24}
PR_GRAPH=${PR_GRAPH:-kron24}            # a smaller one (kron16) for a smoke run
MEMBENCH_SIZE=${MEMBENCH_SIZE:-2G}
BIND=${BIND:-close} PLACES=${PLACES:-cores}
G=${G:-/tmp/g}
mkdir -p "$G"
log start
build_kernels
CPU=build/emogi_cpu
pin=(--bind "$BIND" --places "$PLACES")

$CPU machine "${pin[@]}" | tee "$OUT/machine.json"
lscpu > "$OUT/lscpu.txt" 2>&1
command -v numactl > /dev/null && numactl --hardware >> "$OUT/lscpu.txt" 2>&1
grep -E "Model name|^CPU\(s\)|L3|NUMA node\(s\)" "$OUT/lscpu.txt"

# graph_w4 NAME: GAP graph NAME (kron24, urand24, kron27) with 4-byte ids, seed 24 as the bench's, and its 2 roots
# (the bench's draw) in $G/NAME.roots.
graph_w4() {
  local kind=${1%%[0-9]*} scale=${1##*[a-z]}
  [ -f "$G/$1.w4.csr" ] || timeout "${GEN_TIMEOUT:-400}" python3 -m emogi.datasets.generators --kind "$kind" \
    --scale "$scale" --edge-factor 16 --seed 24 --weights-seed 24 --index-bytes 4 --out "$G/$1.w4.csr" \
    > "$OUT/generate_$1.log" 2>&1 || { echo "generating $1 failed"; tail -3 "$OUT/generate_$1.log"; return 1; }
  python3 -m emogi.datasets.roots "$G/$1.w4.csr" --count 2 --seed 24 --out "$G/$1.roots.txt" \
    && paste -sd, "$G/$1.roots.txt" > "$G/$1.roots"
}

# kernel CMD NAME EXTRA...: emogi_cpu CMD (pagerank, cc) on NAME: KERNELS (default unblocked,blocked), blocked at
# each of SEGMENTS (auto: the LLC's count), in one run of the binary (the graph is read and checked once);
# $OUT/CMD[TAG]_NAME.csv. PERF=1: under `perf stat` (LLC loads and misses), into $OUT/perf_CMD[TAG]_NAME.txt.
kernel() {
  local cmd=$1 name=$2; shift 2
  local csv="$OUT/${cmd}${TAG:-}_$name.csv" logf="$OUT/${cmd}${TAG:-}_$name.log" pre=()
  if [ "${PERF:-0}" = 1 ]; then
    if command -v perf > /dev/null; then
      pre=(perf stat -e LLC-load-misses,LLC-loads,cache-misses -o "$OUT/perf_${cmd}${TAG:-}_$name.txt" --)
    else
      echo "no perf on this machine (stock Ubuntu: apt-get install linux-tools-\$(uname -r)); no cache-miss counts" \
        > "$OUT/perf_${cmd}${TAG:-}_$name.txt"
    fi
  fi
  log "$cmd${TAG:-} $name, kernels ${KERNELS:-unblocked,blocked}, segments ${SEGMENTS:-auto}"
  timeout "${PR_TIMEOUT:-300}" "${pre[@]}" $CPU "$cmd" --graph "$G/$name.w4.csr" "${pin[@]}" \
    --kernels "${KERNELS:-unblocked,blocked}" --segments "${SEGMENTS:-auto}" "$@" \
    > "$csv" 2> "$logf" || { echo "$cmd $name failed"; tail -3 "$logf"; }
}
# The PageRank reference of NAME (V float64, l1_to_reference), computed by the first run that needs it, then read.
ref() { echo --reference "$G/$1.pr-ref.f64"; }
# access_ab NAME: what a Gauss-Seidel round on NAME owes to where the data live and how they are read: 5 fixed
# rounds (3 reps after a warm-up) per setting of --graph-memory, --pages, --prefetch and --schedule, from the kernel
# before them (mapped, small, 0, dynamic,1024) through each change alone to all of them; one CSV, a row per setting
# ($OUT/access_ab_NAME.csv; not a file the figure reads).
access_ab() {
  local csv="$OUT/access_ab_$1.csv" logf="$OUT/access_ab_$1.log" memory pages prefetch schedule header=1
  log "access A/B $1 (gauss-seidel, 5 rounds per setting)"
  : > "$csv"
  while read -r memory pages prefetch schedule; do
    timeout 120 $CPU pagerank --graph "$G/$1.w4.csr" "${pin[@]}" --form gauss-seidel --kernels unblocked \
      --fixed-iterations 5 --no-reference --reps 3 --warmup 1 --graph-memory "$memory" --pages "$pages" \
      --prefetch "$prefetch" --schedule "$schedule" 2>> "$logf" | tail -n +$((header ? 1 : 2)) >> "$csv" \
      || echo "access A/B $1 $memory $pages $prefetch $schedule failed"
    header=0
  done <<'SETTINGS'
mapped small 0 dynamic,1024
copy small 0 dynamic,1024
mapped huge 0 dynamic,1024
mapped small 128 dynamic,1024
mapped small 0 dynamic,16384
copy huge 0 dynamic,1024
copy huge 128 dynamic,1024
copy huge 256 dynamic,1024
copy huge 128 dynamic,16384
SETTINGS
}

for step in $STEPS; do
  case $step in
    membench)
      log "membench (2 GB array; all threads 3 reps, one thread 1 rep: a random pass takes ~20 s)"
      $CPU membench --size "$MEMBENCH_SIZE" "${pin[@]}" --pass-threads all --reps 3 > "$OUT/membench.csv" 2> "$OUT/membench.log"
      $CPU membench --size "$MEMBENCH_SIZE" "${pin[@]}" --pass-threads 1 --reps 1 --warmup 0 2>> "$OUT/membench.log" \
        | tail -n +2 >> "$OUT/membench.csv"
      ;;
    pr24)
      # The project's rule (every residual < 1e-3): Jacobi unblocked and blocked at 2, 4, 8 segments (auto is 1 on
      # a 300 MiB L3), Gauss-Seidel, PageRank-Delta at auto; CC at auto, 2, 4, 8. Two reps each (one warm-up-free
      # pair: every run allocates and first-touches its arrays inside the timing), so the step fits ~6 min.
      graph_w4 "$PR_GRAPH" || continue
      SEGMENTS=2,4,8 kernel pagerank "$PR_GRAPH" $(ref "$PR_GRAPH") --reps 2 --warmup 0
      TAG=_gs KERNELS=unblocked kernel pagerank "$PR_GRAPH" --form gauss-seidel $(ref "$PR_GRAPH") --reps 2 --warmup 0
      TAG=_delta kernel pagerank "$PR_GRAPH" --form delta $(ref "$PR_GRAPH") --reps 1 --warmup 0
      SEGMENTS=auto,2,4,8 kernel cc "$PR_GRAPH" --reps 3 --warmup 1
      ;;
    pr24gap)
      # GAP's rule (total change of normalised scores < 1e-4, as its reference PageRank: 1816 / 1371 ms on this
      # host), on kron24 and urand24: Gauss-Seidel unblocked and blocked at auto (1 segment under a 300 MiB L3:
      # the sweep itself), Jacobi unblocked and blocked at GAP_SEGMENTS (the best of pr24; 2 on kron24 on
      # 2026-11-26); each result's L1 distance to the reference. After the runs on ACCESS_AB (kron24; none: no
      # graph's), that graph's access A/B.
      for name in ${GAP_GRAPHS:-kron24 urand24}; do
        graph_w4 "$name" || continue
        TAG=_gap_gs SEGMENTS=auto kernel pagerank "$name" --form gauss-seidel --start uniform --stop total-change --epsilon 1e-4 \
          $(ref "$name") --reps 3 --warmup 0
        TAG=_gap SEGMENTS=${GAP_SEGMENTS:-2} kernel pagerank "$name" --start uniform --stop total-change --epsilon 1e-4 \
          $(ref "$name") --reps 3 --warmup 0
        [ "$name" = "${ACCESS_AB:-kron24}" ] && access_ab "$name"
      done
      ;;
    pr27 | pr27cc)
      G=${G27:-$PWD/resources/cpu-graphs}  # the 64 GiB disk (as generator_bench.sh); /tmp may be smaller
      mkdir -p "$G"
      free_gib=$(( $(df --output=avail -B1 "$G" | tail -1) >> 30 ))
      if [ ! -f "$G/kron27.w4.csr" ] && [ "$free_gib" -lt 45 ]; then  # ~35 GB file plus its bucket files
        echo "$step skipped: $free_gib GiB free in $G, kron27 at 4-byte ids needs ~45 (remove other graphs first)"
        continue
      fi
      graph_w4 kron27 || continue
      # kron27 at 4-byte ids: ~35 GB on disk; its 537 MB of floats are 1.7x the 300 MiB L3. Ten rounds, timed
      # once each: a round's time is what blocking changes (a run to the tolerance takes ~80 rounds). pr27: one
      # binary run per kernel under perf stat (the counts include reading and checking the graph, and building
      # the segments: compare rows, not absolute counts); pr27cc: PageRank-Delta and CC.
      if [ "$step" = pr27 ]; then
        tenth=(--fixed-iterations 10 --reps 1 --warmup 0 --no-reference)
        KERNELS=unblocked TAG=_unblocked PERF=1 kernel pagerank kron27 "${tenth[@]}"
        KERNELS=blocked SEGMENTS=auto TAG=_blockedauto PERF=1 kernel pagerank kron27 "${tenth[@]}"
        KERNELS=blocked SEGMENTS=8 TAG=_blocked8 PERF=1 kernel pagerank kron27 "${tenth[@]}"
      else
        TAG=_delta kernel pagerank kron27 --form delta --fixed-iterations 10 --reps 1 --warmup 0 --no-reference
        SEGMENTS=auto,8 kernel cc kron27 --reps 1 --warmup 0 --no-verify
      fi
      ;;
    peer)
      for name in $PEER_GRAPHS; do
        graph_w4 "$name" || continue
        log "peer $name"
        timeout "${PEER_TIMEOUT:-420}" python3 -m emogi.cpu_peer --graph "$G/$name.w4.csr" --roots "$(cat "$G/$name.roots")" \
          --reps 3 --warmup 1 --emogi build/emogi > "$OUT/peer_$name.csv" 2> "$OUT/peer_$name.log" \
          || { echo "peer $name failed"; tail -3 "$OUT/peer_$name.log"; }
      done
      ;;
    peer_scaling)
      # Is the peer parallel in every algorithm? kron22, one thread against all, timings only.
      graph_w4 kron22 || continue
      for t in 1 0; do
        log "peer kron22, threads $t (0: all)"
        timeout "${PEER_TIMEOUT:-400}" python3 -m emogi.cpu_peer --graph "$G/kron22.w4.csr" --roots "$(cat "$G/kron22.roots")" \
          --reps 3 --warmup 1 --threads $t --no-check 2>> "$OUT/peer_scaling.log" | { [ $t = 1 ] && cat || tail -n +2; } \
          >> "$OUT/peer_scaling_kron22.csv"
      done
      ;;
    *) echo "unknown step $step (membench, pr24, pr24gap, pr27, pr27cc, peer, peer_scaling)" ;;
  esac
done

log done
tar -czf "$OUT/cpu_study.tgz" -C "$OUT" $(cd "$OUT" && ls *.csv *.json *.log *.txt 2> /dev/null)
python3 - "$OUT" << 'EOF'
import sys
from pathlib import Path

import pandas as pd

out = Path(sys.argv[1])
for f in sorted(out.glob("membench.csv")):
    t = pd.read_csv(f)
    print(t[["pattern", "pass_threads", "seconds", "ns_per_access", "array_gb_s"]].to_string(index=False))
for f in sorted(out.glob("pagerank*.csv")) + sorted(out.glob("cc_*.csv")):
    t = pd.read_csv(f)
    cols = ["kernel", "segments", "duplication", "iterations", "verified", "median_ms", "ms_per_iteration", "gteps"]
    cols += [c for c in ("form", "stop", "criterion", "l1_to_reference") if c in t]
    print(f.name)
    print(t[cols].to_string(index=False))
for f in sorted(out.glob("access_ab_*.csv")):
    t = pd.read_csv(f)
    print(f.name)
    cols = ["graph_memory", "pages", "huge_bytes", "prefetch", "schedule", "median_ms", "min_ms", "ms_per_iteration"]
    print(t[cols].to_string(index=False))
for f in sorted(out.glob("perf_*.txt")):
    print(f.name, "".join(line for line in f.read_text().splitlines(True) if "LLC" in line or "cache" in line))
for f in sorted(out.glob("peer_*.csv")):  # peer_<graph>.csv and peer_scaling_kron22.csv
    t = pd.read_csv(f)
    print(f.name)
    print(t[["library", "threads", "algorithm", "root", "median_ms", "edges_per_s", "check", "detail"]].to_string(index=False))
EOF
