"""Hardware presets for the what-if model: named links with W, N_max, L and S (model/presets.yaml).

A preset is a `Preset`, a LinkParams (so throughput_gbps and predict_runtime_ms take it as is) that also carries
its name, alignment_bytes (the smallest aligned read, 32 B for a GPU), max_request_bytes (128 B: a GPU never
sends a larger zero-copy read) and a one-line source. S_miops = inf means not limiting (null in the YAML).

The cxl preset is a base link plus an added latency and the CXL memory's own request slots. CXL moves 64-B
requests, so a GPU read of 96 or 128 B becomes two of them and the devices hold half as many GPU reads as they
have slots. Rather than make N_max depend on d, the preset takes the simpler, slightly pessimistic choice of
counting every GPU read as two CXL requests (EMOGI's mean d is 89.6 B and most of its bytes come in 96/128-B
reads): N_max = min(N_max of the base link, cxl_outstanding / 2), and L = L of the base + added_latency_us.

h100-measured exists only when a parameters.json (model/fit.py) is given: W and N_max as fitted, L and S of
the managed zero-copy mode at the smallest measured latency footprint: the regime a level-synchronous BFS runs
in, since it sweeps the edge list in address order (the "sweep" footprint rule of model/predict.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from pathlib import Path

import yaml

from model.littles_law import LinkParams

PRESETS_FILE = Path(__file__).with_name("presets.yaml")
FIELDS = ("W_gbps", "N_max", "L_us", "S_miops", "alignment_bytes", "source")
MEASURED = "h100-measured"
MEASURED_MODE = "zerocopy"


@dataclass(frozen=True)
class Preset(LinkParams):
    name: str = ""
    alignment_bytes: int = 32
    max_request_bytes: int = 128
    source: str = ""

    def link(self) -> LinkParams:
        """The bare LinkParams."""
        return LinkParams(W_gbps=self.W_gbps, S_miops=self.S_miops, N_max=self.N_max, L_us=self.L_us)

    def with_overrides(self, **changes) -> "Preset":
        """A copy with some of W_gbps, N_max, L_us, S_miops replaced (validated like any LinkParams)."""
        return replace(self, **changes)

    def as_dict(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["S_miops"] = None if math.isinf(self.S_miops) else self.S_miops
        d["N_max"] = None if math.isinf(self.N_max) else self.N_max
        return d


def _number(entry: dict, key: str, name: str, allow_null: bool = False) -> float:
    value = entry.get(key)
    if value is None and allow_null:
        return math.inf
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
        raise ValueError(f"preset {name!r}: {key} must be a positive number, got {value!r}")
    return float(value)


def _resolve(name: str, raw: dict, seen=()) -> Preset:
    entry = raw[name]
    if not isinstance(entry, dict):
        raise ValueError(f"preset {name!r} in {PRESETS_FILE} is not a mapping")
    common = {
        "name": name,
        "alignment_bytes": int(_number(entry, "alignment_bytes", name)),
        "max_request_bytes": int(_number(entry, "max_request_bytes", name)),
        "source": str(entry.get("source") or ""),
    }
    if not common["source"]:
        raise ValueError(f"preset {name!r} has no source")
    if "base" in entry:  # a CXL memory behind a base link
        base_name = entry["base"]
        if base_name not in raw or base_name in seen:
            raise ValueError(f"preset {name!r}: base {base_name!r} is unknown or circular")
        base = _resolve(base_name, raw, seen + (name,))
        split = math.ceil(base.max_request_bytes / _number(entry, "cxl_request_bytes", name))
        N_max = min(base.N_max, _number(entry, "cxl_outstanding", name) / split)
        L_us = base.L_us + float(entry.get("added_latency_us", 0.0))
        return Preset(W_gbps=base.W_gbps, S_miops=base.S_miops, N_max=N_max, L_us=L_us, **common)
    return Preset(
        W_gbps=_number(entry, "W_gbps", name),
        S_miops=_number(entry, "S_miops", name, True),
        N_max=_number(entry, "N_max", name),
        L_us=_number(entry, "L_us", name),
        **common,
    )


def measured_preset(parameters) -> Preset:
    """The h100-measured preset from a parameters.json path or its loaded dict."""
    from model.fit import load_parameters, params_for  # fit imports pandas; only needed here

    # the GPU is the one that measured the parameters.json (the H100's archived fit by default, the user's own
    # GPU for a fresh fit), so the source names the file, not a machine
    where = "the given parameters" if isinstance(parameters, dict) else str(parameters)
    if not isinstance(parameters, dict):
        parameters = load_parameters(parameters)
    rows = [e for e in parameters["latency"] if e["mode"] == MEASURED_MODE]
    if not rows:
        raise ValueError(f"parameters have no latency for mode {MEASURED_MODE!r}: cannot make {MEASURED!r}")
    footprint = min(e["footprint_bytes"] for e in rows)
    p = params_for(parameters, MEASURED_MODE, footprint)
    return Preset(
        W_gbps=p.W_gbps,
        S_miops=p.S_miops,
        N_max=p.N_max,
        L_us=p.L_us,
        name=MEASURED,
        source=f"model.fit of {where}: W {parameters['W_gbps']['source']}; N_max from "
        f"{parameters['N_max']['from']}; L and S of {MEASURED_MODE} at {footprint} B",
    )


def load_presets(parameters=None, path=PRESETS_FILE) -> dict[str, Preset]:
    """Every preset by name; with `parameters` (a parameters.json path or dict) also h100-measured."""
    raw = yaml.safe_load(Path(path).read_text())
    if not isinstance(raw, dict) or not raw:
        raise ValueError(f"{path} holds no presets")
    presets = {name: _resolve(name, raw) for name in raw}
    if parameters is not None:
        presets[MEASURED] = measured_preset(parameters)
    return presets


def get_preset(name: str, parameters=None, path=None) -> Preset:
    """One preset (from `path`, default PRESETS_FILE); an unknown name raises KeyError listing the known ones."""
    presets = load_presets(parameters, path or PRESETS_FILE)
    if name not in presets:
        known = sorted(presets) + ([] if parameters is not None else [f"{MEASURED} (needs a parameters.json)"])
        raise KeyError(f"unknown preset {name!r}; known presets: {', '.join(known)}")
    return presets[name]
