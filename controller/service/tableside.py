"""The table the service drives: the MCU behind ``firmware_bridge.table.Table`` and the Pi's pins.

With no serial port configured it is the embedded simulated table: the hw_tests MCU simulator (or, with
``service.firmware``, a build of firmware/ in C: ``hw_tests.firmware``) on a pty and
MockFactory pins, which the simulated players press with ``SimHands``. The simulated MCU's dice are reseeded
from each hand's seed just before the throw, so the dice
(and with them the whole hand) depend on the run's seed only, also when a restart rebuilt the simulator.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpiozero.pins.mock import MockFactory

from controller.config import Config, table_ruleset
from controller.service.inputs import SeatInputs, SimHands
from firmware_bridge.gpio import Panel, host_pin_factory
from firmware_bridge.table import Table
from hw_tests.faults import NO_FAULTS, FaultPlan
from hw_tests.harness import simulated_table
from hw_tests.simulator import McuSimulator

if TYPE_CHECKING:  # the people's table renders camera frames (OpenCV): only loaded when people play
    from controller.people.peopletable import PeopleTable


@dataclass
class TableSide:
    table: Table
    panel: Panel
    pins: str
    """The pin factory in use (MockFactory off the Pi), for ``mjtable doctor``."""
    inputs: SeatInputs
    """The seat buttons and the lift switch as presses."""
    seed_dice: Callable[[int], None] | None = None
    """Simulated table only: make the next throw a function of the hand seed."""
    hands: SimHands | None = None
    """Simulated table only: the players' fingers on the buttons."""
    simulator: McuSimulator | None = None
    """Simulated table only: the MCU simulator (tests inject faults into it mid-run)."""
    wait_for_dealer: bool = False
    """A real table: wait for the dealer's lift switch and dice key (``service.wait_for_dealer``)."""
    people: PeopleTable | None = None
    """Simulated table with ``service.players = "people"``: the bots playing as people, whom the service sees only
    through the rendered camera frames and the pins they press."""


def _people_table(stack: ExitStack, config: Config, hands: SimHands) -> PeopleTable:
    """The simulated players' side of a people's table: their own full view of the hand, the camera rendering it in
    a process of its own (closed with the table), the state file that lets them resume after a restart."""
    from controller.people.camera import open_renderer
    from controller.people.peopletable import PeopleTable

    renderer = open_renderer()
    stack.callback(renderer.close)
    ruleset = table_ruleset(config.service.rules, config.service.options)
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

            def seed_dice(hand_seed: int) -> None:
                sim.reseed(f"{hand_seed}/dice")

            factory = MockFactory()
            gpio = config.bridge.gpio
            hands = SimHands(factory, gpio, sim.press_key, hold)
            panel = Panel(gpio, factory, hands.clock)
            inputs = SeatInputs(panel, hands.clock, hold)
            side = TableSide(table, panel, type(factory).__name__, inputs, seed_dice, hands, sim)
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
