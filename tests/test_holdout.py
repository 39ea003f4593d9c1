"""Issue 24's held-out validation (docs/model.md, "Held-out validation (issue 24)"): the registered split, and the
judge end to end on a tiny synthetic session (graphs from tests/graphs.py, a runs table made here from known costs
and noise: made-up times, never archived)."""

import pytest

from model import holdout_split as hs


def test_the_split_is_the_registered_one():
    train = sorted(g for g, e in hs.GRAPHS.items() if e["split"] == hs.TRAIN)
    held = sorted(g for g, e in hs.GRAPHS.items() if e["split"] == hs.HELD_OUT)
    assert train == ["kron20", "kron21", "kron22", "urand20", "urand21", "urand22"]
    assert held == ["cnr2000", "kron23", "kron24", "rmat21ef64", "urand23", "urand24"]
    assert hs.TARGET_MEDIAN == 0.05 and hs.TARGET_WORST == 0.15


def test_a_held_out_graph_in_the_fit_set_is_refused():
    hs.check_fit_set(["kron20", "urand22", "kron21"])
    for bad in ("kron23", "urand24", "rmat21ef64", "cnr2000", "kron19"):
        with pytest.raises(hs.SplitError, match="fit set"):
            hs.check_fit_set(["kron20", bad])


def test_a_graph_is_checked_against_how_it_was_made():
    made = {"type": "generator", "kind": "kron", "scale": 21, "edge_factor": 64, "seed": 24,
            "initiator": {"a": 0.45, "b": 0.15, "c": 0.15, "d": 0.25}}  # fmt: skip
    assert hs.split_of("rmat21ef64", made) == hs.HELD_OUT
    with pytest.raises(hs.SplitError, match="initiator"):
        hs.split_of("rmat21ef64", made | {"initiator": {"a": 0.57, "b": 0.19, "c": 0.19}})
    with pytest.raises(hs.SplitError, match="seed"):
        hs.split_of("kron21", {"type": "generator", "kind": "kron", "scale": 21, "edge_factor": 16, "seed": 1})
    assert hs.split_of("urand20", {"type": "generator", "kind": "urand", "scale": 20, "edge_factor": 16, "seed": 24})
    assert hs.split_of("cnr2000", {"format": "webgraph-bv", "basename": "cnr-2000"}) == hs.HELD_OUT
    with pytest.raises(hs.SplitError, match="not in the registered split"):
        hs.split_of("kron25")
