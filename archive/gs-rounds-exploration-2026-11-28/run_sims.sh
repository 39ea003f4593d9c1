#!/usr/bin/env bash
# The simulations behind sim_rounds.csv, as run (2-core development machine, ~25 min in all; graphs in /tmp/gsr).
# Each line's stdout (less its header) was appended to sim_rounds.csv; runs made before wave_sim.py logged lists,
# walks or deferred pushes have those columns empty or 0.
set -euo pipefail
export PYTHONPATH=.
D=archive/gs-rounds-exploration-2026-11-28
G=/tmp/gsr
mkdir -p $G
SPECS="kron17:kron:17:16:25 kron19ef10:kron:19:10:30 kron19ef11:kron:19:11:34 kron19ef12:kron:19:12:29
kron19ef14:kron:19:14:32 kron19ef3:kron:19:3:32 kron19ef6:kron:19:6:33 kron19ef7:kron:19:7:34 kron20ef3:kron:20:3:33
kron20ef4:kron:20:4:28 kron20ef5:kron:20:5:30 kron20ef7:kron:20:7:31 kron21ef3:kron:21:3:31 urand17:urand:17:16:25
urand19ef10:urand:19:10:30 urand19ef11:urand:19:11:34 urand19ef12:urand:19:12:29 urand19ef14:urand:19:14:33
urand19ef6:urand:19:6:33 urand19ef7:urand:19:7:34 urand20ef3:urand:20:3:32 urand20ef5:urand:20:5:30
urand20ef7:urand:20:7:31 urand21ef3:urand:21:3:31 urand21ef4:urand:21:4:28"
python $D/make_graphs.py $G $SPECS
sim() { python $D/wave_sim.py "$G/$1.npz" "$@" | tail -n +2; }
# schedules: Jacobi (0), waves of 4224 / 33792 / 135168 / 270336 vertices, vertex and random block order
sim kron19ef11 --waves 0,4224,33792,135168,270336 --orders vertex,random --seeds 0,1,2
sim urand19ef7 --waves 0,4224,33792,135168,270336 --orders vertex,random --seeds 0,1,2
sim kron19ef3 --waves 4224,33792 --orders vertex,random --seeds 0,1,2
sim kron19ef11 --waves 196608,327680,393216,458752 --orders vertex,random --seeds 0,1,2
sim kron19ef11 --waves 270336 --orders random --seeds 3,4,5,6,7,8,9,10,11,12
sim urand19ef7 --waves 196608,229376 --orders vertex
for g in kron19ef3 kron19ef10 kron19ef12 kron19ef14 kron19ef7 kron20ef4 kron20ef7 urand19ef10 urand19ef6 urand20ef5; do
  sim $g --waves 0,135168,270336 --orders vertex,random --seeds 0,1,2
  sim $g --waves 229376 --orders random --seeds 0
done
# late rounds as one wave, and long lists landing at the round's end (kron19ef11 only)
sim kron19ef11 --waves 229376,270336 --orders vertex,random --seeds 0,1,2 --jacobi-below 0.01,0.1
for d in 1000 100; do sim kron19ef11 --waves 33792,270336 --orders vertex,random --seeds 0 --defer-degree $d; done
# the chosen schedule on all 25 graphs, with lists and walks (predictor.py)
for s in $SPECS; do sim "${s%%:*}" --waves 229376 --orders vertex; done
python $D/tail_probe.py $G/kron19ef11.npz kron19ef11 327680 random 1 > $D/tail_kron19ef11.csv
