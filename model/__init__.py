"""Analytic model of zero-copy traversal time over the host link (see model/littles_law.py).

This version is the link-bandwidth bound only (t >= D / W); `model.bounds` compares it with the measurements.
"""

from model.littles_law import (  # noqa: F401
    LinkParams,
    fit_link_bandwidth,
    mean_request_bytes,
    request_rate_miops,
    runtime_ms,
    throughput_gbps,
)
