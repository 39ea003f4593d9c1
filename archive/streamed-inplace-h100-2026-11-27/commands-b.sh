#!/usr/bin/env bash
# Session D2: read-in-place v2 (zero-copy copy) PageRank, then the mode selector's check.
set -uo pipefail
export EMOGI_WHEELS=.devrun/whl
CFGS="64M:0 64M:0.5 64M:0.75 16M:0.75" SKIP_TESTS=0 bash .devrun/s4.sh
export EMOGI_BINARY=$PWD/build/emogi PATH=$PATH:/usr/local/cuda/bin
. tools/device/setup.sh
bash tools/device/select_check.sh "$OUT/select"
