#!/usr/bin/env bash
# The CPU peer's wheels for the GPU host (CPython 3.12, x86-64; it has no network), into build/whl-cpu: the pins of
# envs/requirements.txt and what they need that the host's image lacks (cffi, pycparser, donfig; numpy, numba and
# pyyaml are there). tools/device/cpu_study.sh installs them; carry ["build/whl-cpu"] (~20 MB of the 64 MiB).
#   bash tools/cpu_peer_wheels.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
pins=$(grep -E '^(python-graphblas|graphblas-algorithms)==' envs/requirements.txt | sed 's/ *#.*//')
rm -rf build/whl-cpu && mkdir -p build/whl-cpu
for req in $pins suitesparse-graphblas==9.4.5.0 donfig==0.8.1.post1 cffi==2.1.1 pycparser==3.12; do
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    -d build/whl-cpu "$req"
done
ls -la build/whl-cpu
echo "wheels in build/whl-cpu: $(du -sh build/whl-cpu | cut -f1)"
