# A held-out split's graph name -> its generator's arguments (holdout_v5.sh, holdout_v6.sh), sourced after the
# script's HOW table (name -> arguments, for a graph its name does not describe, e.g. rmat21ef24).
how_of() {  # NAME = KIND SCALE [ef EDGE_FACTOR], e.g. kron21ef4; edge factor 16 where none is named
  [ -n "${HOW[$1]:-}" ] && { echo "${HOW[$1]}"; return; }
  local kind=${1%%[0-9]*} rest=${1#"${1%%[0-9]*}"} ef=16
  [[ $rest == *ef* ]] && ef=${rest#*ef}
  echo "--kind $kind --scale ${rest%%ef*} --edge-factor $ef"
}
