"""The tracked tree must fit the device machine's copy of the working tree (64 MiB, ../.library/device/README.md)
with room for one more archived call: a capped UVM call brings back a ~5.6 MB trace part that its archive keeps."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEVICE_LIMIT_MIB = 64
ROOM_MIB = 6  # one archived call's trace part and tables


def tracked_bytes() -> int:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked tree cannot be listed")
    return sum((ROOT / name).stat().st_size for name in out.decode().split("\0") if name and (ROOT / name).is_file())


def test_the_tracked_tree_leaves_room_for_one_more_archived_call():
    mib = tracked_bytes() / 2**20
    assert mib <= DEVICE_LIMIT_MIB - ROOM_MIB, (
        f"the tracked tree is {mib:.1f} MiB: the device copies at most {DEVICE_LIMIT_MIB} MiB, and the next archived "
        f"call needs about {ROOM_MIB}; keep new trace parts out of the tree or shrink old ones"
    )
