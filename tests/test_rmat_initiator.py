"""R-MAT graphs with another initiator (--rmat-abc; config `initiator`): the default graph unchanged byte for
byte, the initiator's skew, the one-line errors, and the config path (schema, names, command line, bench)."""

import json
import subprocess
import sys

import numpy as np
import pytest
import yaml
from snakemake.exceptions import WorkflowError
from test_datasets_workflow import checked

from emogi.bench import graph_specs as bench_graph_specs
from emogi.csr import read_csr
from emogi.datasets import sources
from emogi.datasets.generators import GRAPH500_ABC, PairStream, generator_params, parse_initiator
from test_workflow import snakemake

# Written by the generator before --rmat-abc existed (main c33d443): kron, scale 10, edge factor 16, seed 1,
# weights seed 1, 8-byte ids; synthetic, made on the development machine's CPU.
DEFAULT_KRON10 = {"symmetric": (0x8F2A59ADCD64C2C9, 21208), "directed": (0x659DDEBEFE8ECF76, 12173)}
SKEWED = [0.45, 0.15, 0.15]


def generate_cli(tmp_path, *extra):
    out, meta = tmp_path / "g.csr", tmp_path / "g.json"
    args = ["--kind", "kron", "--scale", "10", "--edge-factor", "16", "--seed", "1", "--weights-seed", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "emogi.datasets.generators", *args, *extra, "--out", str(out), "--meta", str(meta)],
        capture_output=True,
        text=True,
    )
    return done, out, meta


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("flag", [[], ["--rmat-abc", "0.57,0.19,0.19"]])
def test_default_graph_is_byte_identical(tmp_path, directed, flag):
    done, out, meta = generate_cli(tmp_path, *flag, *(["--directed"] if directed else []))
    assert done.returncode == 0, done.stderr
    header = read_csr(out).header
    assert (header.checksum, header.num_edges) == DEFAULT_KRON10["directed" if directed else "symmetric"]
    source = json.loads(meta.read_text())["source"]
    assert source["initiator"] == {"a": 0.57, "b": 0.19, "c": 0.19, "d": 0.05}


def test_other_initiator_is_recorded_and_changes_the_graph(tmp_path):
    done, out, meta = generate_cli(tmp_path, "--rmat-abc", "0.45,0.15,0.15", "--edge-factor", "64")
    assert done.returncode == 0, done.stderr
    recorded = json.loads(meta.read_text())
    assert recorded["source"]["initiator"] == {"a": 0.45, "b": 0.15, "c": 0.15, "d": 0.25}
    assert recorded["source"]["edge_factor"] == 64 and recorded["source"]["generated_pairs"] == 64 << 10
    assert recorded["checksum"] != f"{DEFAULT_KRON10['symmetric'][0]:016x}"


def quadrant_shares(abc, scale=12, edge_factor=16, seed=5):
    """Share of the unpermuted pairs in each top-level quadrant (src bit, dst bit of the highest id bit)."""
    src, dst = PairStream("kron", scale, edge_factor, seed, initiator=abc, permute=False).all_pairs(workers=1)
    top = scale - 1
    q = ((src >> top) & 1) * 2 + ((dst >> top) & 1)
    return np.bincount(q, minlength=4) / len(q), src


def test_initiator_sets_the_quadrant_shares():
    """Every id bit picks a quadrant with probability a, b, c, d: the top one's shares over 65536 pairs lie
    within 5 standard errors of (a, b, c, d), for Graph500's initiator and for (0.45, 0.15, 0.15)."""
    n = (1 << 12) * 16
    for abc in (GRAPH500_ABC, tuple(SKEWED)):
        expect = np.array([*abc, 1 - sum(abc)])
        shares, _ = quadrant_shares(abc)
        assert np.all(np.abs(shares - expect) < 5 * np.sqrt(expect * (1 - expect) / n)), (abc, shares)


def test_larger_a_concentrates_degree_on_vertex_0s_quadrant():
    """Vertex 0's quadrant (low ids, unpermuted) holds a^s of the pairs' sources' bits at s levels: a larger a
    gives it more of the out-degree, and a smaller a (0.45 against 0.57) spreads the degree more evenly."""
    _, src_gaps = quadrant_shares(GRAPH500_ABC)
    _, src_skew = quadrant_shares(tuple(SKEWED))
    low = 1 << 8  # the first 2^8 of 2^12 ids: four levels of the low half
    share_gap = np.mean(src_gaps < low)
    share_skew = np.mean(src_skew < low)
    assert share_gap == pytest.approx((0.57 + 0.19) ** 4, rel=0.05)
    assert share_skew == pytest.approx((0.45 + 0.15) ** 4, rel=0.05)
    assert share_gap > share_skew
    assert np.bincount(src_gaps).max() > np.bincount(src_skew).max()  # the top hub: vertex 0


