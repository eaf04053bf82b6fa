"""The simulator's MCU rules, spoken to frame by frame over its pty (PROTOCOL.md §3)."""

import time

import pytest
import serial

from firmware_bridge.framing import Frame, FrameDecoder
from firmware_bridge.messages import (
    Ack,
    BuildWalls,
    Configure,
    EmergencyStop,
    Hatch,
    Identify,
    Identity,
    LiftWalls,
    MsgType,
    Nak,
    NakReason,
    Nop,
    Phase,
    ResetReason,
    Result,
    Sensor,
    Shuffle,
    Snapshot,
    decode,
)
from hw_tests.faults import Noise
from hw_tests.simulator import McuSimulator


class Wire:
    """The host end of the pty, by hand."""

    def __init__(self, path: str) -> None:
        self.port = serial.Serial(path, 115200, timeout=0.01)
        self.decoder = FrameDecoder()

    def send(self, message, seq=0):
        self.port.write(message.frame(seq).encode())

    def send_raw(self, data: bytes):
        self.port.write(data)

    def expect(self, kind, timeout=1.0, where=lambda seq, m: True):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in self.decoder.feed(self.port.read(256)):
                message = decode(frame)
                if isinstance(message, kind) and where(frame.seq, message):
                    return frame.seq, message
        raise AssertionError(f"no {kind.__name__} within {timeout} s")


@pytest.fixture
def sim():
    with McuSimulator(seed=1, speed=20) as made:
        yield made


@pytest.fixture
def wire(sim):
    made = Wire(sim.path)
    yield made
    made.port.close()


def handshake(wire):
    wire.send(Identify(1, 77))
    return wire.expect(Identity, where=lambda seq, m: m.nonce == 77)[1]


def test_a_fresh_mcu_is_unsynced_until_identify(sim, wire):
    wire.send(Nop(1), seq=1)
    _, nak = wire.expect(Nak)
    assert nak == Nak(0, NakReason.UNSYNCED)
    assert sim.tokens() == []
    identity = handshake(wire)
    assert identity.reset_reason is ResetReason.POWER_ON and not identity.configured and identity.next_seq == 1


def test_duplicate_is_acked_again_but_not_run(sim, wire):
    assert handshake(wire).next_seq == 1
    for _ in range(3):
        wire.send(Nop(5), seq=1)
        assert wire.expect(Ack, where=lambda seq, m: seq == 1)[1] == Ack(MsgType.NOP, Result.OK)
    assert sim.tokens() == [5] and sim.duplicates_dropped == 2


def test_out_of_order_is_refused_with_the_expected_number(sim, wire):
    handshake(wire)
    wire.send(Nop(1), seq=1)
    wire.expect(Ack)
    wire.send(Nop(3), seq=3)
    assert wire.expect(Nak)[1] == Nak(2, NakReason.OUT_OF_ORDER)
    assert sim.tokens() == [1]
    assert handshake(wire).next_seq == 2  # a new handshake continues the numbering


def test_garbage_is_answered_with_one_nak_and_resynced(sim, wire):
    handshake(wire)
    frame = bytearray(Nop(9).frame(1).encode())
    frame[-1] ^= 0x55
    wire.send_raw(b"\x7e\x05garbage" + bytes(frame))
    assert wire.expect(Nak, where=lambda seq, m: m.reason is NakReason.CORRUPT)[1].expected == 1
    wire.send(Nop(9), seq=1)
    wire.expect(Ack)
    assert sim.tokens() == [9]


def test_unconfigured_mcu_refuses_motion(sim, wire):
    handshake(wire)
    wire.send(Shuffle(), seq=1)
    assert wire.expect(Ack)[1] == Ack(MsgType.SHUFFLE, Result.UNCONFIGURED)


def test_emergency_stop_is_acknowledged_with_seq_zero_even_unsynced(sim, wire):
    wire.send(EmergencyStop())
    seq, ack = wire.expect(Ack)
    assert seq == 0 and ack == Ack(MsgType.EMERGENCY_STOP, Result.OK)
    assert sim.estop_at is not None


