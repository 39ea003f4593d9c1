#!/usr/bin/env bash
# Warm against cold UVM on GAP-24, the GPU tests, the bulk-copy read experiment, and the whole bench matrix as a
# user runs it (`snakemake --cores all bench`, scale 21), in one detached job:
#   (device) EMOGI_WHEELS=build/whl bash tools/device/detached.sh start uvm tools/device/uvm_warm.sh
#   -> $OUT/{provenance.txt, bulk_read.csv, bulk_read_ncu.csv, gpu_tests.log, gap24.tgz, bench21.tgz}
# SKIP=" bulk tests gap24 bench21" leaves steps out.
set -uo pipefail
. tools/device/setup.sh
build_kernels
skip=" ${SKIP:-} "
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "commit ${EMOGI_COMMIT:-unknown}";
  date -u +%FT%TZ; } > "$OUT/provenance.txt"

if [[ $skip != *" bulk "* ]]; then
  log "bulk-copy read experiment"
  nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/bulk_read tools/device/experiments/bulk_read.cu > "$OUT/bulk_build.log" 2>&1 \
    && /tmp/bulk_read 4 > "$OUT/bulk_read.csv" 2>> "$OUT/bulk_build.log"
  echo "bulk_read exit $?"; cat "$OUT/bulk_read.csv"
  # Bytes on the link per payload byte: 12 more per request of up to 128 B for loads; fewer if bulk requests are larger.
  ncu --metrics pcie__read_bytes.sum,lts__t_sectors_aperture_sysmem_op_read.sum,lts__t_requests_aperture_sysmem_op_read.sum,gpu__time_duration.sum \
    -k regex:sum -c 16 --csv /tmp/bulk_read 1 > "$OUT/bulk_read_ncu.csv" 2>> "$OUT/bulk_build.log" || echo "ncu failed"
fi

[[ $skip == *" tests "* ]] || gpu_tests

if [[ $skip != *" gap24 "* ]]; then
  log "GAP-24: device, uvm (cold), uvm-warm"
  bench_target /tmp/gap24 3600 graphs=[kron:24,urand:24] widths=[8] modes=[device,uvm,uvm-warm] \
    variants=[merged-aligned,frontier,direction-optimizing,afforest,gauss-seidel] roots=2 reps=2 warmup=1
  echo "bench exit $?"
  tar czf "$OUT/gap24.tgz" -C /tmp/gap24 .
  cat /tmp/gap24/stdout.txt | cut -c1-150
fi

if [[ $skip != *" bench21 "* ]]; then
  log "snakemake --cores all bench (scale 21, the default config)"
  OUT=/tmp/bench21 bash tools/device/bench_workflow.sh > /tmp/bench21.txt 2>&1
  tar czf "$OUT/bench21.tgz" -C /tmp/bench21 . /tmp/bench21.txt 2>/dev/null
  head -5 /tmp/bench21.txt
fi
log done
