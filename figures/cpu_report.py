"""The report's section "The GPU over the host link against the CPU in host memory" (issue 23), from the CSV of
figures/fig_cpu_gpu.py and the archive folder's provenance. Blocks as figures/oom_report.py's: {"text"}, {"image",
"caption"} or {"table", "caption"}; every table names where each column comes from (docs/cpu.md)."""

from __future__ import annotations

import math

import pandas as pd

from figures import cpu_data, style
from figures.fig_cpu_gpu import TARGET, THESIS_TABLE21, THESIS_UP_TO
from figures.inputs import ReportFigure, report_csv, source_label
from figures.report_format import fbytes, fms, fx

FIGURE = "fig_cpu_gpu"
SHOWN = (
    "gap",
    "peer",
    "cpu-unblocked",
    "cpu-blocked",
    "emogi-zerocopy",
    "ours-zerocopy",
    "emogi-device",
    "ours-device",
)
HEAD = {
    "gap": "GAP ref.",
    "peer": "peer (GraphBLAS)",
    "cpu-unblocked": "ours CPU unblocked",
    "cpu-blocked": "ours CPU blocked",
    "emogi-zerocopy": "EMOGI zero-copy",
    "ours-zerocopy": "ours zero-copy",
    "emogi-device": "EMOGI GPU mem.",
    "ours-device": "ours GPU mem.",
}
ALGO = {**style.ALGORITHM_LABELS, "pagerank-delta": "PR-Delta"}
TABLE53_APPS = {"bfs": "BFS", "sssp": "SSSP", "cc": "CC", "pagerank": "PR", "pagerank-delta": "PRDelta"}
TABLE53_GRAPH = "TW"  # Twitter: the thesis' power-law graph the kron graphs stand in for


def _cell(r: pd.DataFrame, bar: str, column: str, fmt) -> str:
    s = r[r["bar"] == bar]
    return fmt(float(s[column].iloc[0])) if len(s) else "–"


def _gps(v: float) -> str:
    return "–" if not math.isfinite(v) else f"{v / 1e9:.2f}"


def side_tables(side: pd.DataFrame) -> tuple[dict, dict]:
    """Times (ms; the variant or segment count beside ours) and rates (G edges/s) per graph and algorithm."""
    times, rates = [], []
    for (g, a), r in side.groupby(["graph", "algorithm"], sort=False):
        t = []
        for bar in SHOWN:
            s = r[r["bar"] == bar]
            cell = fms(float(s["time_ms"].iloc[0])) if len(s) else "–"
            if len(s) and bar.startswith("ours-"):
                cell += f" ({style.variant_short(s['detail'].iloc[0])})"
            elif len(s) and bar == "cpu-blocked":
                cell += f" ({s['detail'].iloc[0].split(', ')[-1]})"
            t.append(cell)
        times.append([g, ALGO.get(a, a), *t])
        rates.append([g, ALGO.get(a, a), *[_cell(r, bar, "edges_per_s", _gps) for bar in SHOWN]])
    columns = ["graph", "app", *[HEAD[b] for b in SHOWN]]
    align = "ll" + "r" * len(SHOWN)
    return {"columns": columns, "align": align, "rows": times}, {"columns": columns, "align": align, "rows": rates}


def _who(ratio: float) -> str:
    """CPU time / GPU time as who is faster and by how much."""
    if not math.isfinite(ratio):
        return "–"
    return f"GPU, {fx(ratio)}" if ratio >= 1 else f"CPU, {fx(1 / ratio)}"


def winner_table(side: pd.DataFrame) -> dict:
    """Per graph and algorithm: the fastest CPU and the fastest GPU over the link, who wins by how much, and the
    same for EMOGI's kernel, the CPU of this device call alone and the peer."""
    rows = []
    for w in cpu_data.winners(side).to_dict("records"):
        cpu = f"{fms(w['cpu_ms'])} ({HEAD[w['cpu_bar']]})" if isinstance(w.get("cpu_bar"), str) else "–"
        link = f"{fms(w['link_ms'])} ({style.variant_short(w['link_detail'])})" if "link_ms" in w else "–"
        rows.append([w["graph"], ALGO.get(w["algorithm"], w["algorithm"]), cpu, link, _who(w["link_over_cpu"]),
                     _who(w["emogi_over_cpu"]), _who(w["link_over_call"]), fx(w["link_over_peer"])])  # fmt: skip
    return {
        "columns": ["graph", "app", "fastest CPU ms (source)", "ours zero-copy ms (variant)", "faster: ours",
                    "faster: EMOGI's kernel", "ours against this call's CPU", "ours over the peer"],
        "align": "llllllll",
        "rows": rows,
    }  # fmt: skip


