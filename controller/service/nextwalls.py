"""The other tile set built while this hand is played: ``TableCycle.build_next`` on a worker thread.

The set it shuffles and builds is the one taken in through the hatch before this hand's walls lifted (the lift
needs a clear table), so the worker never opens the hatch: its walls wait below until the next hand's intake.

The worker only talks to the MCU; every step it confirms, and every fault, is posted to the service's thread, which
journals and applies it between two moves (the journal has one writer). A fault stops the motors (the MCU does
that itself) and is shown with its hint at once, while the hand above goes on: with ``on_fault = "wait"`` the worker
waits for the technician's ``POST /api/resume`` and goes on from the MCU's phase; with ``"stop"`` the run stops
once the hand is over (``TableStopped``), and a restart resumes the cycle.

Where the steps go in the journal. The worker's pace is the table's, not the hand's: journaled as they came, the
steps would fall among other moves in every run of a seed (the table's speed, the Pi's load, a restart all move
them). So they are held, and journaled at one fixed point of the hand: before its move ``SETTLE_AT`` (or at its end
when it is shorter), where the service waits for the walls if they are not built yet. A journal of a seed is then
the same however the table kept pace. Each step keeps the time the MCU confirmed it: in the hand log it stands
after moves played later than it. A fault is the exception: it is journaled (and shown) at once, with the steps
held before it, and from then on the steps go in as they come; a hand with a fault depends on when it struck. The
people's hands (``controller.people.watch``) follow the camera and are journaled as they come, steps included.

A crash between a step the MCU confirmed and the fixed point loses the held step, not the table's work: the resumed
worker records it from what the MCU reports (``TableCycle._caught_up``: a real table kept its state), or, on the
embedded simulator restored to the journal's table, does it again; either way it lands at the same fixed point.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from controller.display.hints import hint
from controller.errors import TableStopped
from controller.service.cycle import TableCycle
from controller.service.events import Event, EventKind
from controller.service.hand import HandState
from controller.service.tableside import TableSide
from firmware_bridge.errors import McuReset, TableFault

log = logging.getLogger(__name__)

POLL_S = 0.05
SETTLE_AT = 80
"""The move before which the next walls' steps are journaled. A table builds them in about 30 table seconds (an
8 s shuffle, then 17 stacks a side at 1.2 s: ``hw_tests.mechanism.Timings``) while a bot thinks 0.5 s a move at
the same speed, some 60 moves, so at 80 the walls are nearly always built and the service seldom waits; a hand has
about 170 moves (the median of 300 seeds, 10% under 100)."""


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
        settle_at: int | None = SETTLE_AT,
    ) -> None:
        self.side = side
        self.hand = hand
        self.clock = clock
        self.stop = stop
        self.resume = resume
        self.wait_on_fault = wait_on_fault
        self.settle_at = settle_at
        """The move before which the steps are journaled (``SETTLE_AT``); ``None``: as they come."""
        self.posted: queue.Queue[Event] = queue.Queue()
        self.error: BaseException | None = None
        """What ended the worker early: ``TableStopped`` (a fault with ``on_fault = "stop"``), a lost link, ..."""
        self._held: list[Event] = []
        self._released = settle_at is None
        """Whether the events go to the journal as they come: from the fixed point, or a fault, on."""
        self._cycle = TableCycle(side, self.posted.put, clock, stop)
        self._thread = threading.Thread(target=self._run, name="next-walls", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        steps = list(self.hand.steps)  # the worker's own record: the service journals its steps later
        try:
            while not self.stop.is_set():
                try:
                    self._cycle.build_next(steps)
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

    def _collect(self) -> None:
        """Hold what the worker posted; a fault releases it all."""
        while True:
            try:
                event = self.posted.get_nowait()
            except queue.Empty:
                return
            self._held.append(event)
            self._released |= event.kind is EventKind.FAULT

    def take(self, moves: int = 0) -> list[Event]:
        """The events to journal, in order, before the hand's next move, ``moves`` moves into it: nothing before the
        fixed point but a fault and the steps before it; at the fixed point every step, once the walls are built
        (or a fault stops them); after it, what comes."""
        self._collect()
        if not self._released and self.settle_at is not None and moves >= self.settle_at:
            while self._thread.is_alive() and not self._released:
                self._thread.join(POLL_S)
                self._collect()
            self._collect()
            self._released = True
        if not self._released:
            return []
        events, self._held = self._held, []
        return events

    def finish(self, record: Callable[[Event], object], over: bool) -> BaseException | None:
        """Wait for the worker, recording what is released meanwhile (a fault at once: the technician must see it
        to resume). The hand ``over`` releases the steps at its end; a hand stopped before its fixed point leaves
        the held steps unjournaled, for the resumed worker to record from the MCU's report. Returns what stopped
        the worker, if anything, for the service to raise once the hand above is recorded."""
        self._released |= over
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
