"""The mechanism of a four-port, two-set automatic table (hardware.md §1.2), as a time-driven state machine.

Phases IDLE → INTAKE_OPEN → (hatch closed) IDLE → SHUFFLING → STACKING → WALLS_READY → LIFTING → LIFTED →
LOWERING → IDLE. The hatch also opens in WALLS_READY, above the built set waiting below, and closes back to it: the
used set goes in before the built one lifts (PROTOCOL.md §4, the two-set cycle). The four stackers build side by
side, one stack per interval, each pulse of a side's count sensor teaching that side's interval T; a side whose
sensor is not seen within ``jam_factor``·T is a jam (the CN106540440B pattern). Lift plates stop on their limit
switches. Every motor the MCU runs has a time limit of ``jam_factor`` times its motion's nominal duration
(PROTOCOL.md §4 "Motion limits": TRAVEL_TIMEOUT for the hatch and the plates, RUN_TIMEOUT for the disc, the dice and a
whole wall), and the steppers (hatch, plates) stop at the board's step limit, STEP_LIMIT_TRAVELS times their travel
(OVERTRAVEL). A motor driver reporting a fault latches OVERCURRENT (its motor running) or DRIVER_FAULT (at rest), and
CLEAR_FAULT is refused while it lasts or while end switches contradict each other. A fault stops every motor, is
latched until CLEAR_FAULT, and leaves the phase at the last stable one. A new tile count takes effect when the next
shuffle starts (the cycle boundary). No I/O and no clock of its own: ``advance(now)`` is driven by the simulator.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from enum import IntEnum

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
STEP_LIMIT_TRAVELS = 4  # a stepper's move stops after this many full travels' worth of steps (firmware pins.h)


class Motor(IntEnum):
    """The MCU's motors, numbered as the firmware's ``enum hal_motor``: the order a tie between limits is broken in."""

    HATCH = 0
    DISC = 1
    DICE = 2
    STACKER0 = 3
    LIFT0 = 7

    @staticmethod
    def stacker(side: int) -> int:
        return Motor.STACKER0 + side

    @staticmethod
    def lift(side: int) -> int:
        return Motor.LIFT0 + side


MOTORS = Motor.LIFT0 + SEATS
_STEPPERS = (Motor.HATCH, *range(Motor.LIFT0, MOTORS))
_SINGLE = {Motor.HATCH: Mechanism.HATCH, Motor.DISC: Mechanism.DISC, Motor.DICE: Mechanism.DICE}


def _mechanism(motor: int) -> Mechanism:
    if motor in _SINGLE:
        return _SINGLE[Motor(motor)]
    return Mechanism.STACKER if motor < Motor.LIFT0 else Mechanism.LIFT


def _side(motor: int) -> int:
    if motor >= Motor.LIFT0:
        return motor - Motor.LIFT0
    return motor - Motor.STACKER0 if motor >= Motor.STACKER0 else NO_SIDE


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
        self.motor = [0] * MOTORS
        """Each motor's direction as the MCU drives it (+1, -1, 0 off)."""
        self._deadline = [NEVER] * MOTORS  # each running motor's time limit
        self._limit_due = [NEVER] * MOTORS  # a stepper's step limit, reached at its nominal rate
        self._hatch_due = NEVER  # the mechanism's own events: a hatch switch closes, the disc has mixed...
        self._disc_due = NEVER
        self._dice_due = NEVER
        self._push_due = [NEVER] * SEATS
        self._pushes_left = [0] * SEATS
        self._last_pulse = [0.0] * SEATS
        self._lift_due = [NEVER] * SEATS

    # -- what the MCU asks -----------------------------------------------------------------------------------

    @property
    def motors_on(self) -> bool:
        return any(self.motor)

    def _moving(self) -> bool:
        """A hatch, shuffle or lowering motion is under way (the firmware's ``moving()``)."""
        return bool(self.motor[Motor.HATCH] or self.motor[Motor.DISC]) or self.phase is Phase.LOWERING

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
        return min(self._hatch_due, self._disc_due, self._dice_due, *self._push_due, *self._jam_deadlines(),
                   *self._lift_due, *self._limit_due, *self._deadlines(), self.reset_due)  # fmt: skip

    def _deadlines(self) -> list[float]:
        return [limit if direction else NEVER for direction, limit in zip(self.motor, self._deadline, strict=True)]

    def _run(self, motor: int, direction: int, now: float, wall_tiles: int = 0) -> None:
        """Start a motor with its time limit (k × its motion's nominal time), and a stepper's step limit."""
        timings = self.timings
        if motor == Motor.HATCH:
            nominal = timings.hatch_s
        elif motor == Motor.DISC:
            nominal = timings.shuffle_s
        elif motor == Motor.DICE:
            nominal = timings.dice_s
        elif motor < Motor.LIFT0:  # a whole wall: an interval per stack and one for the start
            nominal = timings.stack_interval_s * ((wall_tiles + 1) // 2 + 1)
        else:
            nominal = timings.lift_s if direction > 0 else timings.lower_s
        self.motor[motor] = direction
        self._deadline[motor] = now + nominal * self.jam_factor
        if motor in _STEPPERS:
            self._limit_due[motor] = now + STEP_LIMIT_TRAVELS * nominal

    def _stop(self, motor: int) -> None:
        self.motor[motor] = 0
        self._limit_due[motor] = NEVER

    def _running_mask(self) -> int:
        mask = 0
        for motor, direction in enumerate(self.motor):
            if direction:
                mask |= 1 << _mechanism(motor)
        return mask

    def check_drivers(self) -> None:
        """A driver reporting a fault: OVERCURRENT for a mechanism whose motor runs, DRIVER_FAULT for one at rest;
        latched once (nothing to do while a fault is latched and every motor is off)."""
        running = self._running_mask()
        faults = self.faults.driver_mask(running)
        if not faults or (self.fault.kind is not FaultKind.NONE and not self.motors_on):
            return
        pick = faults & running or faults
        mechanism = Mechanism((pick & -pick).bit_length() - 1)
        self.stop_all(FaultKind.OVERCURRENT if faults & running else FaultKind.DRIVER_FAULT, mechanism)

    def _clear_fault(self) -> Result:
        """A latched fault is cleared only once its cause is gone: no driver at fault, no contradicting switches."""
        if self.fault.kind is FaultKind.NONE:
            return Result.OK
        if self.faults.driver_mask(0):
            return Result.DRIVER_FAULT
        sensors = int(self.sensors)
        hatch = Sensor.HATCH_OPEN | Sensor.HATCH_CLOSED
        if (sensors & hatch) == hatch or (sensors & ALL_LIFT_UP) & ((sensors & ALL_LIFT_DOWN) >> 4):
            return Result.SENSOR_CONFLICT
        self.fault = Fault()
        self._changed()
        return Result.OK

    def _jammed(self, mechanism: Mechanism, side: int = NO_SIDE) -> bool:
        return any(jam.mechanism is mechanism and (side == NO_SIDE or jam.side == side) for jam in self.faults.jams)

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
            return self._clear_fault()
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
        self.halt()
        self.reset_due = NEVER
        self.build_requested = False
        if self.phase is Phase.STACKING:
            self.mixed = True  # the tiles left on the disc are still mixed: BUILD_WALLS starts over at once
        if self.phase in _STABLE:
            self.phase = _STABLE[self.phase]
        if self.fault.kind is FaultKind.NONE:
            self.fault = Fault(kind, mechanism, side)
        self._changed()

    def halt(self) -> None:
        """Every output safe, nothing else (what a hard-fault handler does before the watchdog resets the MCU)."""
        self.motor = [0] * MOTORS
        self._limit_due = [NEVER] * MOTORS
        self._hatch_due = self._disc_due = self._dice_due = NEVER
        self._push_due = [NEVER] * SEATS
        self._lift_due = [NEVER] * SEATS

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
        if self._moving() or self.phase not in allowed:
            return Result.BUSY
        if message.open:
            self.hatch_returns_to = self.phase
        self.sensors &= ~(Sensor.HATCH_OPEN | Sensor.HATCH_CLOSED)
        self._enter(Phase.INTAKE_OPEN if message.open else self.hatch_returns_to, now)
        self._run(Motor.HATCH, 1 if message.open else -1, now)
        self._hatch_due = NEVER if self._jammed(Mechanism.HATCH) else now + self.timings.hatch_s
        return Result.OK

    def _shuffle(self, _message: Shuffle, now: float) -> Result:
        if self.phase is not Phase.IDLE or self._moving() or not self.sensors & Sensor.HATCH_CLOSED:
            return Result.BUSY
        if self.pending_wall_tiles is not None:  # the cycle boundary: a new tile count applies from here
            self.wall_tiles, self.pending_wall_tiles = self.pending_wall_tiles, None
        self.mixed = False
        self._enter(Phase.SHUFFLING, now)
        self._run(Motor.DISC, 1, now)
        mix = self.timings.shuffle_s * self.rng.uniform(0.9, 1.1)  # drawn for a dead index sensor too
        self._disc_due = NEVER if self._jammed(Mechanism.DISC) else now + mix
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
        if self.phase is not Phase.WALLS_READY or self._moving() or not self.sensors & Sensor.HATCH_CLOSED:
            return Result.BUSY
        self._enter(Phase.LIFTING, now)
        for side in range(SEATS):
            self.sensors &= ~Sensor.lift_down(side)
            self._run(Motor.lift(side), 1, now)
            travel = self.timings.lift_s * self.rng.uniform(0.95, 1.05)  # drawn for a jammed plate too
            self._lift_due[side] = NEVER if self._jammed(Mechanism.LIFT, side) else now + travel
        return Result.OK

    def _lower(self, _message: LowerPlatforms, now: float) -> Result:
        if self.phase is not Phase.LIFTED:
            return Result.BUSY
        self.sensors &= ~ALL_LIFT_UP
        self._enter(Phase.LOWERING, now)
        for side in range(SEATS):
            self._run(Motor.lift(side), -1, now)
            self._lift_due[side] = NEVER if self._jammed(Mechanism.LIFT, side) else now + self.timings.lower_s
        return Result.OK

    def _roll(self, _message: RollDice, now: float) -> Result:
        if self.motor[Motor.DICE]:
            return Result.BUSY
        self._run(Motor.DICE, 1, now)
        self._dice_due = NEVER if self._jammed(Mechanism.DICE) else now + self.timings.dice_s
        return Result.OK

    # -- time ------------------------------------------------------------------------------------------------

    def advance(self, now: float) -> None:
        """Apply everything due by ``now``, in time order, then look at the drivers' fault outputs (as the MCU does
        on every update)."""
        while (due := self.next_due()) <= now:
            self._step(due)
            self.check_drivers()
        self.check_drivers()

    def complete(self, now: float) -> float:
        """Run the motions under way to their end at once, from ``now`` (a table's past, replayed); returns when
        they ended. Nothing is pending after."""
        while (due := self.next_due()) < NEVER:
            self._step(due)
            now = due
        return now

    def _step(self, now: float) -> None:
        if now == self.reset_due:
            self.reset_due = NEVER
            raise RebootRequested
        if now == self._dice_due:
            self._dice_due = NEVER
            self._stop(Motor.DICE)
            self.dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
            self.dice_serial = (self.dice_serial + 1) % 256
        elif now == self._hatch_due:
            self._hatch_due = NEVER
            self.sensors |= Sensor.HATCH_OPEN if self.motor[Motor.HATCH] > 0 else Sensor.HATCH_CLOSED
            self._stop(Motor.HATCH)
        elif now == self._disc_due:
            self._disc_due = NEVER
            self._stop(Motor.DISC)
            self.mixed = True
            if self.build_requested:
                self._start_stacking(now)
        elif now in self._push_due:
            self._push(self._push_due.index(now), now)
        elif now in self._lift_due:
            self._plate_arrived(self._lift_due.index(now), now)
        elif now in self._limit_due:  # a stepper stopped at its step limit, its end switch never closed
            motor = self._limit_due.index(now)
            self.stop_all(FaultKind.OVERTRAVEL, _mechanism(motor), _side(motor))
        elif now in self._jam_deadlines():
            side = self._jam_deadlines().index(now)
            self.stop_all(FaultKind.JAM, Mechanism.STACKER, side)
        else:  # the first motor past its time limit
            motor = self._deadlines().index(now)
            kind = FaultKind.TRAVEL_TIMEOUT if motor in _STEPPERS else FaultKind.RUN_TIMEOUT
            self.stop_all(kind, _mechanism(motor), _side(motor))
        self._changed()

    def _plate_arrived(self, side: int, now: float) -> None:
        """A lift plate on its up switch (LIFTED once all four are) or its down switch (IDLE once all four are)."""
        self._lift_due[side] = NEVER
        up = self.motor[Motor.lift(side)] > 0
        self._stop(Motor.lift(side))
        self.sensors |= Sensor.lift_up(side) if up else Sensor.lift_down(side)
        if up and (self.sensors & ALL_LIFT_UP) == ALL_LIFT_UP:
            self._enter(Phase.LIFTED, now)
        elif not up and (self.sensors & ALL_LIFT_DOWN) == ALL_LIFT_DOWN:
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
            self._run(Motor.stacker(side), 1, now, self.wall_tiles[side])
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
        if not self._pushes_left[side]:
            self._stop(Motor.stacker(side))
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