def blocking_table(block: pd.DataFrame) -> dict:
    rows = []
    for r in block.sort_values(["graph", "algorithm", "segments"]).itertuples():
        target = (
            f"≥ {TARGET}×: " + ("met" if r.speedup >= TARGET else "missed") if r.vertex_over_llc > 1 else "fits LLC"
        )
        auto = " (auto)" if getattr(r, "auto_segments", math.nan) == r.segments else ""
        rows.append([r.graph, ALGO.get(r.algorithm, r.algorithm), f"{int(r.segments)}{auto}", f"{r.duplication:.2f}",
                     f"{r.vertex_over_llc:.2f}", str(int(r.iterations)), fms(r.unblocked_ms_per_round),
                     fms(r.ms_per_round), fx(r.speedup), target])  # fmt: skip
    return {
        "columns": ["graph", "app", "segments", "α", "vertex data / LLC", "rounds", "unblocked ms/round",
                    "blocked ms/round", "speedup", "issue 23 target"],
        "align": "llrrrrrrrl",
        "rows": rows,
    }  # fmt: skip


def membench_table(mem: pd.DataFrame) -> dict:
    rows = [
        [
            f"ours, {int(r.pass_threads)} thread(s)",
            f"{r.sequential_s:.3f}",
            f"{r.random_s:.3f}",
            fx(r.random_over_sequential),
        ]
        for r in mem.sort_values("pass_threads", ascending=False).itertuples()
    ]
    seq, rnd = THESIS_TABLE21
    rows.append(["thesis Table 2.1, one socket's cores, local", f"{seq}", f"{rnd}", fx(rnd / seq)])
    return {"columns": ["", "sequential s", "random s", "random / sequential"], "align": "lrrr", "rows": rows}


def thesis_table(side: pd.DataFrame, block: pd.DataFrame) -> dict:
    """The thesis' ratios (Table 5.3 on Twitter; cache blocking, §5.2.1) beside ours."""
    t53 = cpu_data.table53()
    tw = t53[t53["graph"] == TABLE53_GRAPH]
    wins = cpu_data.winners(side).set_index(["algorithm", "graph"]) if len(side) else pd.DataFrame()
    rows = []
    for algo, app in TABLE53_APPS.items():
        t = tw[tw["application"] == app].set_index("framework")["seconds"]
        others = t.drop("GraphIt", errors="ignore")
        nxt = others.idxmin() if len(others) else None
        thesis = [f"{t['GraphIt']:.3f}", f"{t['Ligra']:.3f}", f"{nxt} {others[nxt]:.3f}" if nxt else "–",
                  fx(t["Ligra"] / t["GraphIt"]), fx(others[nxt] / t["GraphIt"]) if nxt else "–"]  # fmt: skip

        def ours(graph, column):
            key = (algo, graph)
            return fx(wins.loc[key, column]) if key in wins.index and column in wins.columns else "–"

        b = block[block["algorithm"] == algo].groupby("graph")["speedup"].max()
        blocked = " / ".join(f"{g} {fx(v)}" for g, v in b.items()) or "–"
        rows.append([ALGO.get(algo, algo), *thesis,
                     " / ".join(ours(g, "link_over_peer") for g in cpu_data.SIDE_GRAPHS),
                     " / ".join(ours(g, "link_over_cpu") for g in cpu_data.SIDE_GRAPHS), blocked])  # fmt: skip
    return {
        "columns": ["app", "GraphIt s (TW)", "Ligra s", "next fastest s", "Ligra / GraphIt", "next / GraphIt",
                    "ours: GPU zero-copy over the peer (kron24 / urand24)", "over the fastest CPU",
                    f"ours: blocking (thesis: up to {THESIS_UP_TO:g}×)"],
        "align": "lrrlrrlll",
        "rows": rows,
    }  # fmt: skip


def _segments(n) -> str:
    return f"{int(n)} segment" + ("" if int(n) == 1 else "s")


GAP_WITHIN = 1.2  # issue 23: our blocked PageRank within 1.2x of the GAP reference on kron24


