"""The message catalogue of PROTOCOL.md §4: one frozen dataclass per message, packed with ``struct``.

Each field carries its ``struct`` code in the dataclass metadata, so the layout on the wire, the Python type and
the dict form are written once. Enums travel as their byte value and come back as the enum; an unknown value is
a ProtocolError naming the message and the field.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field, fields
from enum import Enum, IntEnum, IntFlag
from functools import cache
from typing import Any, ClassVar, Self, get_type_hints

from firmware_bridge.errors import ProtocolError
from firmware_bridge.framing import MAX_PAYLOAD, Frame

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 1  # 1.1: faults RUN_TIMEOUT, OVERTRAVEL, DRIVER_FAULT; results DRIVER_FAULT, SENSOR_CONFLICT
NO_SIDE = 0xFF
SEATS = 4
WIND_LAMP = 4  # lamp index of the round-wind lamp, after the four seat lamps


class MsgType(IntEnum):
    IDENTIFY = 0x01
    PING = 0x02
    EMERGENCY_STOP = 0x03
    STATUS_REQUEST = 0x04
    CONFIGURE = 0x10
    CLEAR_FAULT = 0x11
    HATCH = 0x12
    SHUFFLE = 0x13
    BUILD_WALLS = 0x14
    LIFT_WALLS = 0x15
    LOWER_PLATFORMS = 0x16
    ROLL_DICE = 0x17
    LAMP = 0x18
    DEALER = 0x19
    DIAGNOSTIC = 0x1A
    NOP = 0x1B
    ACK = 0x80
    NAK = 0x81
    IDENTITY = 0x82
    SNAPSHOT = 0x83


class Phase(IntEnum):
    IDLE = 0
    INTAKE_OPEN = 1
    SHUFFLING = 2
    STACKING = 3
    WALLS_READY = 4
    LIFTING = 5
    LIFTED = 6
    LOWERING = 7


class Result(IntEnum):
    OK = 0
    BUSY = 1  # not allowed in the current phase
    FAULTED = 2  # a fault is latched: CLEAR_FAULT first
    UNCONFIGURED = 3
    BAD_ARGUMENT = 4
    DIAGNOSTIC = 5  # motion is refused in diagnostic mode
    BAD_CHECKSUM = 6
    UNKNOWN_COMMAND = 7
    DRIVER_FAULT = 8  # CLEAR_FAULT refused: a motor driver still reports a fault
    SENSOR_CONFLICT = 9  # CLEAR_FAULT refused: end switches that exclude each other are both closed


class NakReason(IntEnum):
    OUT_OF_ORDER = 0  # a sequence number other than the expected one or the last executed one
    CORRUPT = 1  # bytes that failed the CRC or the length check
    UNSYNCED = 2  # no IDENTIFY since the MCU started: handshake first


class FaultKind(IntEnum):
    NONE = 0
    JAM = 1
    MISCOUNT = 2
    OVERCURRENT = 3
    TRAVEL_TIMEOUT = 4
    MCU_RESET = 5
    HOST_SILENT = 6
    EMERGENCY_STOP = 7
    RUN_TIMEOUT = 8  # the disc, the dice or a whole wall ran past its time limit
    OVERTRAVEL = 9  # a stepper's move reached the board's step limit with its end switch open
    DRIVER_FAULT = 10  # a motor driver reports a fault while its motors are off


DIAG_WATCHDOG = 15  # DIAGNOSTIC test 15 stops the MCU's main loop: its watchdog must reset it


class Mechanism(IntEnum):
    NONE = 0
    HATCH = 1
    DISC = 2
    RING = 3
    STACKER = 4
    FEEDER = 5
    LIFT = 6
    DICE = 7


class ResetReason(IntEnum):
    NONE = 0
    POWER_ON = 1
    WATCHDOG = 2
    BROWN_OUT = 3
    SOFTWARE = 4
    RESET_PIN = 5


class LampPattern(IntEnum):
    OFF = 0
    STEADY = 1
    BLINK = 2  # on for half the period, off for the other half


class Capability(IntFlag):
    TWO_SETS = 1
    DICE = 2
    LAMPS = 4
    DIAGNOSTIC = 8
    TILE_COUNT = 16
    JAM_DETECT = 32


class StateFlag(IntFlag):
    CONFIGURED = 1
    DIAGNOSTIC = 2
    MOTORS_ON = 4
    MIXED = 8  # the shuffle disc has mixed the tiles: BUILD_WALLS starts stacking at once
    MODE_PENDING = 16  # a new tile-count configuration waits for the next cycle


class Sensor(IntFlag):
    """Bit positions of the snapshot's sensor word: limit switches per side, hatch, belt, counter, seat keys."""

    LIFT_UP_0 = 1 << 0
    LIFT_UP_1 = 1 << 1
    LIFT_UP_2 = 1 << 2
    LIFT_UP_3 = 1 << 3
    LIFT_DOWN_0 = 1 << 4
    LIFT_DOWN_1 = 1 << 5
    LIFT_DOWN_2 = 1 << 6
    LIFT_DOWN_3 = 1 << 7
    HATCH_OPEN = 1 << 8
    HATCH_CLOSED = 1 << 9
    BELT_FULL = 1 << 10
    COUNTER = 1 << 11
    KEY_0 = 1 << 12
    KEY_1 = 1 << 13
    KEY_2 = 1 << 14
    KEY_3 = 1 << 15

    @classmethod
    def lift_up(cls, side: int) -> Sensor:
        return cls(1 << side)

    @classmethod
    def lift_down(cls, side: int) -> Sensor:
        return cls(1 << (4 + side))


