#!/usr/bin/env bash
# Issue 21 item 4, a diagnostic, not a validation (docs/uvm-capped-validations.md, "Graph-or-machine check"; the set,
# seeds and order are model/uvm_capped_graph_check.py's): is urand20s35's over-prediction in capped validation 5 and
# its repeat the graph itself, or the machines lent on 2026-11-28? Capped validation 4's design (uvm_capped_session.sh:
# copies, uvmfault, device and cold `uvm` with traces, then uvm-capped at 1/4 and 1/2 with K = 1 and 4 in validation
# 4's order, one process of REPS=5 timed runs a cell, no warm-up) on urand20s33 (validation 4's graph, seed 33) and
# urand20s35 (validation 5's, seed 35) in ONE call, their algorithms interleaved (ORDER: neither graph always first),
# then kron20s33 (seed 33) as a control if the guard lets it start.
#   (device) EMOGI_COMMIT=<the commit> EMOGI_WHEELS=none DETACH_WAIT=580 bash tools/device/detached.sh start uvmcg \
#              bash tools/device/uvm_capped_graph_check.sh                                    ~7.5 min, H100
# ESTIMATE (the docs section): ~405 s with the build there, ~440 s with a fresh one, from capped validation 4's call
# log (283 s: 28 s of copies, uvmfault and build, kron20s33 135 s, urand20s33 120 s; urand20s35 taken as urand20s33).
# Guard: the two urand graphs always start (they are the question); kron20s33 starts only if elapsed + 140 s <=
# BUDGET_S (520); no `emogi run` goes past HARD_S (540); the closing copies, uvmfault and packing take ~25 s: < 570 s.
# Everything comes back as $OUT/uvmcg.tgz and $OUT/uvmcg_traces.tar.xz.part00. The judge (CPU; regenerates each graph
# with its own seed, simulates the traces):
#   python -m model.uvm_capped_graph_check judge --tarball uvmcg.tgz --graph-dir /tmp/ucapg --out D --jobs 2
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
N=g; NAMES="urand20s33 urand20s35 kron20s33"
declare -A HOW=([urand20s33]="--kind urand --scale 20 --edge-factor 16" [urand20s35]="--kind urand --scale 20 --edge-factor 16" [kron20s33]="--kind kron --scale 20 --edge-factor 16")
# each graph's own seed (graphs, weights, roots), as its validation made it: the same graph and the same roots
declare -A SEEDS=([urand20s33]=33 [urand20s35]=35 [kron20s33]=33)
declare -A EST=([kron20s33]=140)
SEED=33;
BUDGET_S=${BUDGET_S:-520}; HARD_S=${HARD_S:-540}
. tools/device/uvm_capped_session.sh
# (algorithm:graph) in the order they run: urand20s33 first for BFS and CC, urand20s35 first for SSSP and PageRank
ORDER="bfs:urand20s33 bfs:urand20s35 sssp:urand20s35 sssp:urand20s33 cc:urand20s33 cc:urand20s35 pagerank:urand20s35 pagerank:urand20s33"
CONTROL=kron20s33

seeded_graph() {  # NAME: graph() (uvm_session.sh) with NAME's own seed
  SEED=${SEEDS[$1]}
  graph "$1"
}
capped_body() {  # uvm_capped_session.sh's, with the two urand graphs interleaved and the control after them
  local n a step made=" "
  log "graph-or-machine check (budget ${BUDGET_S} s, hard ${HARD_S} s, REPS=$REPS, WARMUP=$WARMUP, order $ORDER, then $CONTROL)"
  capped_open
  for n in urand20s33 urand20s35; do seeded_graph "$n" && made+="$n "; done
  for step in $ORDER; do
    a=${step%:*}; n=${step#*:}
    [[ $made == *" $n "* ]] && measure "$n" "$a"
  done
  rm -f "$G"/urand20s3[35].w8.csr  # the judge regenerates them
  SEED=${SEEDS[$CONTROL]}
  session_graph "$CONTROL"  # within BUDGET_S, else DEFERRED
  capped_close
}
capped_session
