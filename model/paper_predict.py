"""The paper's own numbers predicted out of sample (issue 24, "The paper's hardware"; docs/model.md, "The paper's
V100, predicted"): BFS zero-copy on GK and GU (GAP kron and urand, scale 27, edge factor 16, 8-byte edges) from
the v100-pcie3 preset (model/presets.yaml: the paper's Table 1, §3.3 toy measurements and the PCIe 3.0 tag limit
only) and graphs of scale <= 22 generated here.

Per (graph kind, variant) the run statistics of model.graph_predict.workload (requests, D, the H100 GPU-work floor,
the chain steps) are computed on each generated scale and extrapolated to 27 by the growth rule
`extrapolate`: log q is linear in the scale, fitted by least squares over the last three scales (each step
multiplies q by a constant). The model's time uses only these run totals (t = D / T(d) + floor + chain · L), so
the per-level statistics enter through their sums. The rule is checked by fitting 18-20 and predicting 22.

The floor is the H100-fitted GPU-work term scaled to the GPU by SM count × boost clock (model/gpus.yaml; an
assumption, labelled): floor_g = floor_H100 · (132 · 1980) / (sms_g · clock_g). Requests in flight are
min(N_max, warps resident), which the tag limit binds on every GPU here. Quantities:

  fig9_merged_over_naive     t(naive) / t(merged), v100-pcie3             paper: 3.24 / 0.73 (Fig. 9 means, derived)
  fig9_aligned_over_merged   t(merged) / t(merged-aligned), v100-pcie3    paper: 1.10 (Fig. 9 mean)
  fig13_emogi_pcie4_scaling  t(pcie3-x16) / t(pcie4-x16), merged-aligned, the A100 floor   paper: 1.88
  fig8_<variant>_gbps        D / t on v100-pcie3                          paper: Naive up to 4.7, Merged up to 11

UVM (Fig. 9's baseline, Fig. 13's 1.53x) is left out: it needs V100 page-fault costs nobody here measured.

    python -m model.paper_predict --graphs /tmp/v100g --out paper_predict.csv --check check.csv
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from model.graph_predict import load_graph, workload
from model.littles_law import with_in_flight_limit
from model.predict import predict_runtime_ms
from model.presets import PRESETS_FILE, get_preset

GPUS_FILE = Path(__file__).with_name("gpus.yaml")
PAPER_NUMBERS = Path(__file__).resolve().parents[1] / "paper" / "paper_numbers.yaml"
FITTED_ON = "h100-sxm5"  # the GPU the GPU-work costs were fitted on (archive/gpu-work-term-2026-11-25-v2)
VARIANTS = ("naive", "merged", "merged-aligned")
STATS = ("requests", "D_bytes", "floor_ms", "chain_steps")  # all the time model uses
KINDS = {"kron": "GK", "urand": "GU"}
TARGET_SCALE = 27  # GK and GU: 134.2M = 2^27 vertices (EMOGI Table 2)
PRESET_KEYS = {"W_gbps", "N_max", "L_us", "S_miops", "alignment_bytes", "max_request_bytes", "gpu", "sources", "source"}
L_RANGE_US = (1.0, 1.6)  # EMOGI §3.3's RTT range; the preset takes its middle


def load_gpus(path=GPUS_FILE) -> dict:
    return yaml.safe_load(Path(path).read_text())


def floor_scale(gpu: dict, reference: dict) -> float:
    """How much longer the GPU-work floor takes on `gpu` than on `reference`: the ratio of SM count × clock."""
    return (reference["sms"] * reference["boost_clock_mhz"]) / (gpu["sms"] * gpu["boost_clock_mhz"])


def extrapolate(scales, values, target: float) -> float:
    """q(target) from q at `scales` by the growth rule: log q linear in the scale (least squares)."""
    s = np.asarray(scales, dtype=float)
    q = np.asarray(values, dtype=float)
    if len(s) < 2 or np.any(q <= 0):
        raise ValueError("the growth rule needs two or more scales of positive values")
    slope, intercept = np.polyfit(s, np.log(q), 1)
    return float(np.exp(intercept + slope * target))


def statistics(graph_dir: Path, kinds, scales) -> pd.DataFrame:
    """kind, scale, variant and STATS of a BFS from the largest-degree vertex of each generated graph."""
    rows = []
    for kind in kinds:
        for scale in scales:
            graph = load_graph(Path(graph_dir) / f"{kind}{scale}.csr")
            for variant in VARIANTS:
                w = workload(graph, "bfs", variant)
                rows.append({"kind": kind, "scale": scale, "variant": variant, **{k: float(w[k]) for k in STATS}})
    return pd.DataFrame(rows)


def extrapolated(stats: pd.DataFrame, fit_scales, target: int) -> pd.DataFrame:
    """STATS at `target` per kind and variant, from the rows of `fit_scales`."""
    rows = []
    fit = stats[stats["scale"].isin(fit_scales)]
    for (kind, variant), g in fit.groupby(["kind", "variant"], sort=False):
        g = g.sort_values("scale")
        row = {"kind": kind, "scale": target, "variant": variant}
        for k in STATS:
            row[k] = extrapolate(g["scale"], np.maximum(g[k], 1e-12), target)
        rows.append(row)
    return pd.DataFrame(rows)


def time_ms(stat: dict, preset, gpu: dict, gpus: dict, floor: bool = True) -> float:
    link = with_in_flight_limit(preset.link(), gpu["sms"] * gpu["warps_per_sm"])
    floor_ms = stat["floor_ms"] * floor_scale(gpu, gpus[FITTED_ON]) if floor else 0.0
    d = stat["D_bytes"] / stat["requests"]
    return float(predict_runtime_ms(stat["D_bytes"], d, link, floor_ms, "sum", round(stat["chain_steps"])))


def paper_values(path=PAPER_NUMBERS) -> dict:
    n = yaml.safe_load(Path(path).read_text())
    return {
        "fig9_merged_over_naive": n["fig09"]["merged_over_uvm"]["value"] / n["fig09"]["naive_over_uvm"]["value"],
        "fig9_aligned_over_merged": n["fig09"]["aligned_over_merged"]["value"],
        "fig13_emogi_pcie4_scaling": n["pcie4"]["emogi_scaling"]["value"],
        "fig8_naive_gbps": n["fig08"]["naive_max_gbps"]["value"],
        "fig8_merged_gbps": n["fig08"]["merged_max_gbps"]["value"],
    }


def quantities(stats: pd.DataFrame, presets_path=PRESETS_FILE, gpus_path=GPUS_FILE, floor: bool = True) -> list:
    """(quantity, kind, value at L = the preset's, at L = 1.0 and 1.6 us) for each kind in `stats`."""
    gpus = load_gpus(gpus_path)
    v100 = get_preset("v100-pcie3", path=presets_path)
    raw = yaml.safe_load(Path(presets_path).read_text())
    gpu = gpus[raw["v100-pcie3"]["gpu"]]
    pcie3, pcie4 = get_preset("pcie3-x16", path=presets_path), get_preset("pcie4-x16", path=presets_path)
    out = []
    for kind, g in stats.groupby("kind", sort=False):
        by = {r["variant"]: r for r in g.to_dict("records")}
        values = {}
        for L in (v100.L_us, *L_RANGE_US):
            p = v100.with_overrides(L_us=L)
            t = {v: time_ms(by[v], p, gpu, gpus, floor) for v in VARIANTS}
            values.setdefault("fig9_merged_over_naive", []).append(t["naive"] / t["merged"])
            values.setdefault("fig9_aligned_over_merged", []).append(t["merged"] / t["merged-aligned"])
            for v in ("naive", "merged", "merged-aligned"):
                key = f"fig8_{v.replace('-', '_')}_gbps"
                values.setdefault(key, []).append(by[v]["D_bytes"] / t[v] / 1e6)
        a100 = gpus["a100-sxm4"]
        emogi = by["merged-aligned"]
        s = time_ms(emogi, pcie3, a100, gpus, floor) / time_ms(emogi, pcie4, a100, gpus, floor)
        values["fig13_emogi_pcie4_scaling"] = [s, s, s]  # the link presets' L is 1.2 us for both
        out += [(q, kind, *v) for q, v in values.items()]
    return out


def table(stats27: pd.DataFrame, **kw) -> pd.DataFrame:
    paper = paper_values()
    rows = []
    link_only = {(q, k): v for q, k, v, *_ in quantities(stats27, floor=False, **kw)}
    for q, kind, value, lo, hi in quantities(stats27, **kw):
        p = paper.get(q, float("nan"))
        rows.append(
            {
                "quantity": q,
                "graph": KINDS.get(kind, kind),
                "predicted": value,
                "paper": p,
                "ratio": value / p,
                "predicted_L1.0us": lo,
                "predicted_L1.6us": hi,
                "predicted_no_floor": link_only[(q, kind)],
            }
        )
    return pd.DataFrame(rows)


def check(stats: pd.DataFrame, fit_scales, target: int) -> pd.DataFrame:
    """The growth rule's error at `target` from `fit_scales`: per statistic, and on the quantities."""
    guess = extrapolated(stats, fit_scales, target)
    real = stats[stats["scale"] == target]
    m = guess.merge(real, on=["kind", "variant"], suffixes=("_pred", "_real"))
    rows = [
        {"what": k, "kind": r["kind"], "variant": r["variant"], "predicted": r[f"{k}_pred"], "actual": r[f"{k}_real"]}
        for r in m.to_dict("records")
        for k in STATS
    ]
    qa = {(q, k): v for q, k, v, *_ in quantities(real.drop(columns="scale"))}
    for q, k, v, *_ in quantities(guess.drop(columns="scale")):
        rows.append({"what": q, "kind": k, "variant": "", "predicted": v, "actual": qa[(q, k)]})
    out = pd.DataFrame(rows)
    out["rel_error"] = out["predicted"] / out["actual"] - 1
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m model.paper_predict", description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", type=Path, required=True, help="folder of kron<s>.csr and urand<s>.csr")
    ap.add_argument("--scales", type=int, nargs="+", default=[18, 19, 20, 21, 22])
    ap.add_argument("--out", type=Path, required=True, help="CSV: quantity, graph, predicted, paper, ratio, ...")
    ap.add_argument("--check", type=Path, help="CSV of the rule's check (fit the first three scales, predict the last)")
    ap.add_argument("--stats", type=Path, help="CSV of the per-scale statistics")
    a = ap.parse_args(argv)
    if len(a.scales) < 4:
        ap.error("--scales needs four or more scales (three to fit, one to check)")
    stats = statistics(a.graphs, tuple(KINDS), a.scales)
    if a.stats:
        stats.to_csv(a.stats, index=False)
    if a.check:
        c = check(stats, a.scales[:3], a.scales[-1])
        c.to_csv(a.check, index=False)
        print(c.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    s27 = extrapolated(stats, a.scales[-3:], TARGET_SCALE)
    t = table(s27)
    t.to_csv(a.out, index=False)
    print(t.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
