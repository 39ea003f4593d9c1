"""The profile stage's reading of an Nsight Compute report (emogi.profile.parse_report), on a stand-in for
ncu_report's objects: launches are summed per NVTX range, CC and PageRank ranges have no root, and a kernel
outside every range is an error."""

import re

import pandas as pd
import pytest

from emogi import profile, schema


class Metric:
    def __init__(self, value):
        self.value = value

    def as_double(self):
        return float(self.value)


class Domain:
    def __init__(self, ranges):
        self.ranges = ranges

    def push_pop_ranges(self):
        return self.ranges


class NvtxState:
    def __init__(self, ranges):
        self.ranges = ranges

    def domains(self):
        return [0] if self.ranges else []

    def domain_by_id(self, _):
        return Domain(self.ranges)


class Action:
    def __init__(self, name, ranges, sectors):
        self.kernel, self.ranges, self.sectors = name, ranges, sectors

    def name(self):
        return self.kernel

    def nvtx_state(self):
        return NvtxState(self.ranges)

    def metric_by_name(self, metric):
        return Metric(self.sectors if metric.startswith("lts__t_sectors") else 1)


class Range:
    def __init__(self, actions):
        self.actions = actions

    def num_actions(self):
        return len(self.actions)

    def action_by_idx(self, i):
        return self.actions[i]


class Report:
    """Stands in for the ncu_report module: load_report returns one range holding the given launches."""

    def __init__(self, actions):
        self.actions = actions

    def load_report(self, _):
        return self

    def num_ranges(self):
        return 1

    def range_by_idx(self, _):
        return Range(self.actions)


def test_run_kind_sums_each_algorithms_launches_under_its_range():
    report = Report(
        [
            Action("sssp_scan_relax", ["sssp|merged-aligned|zerocopy|7|0"], 10),
            Action("sssp_scan_commit", ["sssp|merged-aligned|zerocopy|7|0"], 0),
            Action("cc_scan_propagate", ["cc|merged-aligned|zerocopy||0"], 5),
            Action("cc_scan_propagate", ["cc|merged-aligned|zerocopy||0"], 6),
        ]
    )
    frame = profile.parse_report("r.ncu-rep", report, "run").set_index("algorithm")
    assert frame.loc["sssp", "launches"] == 2 and frame.loc["sssp", "sysmem_read_sectors"] == 10
    assert frame.loc["sssp", "root"] == 7 and pd.isna(frame.loc["cc", "root"])
    assert frame.loc["cc", "launches"] == 2 and frame.loc["cc", "sysmem_read_sectors"] == 11
    assert set(schema.NCU_METRICS.values()) <= set(frame.columns)


def test_launch_rows_keep_each_launch_in_order_and_sum_to_the_runs():
    sssp = "sssp|frontier|zerocopy|7|0"
    report = Report(
        [
            Action("build_worklist", [sssp], 0),
            Action("expand_worklist", [sssp], 10),
            Action("build_worklist", [sssp], 0),
            Action("expand_worklist", [sssp], 3),
            Action("cc_scan_propagate", ["cc|merged-aligned|zerocopy||0"], 5),
        ]
    )
    launches = profile.launch_rows("r.ncu-rep", report, "run")
    assert list(launches["launch"]) == [0, 1, 2, 3, 0]
    assert list(launches["kernel"][:2]) == ["build_worklist", "expand_worklist"]
    assert list(launches["sysmem_read_sectors"]) == [0, 10, 0, 3, 5]
    runs = profile.sum_launches(launches, "run").set_index("algorithm")
    assert runs.loc["sssp", "launches"] == 4 and runs.loc["sssp", "sysmem_read_sectors"] == 13
    assert runs.loc["sssp", "root"] == 7 and runs.loc["cc", "launches"] == 1


def test_a_kernel_outside_every_range_is_an_error():
    report = Report([Action("cc_init", [], 0)])
    with pytest.raises(
        profile.ProfileError,
        match=re.escape(
            "cc_init ran outside an NVTX 'bfs|...' or 'sssp|...' or 'cc|...' or 'pagerank|...' or 'spmv|...' range"
        ),
    ):
        profile.parse_report("r.ncu-rep", report, "run")


def test_bfs_kind_ignores_ranges_of_other_algorithms():
    report = Report([Action("bfs_scan_level", ["pagerank|merged|zerocopy||0"], 1)])
    with pytest.raises(profile.ProfileError, match=re.escape("bfs_scan_level ran outside an NVTX 'bfs|...' range")):
        profile.parse_report("r.ncu-rep", report, "bfs")


def test_lists_kind_sums_each_walk_under_its_range():
    report = Report(
        [
            Action("void emogi::sum_lists<MergedAlignedAccess>", ["lists|merged-aligned|zerocopy"], 7),
            Action("void emogi::sum_lists<MergedAccess>", ["lists|merged|zerocopy"], 8),
        ]
    )
    frame = profile.parse_report("r.ncu-rep", report, "lists").set_index("variant")
    assert frame.loc["merged-aligned", "sysmem_read_sectors"] == 7 and frame.loc["merged", "launches"] == 1
    assert set(frame["algorithm"]) == {"lists"}