def gap_target(side: pd.DataFrame, gap: pd.DataFrame) -> list[str]:
    """Issue 23's GAP target on kron24: from the runs under GAP's stopping rule where there are (the fastest
    blocked one judged, our fastest beside it), else the side by side's blocked run (stopping rules differ)."""
    g = gap[gap["graph"] == "kron24"] if len(gap) else gap
    if len(g) and (g["kernel"] == "blocked").any():
        b = g[g["kernel"] == "blocked"].loc[lambda f: f["time_ms"].idxmin()]
        best = g.loc[g["time_ms"].idxmin()]
        state = "met" if b["over_gap"] <= GAP_WITHIN else (
            f"missed: at {int(best['iterations'])} rounds GAP's time allows ≤ {fms(best['gap_ms_per_round'])} ms a "
            f"round, ours take {fms(best['ms_per_round'])} ms")  # fmt: skip
        if b["over_gap"] > GAP_WITHIN and float(best.get("start", 0) or 0) == 0:
            state += (
                "; these runs start from x = 0 where GAP starts from 1/V (--start 1): from GAP's start the rule "
                "takes 7 rounds, not 25, on kron24 on the development machine (archive/cpu-gpu-h100-2026-11-27-gs), "
                "not yet measured on the host"
            )
        return [f"blocked PageRank within {GAP_WITHIN}× of GAP's {fms(b['gap_ms'])} ms on kron24 (GAP's stopping "
                f"rule)", f"{fms(b['time_ms'])} ms = {fx(b['over_gap'])} ({b['form']} blocked, "
                f"{_segments(b['segments'])}); ours fastest: {fms(best['time_ms'])} ms = {fx(best['over_gap'])} "
                f"({best['form']} {best['kernel']})", state]  # fmt: skip
    pr = side[(side["graph"] == "kron24") & (side["algorithm"] == "pagerank")].set_index("bar")["time_ms"]
    if {"cpu-blocked", "gap"} <= set(pr.index):
        ratio = pr["cpu-blocked"] / pr["gap"]
        return [f"blocked PageRank within {GAP_WITHIN}× of GAP's on kron24 (stopping rules differ)", fx(ratio),
                "met" if ratio <= GAP_WITHIN else "missed"]  # fmt: skip
    return [f"blocked PageRank within {GAP_WITHIN}× of GAP's on kron24", "–", "not measured"]


def gap_rule_table(gap: pd.DataFrame) -> dict:
    """emogi_cpu PageRank under GAP's stopping rule against GAP's reference time."""
    rows = []
    for r in gap.sort_values(["graph", "time_ms"], ascending=[True, False]).itertuples():
        seg = f", {_segments(r.segments)}" if r.kernel == "blocked" else ""
        rows.append([r.graph, f"{r.form} {r.kernel}{seg}", str(int(r.iterations)), fms(r.time_ms),
                     fms(r.ms_per_round), f"{r.l1_to_reference:.1e}", fms(r.gap_ms), f"{fx(r.over_gap)} slower"
                     if r.over_gap >= 1 else f"{fx(1 / r.over_gap)} faster"])  # fmt: skip
    return {"columns": ["graph", "kernel", "rounds", "median ms", "ms per round", "L1 to reference", "GAP ms",
                        "ours over GAP"], "align": "llrrrrrl", "rows": rows}  # fmt: skip


def targets_table(side: pd.DataFrame, block: pd.DataFrame, gap: pd.DataFrame | None = None) -> dict:
    """Issue 23's benchmark targets, each met, missed or not measured."""
    rows = []
    for algo in ("pagerank", "cc", "pagerank-delta"):
        b = block[(block["algorithm"] == algo) & (block["vertex_over_llc"] > 1)]
        for g, r in b.groupby("graph"):
            best = r.loc[r["speedup"].idxmax()]
            state = "met" if best["speedup"] >= TARGET else "missed"
            auto = r[(r["segments"] == r.get("auto_segments", math.nan)) & (r["segments"] != best["segments"])]
            auto = (
                f"; the auto rule's {int(auto['segments'].iloc[0])}: {fx(auto['speedup'].iloc[0])}" if len(auto) else ""
            )
            rows.append([f"blocked {ALGO.get(algo, algo)} ≥ {TARGET}× unblocked ({g}, vertex data "
                         f"{best['vertex_over_llc']:.2f}× the LLC)", f"{fx(best['speedup'])} at "
                         f"{int(best['segments'])} segments{auto}", state])  # fmt: skip
    if not len(block[block["vertex_over_llc"] > 1]):
        rows.append([f"blocked ≥ {TARGET}× unblocked where vertex data exceed the LLC", "–", "not measured"])
    rows.append(gap_target(side, gap if gap is not None else pd.DataFrame()))
    for g in cpu_data.SIDE_GRAPHS:
        have = set(side[(side["graph"] == g) & (side["bar"] == "peer")]["algorithm"])
        missing = [a for a in cpu_data.SIDE_ALGORITHMS if a not in have]
        rows.append([f"the peer's times for BFS, SSSP, CC and PageRank on {g}", f"{4 - len(missing)} of 4",
                     "met" if not missing else "missing " + ", ".join(missing)])  # fmt: skip
    return {"columns": ["issue 23 target", "ours", ""], "align": "lll", "rows": rows}


