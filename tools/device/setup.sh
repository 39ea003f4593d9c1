# Sourced at the start of every device call: installs the carried wheels (snakemake, typst; see
# ../../../shared/tools/device-wheels.sh) and puts the repository on PYTHONPATH.
# A call that needs neither may carry no .whl (it counts against the 64 MiB a call carries).
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    || { echo "wheel install failed"; exit 1; }
fi
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH PYTHONUNBUFFERED=1