def test_snapshots_are_periodic(sim, wire):
    serials = set()
    deadline = time.monotonic() + 0.7
    while time.monotonic() < deadline:
        _, snapshot = wire.expect(Snapshot)
        serials.add(snapshot.serial)
    assert len(serials) >= 3  # the default period is 0.2 s before configuration


def test_reset_sends_a_boot_identity_and_forgets_the_sequence(sim, wire):
    handshake(wire)
    sim.reset(ResetReason.SOFTWARE)
    _, boot = wire.expect(Identity, where=lambda seq, m: m.nonce == 0)
    assert boot.reset_reason is ResetReason.SOFTWARE
    wire.send(Nop(1), seq=1)
    assert wire.expect(Nak)[1].reason is NakReason.UNSYNCED


def test_noise_is_reproducible_from_the_seed():
    def corrupted(seed):
        made = McuSimulator(seed=seed, noise=Noise(corrupt=0.3))  # not started: nothing else draws from its RNG
        try:
            return made._corrupt(bytes(range(64)))
        finally:
            made.close()

    assert corrupted(3) == corrupted(3)
    assert corrupted(3) != corrupted(4)
    assert corrupted(3) != bytes(range(64))


def test_seat_keys_show_in_the_sensor_word(sim, wire):
    sim.press_key(2)
    wire.expect(Snapshot, where=lambda seq, m: bool(m.sensors & Sensor.KEY_2))
    sim.press_key(2, held=False)
    wire.expect(Snapshot, where=lambda seq, m: not m.sensors & Sensor.KEY_2)


def test_a_bad_payload_with_a_good_crc_is_refused_in_turn(sim, wire):
    handshake(wire)
    wire.send_raw(Frame(1, MsgType.LAMP, b"\x01\x09\x00\x64").encode())  # pattern 9 does not exist
    assert wire.expect(Ack)[1] == Ack(MsgType.LAMP, Result.BAD_ARGUMENT)
    wire.send(Nop(4), seq=2)
    assert wire.expect(Ack, where=lambda seq, m: seq == 2)[1] == Ack(MsgType.NOP, Result.OK)
    assert sim.tokens() == [4]


def test_on_the_wire_the_hatch_opens_above_built_walls_and_a_lift_waits_for_it_to_shut():
    """PROTOCOL.md §4, the two-set cycle: HATCH open is OK in WALLS_READY, LIFT_WALLS answers BUSY until the hatch
    is closed again, closing returns to WALLS_READY with the same set and counts."""
    with McuSimulator(seed=2, speed=200) as sim:
        wire = Wire(sim.path)

        def result(seq, message):
            wire.send(message, seq=seq)
            return wire.expect(Ack, where=lambda got, m: got == seq)[1]

        def reached(phase, sensor, timeout=1.0):
            return wire.expect(Snapshot, timeout, lambda _, m: m.phase is phase and bool(m.sensors & sensor))[1]

        try:
            handshake(wire)
            for seq, message in enumerate([Configure.build((34,) * 4, 30, 1000, 50), Shuffle(), BuildWalls()], 1):
                assert result(seq, message).result is Result.OK
            ready = reached(Phase.WALLS_READY, Sensor.HATCH_CLOSED, 3.0)
            assert result(4, Hatch(True)) == Ack(MsgType.HATCH, Result.OK)
            reached(Phase.INTAKE_OPEN, Sensor.HATCH_OPEN)
            assert result(5, LiftWalls()) == Ack(MsgType.LIFT_WALLS, Result.BUSY)
            assert result(6, Hatch(False)) == Ack(MsgType.HATCH, Result.OK)
            closed = reached(Phase.WALLS_READY, Sensor.HATCH_CLOSED)
            assert (closed.built_set, closed.counts) == (ready.built_set, ready.counts) == (1, (34,) * 4)
            assert result(7, LiftWalls()) == Ack(MsgType.LIFT_WALLS, Result.OK)
            reached(Phase.LIFTED, Sensor.LIFT_UP_0)
        finally:
            wire.port.close()
