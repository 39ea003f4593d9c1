#!/usr/bin/env bash
# Issue 21, the UVM simulator's validation 5 in ONE device call (docs/uvm-validations.md, "Validation 5 of the UVM
# simulator: registered before the session"; the set is model/uvm_validation5.py's SET):
#   (device) EMOGI_COMMIT=<the commit> bash tools/device/uvm_validation5.sh                ESTIMATE ~6-7.5 min, H100
# EMOGI_COMMIT names the commit in host.txt and every row (the device copy's git metadata may be stale: validation
# 4's rows name a wrong one); without it the script warns and records the copy's git HEAD.
# Validation 4's call (uvm_session.sh validation_call) with: the seed-27 graphs kron23s27, urand23s27 and
# rmat22ef32s27 (no urand24: it never fit the guard), 1 warm-up and REPS=5 timed runs per (mode, variant) in one
# `emogi run` per step, uvmfault at the start and the end only (UVMFAULT_AFTER=0), linkbw at the start (the
# primary rule's measure) and the end. Managed memory is never oversubscribed. Time guard: a graph starts only if
# elapsed + its estimate (EST, s: ~1.7x validation 4's 70, 72, 58 s at REPS=2) <= BUDGET_S (420), else DEFERRED
# (deferred.txt; the last graph goes first rather than reps being cut); each `emogi run` is stopped after
# RUN_LIMIT_S (150) and none runs past HARD_S (450); the closing uvmfault, copies and tarball take ~25 s more.
# ESTIMATES (archive/uvm-validation4-analysis-2026-11-27 projection.csv, from validation 4's 264 s call with a 33 s
# build): 361 s (307-444 s); a slow build (up to 110 s) defers the last graph. Everything comes back as
# $OUT/uvm5.tgz (uvm5/: host.txt, device.json, micro/, runs/, graphs/*.json and *.roots.txt, logs/, deferred.txt,
# call.log).
# The judge (CPU, after the call; regenerates the graphs with the same seeds and derives the traces):
#   python -m model.uvm_validation5 judge --tarball uvm5.tgz --graph-dir /tmp/uvm5g --out D --jobs 2
# Options: BUDGET_S, RUN_LIMIT_S, HARD_S, REPS=5, WARMUP=1, GRAPHS (another list, for a dry run), EMOGI_BINARY.
set -uo pipefail
. tools/device/setup.sh
. tools/device/uvm_session.sh
validation_dirs 5
REPS=${REPS:-5}; WARMUP=${WARMUP:-1}; BUDGET_S=${BUDGET_S:-420}; RUN_LIMIT_S=${RUN_LIMIT_S:-150}
HARD_S=${HARD_S:-450}  # no `emogi run` goes past this (s)
# the registered set (model/uvm_validation5.py SET): name -> generator arguments; seed 27 for all
declare -A HOW=([kron23s27]="--kind kron --scale 23 --edge-factor 16"
  [urand23s27]="--kind urand --scale 23 --edge-factor 16"
  [rmat22ef32s27]="--kind kron --scale 22 --edge-factor 32 --rmat-abc 0.50,0.20,0.20")
declare -A EST=([kron23s27]=120 [urand23s27]=125 [rmat22ef32s27]=100)
SEED=27; VARIANTS=merged-aligned,naive; ALGORITHMS="bfs sssp cc pagerank"; UVMFAULT_AFTER=0
UVMFAULT=(--bytes 1G --access thread,warp --list-bytes 256,8192 --strides 0 --reps 3 --warmup 1)
UVMFAULT_STRIDE=(--bytes 1G --access thread,warp --list-bytes 128 --strides 65536 --reps 3 --warmup 1)

validation_call 5 ${GRAPHS:-kron23s27 urand23s27 rmat22ef32s27}
