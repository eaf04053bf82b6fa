"""The table cycle with two tile sets, step by step from wherever the MCU stands, in the order of a real table.

Before a hand (``prepare``), which is the end of the last one: the centre hatch opens, the players push the used
set in, the hatch closes, and only then the walls of the set built during the last hand lift (when the dealer
presses the lift switch: the lift needs a clear table) and the platforms go down; the dealer lamp lights and the
dealer's dice key throws the dice, which deal the hand. During the hand (``build_next``, on the service's worker
thread): the set just taken in is shuffled and built into walls that wait under the table. The first hand of a
run, or one after a restart that lost the built walls, takes the tiles in, shuffles and builds before the lift.
The hatch opens above built walls in WALLS_READY and closes back to it (firmware_bridge/PROTOCOL.md §4, the
two-set cycle).

Each step waits for the MCU's confirmation and is then recorded as a ``table`` event; the presses of the lift switch
and the dice key are ``button`` events, the dice the ``dice`` event that deals the hand. The next step follows from
the MCU's phase and the steps this hand already recorded, so a restarted service continues a cycle a real table is
in the middle of, and repeats what a restarted simulator forgot. A latched fault raises ``TableFault`` out of the
step.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from controller.service.events import Event
from controller.service.hand import HandState
from controller.service.inputs import Button
from controller.service.tableside import TableSide
from firmware_bridge.errors import BridgeTimeout
from firmware_bridge.messages import FaultKind, LampPattern, Phase, Sensor, Snapshot

log = logging.getLogger(__name__)

MOVING = (Phase.STACKING, Phase.LIFTING, Phase.LOWERING)
MAX_STEPS = 12  # a full cycle is 7 steps; more means the table does not do what it confirms
NEXT = "next:"
"""Prefix of the steps that build the next hand's walls during this hand."""
POLL_S = 0.05


def lowered_since_lift(steps: list[str]) -> bool:
    """This hand's walls lifted and the platforms lowered after it (a lowering before the lift was of a cycle a
    restart interrupted, and a simulator restarted after the lift forgot it: both go on with the cycle)."""
    if "lifted" not in steps:
        return False
    return "lowered" in steps[len(steps) - steps[::-1].index("lifted") :]


