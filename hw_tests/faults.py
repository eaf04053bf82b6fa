"""What the simulator can be told to break, all reproducible from its seed (hardware.md §1.2 typical faults)."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.messages import NO_SIDE, Mechanism, Phase
from hw_tests.errors import HarnessError

SIDED = (Mechanism.STACKER, Mechanism.LIFT)
JAMMABLE = (*SIDED, Mechanism.HATCH, Mechanism.DISC, Mechanism.DICE)
DRIVEN = (Mechanism.HATCH, Mechanism.DISC, Mechanism.STACKER, Mechanism.LIFT)  # the mechanisms with a driver


@dataclass(frozen=True)
class Jam:
    """A mechanism whose sensor never fires, as the MCU sees a jam, a broken switch or a cut wire alike: the stacker
    of ``side`` stops counting after ``after_stacks`` stacks, the lift plate of ``side`` never reaches its switch
    (up or down), the hatch neither of its switches, the disc's index sensor never counts the revolutions of a mix,
    the dice never settle. ``side`` is for STACKER and LIFT only."""

    mechanism: Mechanism
    side: int = NO_SIDE
    after_stacks: int = 0

    def __post_init__(self) -> None:
        if self.mechanism not in JAMMABLE:
            names = ", ".join(m.name for m in JAMMABLE)
            raise HarnessError(f"Jam.mechanism: the simulator jams {names}, not {self.mechanism.name}")
        if self.mechanism in SIDED and not 0 <= self.side < 4:
            raise HarnessError(f"Jam.side: expected 0-3 for {self.mechanism.name}, got {self.side}")
        if self.mechanism not in SIDED and self.side != NO_SIDE:
            raise HarnessError(f"Jam.side: {self.mechanism.name} has no sides, got {self.side}")


@dataclass(frozen=True)
class ResetDuring:
    """The MCU reboots ``after_s`` seconds (real time, whatever the speed) after the table enters ``phase``."""

    phase: Phase
    after_s: float = 0.0


@dataclass(frozen=True)
class FaultPlan:
    """Mechanical faults for the next cycles: jams (sensors that never fire), one side short of a tile, a reboot
    mid-operation, motor drivers that report a fault: ``driver_faults`` at once and for as long as the plan holds
    (a failed driver, its supply gone), ``overcurrent`` while one of that mechanism's motors runs (it stalls)."""

    jams: tuple[Jam, ...] = ()
    short_side: int | None = None  # that side's wall comes out one tile short: a miscount
    reset: ResetDuring | None = None
    driver_faults: tuple[Mechanism, ...] = ()
    overcurrent: tuple[Mechanism, ...] = ()

    def __post_init__(self) -> None:
        for name in ("driver_faults", "overcurrent"):
            for mechanism in getattr(self, name):
                if mechanism not in DRIVEN:
                    names = ", ".join(m.name for m in DRIVEN)
                    raise HarnessError(f"FaultPlan.{name}: the drivers are those of {names}, not {mechanism.name}")

    def driver_mask(self, running: int = ~0) -> int:
        """The drivers reporting a fault (1 << mechanism each) with the mechanisms in ``running`` (a mask) moving."""
        mask = 0
        for mechanism in self.driver_faults:
            mask |= 1 << mechanism
        for mechanism in self.overcurrent:
            mask |= (1 << mechanism) & running
        return mask


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
