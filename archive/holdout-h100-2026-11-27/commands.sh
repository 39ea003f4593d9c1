# Device (one call, detached; tools/device/detached.sh), at d057477:
# Issue 24's held-out study, GPU parts only (the traces are derived on the development machine afterwards).
set -uo pipefail
export EMOGI_WHEELS=none
PARTS="train h23 h24 cnr rmat" bash tools/device/holdout_study.sh

# Development machine: the graphs regenerated with the device's commands and seeds, the traces derived
# Local derivation of the held-out study's workloads (the graphs regenerated here with the device's seeds; their
# checksums are checked against the device's metadata by model.holdout).
set -uo pipefail
cd /work/main && source .venv/bin/activate
H=/tmp/hol; G=$H/graphs; L=$H/localmeta; S=$H/session
gen() { local name=$1; shift
  [ -f "$G/$name.w8.csr" ] || python -m emogi.datasets.generators "$@" --seed 24 --weights-seed 24 --out "$G/$name.w8.csr" --meta "$L/$name.w8.json" || return 1
  [ -f "$G/$name.w4.csr" ] || python -m emogi.csr narrow "$G/$name.w8.csr" --out "$G/$name.w4.csr" --meta "$L/$name.w4.json" || return 1
}
der() { local name=$1 jobs=$2
  [ -f "$H/work/$name/workloads.csv" ] && return 0
  echo "== derive $name ($(date +%T))"
  /usr/bin/time -v python -m model.holdout --runs "$S" --graphs "$G" --only "$name" --derive-only --jobs "$jobs" --out-dir "$H/work/$name" > "$H/derive_$name.log" 2>&1 || { echo "derive $name failed"; tail -3 "$H/derive_$name.log"; }
  grep -E "Elapsed|Maximum resident" "$H/derive_$name.log"
}
for n in 20 21 22; do for k in kron urand; do echo "== gen $k$n ($(date +%T))"; gen $k$n --kind $k --scale $n --edge-factor 16; der $k$n 2; done; done
[ -f "$G/cnr2000.w4.csr" ] || { python -m emogi.csr narrow "$G/cnr2000.w8.csr" --out "$G/cnr2000.w4.csr" --meta "$L/cnr2000.w4.json"; for w in 8 4; do python -m emogi.csr transpose "$G/cnr2000.w$w.csr"; done; }
der cnr2000 2
echo "== gen rmat ($(date +%T))"; gen rmat21ef64 --kind kron --scale 21 --edge-factor 64 --rmat-abc 0.45,0.15,0.15; der rmat21ef64 2
for k in kron urand; do echo "== gen ${k}23 ($(date +%T))"; gen ${k}23 --kind $k --scale 23 --edge-factor 16; der ${k}23 2; done
for k in kron urand; do echo "== gen ${k}24 ($(date +%T))"; gen ${k}24 --kind $k --scale 24 --edge-factor 16; der ${k}24 1; done
echo "== all done ($(date +%T))"

# The judgement:
python -m model.holdout --runs session --graphs graphs --workloads work/* --out-dir judged
