#!/usr/bin/env bash
# Times the same runs with several builds of the kernels and several run settings on the GAP graphs (8-byte ids,
# 2 roots x REPS after a warm-up, every run verified), then (unless SKIP_TESTS=1) runs the GPU tests with this
# tree's build.
#   (local)  build the other binaries into build/exp/ and carry it; or give OLD_SRC, kernels to build on the device
#            (mkdir -p build/old-src && git archive REV kernels | tar -x -C build/old-src)
#   (device) BINARIES="head=build/exp/emogi-256 wide=build/exp/emogi-1024" \
#              bash tools/device/detached.sh start cmp tools/device/compare_builds.sh
#            -> $OUT/compare.tgz (runs.csv with provenance, a log per invocation), $OUT/gpu_tests.log, a table
#   BINARIES "tag=path ..." (default: head = this tree's build, and old = OLD_SRC's if given), SETTINGS
#   "tag=flag,flag ..." (options added to every run, commas for spaces; default "default=", none; e.g.
#   "default= d8=--sssp-delta,8"), GRAPHS (default "kron24 urand24"), CASES "algorithm:variant,variant ..."
#   (default "bfs:merged-aligned sssp:merged-aligned,frontier cc:merged-aligned"), MODES (default zerocopy), REPS
#   (default 3); TESTS and TEST_K (a pytest -k expression) go to gpu_tests (setup.sh). Tags may not hold dots.
set -uo pipefail
. tools/device/setup.sh
if [ -n "${OLD_SRC:-}" ]; then
  python3 -m emogi.toolchain --source "$OLD_SRC" --build build/old-bin --arch 90 > "$OUT/build_old.log" 2>&1 &
fi
build_kernels
wait
BINARIES=${BINARIES:-head=$EMOGI_BINARY${OLD_SRC:+ old=build/old-bin/emogi}}
R=$OUT/compare
mkdir -p "$R"
for g in ${GRAPHS:-kron24 urand24}; do
  log "$g"
  gap_graph "$g"
  for c in ${CASES:-bfs:merged-aligned sssp:merged-aligned,frontier cc:merged-aligned}; do
    algorithm=${c%%:*}
    roots=()
    case $algorithm in bfs | sssp) roots=(--roots "$(cat /tmp/g/$g.roots)") ;; esac
    for s in ${SETTINGS:-default=}; do
      flags=${s#*=}
      IFS=, read -r -a extra <<< "$flags"
      for b in $BINARIES; do  # builds take turns per case, so a drift of the machine spreads over all of them
        stem=$R/$g.$algorithm.${b%%=*}.${s%%=*}
        "${b#*=}" run --algorithm "$algorithm" --graph /tmp/g/$g.w8.csr --name "$g" --variants "${c#*:}" \
          --modes "${MODES:-zerocopy}" "${roots[@]}" --reps "${REPS:-3}" --warmup 1 "${extra[@]}" --out "$stem.csv" \
          > "$stem.log" 2>&1 || echo "$g $c ${b%%=*} ${s%%=*} failed: $(tail -1 "$stem.log")"
      done
    done
  done
done
python3 - "$R" "$EMOGI_BINARY" <<'PY'
import sys
from emogi import provenance

def annotate(path, log):  # GRAPH.ALGORITHM.BUILD.SETTING.csv
    _, _, build, setting = path.stem.split(".")
    return {"build": build, "setting": setting}

runs = provenance.stamp_runs(sys.argv[1], sys.argv[2], annotate)
table = runs.groupby(["algorithm", "graph", "variant", "mode", "build", "setting"]).agg(
    runs=("time_ms", "size"), median_ms=("time_ms", "median"), min_ms=("time_ms", "min"), max_ms=("time_ms", "max"))
print(table.round(1).to_string())
PY
tar -czf "$OUT/compare.tgz" -C "$OUT" compare && rm -rf "$R"
[ "${SKIP_TESTS:-0}" = 1 ] || gpu_tests ${TEST_K:+-k "$TEST_K"}
log done
