"""What the simulator can be told to break, all reproducible from its seed (hardware.md §1.2 typical faults)."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.messages import Mechanism, Phase
from hw_tests.errors import HarnessError


@dataclass(frozen=True)
class Jam:
    """The stacker of ``side`` stops after ``after_stacks`` stacks, or the lift plate of ``side`` never arrives."""

    mechanism: Mechanism
    side: int
    after_stacks: int = 0

    def __post_init__(self) -> None:
        if self.mechanism not in (Mechanism.STACKER, Mechanism.LIFT):
            raise HarnessError(f"Jam.mechanism: the simulator jams STACKER or LIFT, not {self.mechanism.name}")
        if not 0 <= self.side < 4:
            raise HarnessError(f"Jam.side: expected 0-3, got {self.side}")


@dataclass(frozen=True)
class ResetDuring:
    """The MCU reboots ``after_s`` seconds (real time, whatever the speed) after the table enters ``phase``."""

    phase: Phase
    after_s: float = 0.0


@dataclass(frozen=True)
class FaultPlan:
    """Mechanical faults for the next cycles: jams, one side short of a tile, a reboot mid-operation."""

    jams: tuple[Jam, ...] = ()
    short_side: int | None = None  # that side's wall comes out one tile short: a miscount
    reset: ResetDuring | None = None


@dataclass(frozen=True)
class Noise:
    """Line noise applied by the simulator to both directions: per byte ``corrupt``, per frame the others."""

    corrupt: float = 0.0
    drop: float = 0.0
    duplicate: float = 0.0
    delay: float = 0.0
    delay_s: float = 0.02

    def __post_init__(self) -> None:
        for name in ("corrupt", "drop", "duplicate", "delay"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise HarnessError(f"Noise.{name}: expected a rate from 0 to 1, got {value}")

    @property
    def quiet(self) -> bool:
        return not (self.corrupt or self.drop or self.duplicate or self.delay)


NO_FAULTS = FaultPlan()
QUIET = Noise()
