"""The mechanism of a four-port, two-set automatic table (hardware.md §1.2), as a time-driven state machine.

Phases IDLE → INTAKE_OPEN → (hatch closed) IDLE → SHUFFLING → STACKING → WALLS_READY → LIFTING → LIFTED →
LOWERING → IDLE. The hatch also opens in WALLS_READY, above the built set waiting below, and closes back to it: the
used set goes in before the built one lifts (PROTOCOL.md §4, the two-set cycle). The four stackers build side by
side, one stack per interval, each pulse of a side's count sensor teaching that side's interval T; a side whose
sensor is not seen within ``jam_factor``·T is a jam (the CN106540440B pattern). Lift plates stop on their limit
switches, with a travel timeout of ``jam_factor`` times the nominal travel. A fault stops every motor, is latched
until CLEAR_FAULT, and leaves the phase at the last stable one. A new tile count takes effect when the next shuffle
starts (the cycle boundary). No I/O and no clock of its own: ``advance(now)`` is driven by the simulator.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from firmware_bridge.messages import (
    ALL_LIFT_DOWN,
    ALL_LIFT_UP,
    NO_SIDE,
    SEATS,
    WIND_LAMP,
    BuildWalls,
    ClearFault,
    Configure,
    Dealer,
    Diagnostic,
    FaultKind,
    Hatch,
    Lamp,
    LampPattern,
    LiftWalls,
    LowerPlatforms,
    Mechanism,
    Message,
    Nop,
    Phase,
    Result,
    RollDice,
    Sensor,
    Shuffle,
    StateFlag,
)
from hw_tests.faults import NO_FAULTS, FaultPlan

NEVER = math.inf

# Where a phase falls back to when its motion is aborted by a fault: the last stable phase before it.
_STABLE = {
    Phase.SHUFFLING: Phase.IDLE,
    Phase.STACKING: Phase.SHUFFLING,
    Phase.LIFTING: Phase.WALLS_READY,
    Phase.LOWERING: Phase.LIFTED,
}


@dataclass(frozen=True)
class Timings:
    """Durations in table seconds at speed 1 (a four-port table builds its walls in about 18-35 s)."""

    hatch_s: float = 1.5
    shuffle_s: float = 8.0
    stack_interval_s: float = 1.2
    lift_s: float = 2.5
    lower_s: float = 2.0
    dice_s: float = 1.2

    def scaled(self, speed: float) -> Timings:
        return Timings(*(getattr(self, name) / speed for name in self.__dataclass_fields__))


@dataclass(frozen=True)
class Fault:
    kind: FaultKind = FaultKind.NONE
    mechanism: Mechanism = Mechanism.NONE
    side: int = NO_SIDE


class TableModel:
    """Phase, sensors, tile counts, dice, lamps and the latched fault of one table."""

    def __init__(self, rng: random.Random, timings: Timings, faults: FaultPlan = NO_FAULTS) -> None:
        self.rng = rng
        self.timings = timings
        self.faults = faults
        self.phase = Phase.IDLE
        self.fault = Fault()
        self.sensors = Sensor.HATCH_CLOSED | ALL_LIFT_DOWN
        self.wall_tiles: tuple[int, ...] = (0, 0, 0, 0)
        self.pending_wall_tiles: tuple[int, ...] | None = None
        self.jam_factor = 3.0
        self.counts = [0] * SEATS
        self.dice = (0, 0)
        self.dice_serial = 0
        self.built_set = 0
        self.mixed = False
        self.build_requested = False
        self.hatch_returns_to = Phase.IDLE
        """The phase the hatch opened from, where closing it returns: WALLS_READY while a built set waits below."""
        self.diagnostic = 0
        self.lamps: dict[int, tuple[LampPattern, int]] = {lamp: (LampPattern.OFF, 0) for lamp in range(WIND_LAMP + 1)}
        self.dealer = (0, 0)
        self.learned = [timings.stack_interval_s] * SEATS
        self.version = 0  # bumped on every change the snapshot shows
        self.reset_due = NEVER
        self._due = NEVER  # end of the hatch, shuffle or lower motion
        self._dice_due = NEVER
        self._push_due = [NEVER] * SEATS
        self._pushes_left = [0] * SEATS
        self._last_pulse = [0.0] * SEATS
        self._lift_due = [NEVER] * SEATS
        self._travel_deadline = NEVER

    # -- what the MCU asks -----------------------------------------------------------------------------------

    @property
    def motors_on(self) -> bool:
        return self._due < NEVER or self._dice_due < NEVER or self.phase in (Phase.STACKING, Phase.LIFTING)

    @property
    def flags(self) -> StateFlag:
        flags = StateFlag(0)
        if self.diagnostic:
            flags |= StateFlag.DIAGNOSTIC
        if self.motors_on:
            flags |= StateFlag.MOTORS_ON
        if self.mixed:
            flags |= StateFlag.MIXED
        if self.pending_wall_tiles is not None:
            flags |= StateFlag.MODE_PENDING
        return flags

    def next_due(self) -> float:
        return min(self._due, self._dice_due, *self._push_due, *self._jam_deadlines(), *self._lift_due,
                   self._travel_deadline, self.reset_due)  # fmt: skip

    def configure(self, message: Configure, first: bool) -> Result:
        """Accept a configuration; a new tile count waits for the next cycle unless the table has none yet."""
        if message.checksum != message.expected_checksum():
            return Result.BAD_CHECKSUM
        if not all(2 <= n <= 2 * 20 for n in message.wall_tiles) or message.jam_factor_tenths < 15:
            return Result.BAD_ARGUMENT
        self.jam_factor = message.jam_factor_tenths / 10
        if first or (self.phase is Phase.IDLE and not self.motors_on):
            self.wall_tiles, self.pending_wall_tiles = message.wall_tiles, None
        elif message.wall_tiles != self.wall_tiles:
            self.pending_wall_tiles = message.wall_tiles
        self._changed()
        return Result.OK

    def execute(self, message: Message, now: float) -> Result:
        """Run one sequenced command (not CONFIGURE); the result is what the ACK carries."""
        if isinstance(message, Nop):
            return Result.OK
        if isinstance(message, Lamp | Dealer):
            return self._lamp(message)
        if isinstance(message, ClearFault):
            self.fault = Fault()
            self._changed()
            return Result.OK
        if isinstance(message, Diagnostic):
            return self._diagnostic(message.test)
        if self.fault.kind is not FaultKind.NONE:
            return Result.FAULTED
        if self.diagnostic:
            return Result.DIAGNOSTIC
        handlers = {
            Hatch: self._hatch,
            Shuffle: self._shuffle,
            BuildWalls: self._build,
            LiftWalls: self._lift,
            LowerPlatforms: self._lower,
            RollDice: self._roll,
        }
        handler = handlers.get(type(message))
        if handler is None:
            return Result.UNKNOWN_COMMAND
        result = handler(message, now)
        if result is Result.OK:
            self._changed()
        return result

    def stop_all(self, kind: FaultKind, mechanism: Mechanism = Mechanism.NONE, side: int = NO_SIDE) -> None:
        """Every motor off, the fault latched (the first one wins), the phase back to the last stable one."""
        self._due = self._dice_due = self._travel_deadline = self.reset_due = NEVER
        self._push_due = [NEVER] * SEATS
        self._lift_due = [NEVER] * SEATS
        self.build_requested = False
        if self.phase is Phase.STACKING:
            self.mixed = True  # the tiles left on the disc are still mixed: BUILD_WALLS starts over at once
        if self.phase in _STABLE:
            self.phase = _STABLE[self.phase]
        if self.fault.kind is FaultKind.NONE:
            self.fault = Fault(kind, mechanism, side)
        self._changed()

    def reboot(self) -> None:
        """Power is back: RAM is gone, the motors are off and MCU_RESET is latched until the host clears it."""
        self.fault = Fault()
        self.diagnostic = 0
        self.mixed = False
        self.stop_all(FaultKind.MCU_RESET)

    # -- commands --------------------------------------------------------------------------------------------

    def _lamp(self, message: Lamp | Dealer) -> Result:
        if isinstance(message, Dealer):
            if not (0 <= message.seat < SEATS and 0 <= message.round_wind < SEATS):
                return Result.BAD_ARGUMENT
            self.dealer = (message.seat, message.round_wind)
            for seat in range(SEATS):
                self.lamps[seat] = (LampPattern.STEADY if seat == message.seat else LampPattern.OFF, 0)
            self.lamps[WIND_LAMP] = (LampPattern.STEADY, 0)
        else:
            if message.lamp > WIND_LAMP or (message.pattern is LampPattern.BLINK and message.period_ms < 50):
                return Result.BAD_ARGUMENT
            self.lamps[message.lamp] = (message.pattern, message.period_ms)
        return Result.OK

    def _diagnostic(self, test: int) -> Result:
        if test > 15:
            return Result.BAD_ARGUMENT
        if test and (self.motors_on or self.phase is not Phase.IDLE):
            return Result.BUSY
        self.diagnostic = test
        for bit in range(SEATS):  # the test number in binary on the seat lamps, as the repair sheets describe
            self.lamps[bit] = (LampPattern.STEADY if test >> (SEATS - 1 - bit) & 1 else LampPattern.OFF, 0)
        self._changed()
        return Result.OK

    def _hatch(self, message: Hatch, now: float) -> Result:
        """Open from IDLE or from WALLS_READY (the built set stays below), close back to the phase it opened from."""
        allowed = (Phase.IDLE, Phase.WALLS_READY) if message.open else (Phase.INTAKE_OPEN,)
        if self._due < NEVER or self.phase not in allowed:
            return Result.BUSY
        if message.open:
            self.hatch_returns_to = self.phase
        self.sensors &= ~(Sensor.HATCH_OPEN | Sensor.HATCH_CLOSED)
        self._enter(Phase.INTAKE_OPEN if message.open else self.hatch_returns_to, now)
        self._due = now + self.timings.hatch_s
        return Result.OK

    def _shuffle(self, _message: Shuffle, now: float) -> Result:
        if self.phase is not Phase.IDLE or self._due < NEVER or not self.sensors & Sensor.HATCH_CLOSED:
            return Result.BUSY
        if self.pending_wall_tiles is not None:  # the cycle boundary: a new tile count applies from here
            self.wall_tiles, self.pending_wall_tiles = self.pending_wall_tiles, None
        self.mixed = False
        self._enter(Phase.SHUFFLING, now)
        self._due = now + self.timings.shuffle_s * self.rng.uniform(0.9, 1.1)
        return Result.OK

    def _build(self, _message: BuildWalls, now: float) -> Result:
        if self.phase is not Phase.SHUFFLING or (self.sensors & ALL_LIFT_DOWN) != ALL_LIFT_DOWN:
            return Result.BUSY
        self.build_requested = True
        if self.mixed:
            self._start_stacking(now)
        return Result.OK

    def _lift(self, _message: LiftWalls, now: float) -> Result:
        """Only with the hatch shut: the walls rise through the table top where the hatch swings."""
        if self.phase is not Phase.WALLS_READY or self._due < NEVER or not self.sensors & Sensor.HATCH_CLOSED:
            return Result.BUSY
        self._enter(Phase.LIFTING, now)
        jammed = {jam.side for jam in self.faults.jams if jam.mechanism is Mechanism.LIFT}
        for side in range(SEATS):
            self.sensors &= ~Sensor.lift_down(side)
            travel = self.timings.lift_s * self.rng.uniform(0.95, 1.05)
            self._lift_due[side] = NEVER if side in jammed else now + travel
        self._travel_deadline = now + self.timings.lift_s * self.jam_factor
        return Result.OK

    def _lower(self, _message: LowerPlatforms, now: float) -> Result:
        if self.phase is not Phase.LIFTED:
            return Result.BUSY
        self.sensors &= ~ALL_LIFT_UP
        self._enter(Phase.LOWERING, now)
        self._due = now + self.timings.lower_s
        return Result.OK

    def _roll(self, _message: RollDice, now: float) -> Result:
        if self._dice_due < NEVER:
            return Result.BUSY
        self._dice_due = now + self.timings.dice_s
        return Result.OK

    # -- time ------------------------------------------------------------------------------------------------

    def advance(self, now: float) -> None:
        """Apply everything due by ``now``, in time order."""
        while (due := self.next_due()) <= now:
            self._step(due)

    def _step(self, now: float) -> None:
        if now == self.reset_due:
            self.reset_due = NEVER
            raise RebootRequested
        if now == self._dice_due:
            self._dice_due = NEVER
            self.dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
            self.dice_serial = (self.dice_serial + 1) % 256
        elif now == self._due:
            self._due = NEVER
            self._finish_motion(now)
        elif now in self._push_due:
            self._push(self._push_due.index(now), now)
        elif now in self._lift_due:
            side = self._lift_due.index(now)
            self._lift_due[side] = NEVER
            self.sensors |= Sensor.lift_up(side)
            if (self.sensors & ALL_LIFT_UP) == ALL_LIFT_UP:
                self._travel_deadline = NEVER
                self._enter(Phase.LIFTED, now)
        elif now == self._travel_deadline:
            side = next(side for side in range(SEATS) if not self.sensors & Sensor.lift_up(side))
            self.stop_all(FaultKind.TRAVEL_TIMEOUT, Mechanism.LIFT, side)
        else:
            side = self._jam_deadlines().index(now)
            self.stop_all(FaultKind.JAM, Mechanism.STACKER, side)
        self._changed()

    def _finish_motion(self, now: float) -> None:
        if self.phase is Phase.INTAKE_OPEN:
            self.sensors |= Sensor.HATCH_OPEN
        elif self.phase in (Phase.IDLE, Phase.WALLS_READY):  # the hatch closed (back above the built set)
            self.sensors |= Sensor.HATCH_CLOSED
        elif self.phase is Phase.SHUFFLING:
            self.mixed = True
            if self.build_requested:
                self._start_stacking(now)
        elif self.phase is Phase.LOWERING:
            self.sensors |= ALL_LIFT_DOWN
            self.counts = [0] * SEATS
            self._enter(Phase.IDLE, now)

    def _start_stacking(self, now: float) -> None:
        self.build_requested = False
        self.mixed = False
        self.counts = [0] * SEATS
        self._enter(Phase.STACKING, now)
        for side in range(SEATS):
            self._pushes_left[side] = (self.wall_tiles[side] + 1) // 2
            self._last_pulse[side] = now
            self._push_due[side] = now + self._interval()

    def _interval(self) -> float:
        return self.timings.stack_interval_s * self.rng.uniform(0.9, 1.1)

    def _jam_deadlines(self) -> list[float]:
        if self.phase is not Phase.STACKING:
            return [NEVER] * SEATS
        return [
            self._last_pulse[side] + self.jam_factor * self.learned[side] if self._pushes_left[side] else NEVER
            for side in range(SEATS)
        ]

    def _push(self, side: int, now: float) -> None:
        """One stack reaches the storage groove of ``side``: the count sensor pulses, the interval is learned.

        A jammed stacker pushes nothing: its sensor stays dark and the jam deadline of that side runs out.
        """
        stacks = (self.wall_tiles[side] + 1) // 2
        done = stacks - self._pushes_left[side]
        if any(jam.mechanism is Mechanism.STACKER and jam.side == side and done >= jam.after_stacks
               for jam in self.faults.jams):  # fmt: skip
            self._push_due[side] = NEVER
            return
        tiles = min(2, self.wall_tiles[side] - 2 * done)
        self._pushes_left[side] -= 1
        if self.faults.short_side == side and not self._pushes_left[side]:
            tiles -= 1
        self.counts[side] += tiles
        self.sensors ^= Sensor.COUNTER  # the count photo sensor's vane: one edge per stack
        self.learned[side] = 0.8 * self.learned[side] + 0.2 * (now - self._last_pulse[side])
        self._last_pulse[side] = now
        self._push_due[side] = now + self._interval() if self._pushes_left[side] else NEVER
        if not any(self._pushes_left):
            self._walls_done(now)

    def _walls_done(self, now: float) -> None:
        short = [side for side in range(SEATS) if self.counts[side] != self.wall_tiles[side]]
        if short:
            self.stop_all(FaultKind.MISCOUNT, Mechanism.STACKER, short[0])
            return
        self.built_set ^= 1
        self._enter(Phase.WALLS_READY, now)

    def _enter(self, phase: Phase, now: float) -> None:
        self.phase = phase
        plan = self.faults.reset
        if plan is not None and plan.phase is phase:
            self.reset_due = now + plan.after_s
            self.faults = replace(self.faults, reset=None)

    def _changed(self) -> None:
        self.version += 1


class RebootRequested(Exception):
    """Raised out of ``advance`` when a planned MCU reset is due; the simulator reboots."""
