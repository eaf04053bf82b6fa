"""The typed table API: one blocking call per table action, returning when the MCU confirms it.

A motion call sends its command (acknowledged exactly once by the link), then waits for the snapshot that shows
the motion done. It raises CommandRejected when the MCU refuses (wrong phase, latched fault), TableFault with the
fault code when the table latches a fault on the way, BridgeTimeout when the table does not get there in time,
McuReset when the MCU rebooted meanwhile, and LinkDown when the MCU stopped answering.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from firmware_bridge.config import BridgeConfig, McuConfig
from firmware_bridge.errors import BridgeTimeout, CommandRejected, TableFault
from firmware_bridge.link import Clock, Link, Port, open_port
from firmware_bridge.messages import (
    SEATS,
    WIND_LAMP,
    BuildWalls,
    ClearFault,
    Dealer,
    Diagnostic,
    FaultKind,
    Hatch,
    Identity,
    Lamp,
    LampPattern,
    LiftWalls,
    LowerPlatforms,
    Message,
    Nop,
    Phase,
    Result,
    RollDice,
    Sensor,
    Shuffle,
    Snapshot,
    StateFlag,
)

log = logging.getLogger(__name__)


class Table:
    """The automatic table behind an MCU link. ``Table.connect(config)`` opens, handshakes and configures."""

    def __init__(self, link: Link, time_scale: float = 1.0) -> None:
        """``time_scale`` multiplies every completion timeout (a simulator at speed 20 needs 1/20 of them)."""
        self.link = link
        self.time_scale = time_scale

    @classmethod
    def connect(
        cls, config: BridgeConfig, port: Port | None = None, clock: Clock = time.monotonic, time_scale: float = 1.0
    ) -> Table:
        """Open ``config.link.port`` (or use ``port``), handshake and configure; the table is ready on return."""

        def reopen() -> Port:
            return open_port(config.link.port, config.link.baud)

        if port is not None:
            link = Link(port, config.link, config.mcu, clock)
        else:
            link = Link(reopen(), config.link, config.mcu, clock, reopen)
        link.start()
        return cls(link, time_scale)

    def close(self) -> None:
        self.link.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def identity(self) -> Identity | None:
        return self.link.identity

    @property
    def state(self) -> Snapshot | None:
        """The latest snapshot (phase, sensors, counts, fault, dice)."""
        return self.link.snapshot

    # -- actions -------------------------------------------------------------------------------------------

    def open_hatch(self, timeout: float = 5.0) -> Snapshot:
        """Raise the centre hatch for the used tiles; returns when its open switch closes."""
        return self._move(Hatch(True), lambda s: bool(s.sensors & Sensor.HATCH_OPEN), timeout, "hatch open")

    def close_hatch(self, timeout: float = 5.0) -> Snapshot:
        return self._move(Hatch(False), lambda s: bool(s.sensors & Sensor.HATCH_CLOSED), timeout, "hatch closed")

    def shuffle(self, timeout: float = 20.0) -> Snapshot:
        """Mix the tiles on the disc; returns when the MCU reports them mixed."""
        return self._move(Shuffle(), lambda s: bool(s.flags & StateFlag.MIXED), timeout, "tiles mixed")

    def build_walls(self, timeout: float = 60.0) -> Snapshot:
        """Stack the four walls of the other set; returns the snapshot with the counted tiles per side."""
        return self._move(BuildWalls(), lambda s: s.phase is Phase.WALLS_READY, timeout, "walls built")

    def lift_walls(self, timeout: float = 10.0) -> Snapshot:
        return self._move(LiftWalls(), lambda s: s.phase is Phase.LIFTED, timeout, "walls lifted")

    def lower_platforms(self, timeout: float = 10.0) -> Snapshot:
        return self._move(LowerPlatforms(), lambda s: s.phase is Phase.IDLE, timeout, "platforms lowered")

    def roll_dice(self, timeout: float = 5.0) -> tuple[int, int]:
        """Spin the dice; returns the two values the MCU read."""
        before = self.state.dice_serial if self.state else -1
        snapshot = self._move(RollDice(), lambda s: s.dice_serial != before, timeout, "dice settled")
        return snapshot.dice

    def set_lamp(self, lamp: int, pattern: LampPattern, period_s: float = 1.0) -> None:
        """A seat's dealer lamp (0-3) or the round-wind lamp (4) steady, blinking or off."""
        if not 0 <= lamp <= WIND_LAMP:
            raise CommandRejected(f"set_lamp: lamp {lamp} does not exist (0-3 seats, 4 round wind)")
        self._command(Lamp(lamp, pattern, round(period_s * 1000)))

    def set_dealer(self, seat: int, round_wind: int) -> None:
        """Dealer indicator: the dealer's lamp on, the round wind shown (0-3 = 东南西北)."""
        if not (0 <= seat < SEATS and 0 <= round_wind < SEATS):
            raise CommandRejected(f"set_dealer: seat {seat} and round wind {round_wind} must be 0-3")
        self._command(Dealer(seat, round_wind))

    def reconfigure(self, mcu: McuConfig) -> None:
        """A new tile set or MCU timers; a new tile count takes effect when the next shuffle starts."""
        result = self.link.reconfigure(mcu.message())
        if result is not Result.OK:
            raise CommandRejected(f"CONFIGURE refused by the MCU: {result.name}")

    def clear_fault(self) -> None:
        self._command(ClearFault())

    def diagnostic(self, test: int) -> None:
        """Enter diagnostic test 1-15 (the number shows on the seat lamps), or leave with 0."""
        self._command(Diagnostic(test))

    def nop(self, token: int) -> None:
        self._command(Nop(token))

    def emergency_stop(self) -> float:
        """Every motor off now, ahead of any command in flight; returns the seconds until the MCU confirmed."""
        return self.link.emergency_stop()

    # -- the plumbing --------------------------------------------------------------------------------------

    def _command(self, message: Message) -> None:
        result = self.link.command(message)
        if result is not Result.OK:
            raise CommandRejected(f"{message.TYPE.name} refused by the MCU: {result.name}{self._why(result)}")

    def _why(self, result: Result) -> str:
        """What a refusal means on the table as last seen: the latched fault, or the phase and hatch that forbid
        the move (a lift with the hatch not closed is BUSY: the walls rise where the hatch swings)."""
        state = self.state
        if state is None:
            return ""
        if result is Result.FAULTED and state.fault_code:
            return f" (fault {state.fault_code} latched: clear_fault() first)"
        if result is Result.DRIVER_FAULT:
            return f" (fault {state.fault_code} stays latched: a motor driver still reports a fault)"
        if result is Result.SENSOR_CONFLICT:
            return f" (fault {state.fault_code} stays latched: end switches that exclude each other are both closed)"
        if result is Result.BUSY:
            hatch = "closed" if state.sensors & Sensor.HATCH_CLOSED else "not closed"
            return f" (phase {state.phase.name}, hatch {hatch})"
        return ""

    def _move(self, message: Message, done: Callable[[Snapshot], bool], timeout: float, what: str) -> Snapshot:
        self._command(message)
        timeout *= self.time_scale
        snapshot = self.link.wait_snapshot(lambda s: s.fault is not FaultKind.NONE or done(s), timeout, since_ack=True)
        if snapshot is None:
            phase = self.state.phase.name if self.state else "unknown"
            raise BridgeTimeout(f"{message.TYPE.name}: not {what} within {timeout:.2f} s (phase {phase})")
        if snapshot.fault is not FaultKind.NONE:
            raise TableFault(f"{message.TYPE.name} stopped by fault {snapshot.fault_code}", snapshot.fault_code)
        log.info("%s", what)
        return snapshot
