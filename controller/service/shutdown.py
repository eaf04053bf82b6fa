"""SIGTERM (``systemctl stop``, a reboot): stop the table the safe way, at once, whatever the loop was doing.

The handler raises ``Terminated`` in the main thread, so the control loop unwinds through its ``with`` blocks (no
lock stays held, the journal's open transaction rolls back; every committed event is kept and the next start
resumes the hand). On the way out ``safe_stop`` sends the emergency stop (it jumps the MCU's queue), puts every
lamp out on the MCU and on the Pi, and the table's context then closes the serial port. The MQTT link says
``offline`` when it closes.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from controller.service.tableside import TableSide
from engine.errors import MjtableError
from firmware_bridge.errors import LinkDown
from firmware_bridge.messages import SEATS, WIND_LAMP, LampPattern

log = logging.getLogger(__name__)


class Terminated(BaseException):
    """SIGTERM arrived. A ``BaseException`` like ``KeyboardInterrupt``: no ``except Exception`` swallows it."""


def _raise(signum: int, frame: FrameType | None) -> None:
    """The first SIGTERM unwinds the loop; a repeated one must not cut the safe stop short, so it is ignored."""
    signal.signal(signum, signal.SIG_IGN)
    raise Terminated(signal.Signals(signum).name)


@contextlib.contextmanager
def terminate_on_sigterm() -> Iterator[None]:
    """SIGTERM raises ``Terminated`` in the main thread while inside; the old handler is put back after. Off the
    main thread (a test serving in a thread) signals cannot be handled, and this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def safe_stop(side: TableSide, emergency: bool) -> None:
    """Emergency stop (when ``emergency``) and every lamp out. A dead link is logged: the MCU stops its motors
    by itself when the host goes silent, and the Pi's own lamps go out regardless."""
    if emergency:
        try:
            seconds = side.table.emergency_stop()
            log.info("shutdown: emergency stop confirmed in %.3f s", seconds)
        except MjtableError as error:
            log.error("shutdown: emergency stop not confirmed (%s); the MCU stops when the host goes silent", error)
    try:
        if not side.table.link.is_up:  # each command would retry for seconds: the MCU's lamps stay as they are
            raise LinkDown("the MCU link is down")
        for lamp in range(WIND_LAMP + 1):
            side.table.set_lamp(lamp, LampPattern.OFF)
    except MjtableError as error:
        log.error("shutdown: the table's lamps could not be put out: %s", error)
    for lamp in range(SEATS):
        side.panel.lamps.set(lamp, LampPattern.OFF)
    side.panel.lamps.set(WIND_LAMP, LampPattern.OFF)
    log.info("shutdown: lamps off")
