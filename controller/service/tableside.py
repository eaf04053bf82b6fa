"""The table the service drives: the MCU behind ``firmware_bridge.table.Table`` and the Pi's pins.

With no serial port configured it is the embedded simulated table: the hw_tests MCU simulator (or, with
``service.firmware``, a build of firmware/ in C: ``hw_tests.firmware``) on a pty and
MockFactory pins, which the simulated players press with ``SimHands``. The simulated MCU's dice are reseeded
from each hand's seed just before the throw, so the dice
(and with them the whole hand) depend on the run's seed only, also when a restart rebuilt the simulator.

A real table's MCU and its two tile sets outlive a crash of the Pi; the embedded simulator dies with the service. So
that a resumed run finds the same table, the restarted simulator is brought to where the run's journal left it
(``TableSide.restore``): every journaled step done again at once, which leaves it in the phase the journal says, with
the same set built (``built_set`` alternates with each build) and the same count of throws. Without it a resumed run
would build again walls the table had, and number the sets from the start. A firmware board (``service.firmware``),
which also dies with the service, is brought there through its host link: the steps done again at its top speed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpiozero.pins.mock import MockFactory

from controller.config import Config
from controller.service.inputs import SeatInputs, SimHands
from engine.rulesets.registry import get_ruleset
from firmware_bridge.errors import BridgeTimeout, CommandRejected
from firmware_bridge.gpio import Panel, host_pin_factory
from firmware_bridge.messages import Hatch, Message, MsgType, Snapshot
from firmware_bridge.table import Table
from hw_tests.faults import NO_FAULTS, FaultPlan
from hw_tests.firmware import FirmwareMcu
from hw_tests.harness import simulated_table
from hw_tests.simulator import McuSimulator

if TYPE_CHECKING:  # the people's table renders camera frames (OpenCV): only loaded when people play
    from controller.people.peopletable import PeopleTable


log = logging.getLogger(__name__)

RESTORE_S = 5.0
"""How long the host waits for the restored simulator's snapshot (it is sent at once)."""


@dataclass(frozen=True)
class TableHistory:
    """What a run's journal says its table did (``controller.service.cycle.table_history``): each step as the MCU
    command that did it, in order, and the last throw with the MCU's count of throws."""

    commands: tuple[Message, ...] = ()
    dice: tuple[int, int] = (0, 0)
    dice_serial: int = 0


@dataclass
class TableSide:
    table: Table
    panel: Panel
    pins: str
    """The pin factory in use (MockFactory off the Pi), for ``mjtable doctor``."""
    inputs: SeatInputs
    """The seat buttons and the lift switch as presses."""
    seed_dice: Callable[[int, int], None] | None = None
    """Simulated table only: make the next throw a function of the hand seed and the throw's number (1, 2)."""
    hands: SimHands | None = None
    """Simulated table only: the players' fingers on the buttons."""
    simulator: McuSimulator | None = None
    """Simulated table only: the MCU simulator (tests inject faults into it mid-run)."""
    wait_for_dealer: bool = False
    """A real table: wait for the dealer's lift switch and dice key (``service.wait_for_dealer``)."""
    people: PeopleTable | None = None
    """Simulated table with ``service.players = "people"``: the bots playing as people, whom the service sees only
    through the rendered camera frames and the pins they press."""
    restore: Callable[[TableHistory], None] | None = None
    """Simulated table only (the Python simulator or a firmware board): bring the simulator, started with the
    service, to where a resumed run's journal left the table; returns once the host sees it there. A simulator that
    has moved since it started kept its state, as a real table's MCU does, and is left as it is. ``None`` on a real
    table."""


MOVES = {MsgType.HATCH, MsgType.SHUFFLE, MsgType.BUILD_WALLS, MsgType.LIFT_WALLS, MsgType.LOWER_PLATFORMS}
MOVES |= {MsgType.ROLL_DICE}
"""The commands that give a simulator a past of its own: one that ran any is not restored."""


def _restorer(sim: McuSimulator, table: Table) -> Callable[[TableHistory], None]:
    def restore(history: TableHistory) -> None:
        if any(item.message.TYPE in MOVES for item in sim.executed):
            return
        expected = _resting(sim.restore(history.commands, history.dice, history.dice_serial))
        if table.link.wait_snapshot(lambda snapshot: _resting(snapshot) == expected, RESTORE_S) is None:
            raise BridgeTimeout(f"the restored simulator's state did not reach the host within {RESTORE_S} s")

    return restore