class TableCycle:
    def __init__(
        self, side: TableSide, record: Callable[[Event], object], clock: Callable[[], float], stop: threading.Event
    ) -> None:
        self.side = side
        self.record = record
        self.clock = clock
        self.stop = stop

    def _phase(self) -> Phase:
        table = self.side.table
        state = table.state
        if state is not None and state.fault is not FaultKind.NONE:
            log.info("clearing fault %s (repaired, or left from before the restart)", state.fault_code)
            table.clear_fault()
        if state is not None and state.phase in MOVING:
            settled = table.link.wait_snapshot(
                lambda s: s.phase not in MOVING or s.fault is not FaultKind.NONE, 60, since_ack=True
            )  # since the clear: the snapshot in hand may still show the fault just cleared
            if settled is None:
                raise BridgeTimeout(f"the table stays in {state.phase.name}")
            state = settled
        return Phase.IDLE if state is None else state.phase

    def _step(self, step: str, move: Callable[[], object]) -> None:
        done = move()
        facts = {}
        if isinstance(done, Snapshot) and step.endswith("walls_built"):
            facts = {"counts": list(done.counts), "set": done.built_set}
        self.record(Event.table(step, self.clock(), **facts))

    def prepare(self, hand: HandState) -> bool:
        """Take the used set in, lift this hand's walls and lower the platforms, then light the dealer lamp and throw
        the dice (recorded: they deal the hand); ``False`` when stopped while waiting for a press."""
        table = self.side.table
        for _ in range(MAX_STEPS):
            phase, steps = self._phase(), hand.steps
            if phase is Phase.IDLE and lowered_since_lift(steps):
                break
            if phase is Phase.LIFTED and "lifted" in steps:
                self._step("lowered", table.lower_platforms)
            elif phase is Phase.WALLS_READY and "intake" in steps:
                if not self._pressed(hand, Button.LIFT):
                    return False
                self._step("lifted", table.lift_walls)
            else:
                self._advance(phase, steps, "")
        else:
            raise BridgeTimeout(f"the table did not reach its walls lifted in {MAX_STEPS} steps")
        self.show_dealer(hand)
        if not self._pressed(hand, Button.DICE):
            return False
        if self.side.seed_dice is not None:
            self.side.seed_dice(hand.record.seed)
        dice = table.roll_dice()
        facts = {} if table.state is None else {"serial": table.state.dice_serial}
        self.record(Event.dice(dice, self.clock(), **facts))
        return True

    def build_next(self, hand: HandState) -> None:
        """During the hand: the set taken in before it shuffled and built into the next hand's walls.
        Returns when the walls are ready, or at once when ``stop`` is set. Runs beside the service's thread, so
        it keeps its own list of the steps it recorded (the service applies them when it takes them in)."""
        steps = list(hand.steps)
        for _ in range(MAX_STEPS):
            if self.stop.is_set():
                return
            phase = self._phase()
            if phase is Phase.WALLS_READY:
                return
            steps.append(self._advance(phase, steps, NEXT))
        raise BridgeTimeout(f"the table did not build the next walls in {MAX_STEPS} steps")

    def _advance(self, phase: Phase, steps: list[str], prefix: str) -> str:
        """One step towards walls ready with the used tiles taken in (never the lift), named with ``prefix``;
        returns the step's name. Only ``prepare`` (no prefix) takes tiles in: the worker builds what is inside."""
        table = self.side.table
        if phase is Phase.LIFTED:  # the platforms of a cycle a restart interrupted
            step, move = "lowered", table.lower_platforms
        elif phase is Phase.INTAKE_OPEN:
            step, move = prefix + "intake", table.close_hatch
        elif phase in (Phase.IDLE, Phase.WALLS_READY) and not prefix and "intake" not in steps:
            step, move = "hatch_open", table.open_hatch
        elif phase is Phase.IDLE:
            step, move = prefix + "shuffled", table.shuffle
        elif phase is Phase.SHUFFLING:
            step, move = prefix + "walls_built", table.build_walls
        else:
            raise BridgeTimeout(f"the table is in {phase.name}, not a step of building walls")
        self._step(step, move)
        return step

    def _pressed(self, hand: HandState, button: Button) -> bool:
        """Wait for the dealer's press of the lift switch or the dice key (once per hand: a restart after the
        press does not ask again); the simulated dealer presses at once, and a real table with bots seated
        (``service.wait_for_dealer = false``) does not wait. ``False`` when stopped meanwhile."""
        dealer, hands = hand.record.dealer, self.side.hands
        if f"pressed:{button}" in hand.steps or (hands is None and not self.side.wait_for_dealer):
            return True
        if button is Button.LIFT:
            self.side.inputs.dealer = dealer
            if hands is not None:
                hands.lift()
            press = self.side.inputs.wait(Button.LIFT, self.stop)
            if press is None:
                return False
            self.record(Event.button(button.value, press.seat, self.clock()))
            return True
        if hands is not None:
            hands.dice_key(dealer, True)
        key = Sensor(1 << (12 + dealer))
        try:
            while self.side.table.link.wait_snapshot(lambda s: bool(s.sensors & key), POLL_S) is None:
                if self.stop.is_set():
                    return False
        finally:
            if hands is not None:
                hands.dice_key(dealer, False)
        self.record(Event.button(button.value, dealer, self.clock()))
        return True

    def show_dealer(self, hand: HandState) -> None:
        """The dealer lamp on the MCU's indicator and on the Pi's LEDs (blinking while a dealer repeats)."""
        record = hand.record
        self.side.table.set_dealer(record.dealer, record.round_wind)
        pattern = LampPattern.BLINK if record.consecutive_dealer > 1 else LampPattern.STEADY
        self.side.panel.lamps.show_dealer(record.dealer, pattern)
