#!/usr/bin/env bash
# First contact with a GPU machine: tools, build, tests, a timing probe of the default graphs, ncu checks.
#   (device) bash tools/device/smoke.sh      -> logs and tables under $OUT
set -uo pipefail
. tools/device/setup.sh

log tools
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.gen.current,pcie.link.width.max,memory.total,memory.used --format=csv
which nvcc ncu cmake ninja python3; nvcc --version | tail -2; ncu --version | tail -1; python3 -V
python3 -c "import snakemake, typst, xxhash, pandas; print('python packages ok')"

build_kernels
build/emogi device

log generate scale-23 graphs in parallel
mkdir -p resources/graphs
( /usr/bin/time -v python3 -m emogi.datasets.generators --kind kron --scale 23 --seed 23 --out resources/graphs/kron23.w8.csr --meta resources/graphs/kron23.w8.json ) > "$OUT/gen_kron.log" 2>&1 &
( /usr/bin/time -v python3 -m emogi.datasets.generators --kind urand --scale 23 --seed 24 --out resources/graphs/urand23.w8.csr --meta resources/graphs/urand23.w8.json ) > "$OUT/gen_urand.log" 2>&1 &

log gpu tests meanwhile
EMOGI_BINARY=$PWD/build/emogi timeout 300 python3 -m pytest tests/test_gpu_bfs.py tests/test_kernels.py -q -x 2>&1 | tail -15
wait
grep -h -E "Elapsed|Maximum resident|seconds|error" "$OUT"/gen_*.log | head -20
cat resources/graphs/*.json | python3 -c "import sys,json; [print({k:v for k,v in json.loads(l).items() if k in ('num_vertices','num_edges','isolated_vertices','max_degree','seconds','generation_seconds')}) for l in sys.stdin.read().replace('}\n{','}\x00{').split('\x00')]" 2>&1 | head

log timing probe: 1 root, every variant x mode, both graphs
for g in kron23 urand23; do
  python3 -m emogi.datasets.roots resources/graphs/$g.w8.csr --count 2 --seed 7 --out resources/$g.roots
  timeout 400 build/emogi bfs --graph resources/graphs/$g.w8.csr --name $g --roots-file resources/$g.roots \
    --reps 1 --warmup 1 --out "$OUT/probe_$g.csv" 2>&1 | grep -v "^reference"
done

log link probe
build/emogi linkbw --sizes 64M,256M,1G --reps 3 --out "$OUT/link.csv" 2>&1 | tail -6

bash tools/device/uvm_replay_check.sh resources/graphs/kron23.w8.csr resources/kron23.roots
ls -la "$OUT"
