"""The table the service drives: the MCU behind ``firmware_bridge.table.Table`` and the Pi's pins.

With no serial port configured it is the embedded simulated table: the hw_tests MCU simulator on a pty and
MockFactory pins. The simulated MCU's dice are reseeded from each hand's seed just before the throw, so the dice
(and with them the whole hand) depend on the run's seed only, also when a restart rebuilt the simulator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

from gpiozero.pins.mock import MockFactory

from controller.config import Config
from firmware_bridge.gpio import Panel, host_pin_factory
from firmware_bridge.table import Table
from hw_tests.faults import NO_FAULTS, FaultPlan
from hw_tests.harness import simulated_table


@dataclass
class TableSide:
    table: Table
    panel: Panel
    pins: str
    """The pin factory in use (MockFactory off the Pi), for ``mjtable doctor``."""
    seed_dice: Callable[[int], None] | None = None
    """Simulated table only: make the next throw a function of the hand seed."""


@contextmanager
def open_table(config: Config, faults: FaultPlan = NO_FAULTS) -> Iterator[TableSide]:
    """The configured table, connected and configured; ``faults`` are injected into a simulated one."""
    with ExitStack() as stack:
        if config.simulated:
            sim, table = stack.enter_context(simulated_table(config.bridge, speed=config.service.speed, faults=faults))

            def seed_dice(hand_seed: int) -> None:
                sim.reseed(f"{hand_seed}/dice")

            factory = MockFactory()
            side = TableSide(table, Panel(config.bridge.gpio, factory), type(factory).__name__, seed_dice)
        else:
            table = stack.enter_context(Table.connect(config.bridge))
            factory = host_pin_factory()
            side = TableSide(table, Panel(config.bridge.gpio, factory), type(factory).__name__)
        stack.callback(side.panel.close)
        yield side
