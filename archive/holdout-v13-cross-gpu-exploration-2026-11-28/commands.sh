# CPU only, from the repository root at de23085 (11:37-11:38 UTC, 64 s). DIR holds the v13h call's three
# holdout13_p{1,2,3}.tgz (archive/holdout-v13-h200-2026-11-28/call/). holdout_v13.sh's derive with its registered
# defaults: TRAIN = archive/holdout-v12-h100-2026-11-28 (the H100 train table), no --same-gpu.
source /work/main/.venv/bin/activate
TGZS=DIR PARTS=derive JOBS=2 H13=/tmp/ho13x bash tools/device/holdout_v13.sh
#   registered_link/ = /tmp/ho13x/judged/{holdout_summary,passes_summary}.csv and source.json (the train session's
#   link and L2: the H100's); h200_link/ = /tmp/ho13x/judged/judged_call_link/{holdout_summary,passes_summary}.csv
#   (each pass's own H200 link). The cells (holdout_cells.csv, 0.4 MB each) are not kept: the command above remakes
#   them from the archived call.
