"""Analytic model of zero-copy traversal time over the host link.

    littles_law    T(d) = min{S d, N_max d / L, W}, the bounds and the CXL paper's worked examples
    bounds         the link-bandwidth bound D / W beside the measured times
    fit            W, L, R, N_max and S with intervals, from the microbenchmarks (parameters.json)
    predict        predicted time of every measured zero-copy traversal (predictions.csv)
    presets        named links (PCIe 3-6, CXL, the measured H100)
    whatif         a traversal on another link; the sweeps of CXL Fig. 4 and Fig. 11
    amplification  bytes BFS fetches at each read alignment
    outputs        parameters.json, predictions.csv and prediction_summary.json read back (figures, report)

The T(d) helpers are imported here; the rest load on first use (model.fit etc. are also run with python -m,
which should not find them imported already).
"""

import importlib

from model.littles_law import (  # noqa: F401
    LinkParams,
    binding_term,
    fit_link_bandwidth,
    max_L,
    mean_request_bytes,
    optimal_transfer_size,
    request_rate_miops,
    required_S,
    runtime_ms,
    slope,
    throughput_gbps,
    with_in_flight_limit,
)

# (fit and predict are not re-exported: they are also submodule names, which the import system binds here)
_LAZY = {
    "load_parameters": "model.fit",
    "params_for": "model.fit",
    "predict_runtime_ms": "model.predict",
    "requests_per_warp": "model.predict",
    "load_presets": "model.presets",
    "get_preset": "model.presets",
    "Preset": "model.presets",
    "runtime_vs_transfer_size": "model.whatif",
    "runtime_vs_added_latency": "model.whatif",
    "fetched_bytes": "model.amplification",
}


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'model' has no attribute {name!r}")
