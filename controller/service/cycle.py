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
in the middle of. A latched fault raises ``TableFault`` out of the step.

A restart can find the MCU one step ahead of the journal: the service died after the MCU confirmed a step and before
the step was journaled (or, for the next walls, before the fixed point of the hand where their steps are journaled:
``controller.service.nextwalls``). The MCU kept its state, and its phase says what it did (``AHEAD``): the step is
recorded then from the MCU's report, with the facts it reports, rather than done again (a second lift would raise
walls onto the table's) or left out of the journal, so the journal reads as if the service had never stopped. The
embedded simulator and a firmware board die with the service; they come back where the journal left the table
(``table_history``, ``TableSide.restore``) and do again what the journal lacks. A real MCU that rebooted (a brown-out)
forgot its phase: the cycle repeats what it forgot.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable

from controller.service.events import Event, EventKind
from controller.service.hand import HandState
from controller.service.inputs import Button
from controller.service.tableside import TableHistory, TableSide
from firmware_bridge.errors import BridgeTimeout
from firmware_bridge.messages import (
    BuildWalls,
    FaultKind,
    Hatch,
    LampPattern,
    LiftWalls,
    LowerPlatforms,
    Message,
    Phase,
    Sensor,
    Shuffle,
    Snapshot,
    StateFlag,
)

log = logging.getLogger(__name__)

MOVING = (Phase.STACKING, Phase.LIFTING, Phase.LOWERING)
MAX_STEPS = 12  # a full cycle is 7 steps; more means the table does not do what it confirms
NEXT = "next:"
"""Prefix of the steps that build the next hand's walls during this hand."""
POLL_S = 0.05
SERIALS = 256
"""The MCU counts its throws in one byte (PROTOCOL.md §4, SNAPSHOT ``dice_serial``)."""

COMMANDS: dict[str, Message] = {
    "hatch_open": Hatch(True),
    "intake": Hatch(False),
    "shuffled": Shuffle(),
    "walls_built": BuildWalls(),
    "lifted": LiftWalls(),
    "lowered": LowerPlatforms(),
}
"""The MCU command that does each step (the same for the ``next:`` ones): what a restored simulator replays."""

AHEAD: dict[str, dict[tuple[str | None, Phase], str]] = {
    "": {
        (None, Phase.INTAKE_OPEN): "hatch_open",
        ("hatch_open", Phase.IDLE): "intake",
        ("hatch_open", Phase.WALLS_READY): "intake",
        ("intake", Phase.SHUFFLING): "shuffled",
        ("shuffled", Phase.WALLS_READY): "walls_built",
        ("intake", Phase.LIFTED): "lifted",
        ("walls_built", Phase.LIFTED): "lifted",
        ("lifted", Phase.IDLE): "lowered",
    },
    NEXT: {
        (None, Phase.SHUFFLING): "shuffled",
        (None, Phase.WALLS_READY): "shuffled",
        ("shuffled", Phase.WALLS_READY): "walls_built",
    },
}
"""(the last step journaled, the MCU's phase) → the step the MCU did since, before the service (re)started; per
prefix: before the hand (``prepare``), whose steps the service journals one by one, at most one is missing; the next
walls' steps wait for the hand's fixed point, so both can be (``None`` there: none of them journaled yet)."""


def table_history(events: Iterable[Event]) -> TableHistory:
    """What a run's journaled events say its table did: each step as its MCU command, and the last throw (with the
    MCU's count of it, or the run's count of throws when the journal has no count)."""
    commands: list[Message] = []
    dice, serial, throws = (0, 0), 0, 0
    for event in events:
        if event.kind is EventKind.TABLE:
            command = COMMANDS.get(str(event.data.get("step")).removeprefix(NEXT))
            if command is not None:
                commands.append(command)
        elif event.kind is EventKind.DICE:
            throws += 1
            values, counted = event.data.get("dice"), event.data.get("serial")
            if isinstance(values, list) and len(values) == 2 and all(v in range(1, 7) for v in values):
                dice = (values[0], values[1])
            serial = counted if type(counted) is int and 0 <= counted < SERIALS else throws % SERIALS
    return TableHistory(tuple(commands), dice, serial)


def last_step(steps: list[str], prefix: str) -> str | None:
    """The hand's last table step with ``prefix`` (without it), leaving out the presses; ``None`` before any."""
    for step in reversed(steps):
        if step.startswith(prefix) and not step.startswith("pressed:") and (prefix or not step.startswith(NEXT)):
            return step.removeprefix(prefix)
    return None


