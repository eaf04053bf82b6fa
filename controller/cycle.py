"""The table cycle of one hand, step by step from wherever the MCU stands: used tiles in through the hatch,
shuffle and build the other set, lift, dealer lamp, dice, platforms down.

Each step waits for the MCU's confirmation and is then recorded (journaled, then applied) as a ``table`` event;
the dice are the ``dice`` event that deals the hand. The next step follows from the MCU's phase and the steps
this hand already recorded, so a restarted service continues a cycle a real table is in the middle of, and
repeats what a restarted simulator forgot. A latched fault raises ``TableFault`` out of the step.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from controller.events import Event
from controller.hand import HandState
from controller.tableside import TableSide
from firmware_bridge.errors import BridgeTimeout
from firmware_bridge.messages import FaultKind, LampPattern, Phase, Snapshot

log = logging.getLogger(__name__)

MOVING = (Phase.STACKING, Phase.LIFTING, Phase.LOWERING)
MAX_STEPS = 12  # a full cycle is 7 steps; more means the table does not do what it confirms


class TableCycle:
    def __init__(self, side: TableSide, record: Callable[[Event], object], clock: Callable[[], float]) -> None:
        self.side = side
        self.record = record
        self.clock = clock

    def _phase(self) -> Phase:
        table = self.side.table
        state = table.state
        if state is not None and state.fault is not FaultKind.NONE:
            log.info("clearing fault %s left from before the restart", state.fault_code)
            table.clear_fault()
        if state is not None and state.phase in MOVING:
            settled = table.link.wait_snapshot(lambda s: s.phase not in MOVING or s.fault is not FaultKind.NONE, 60)
            if settled is None:
                raise BridgeTimeout(f"the table stays in {state.phase.name}")
            state = settled
        return Phase.IDLE if state is None else state.phase

    def _step(self, step: str, move: Callable[[], object]) -> None:
        done = move()
        facts = {}
        if isinstance(done, Snapshot) and step == "walls_built":
            facts = {"counts": list(done.counts), "set": done.built_set}
        self.record(Event.table(step, self.clock(), **facts))

    def prepare(self, hand: HandState) -> None:
        """Bring the table to this hand's walls lifted and its dice thrown (recorded), then lower the platforms."""
        table = self.side.table
        for _ in range(MAX_STEPS):
            phase, steps = self._phase(), hand.steps
            if phase is Phase.LIFTED and "lifted" in steps:
                break
            if phase is Phase.LIFTED:
                self._step("lowered", table.lower_platforms)  # the platforms of a cycle the restart interrupted
            elif phase is Phase.INTAKE_OPEN:
                self._step("intake", table.close_hatch)
            elif phase is Phase.IDLE and "intake" not in steps:
                self._step("hatch_open", table.open_hatch)
            elif phase is Phase.IDLE:
                self._step("shuffled", table.shuffle)
            elif phase is Phase.SHUFFLING:
                self._step("walls_built", table.build_walls)
            else:
                self._step("lifted", table.lift_walls)
        else:
            raise BridgeTimeout(f"the table did not reach its walls lifted in {MAX_STEPS} steps")
        self.show_dealer(hand)
        if self.side.seed_dice is not None:
            self.side.seed_dice(hand.record.seed)
        self.record(Event.dice(table.roll_dice(), self.clock()))
        self._step("lowered", table.lower_platforms)

    def show_dealer(self, hand: HandState) -> None:
        """The dealer lamp on the MCU's indicator and on the Pi's LEDs (blinking while a dealer repeats)."""
        record = hand.record
        self.side.table.set_dealer(record.dealer, record.round_wind)
        pattern = LampPattern.BLINK if record.consecutive_dealer > 1 else LampPattern.STEADY
        self.side.panel.lamps.show_dealer(record.dealer, pattern)