ALL_LIFT_UP = Sensor(0x000F)
ALL_LIFT_DOWN = Sensor(0x00F0)


def _f(code: str) -> Any:
    return field(metadata={"fmt": code})


class Message:
    """Base of every message: ``TYPE`` is its type byte, ``SEQUENCED`` whether the MCU orders and deduplicates it."""

    TYPE: ClassVar[MsgType]
    SEQUENCED: ClassVar[bool] = True

    def __post_init__(self) -> None:
        """Check every field now, so a bad value fails where it was made, never on the wire or at the MCU."""
        for name, _code, kind in _layout(type(self)).fields:
            object.__setattr__(self, name, _convert(type(self), name, kind, getattr(self, name)))
        self.pack()

    def pack(self) -> bytes:
        layout = _layout(type(self))
        values: list[Any] = []
        for name, code, _ in layout.fields:
            value = getattr(self, name)
            if code.endswith("s"):
                value = value.encode("ascii", "replace")
            if isinstance(value, tuple):
                values += value
            else:
                values.append(int(value) if isinstance(value, Enum) else value)
        try:
            return layout.struct.pack(*values)
        except struct.error as exc:
            raise ProtocolError(f"{self.TYPE.name}: a field does not fit its wire format ({exc}): {self!r}") from None

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        layout = _layout(cls)
        if len(payload) != layout.struct.size:
            raise ProtocolError(f"{cls.TYPE.name}: payload of {len(payload)} bytes, expected {layout.struct.size}")
        raw = list(layout.struct.unpack(payload))
        kwargs: dict[str, Any] = {}
        for name, code, kind in layout.fields:
            count = int(code[:-1]) if code[:-1].isdigit() and not code.endswith("s") else 1
            chunk, raw = raw[:count], raw[count:]
            kwargs[name] = _convert(cls, name, kind, tuple(chunk) if count > 1 else chunk[0])
        return cls(**kwargs)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE.name}
        for item in fields(self):  # type: ignore[arg-type]
            value = getattr(self, item.name)
            if isinstance(value, IntFlag):
                value = int(value)
            elif isinstance(value, Enum):
                value = value.name
            out[item.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Build a message from its dict form; a ProtocolError names the missing or bad field."""
        layout = _layout(cls)
        kwargs: dict[str, Any] = {}
        for name, _code, kind in layout.fields:
            if name not in data:
                raise ProtocolError(f"{cls.TYPE.name}: field {name!r} is missing")
            value = data[name]
            if isinstance(kind, type) and issubclass(kind, Enum) and isinstance(value, str):
                try:
                    value = kind[value]
                except KeyError:
                    raise ProtocolError(f"{cls.TYPE.name}.{name}: unknown {kind.__name__} {value!r}") from None
            kwargs[name] = _convert(cls, name, kind, tuple(value) if isinstance(value, list) else value)
        message = cls(**kwargs)
        message.pack()  # range check now, not on the wire
        return message

    def frame(self, seq: int = 0) -> Frame:
        return Frame(seq, int(self.TYPE), self.pack())


@dataclass(frozen=True)
class _Layout:
    struct: struct.Struct
    fields: tuple[tuple[str, str, Any], ...]


@cache
def _layout(cls: type[Message]) -> _Layout:
    hints = get_type_hints(cls)
    items = tuple((item.name, item.metadata["fmt"], hints[item.name]) for item in fields(cls))  # type: ignore[arg-type]
    layout = _Layout(struct.Struct(">" + "".join(code for _, code, _ in items)), items)
    if layout.struct.size > MAX_PAYLOAD:
        raise AssertionError(f"{cls.__name__} does not fit a frame")
    return layout


def _convert(cls: type[Message], name: str, kind: Any, value: Any) -> Any:
    where = f"{cls.TYPE.name}.{name}"
    if isinstance(kind, type) and issubclass(kind, Enum):
        try:
            return kind(value)
        except (ValueError, TypeError):
            raise ProtocolError(f"{where}: {value!r} is not a {kind.__name__}") from None
    if kind is str:
        if isinstance(value, bytes):
            return value.rstrip(b"\0").decode("ascii", "replace")
        if not isinstance(value, str):
            raise ProtocolError(f"{where}: expected text, got {value!r}")
        return value
    if kind is bool:
        return bool(value)
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ProtocolError(f"{where}: expected an integer, got {value!r}")
    if isinstance(value, tuple) and not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ProtocolError(f"{where}: expected integers, got {value!r}")
    return value


_REGISTRY: dict[int, type[Message]] = {}


def message(kind: MsgType, *, sequenced: bool = True) -> Any:
    """Class decorator: a frozen dataclass registered under its type byte."""

    def register(cls: type[Message]) -> type[Message]:
        cls = dataclass(frozen=True)(cls)
        cls.TYPE = kind
        cls.SEQUENCED = sequenced
        _REGISTRY[int(kind)] = cls
        return cls

    return register


def message_class(type_byte: int) -> type[Message] | None:
    """The catalogue entry of a type byte, or None."""
    return _REGISTRY.get(type_byte)


def decode(frame: Frame) -> Message:
    """The message a frame carries; a ProtocolError names the unknown type or the bad field."""
    try:
        cls = _REGISTRY[frame.type]
    except KeyError:
        raise ProtocolError(f"frame type 0x{frame.type:02X} is not in the catalogue (seq {frame.seq})") from None
    return cls.unpack(frame.payload)


# -- host → MCU ------------------------------------------------------------------------------------------------


@message(MsgType.IDENTIFY, sequenced=False)
class Identify(Message):
    """Start of the handshake: the MCU answers IDENTITY with the sequence number it expects next (1 after a boot).

    ``nonce`` (1-65535) comes back in the answer, so an IDENTITY sent unasked at boot (nonce 0) is never taken
    for the answer.
    """

    protocol_major: int = _f("B")
    nonce: int = _f("H")


@message(MsgType.PING, sequenced=False)
class Ping(Message):
    """Heartbeat: keeps the MCU's host-silence watchdog fed when no command is due."""


@message(MsgType.EMERGENCY_STOP, sequenced=False)
class EmergencyStop(Message):
    """Stop every motor now, ahead of anything queued; latches EMERGENCY_STOP. Idempotent."""


@message(MsgType.STATUS_REQUEST, sequenced=False)
class StatusRequest(Message):
    """Ask for a SNAPSHOT now."""


@message(MsgType.CONFIGURE)
class Configure(Message):
    """The table configuration; ``checksum`` is the CRC-32 of the bytes of the fields before it."""

    wall_tiles: tuple[int, int, int, int] = _f("4B")
    jam_factor_tenths: int = _f("B")
    host_timeout_ms: int = _f("H")
    snapshot_ms: int = _f("H")
    checksum: int = _f("I")

    @classmethod
    def build(cls, wall_tiles: tuple[int, ...], jam_factor_tenths: int, host_timeout_ms: int, snapshot_ms: int) -> Self:
        draft = cls(tuple(wall_tiles), jam_factor_tenths, host_timeout_ms, snapshot_ms, 0)  # type: ignore[arg-type]
        return cls(draft.wall_tiles, jam_factor_tenths, host_timeout_ms, snapshot_ms, draft.expected_checksum())

    def expected_checksum(self) -> int:
        return zlib.crc32(self.pack()[:-4])


@message(MsgType.CLEAR_FAULT)
class ClearFault(Message):
    """Clear the latched fault (and an emergency stop); refused (DRIVER_FAULT, SENSOR_CONFLICT) while its cause
    is still there."""


@message(MsgType.HATCH)
class Hatch(Message):
    """Raise (open) or lower (close) the centre hatch that takes the used tiles in."""

    open: bool = _f("?")


@message(MsgType.SHUFFLE)
class Shuffle(Message):
    """Mix the tiles on the disc; the MIXED flag rises when done."""


@message(MsgType.BUILD_WALLS)
class BuildWalls(Message):
    """Stack the walls of the other set under the table (four sides side by side)."""


@message(MsgType.LIFT_WALLS)
class LiftWalls(Message):
    """Raise the four platforms with the built walls to the tabletop."""


@message(MsgType.LOWER_PLATFORMS)
class LowerPlatforms(Message):
    """Lower the empty platforms to receive the next build."""


@message(MsgType.ROLL_DICE)
class RollDice(Message):
    """Spin the dice under the dome; the values arrive in the snapshot with a new dice serial."""


@message(MsgType.LAMP)
class Lamp(Message):
    """One lamp (seat 0-3, or 4 = round wind) steady, blinking with ``period_ms``, or off."""

    lamp: int = _f("B")
    pattern: LampPattern = _f("B")
    period_ms: int = _f("H")


@message(MsgType.DEALER)
class Dealer(Message):
    """Dealer indicator state: the dealer seat's lamp and the round wind (0-3 = 东南西北)."""

    seat: int = _f("B")
    round_wind: int = _f("B")


@message(MsgType.DIAGNOSTIC)
class Diagnostic(Message):
    """Enter diagnostic test ``test`` (1-15, shown in binary on the seat lamps), or leave it with 0."""

    test: int = _f("B")


@message(MsgType.NOP)
class Nop(Message):
    """Does nothing but is executed in order: the link tests count these tokens."""

    token: int = _f("H")


# -- MCU → host ------------------------------------------------------------------------------------------------


@message(MsgType.ACK, sequenced=False)
class Ack(Message):
    """Answer to a sequenced command (frame seq = the command's) or to EMERGENCY_STOP (seq 0)."""

    command: MsgType = _f("B")
    result: Result = _f("B")


@message(MsgType.NAK, sequenced=False)
class Nak(Message):
    """The MCU wants ``expected`` next (0 = handshake first)."""

    expected: int = _f("B")
    reason: NakReason = _f("B")


@message(MsgType.IDENTITY, sequenced=False)
class Identity(Message):
    """Answer to IDENTIFY (its nonce), and sent unasked at boot (nonce 0) with the reset reason."""

    nonce: int = _f("H")
    protocol_major: int = _f("B")
    protocol_minor: int = _f("B")
    firmware: str = _f("16s")
    board_id: str = _f("12s")
    capabilities: Capability = _f("H")
    reset_reason: ResetReason = _f("B")
    configured: bool = _f("?")
    config_checksum: int = _f("I")
    next_seq: int = _f("B")


@message(MsgType.SNAPSHOT, sequenced=False)
class Snapshot(Message):
    """The MCU's whole state, periodically and on every change, so a lost frame is healed by the next."""

    phase: Phase = _f("B")
    flags: StateFlag = _f("B")
    sensors: Sensor = _f("H")
    counts: tuple[int, int, int, int] = _f("4B")
    targets: tuple[int, int, int, int] = _f("4B")
    fault: FaultKind = _f("B")
    fault_mechanism: Mechanism = _f("B")
    fault_side: int = _f("B")
    dice: tuple[int, int] = _f("2B")
    dice_serial: int = _f("B")
    built_set: int = _f("B")
    last_seq: int = _f("B")
    serial: int = _f("H")
    config_checksum: int = _f("I")

    @property
    def fault_code(self) -> str:
        """A code a technician can read: ``JAM/STACKER/side2``, ``HOST_SILENT``, or ``""`` when none."""
        if self.fault is FaultKind.NONE:
            return ""
        parts = [self.fault.name]
        if self.fault_mechanism is not Mechanism.NONE:
            parts.append(self.fault_mechanism.name)
        if self.fault_side != NO_SIDE:
            parts.append(f"side{self.fault_side}")
        return "/".join(parts)
