"""Line floods for the hardware suite and the tests: garbage written to the MCU as fast as the line takes it, and
the snapshots timed as they arrive, so that a flood that starves the MCU's main loop shows as a gap."""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Callable

from firmware_bridge.link import Link
from firmware_bridge.messages import Snapshot

SYNC_AND_LONGEST = bytes((0x7E, 0x3C))  # a sync byte and LEN 60, over and over: a 61-byte CRC every two bytes
CHUNK = 256


def flood(
    link: Link, pattern: bytes | None, *, seconds: float = 0.0, total: int = 0, seed: int = 0, rate: float = 0.0
) -> int:
    """Write ``pattern`` repeated (None: random bytes from ``seed``) for ``seconds`` or until ``total`` bytes went
    out, whichever comes first (a zero bound is no bound), at ``rate`` bytes a second (0: as fast as the line takes
    them); returns the bytes written."""
    rng = random.Random(seed)
    chunk = (pattern * (CHUNK // len(pattern) + 1))[:CHUNK] if pattern else b""
    start = time.monotonic()
    written, end = 0, start + seconds if seconds else float("inf")
    while time.monotonic() < end and (not total or written < total):
        data = chunk or rng.randbytes(CHUNK if not total else min(CHUNK, total - written))
        link.write_raw(data)
        written += len(data)
        if rate and (ahead := start + written / rate - time.monotonic()) > 0:
            time.sleep(ahead)
    return written


def until_quiet(link: Link, quiet_s: float = 0.1, timeout: float = 20.0) -> float:
    """Wait until the MCU has read what the flood left in the line (no NAK for ``quiet_s``): a pty holds tens of
    kilobytes that an emulated MCU takes seconds to read, and every NAK meanwhile would cost a command one of its
    tries. Returns the seconds waited."""
    start = time.monotonic()
    naks, since = link.stats.naks, start
    while time.monotonic() - since < quiet_s:
        if time.monotonic() - start > timeout:
            raise AssertionError(f"the MCU still answered the flood with NAKs {timeout:.0f} s after it")
        time.sleep(quiet_s / 5)
        if link.stats.naks != naks:
            naks, since = link.stats.naks, time.monotonic()
    return time.monotonic() - start


class SnapshotTimes:
    """The arrival time and serial of every snapshot while attached (a link listener)."""

    def __init__(self, link: Link, clock: Callable[[], float] = time.monotonic) -> None:
        self._link, self._clock = link, clock
        self._lock = threading.Lock()
        self.seen: list[tuple[float, Snapshot]] = []
        link.add_listener(self._heard)

    def _heard(self, snapshot: Snapshot) -> None:
        with self._lock:
            self.seen.append((self._clock(), snapshot))

    def close(self) -> None:
        self._link.remove_listener(self._heard)

    def between(self, start: float, end: float) -> list[tuple[float, Snapshot]]:
        with self._lock:
            return [(at, snapshot) for at, snapshot in self.seen if start <= at <= end]

    def max_gap(self, start: float, end: float) -> float:
        """The longest time without a snapshot from ``start`` to ``end`` (the ends count as arrivals)."""
        times = [start, *(at for at, _ in self.between(start, end)), end]
        return max(b - a for a, b in itertools.pairwise(times))

    def first(self, predicate: Callable[[Snapshot], bool]) -> float | None:
        with self._lock:
            return next((at for at, snapshot in self.seen if predicate(snapshot)), None)
