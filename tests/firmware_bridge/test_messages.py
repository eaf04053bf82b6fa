"""Messages: every catalogue entry round-trips through bytes and dicts; bad payloads name the field."""

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.errors import ProtocolError
from firmware_bridge.framing import Frame
from firmware_bridge.messages import (
    Capability,
    Configure,
    FaultKind,
    Identity,
    Lamp,
    LampPattern,
    Mechanism,
    MsgType,
    Nop,
    Phase,
    ResetReason,
    Sensor,
    Snapshot,
    StateFlag,
    decode,
)

byte = st.integers(0, 255)
snapshots = st.builds(
    Snapshot,
    st.sampled_from(Phase),
    st.builds(StateFlag, st.integers(0, 31)),
    st.builds(Sensor, st.integers(0, 0xFFFF)),
    st.tuples(byte, byte, byte, byte),
    st.tuples(byte, byte, byte, byte),
    st.sampled_from(FaultKind),
    st.sampled_from(Mechanism),
    st.sampled_from([0, 1, 2, 3, 0xFF]),
    st.tuples(st.integers(1, 6), st.integers(1, 6)),
    byte,
    st.integers(0, 1),
    byte,
    st.integers(0, 0xFFFF),
    st.integers(0, 2**32 - 1),
)
identities = st.builds(
    Identity,
    st.integers(0, 0xFFFF),
    byte,
    byte,
    st.text("abc-. 0123456789", max_size=16),
    st.text("ABC0123456789", max_size=12),
    st.builds(Capability, st.integers(0, 63)),
    st.sampled_from(ResetReason),
    st.booleans(),
    st.integers(0, 2**32 - 1),
    byte,
)


@given(st.one_of(snapshots, identities))
def test_round_trip_bytes_and_dict(message):
    assert decode(message.frame()) == message
    assert type(message).from_dict(message.to_dict()) == message


def test_configure_checksum_covers_the_fields():
    good = Configure.build((34, 34, 34, 34), 30, 1000, 200)
    assert good.checksum == good.expected_checksum()
    changed = Configure((34, 34, 34, 32), 30, 1000, 200, good.checksum)
    assert changed.checksum != changed.expected_checksum()


@pytest.mark.parametrize(
    ("frame", "words"),
    [
        (Frame(0, 0x7F, b""), "0x7F is not in the catalogue"),
        (Frame(0, MsgType.LAMP, b"\x01"), "LAMP: payload of 1 bytes, expected 4"),
        (Frame(0, MsgType.LAMP, b"\x01\x09\x00\x00"), "LAMP.pattern: 9 is not a LampPattern"),
    ],
)
def test_bad_payloads_name_the_problem(frame, words):
    with pytest.raises(ProtocolError, match=words):
        decode(frame)


@given(byte, st.binary(max_size=60))
def test_decoding_random_payloads_never_crashes(kind, payload):
    with contextlib.suppress(ProtocolError):
        decode(Frame(0, kind, payload))


def test_from_dict_names_missing_and_bad_fields():
    with pytest.raises(ProtocolError, match="LAMP: field 'period_ms' is missing"):
        Lamp.from_dict({"lamp": 1, "pattern": "BLINK"})
    with pytest.raises(ProtocolError, match=r"LAMP\.pattern: unknown LampPattern 'FLASH'"):
        Lamp.from_dict({"lamp": 1, "pattern": "FLASH", "period_ms": 500})
    with pytest.raises(ProtocolError, match="LAMP: a field does not fit"):
        Lamp.from_dict({"lamp": 1, "pattern": "BLINK", "period_ms": 70000})
    assert Lamp.from_dict({"lamp": 4, "pattern": "BLINK", "period_ms": 500}) == Lamp(4, LampPattern.BLINK, 500)


def test_fault_code_reads_for_a_technician():
    base = dict(
        phase=Phase.IDLE, flags=StateFlag(0), sensors=Sensor(0), counts=(0,) * 4, targets=(34,) * 4,
        dice=(1, 1), dice_serial=0, built_set=0, last_seq=0, serial=0, config_checksum=0,
    )  # fmt: skip
    assert Snapshot(fault=FaultKind.JAM, fault_mechanism=Mechanism.STACKER, fault_side=2, **base).fault_code == (
        "JAM/STACKER/side2"
    )
    assert Snapshot(fault=FaultKind.HOST_SILENT, fault_mechanism=Mechanism.NONE, fault_side=255, **base).fault_code == (
        "HOST_SILENT"
    )
    assert Snapshot(fault=FaultKind.NONE, fault_mechanism=Mechanism.NONE, fault_side=255, **base).fault_code == ""


def test_bad_values_fail_where_the_message_is_made():
    with pytest.raises(ProtocolError, match=r"LAMP\.pattern: 9 is not a LampPattern"):
        Lamp(1, 9, 100)
    with pytest.raises(ProtocolError, match="NOP: a field does not fit its wire format"):
        Nop(70000)
    assert Lamp(1, 2, 100).pattern is LampPattern.BLINK  # a plain int of a member becomes the member


def test_every_fault_the_mcu_can_latch_has_a_hint_for_the_technician():
    """A new fault code needs its hint (controller/display/hints.py): the display shows it with the code."""
    from controller.display.hints import hint

    for kind in FaultKind:
        if kind is not FaultKind.NONE:
            for code in (kind.name, f"{kind.name}/HATCH", f"{kind.name}/LIFT/side1"):
                assert not hint(code).startswith("unknown fault"), code
    assert "hatch" in hint("TRAVEL_TIMEOUT/HATCH") and "side 2" in hint("OVERTRAVEL/LIFT/side2")