def report_section(fig: ReportFigure | None, source: dict | None) -> dict | None:
    """None when the figure or its archive is absent (the report then says so)."""
    if fig is None or source is None:
        return None
    t = report_csv(fig.csv, f"{FIGURE} numbers")
    side, block, mem, gap = (t[t["part"] == p] for p in ("side", "blocking", "membench", "gap-rule"))
    times, rates = side_tables(side)
    size = fbytes(float(mem["array_bytes"].max())) if len(mem) else "–"
    numa = ", ".join(sorted({f"{int(n)}" for n in mem.get("numa_nodes", pd.Series(dtype=float)).dropna()})) or "?"
    blocks = [
        {"text": TEXT},
        {"image": fig.image, "caption": "Per algorithm, each source's time on kron24 and urand24 (4-byte ids; "
         "hatch = regime); cache blocking's speedup per round; the memory micro-benchmark beside the thesis' "
         "Table 2.1."},
        {"table": times, "caption": "Times, ms (GPU and peer: mean over roots of per-root medians; emogi_cpu: median "
         "of a run to the tolerance; GAP: FACTS.md, 2026-11-25, same host). In brackets: our variant, or the "
         "blocked kernel's segment count."},
        {"table": rates, "caption": "The same as G edges/s: the graph's directed edges E over the time, for every "
         "source (one definition, whatever the algorithm does per edge)."},
        {"table": winner_table(side), "caption": "Where the GPU over the host link wins, and by how much: the fastest "
         "CPU time (our CPU kernels, the peer, or the GAP reference figures) over the fastest zero-copy time (ours), "
         "and over EMOGI's kernel in zero-copy; then ours against the CPU runs of this device call alone (the peer "
         "and emogi_cpu, without the GAP figures of another day) and issue 23's speedup over the peer."},
        {"table": thesis_table(side, block), "caption": "The thesis' ratios beside ours: Table 5.3's seconds on "
         "Twitter (GraphIt, Ligra, and the fastest other framework; PR 20 rounds, PRDelta 10), quoted from the "
         "thesis (paper/graphit_table53.yaml), and its cache-blocking 'up to 3X' (§5.2.1). Different machines and "
         "graphs: only the ratios compare."},
        {"table": blocking_table(block), "caption": "Cache blocking per graph, algorithm and segment count "
         "(emogi_cpu): duplication α (thesis Table 5.2), vertex data (4 bytes per vertex) over the LLC, time per "
         f"round; issue 23's target: at least {TARGET}× where the vertex data exceed the LLC."},
        *([{"table": gap_rule_table(gap), "caption": "Our PageRank under GAP's stopping rule (total change of the "
            "normalised scores < 1e-4, as the GAP reference; a later device session, 3 reps, verified): rounds, "
            "time, time per round, the L1 distance to a Gauss-Seidel run in double to 1e-10, and GAP's time on the "
            "same host (FACTS.md)."}] if len(gap) else []),
        {"table": targets_table(side, block, gap), "caption": "Issue 23's benchmark targets on these measurements "
         "(kron27 and GAP's rule: the second device session, archive/cpu-gpu-h100-2026-11-26-kron27)."},
        {"table": membench_table(mem), "caption": "The memory micro-benchmark (thesis Table 2.1, local column): a "
         f"{size} array read sequentially and at random. NUMA nodes on the GPU host: {numa}; remote against local "
         "is not measurable there."},
    ]  # fmt: skip
    return {"label": source_label(source), "blocks": blocks}


TEXT = (
    "If the graph sits in host memory anyway, how fast is the host's own CPU on it? On the GPU host (one socket, 16 "
    "cores, one NUMA node, 300 MiB L3), the same graph files (kron24, urand24; 4-byte ids) run on the CPU with a "
    "parallel CPU graph library (SuiteSparse:GraphBLAS through python-graphblas: BFS without direction "
    "optimisation, SSSP by frontier Bellman-Ford, CC by label propagation, PageRank by power iteration) and with "
    "this project's OpenMP pull kernels (emogi_cpu, PageRank and CC, unblocked and cache-blocked as the GraphIt "
    "thesis does), and on the GPU with the edge list read over the link (zero-copy) and in GPU memory. The GAP "
    "reference kernels' times, measured on the same host on 2026-11-25 (FACTS.md), stand beside them as the stronger "
    "CPU baseline. PageRank's stopping rules differ: ours stop at a residual of 1e-3, the peer and GAP at an L1 "
    "change of 1e-4. The GPU runs and emogi_cpu's runs to the tolerance were verified against the project's CPU "
    "references, the peer's as its rows say (check); kron27's fixed-round runs (10 Jacobi rounds, one run per "
    "kernel, a later device session) are timings only. That session also ran our PageRank under GAP's stopping "
    "rule on kron24, so that the GAP comparison compares like with like."
)
