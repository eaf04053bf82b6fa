"""The systemd watchdog, pinged only while the table is really being run.

A ping says "the control loop moves and the MCU answers". The loop beats on every recorded event and before every
move; a loop that has not beaten for ``stall_s`` is stuck (the longest table step, building the walls, takes under
a minute). The MCU link is healthy while ``Link.is_up`` (the bridge drops it after ``silence_s`` without a byte
from the MCU). A loop waiting for the technician with a fault latched on the table is idle on purpose, not stuck.
When either check fails the pings stop and systemd restarts the service after ``WatchdogSec``; the journal
resumes the hand.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from controller.ops.sdnotify import Notifier
from firmware_bridge.link import Link

log = logging.getLogger(__name__)


class Heartbeat:
    """When the control loop last showed it was alive."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last = clock()

    def beat(self) -> None:
        self._last = self._clock()

    @property
    def age(self) -> float:
        return self._clock() - self._last


def health(link: Link, heartbeat: Heartbeat, stall_s: float) -> str:
    """``""`` when healthy, else what is wrong (for the log and systemd's STATUS)."""
    if not link.is_up:
        return "the MCU link is down"
    state = link.snapshot
    if heartbeat.age > stall_s and not (state is not None and state.fault_code):
        return f"the control loop has not moved for {heartbeat.age:.0f} s"
    return ""


class Watchdog:
    """A thread that sends WATCHDOG=1 every half period while ``check()`` says healthy."""

    def __init__(self, notifier: Notifier, check: Callable[[], str]) -> None:
        self.notifier = notifier
        self.check = check
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        period = self.notifier.watchdog_s
        if period is None:
            return
        self._thread = threading.Thread(target=self._loop, args=(period / 2,), name="sd-watchdog", daemon=True)
        self._thread.start()
        log.info("systemd watchdog: pinging every %.2f s while healthy", period / 2)

    def _loop(self, interval: float) -> None:
        problem = ""
        while not self._stop.wait(interval):
            now = self.check()
            if now != problem:
                log.warning("watchdog pings stopped: %s", now) if now else log.info("watchdog pings resumed")
                self.notifier.status(now or "playing")
                problem = now
            if not now:
                self.notifier.watchdog()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
