"""The link soak: N commands over a noisy simulated line, counted at the MCU for loss, duplicates and order."""

from __future__ import annotations

import time

from firmware_bridge.config import BridgeConfig, LinkConfig
from firmware_bridge.errors import LinkDown, McuReset
from hw_tests.faults import Noise
from hw_tests.harness import simulated_table

# The pty answers in a fraction of a millisecond, so the soak starts its retransmit timer lower than the
# 10 ms a real 115200-baud line needs; everything else is the production link.
SOAK_LINK = LinkConfig(min_rto_s=0.005)
# The link is built for a few per cent of corruption and loss (PROTOCOL.md §3); beyond half of every frame lost,
# 30 tries of a command fail too often to measure anything but link-downs.
MAX_LOSS = 0.5


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def soak(
    commands: int,
    corrupt: float,
    drop: float,
    seed: int,
    duplicate: float = 0.0,
    delay: float = 0.0,
    firmware: str | None = None,
) -> dict:
    """Send ``commands`` NOPs with distinct tokens; report what the MCU executed and the command round trips.

    ``rtt_*`` is the time from the call to its ACK, retransmissions included: what a caller waits. ``firmware``
    soaks a build of ``firmware/`` for that board (the noise then on a line in front of it) instead of the simulator.
    """
    noise = Noise(corrupt=corrupt, drop=drop, duplicate=duplicate, delay=delay)
    latencies: list[float] = []
    failures = 0
    started = time.monotonic()
    with simulated_table(BridgeConfig(link=SOAK_LINK), seed=seed, noise=noise, firmware=firmware) as (sim, table):
        for token in range(commands):
            start = time.perf_counter()
            try:
                table.nop(token % 0x10000)
            except (LinkDown, McuReset):
                failures += 1
                continue
            latencies.append(time.perf_counter() - start)
        stats = table.link.stats
        broken = table.link.decoder_stats.broken_frames
        executed = sim.tokens()
    unique = list(dict.fromkeys(executed))
    latencies.sort()
    return {
        "sent": commands,
        "executed": len(executed),
        "duplicates": len(executed) - len(unique),
        "lost": commands - len(unique),
        "retransmits": stats.retransmits,
        "rtt_p50_ms": round(percentile(latencies, 0.50) * 1000, 3),
        "rtt_p99_ms": round(percentile(latencies, 0.99) * 1000, 3),
        "in_order": unique == sorted(unique) if commands <= 0x10000 else None,
        "naks": stats.naks,
        "broken_frames_seen": broken,
        "failed_calls": failures,
        "link_downs": stats.link_downs,
        "corrupt": corrupt,
        "drop": drop,
        "seed": seed,
        "mcu": f"firmware {firmware}" if firmware else "simulator",
        "seconds": round(time.monotonic() - started, 2),
    }
