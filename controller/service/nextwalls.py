"""The other tile set built while this hand is played: ``TableCycle.build_next`` on a worker thread.

The set it shuffles and builds is the one taken in through the hatch before this hand's walls lifted (the lift
needs a clear table), so the worker never opens the hatch: its walls wait below until the next hand's intake.

The worker only talks to the MCU; every step it confirms, and every fault, is posted to the service's thread, which
journals and applies it between two moves (the journal has one writer). A fault stops the motors (the MCU does
that itself) and is shown with its hint at once, while the hand above goes on: with ``on_fault = "wait"`` the worker
waits for the technician's ``POST /api/resume`` and goes on from the MCU's phase; with ``"stop"`` the run stops
once the hand is over (``TableStopped``), and a restart resumes the cycle.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from controller.display.hints import hint
from controller.errors import TableStopped
from controller.service.cycle import TableCycle
from controller.service.events import Event
from controller.service.hand import HandState
from controller.service.tableside import TableSide
from firmware_bridge.errors import McuReset, TableFault

log = logging.getLogger(__name__)

POLL_S = 0.05


def fault_code(fault: TableFault | McuReset, side: TableSide) -> str:
    """The fault's code (``JAM/STACKER/side1``), from the exception or the MCU's latest snapshot."""
    state = side.table.state
    return getattr(fault, "code", "") or (state.fault_code if state else "") or "MCU_RESET"


class NextWalls:
    def __init__(
        self,
        side: TableSide,
        hand: HandState,
        clock: Callable[[], float],
        stop: threading.Event,
        resume: threading.Event,
        wait_on_fault: bool,
    ) -> None:
        self.side = side
        self.hand = hand
        self.clock = clock
        self.stop = stop
        self.resume = resume
        self.wait_on_fault = wait_on_fault
        self.posted: queue.Queue[Event] = queue.Queue()
        self.error: BaseException | None = None
        """What ended the worker early: ``TableStopped`` (a fault with ``on_fault = "stop"``), a lost link, ..."""
        self._cycle = TableCycle(side, self.posted.put, clock, stop)
        self._thread = threading.Thread(target=self._run, name="next-walls", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        try:
            while not self.stop.is_set():
                try:
                    self._cycle.build_next(self.hand)
                    return
                except (TableFault, McuReset) as fault:
                    code = fault_code(fault, self.side)
                    self.resume.clear()  # before the fault is posted: a resume pressed once it shows must count
                    self.posted.put(Event.fault(code, self.clock()))
                    if not self.wait_on_fault:
                        number = self.hand.record.number
                        raise TableStopped(f"hand {number}: the table stopped: {fault}", code, hint(code)) from None
                    while not self.resume.wait(POLL_S):
                        if self.stop.is_set():
                            return
                    log.info("resumed by the technician after %s: building the next walls again", code)
        except BaseException as error:  # handed to the service's thread, which raises it after the hand
            self.error = error

    def take(self) -> list[Event]:
        """The events posted since the last call, in order."""
        events = []
        while True:
            try:
                events.append(self.posted.get_nowait())
            except queue.Empty:
                return events

    def finish(self, record: Callable[[Event], object]) -> BaseException | None:
        """Wait for the walls (recording what comes in meanwhile); returns what stopped the worker, if anything,
        for the service to raise once the hand above is recorded."""
        while self._thread.is_alive():
            self._thread.join(POLL_S)
            for event in self.take():
                record(event)
        for event in self.take():
            record(event)
        return self.error

    def abandon(self) -> None:
        """The hand failed: let the worker end after its step, record nothing more."""
        self.stop.set()
        self._thread.join()