def _board_restorer(board: FirmwareMcu, table: Table) -> Callable[[TableHistory], None]:
    """A firmware board has no way in but its links: each journaled step is done again through the host link, the
    mechanism flat out and fault-free, then the dice thrown as often as the journal counts (the last throw's faces
    are the mechanism's own: nothing reads them before the next throw, which is seeded from its hand)."""

    def restore(history: TableHistory) -> None:
        if any(MsgType(kind) in MOVES for _seq, kind, _token in board.executed):
            return
        with board.flat_out():
            for command in history.commands:
                try:
                    _do_again(table, command)
                except CommandRejected as refused:  # as McuSimulator.restore: a step the phase forbids is skipped
                    log.warning("restoring the firmware board: %s", refused)
            for _ in range(history.dice_serial):
                table.roll_dice()

    return restore


def _do_again(table: Table, command: Message) -> None:
    """One of ``controller.service.cycle.COMMANDS`` through the table, to its end."""
    if isinstance(command, Hatch):
        (table.open_hatch if command.open else table.close_hatch)()
        return
    moves = {
        MsgType.SHUFFLE: table.shuffle,
        MsgType.BUILD_WALLS: table.build_walls,
        MsgType.LIFT_WALLS: table.lift_walls,
        MsgType.LOWER_PLATFORMS: table.lower_platforms,
    }
    moves[command.TYPE]()


def _resting(snapshot: Snapshot) -> tuple[object, ...]:
    """What a table at rest shows of its past: phase, sensors, walls, dice and the built set."""
    return snapshot.phase, snapshot.sensors, snapshot.counts, snapshot.dice, snapshot.dice_serial, snapshot.built_set


def _people_table(stack: ExitStack, config: Config, hands: SimHands) -> PeopleTable:
    """The simulated players' side of a people's table: their own full view of the hand, the camera rendering it in
    a process of its own (closed with the table), the state file that lets them resume after a restart."""
    from controller.people.camera import open_renderer
    from controller.people.peopletable import PeopleTable

    renderer = open_renderer()
    stack.callback(renderer.close)
    ruleset = get_ruleset(config.service.rules, config.service.options)
    state_file, window = config.service.state_path / "people-table.json", config.service.claim_window_s
    return PeopleTable(ruleset, renderer, hands, state_file, give_up_s=4 * window)  # well past any window


@contextmanager
def open_table(config: Config, faults: FaultPlan = NO_FAULTS) -> Iterator[TableSide]:
    """The configured table, connected and configured; ``faults`` are injected into a simulated one."""
    with ExitStack() as stack:
        hold = config.service.hu_hold_s
        if config.simulated:
            service = config.service
            firmware = service.firmware or None  # a build of firmware/ in place of the Python simulator
            sim, table = stack.enter_context(
                simulated_table(config.bridge, speed=service.speed, faults=faults, firmware=firmware)
            )

            def seed_dice(hand_seed: int, throw: int) -> None:
                sim.reseed(f"{hand_seed}/dice" + ("" if throw == 1 else f"/{throw}"))

            factory = MockFactory()
            gpio = config.bridge.gpio
            hands = SimHands(factory, gpio, sim.press_key, hold)
            panel = Panel(gpio, factory, hands.clock)
            inputs = SeatInputs(panel, hands.clock, hold)
            side = TableSide(table, panel, type(factory).__name__, inputs, seed_dice, hands, sim)
            side.restore = _restorer(sim, table) if isinstance(sim, McuSimulator) else _board_restorer(sim, table)
            if config.service.players == "people":
                side.people = _people_table(stack, config, hands)
        else:
            table = stack.enter_context(Table.connect(config.bridge))
            factory = host_pin_factory()
            panel = Panel(config.bridge.gpio, factory)
            inputs = SeatInputs(panel, time.monotonic, hold)
            side = TableSide(
                table, panel, type(factory).__name__, inputs, wait_for_dealer=config.service.wait_for_dealer
            )
        stack.callback(side.panel.close)
        yield side