@pytest.mark.parametrize(
    "value, message",
    [
        ("0.5,0.2", "three numbers"),
        ("0.5,0.2,0.1,0.1", "three numbers"),
        ("a,b,c", "three numbers"),
        ("0.5,-0.1,0.2", "a, b, c > 0"),
        ("0.5,0.3,0.2", "a + b + c < 1"),
        ("0.6,0.3,0.2", "a + b + c < 1"),
    ],
)
def test_bad_initiators_are_one_line_errors(tmp_path, value, message):
    with pytest.raises(ValueError, match=message.replace("+", r"\+")):
        parse_initiator(value)
    done, out, _ = generate_cli(tmp_path, f"--rmat-abc={value}")
    assert done.returncode == 1 and not out.exists()
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ") and message in done.stderr


def test_initiator_with_urand_is_an_error(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "emogi.datasets.generators", "--kind", "urand", "--scale", "4"]
        + ["--rmat-abc", "0.45,0.15,0.15", "--out", str(tmp_path / "u.csr")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and done.stderr == "error: --rmat-abc applies to --kind kron only, not urand\n"


def test_metadata_of_the_default_is_unchanged():
    params = generator_params("kron", 10, 16, 1)
    assert params["initiator"] == {"a": 0.57, "b": 0.19, "c": 0.19, "d": 0.05}
    assert "initiator" not in generator_params("urand", 10, 16, 1)


# ------------------------------------------------------------------ the config path

RMAT = {"generator": "kron", "scale": 8, "edge_factor": 64, "seed": 1, "initiator": SKEWED}


def test_schema_accepts_an_initiator_for_kron_only():
    assert checked({"rmat8-a45b15c15": dict(RMAT)})["rmat8-a45b15c15"]["initiator"] == SKEWED
    bad_specs = (
        {**RMAT, "generator": "urand"},
        {**RMAT, "initiator": [0.5, 0.2]},
        {**RMAT, "initiator": [0, 0.1, 0.1]},
    )
    bad_specs += ({**RMAT, "initiator": "0.45,0.15,0.15"},)
    for bad in bad_specs:
        with pytest.raises(WorkflowError):
            checked({"g": bad})


def test_command_line_and_names():
    assert sources.generator_args(RMAT) == (
        "--kind kron --scale 8 --edge-factor 64 --seed 1 --weights-seed 1 --rmat-abc 0.45,0.15,0.15"
    )
    graph500 = {**RMAT, "initiator": list(GRAPH500_ABC), "edge_factor": 16}
    assert "--rmat-abc" not in sources.generator_args(graph500)  # GAP's graphs keep their command line
    sources.check_generator_specs({"rmat8-a45b15c15": RMAT, "kron8": graph500})
    with pytest.raises(ValueError, match=r"graphs.kron8: .* must not be named .*call it e.g. rmat8-a45b15c15"):
        sources.check_generator_specs({"kron8": RMAT})
    with pytest.raises(ValueError, match="graphs.g: .*a \\+ b \\+ c < 1"):
        sources.check_generator_specs({"g": {**RMAT, "initiator": [0.5, 0.3, 0.3]}})
    with pytest.raises(ValueError, match="graphs.u: initiator applies to generator kron only"):
        sources.check_generator_specs({"u": {**RMAT, "generator": "urand"}})


def test_bench_does_not_reuse_a_graph_of_another_initiator():
    bench = {"graphs": ["kron:8"], "seed": 1}
    theirs = {"generator": "kron", "scale": 8, "seed": 1, "weights_seed": 1}
    assert bench_graph_specs(bench, {"kron8": theirs}) == {}  # the same graph: made once
    with pytest.raises(ValueError, match="another initiator"):
        bench_graph_specs(bench, {"kron8": {**theirs, "initiator": SKEWED}})


def test_workflow_generates_an_rmat_graph_under_its_own_name(workdir):
    config = {"graphs": {"rmat8-a45b15c15": RMAT}, "measurements": "archive"}
    (workdir / "rmat.yaml").write_text(yaml.safe_dump(config))
    target = "resources/graphs/rmat8-a45b15c15.w8.csr"
    done = snakemake(workdir, "-n", "-p", "--configfile", "rmat.yaml", "--replace-workflow-config", target)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert "--rmat-abc 0.45,0.15,0.15" in done.stdout and "--edge-factor 64" in done.stdout
    (workdir / "clash.yaml").write_text(yaml.safe_dump({**config, "graphs": {"kron8": RMAT}}))
    done = snakemake(workdir, "-n", "--configfile", "clash.yaml", "--replace-workflow-config")
    assert done.returncode != 0 and "must not be named like GAP's kron<scale>" in done.stdout + done.stderr