def at_rest(snapshot: Snapshot) -> bool:
    """No motion under way: not in a moving phase, and no motor on (a hatch or the shuffle disc turning)."""
    return snapshot.phase not in MOVING and not snapshot.flags & StateFlag.MOTORS_ON


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
        if state is not None and not at_rest(state):  # a motion a restart found under way ends first
            settled = table.link.wait_snapshot(
                lambda s: at_rest(s) or s.fault is not FaultKind.NONE, 60, since_ack=True
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

    def _caught_up(self, phase: Phase, steps: list[str], prefix: str) -> str | None:
        """Record the step the MCU did that the journal lacks (``AHEAD``), with the facts of its latest snapshot;
        returns its name, or ``None`` when the journal is where the MCU is."""
        step = AHEAD[prefix].get((last_step(steps, prefix), phase))
        if step is None:
            return None
        log.info("the table did %s%s before the restart: journaled from its report", prefix, step)
        self._step(prefix + step, lambda: self.side.table.state)
        return prefix + step

    def prepare(self, hand: HandState) -> bool:
        """Take the used set in, lift this hand's walls and lower the platforms, then light the dealer lamp and throw
        the dice (recorded: they deal the hand); ``False`` when stopped while waiting for a press."""
        table = self.side.table
        for _ in range(MAX_STEPS):
            phase, steps = self._phase(), hand.steps
            if self._caught_up(phase, steps, ""):
                continue
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
        if hand.dice is None and not self._thrown(hand, hand.record.dealer, 1):
            return False
        thrower = hand.second_thrower  # the seat the dealer's throw points to, where the wall needs two throws
        return thrower is None or self._thrown(hand, thrower, 2)

    def _thrown(self, hand: HandState, seat: int, throw: int) -> bool:
        """``seat``'s dice key pressed for the hand's ``throw``-th throw (1 or 2), the dice thrown and recorded;
        ``False`` when stopped while waiting for the press. A restart between the two throws asks for the second
        only: the first is in the journal."""
        if not self._pressed(hand, Button.DICE, seat, throw):
            return False
        if self.side.seed_dice is not None:
            self.side.seed_dice(hand.record.seed, throw)
        table = self.side.table
        dice = table.roll_dice()
        facts = {} if table.state is None else {"serial": table.state.dice_serial}
        self.record(Event.dice(dice, self.clock(), **facts))
        return True

    def build_next(self, steps: list[str]) -> None:
        """During the hand: the set taken in before it shuffled and built into the next hand's walls, ``steps``
        being the hand's steps so far. Returns when the walls are ready, or at once when ``stop`` is set. Runs
        beside the service's thread, so it extends ``steps`` itself with each step it records (the service applies
        them when it journals them, which may be later: ``controller.service.nextwalls``)."""
        for _ in range(MAX_STEPS):
            if self.stop.is_set():
                return
            phase = self._phase()
            if (step := self._caught_up(phase, steps, NEXT)) is not None:
                steps.append(step)
                continue
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

    def _pressed(self, hand: HandState, button: Button, seat: int | None = None, times: int = 1) -> bool:
        """Wait for the dealer's press of the lift switch, or ``seat``'s of its dice key for the ``times``-th time
        this hand (a restart after the press does not ask again); the simulated players press at once, and a real
        table with bots seated (``service.wait_for_dealer = false``) does not wait. ``False`` when stopped
        meanwhile."""
        dealer, hands = hand.record.dealer, self.side.hands
        if hand.steps.count(f"pressed:{button}") >= times or (hands is None and not self.side.wait_for_dealer):
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
        thrower = dealer if seat is None else seat
        if hands is not None:
            hands.dice_key(thrower, True)
        key = Sensor(1 << (12 + thrower))
        try:
            while self.side.table.link.wait_snapshot(lambda s: bool(s.sensors & key), POLL_S) is None:
                if self.stop.is_set():
                    return False
        finally:
            if hands is not None:
                hands.dice_key(thrower, False)
        self.record(Event.button(button.value, thrower, self.clock()))
        return True

    def show_dealer(self, hand: HandState) -> None:
        """The dealer lamp on the MCU's indicator and on the Pi's LEDs (blinking while a dealer repeats)."""
        record = hand.record
        self.side.table.set_dealer(record.dealer, record.round_wind)
        pattern = LampPattern.BLINK if record.consecutive_dealer > 1 else LampPattern.STEADY
        self.side.panel.lamps.show_dealer(record.dealer, pattern)
