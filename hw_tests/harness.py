"""A simulated table ready to use: the MCU simulator (or a firmware build) on a pty and a connected ``Table``,
closed together."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from firmware_bridge.config import BridgeConfig
from firmware_bridge.link import open_port
from firmware_bridge.table import Table
from hw_tests.faults import NO_FAULTS, QUIET, FaultPlan, Noise
from hw_tests.firmware import FirmwareMcu
from hw_tests.simulator import McuSimulator

DEFAULT = BridgeConfig()


@contextmanager
def simulated_table(
    config: BridgeConfig = DEFAULT,
    *,
    seed: int = 0,
    speed: float = 20.0,
    faults: FaultPlan = NO_FAULTS,
    noise: Noise = QUIET,
    firmware: str | None = None,
) -> Iterator[tuple[McuSimulator | FirmwareMcu, Table]]:
    """Boot a simulator at ``speed`` and connect a table to its pty; both are shut down on exit.

    ``firmware`` names a board of ``firmware/`` (``host``...) to run instead of the Python simulator.
    """
    mcu: McuSimulator | FirmwareMcu
    if firmware is None:
        mcu = McuSimulator(seed=seed, speed=speed, faults=faults, noise=noise)
    else:
        mcu = FirmwareMcu(firmware, seed=seed, speed=speed, faults=faults, noise=noise)
    with mcu as sim:
        table = Table.connect(config, open_port(sim.path, config.link.baud), time_scale=max(1.0 / speed, 0.05))
        try:
            yield sim, table
        finally:
            table.close()
