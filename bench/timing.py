"""Timing shared by the benches: a median of wall-clock runs, in milliseconds (the ratio to a reference measured in
the same run is what a bench reports; this machine's absolute times move with its load)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_ms(work: Callable[[], object], repeat: int) -> float:
    """The median time of ``repeat`` runs of ``work``."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000
