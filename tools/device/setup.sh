# Sourced at the start of every device call: installs the carried wheels (snakemake, typst; see README.md here)
# and puts the repository on PYTHONPATH.
# A call that needs neither may carry none (they count against the 64 MiB a call carries); EMOGI_WHEELS names
# another folder, e.g. build/whl without typst (34 MB) for a call that draws no report.
wheels=${EMOGI_WHEELS:-.whl}
if [ -d "$wheels" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$wheels"/*.whl \
    || { echo "wheel install failed"; exit 1; }
fi
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH PYTHONUNBUFFERED=1
# Every script's outputs go under $OUT (the folder the device call brings back); log marks a step with the time.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
log() { echo "== $* ($(date +%T))"; }
# Builds the kernels for the H100 into build/ (log in $OUT/build.log; stops the script on failure) and points
# EMOGI_BINARY and the GPU tests at them; a script given EMOGI_BINARY keeps it and builds nothing.
build_kernels() {
  [ -n "${EMOGI_BINARY:-}" ] && return
  log build
  python3 -m emogi.toolchain --build build --arch 90 > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
  export EMOGI_BINARY=$PWD/build/emogi PATH=$PATH:/usr/local/cuda/bin
}
# Makes the GAP graph NAME (kron24, urand24, ...) with 8-byte ids in /tmp/g as the bench's rules do (generate_graph
# and bench_roots with bench.seed 24: the same modules, the same arguments), and writes the 2 roots the bench draws
# for it to /tmp/g/NAME.roots (comma-separated), for scripts that call `emogi run`.
gap_graph() {
  local kind=${1%%[0-9]*} scale=${1##*[a-z]}
  mkdir -p /tmp/g
  [ -f "/tmp/g/$1.w8.csr" ] || python3 -m emogi.datasets.generators --kind "$kind" --scale "$scale" --edge-factor 16 \
    --seed 24 --weights-seed 24 --out "/tmp/g/$1.w8.csr" || return 1
  python3 -m emogi.datasets.roots "/tmp/g/$1.w8.csr" --count 2 --seed 24 --out "/tmp/g/$1.roots.txt" \
    && paste -sd, "/tmp/g/$1.roots.txt" > "/tmp/g/$1.roots"
}
# Runs the kernel benchmark as a user does (`snakemake --cores all bench`: needs the wheels, see above) within
# TIMEOUT seconds, with the binary $EMOGI_BINARY (build/emogi, built by the workflow, where unset) and config
# bench.KEY set to VALUE for each KEY=VALUE (YAML, e.g. graphs=[kron:24] variants=[merged-aligned,frontier]); the
# graphs stay in resources/graphs, results/bench is made afresh. DIR gets results/bench (runs.csv, summary.csv,
# link.csv, ...), the jobs' logs (DIR/logs), the printed table (DIR/stdout.txt) and snakemake's log
# (DIR/snakemake.log). Returns snakemake's exit status.
bench_target() {  # DIR TIMEOUT KEY=VALUE ...
  local dir=$1 limit=$2 rc; shift 2
  mkdir -p "$dir"
  { echo "bench:"; echo "  binary: ${EMOGI_BINARY:-build/emogi}"
    for kv in "$@"; do echo "  ${kv%%=*}: ${kv#*=}"; done; } > "$dir/bench.yaml"
  rm -rf results/bench logs/bench
  timeout "$limit" snakemake --cores all bench --configfile "$dir/bench.yaml" > "$dir/stdout.txt" \
    2> "$dir/snakemake.log"; rc=$?
  cp -r results/bench/. "$dir/" 2> /dev/null; cp -r logs/bench "$dir/logs" 2> /dev/null
  [ $rc -eq 0 ] || { grep -hE "error|mismatch|failed" "$dir/snakemake.log" "$dir"/logs/*.log 2> /dev/null | head -5; }
  return $rc
}
# Runs the GPU tests (TESTS: the test files, default every file that has GPU tests, and test_kernels.py; arguments
# go to pytest as they are, e.g. -k "sssp or cc"), log in $OUT/gpu_tests.log with the slowest tests' times; prints
# the summary line. EMOGI_LONG_GPU_TESTS=1 adds the long ones (the whole matrix on the graph over 1 GiB, ~6 min
# more on an H100; start them detached).
gpu_tests() {
  log "gpu tests"
  python3 -m pytest -q --durations=12 -m gpu ${TESTS:-tests/test_gpu_micro.py tests/test_bench.py tests/test_figures_apps.py \
    tests/test_gpu_bfs.py tests/test_gpu_algorithms.py tests/test_gpu_directed.py tests/test_kernels.py} "$@" > "$OUT/gpu_tests.log" 2>&1
  tail -2 "$OUT/gpu_tests.log"
}
# The usual start of a device script: build, then the GPU tests unless SKIP_TESTS=1.
build_and_test() {
  build_kernels
  [ "${SKIP_TESTS:-0}" = 1 ] || gpu_tests
}
