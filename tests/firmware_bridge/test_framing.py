"""Frames: the CRC variant and its check value, golden bytes, round trips, and resync after any garbage."""

import binascii

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.framing import CRC_CHECK, MAX_PAYLOAD, SYNC, Frame, FrameDecoder, crc16
from firmware_bridge.messages import Ack, MsgType, Nop, Ping, Result

frames = st.builds(Frame, st.integers(0, 255), st.integers(0, 255), st.binary(max_size=MAX_PAYLOAD))


def test_crc_is_ccitt_false_with_the_documented_check_value():
    assert crc16(b"123456789") == CRC_CHECK == 0x29B1
    assert crc16(b"") == 0xFFFF


def test_golden_frames_match_the_spec():
    assert Ping().frame().encode().hex(" ").upper() == "7E 02 00 02 82 BE"
    assert Nop(0x1234).frame(1).encode().hex(" ").upper() == "7E 04 01 1B 12 34 4E EA"
    assert Ack(MsgType.NOP, Result.OK).frame(1).encode().hex(" ").upper() == "7E 04 01 80 1B 00 0A 6D"


@given(st.lists(frames, max_size=8))
def test_round_trip(items):
    assert FrameDecoder().feed(b"".join(frame.encode() for frame in items)) == items


@given(st.lists(frames, min_size=1, max_size=5), st.data())
def test_split_at_any_offset(items, data):
    wire = b"".join(frame.encode() for frame in items)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=6)))
    decoder = FrameDecoder()
    got = []
    for start, end in zip([0, *cuts], [*cuts, len(wire)], strict=True):
        got += decoder.feed(wire[start:end])
    assert got == items


@given(st.binary(max_size=300))
def test_random_bytes_never_raise(noise):
    decoder = FrameDecoder()
    decoder.feed(noise)
    decoder.idle()


@given(st.binary(max_size=200), frames)
def test_resync_after_garbage(garbage, frame):
    """Whatever came before, a clean frame after an idle gap is found."""
    decoder = FrameDecoder()
    decoder.feed(garbage)
    decoder.idle()
    assert decoder.feed(frame.encode())[-1:] == [frame]


@given(frames, st.data())
def test_any_single_bit_flip_is_detected(frame, data):
    wire = bytearray(frame.encode())
    bit = data.draw(st.integers(0, 8 * len(wire) - 1))
    wire[bit // 8] ^= 1 << (bit % 8)
    decoder = FrameDecoder()
    assert frame not in decoder.feed(bytes(wire)) + decoder.idle()


def test_corrupted_length_does_not_swallow_the_next_frame_after_idle():
    first, second = Nop(1).frame(1).encode(), Nop(2).frame(2).encode()
    broken = bytes((SYNC, 60)) + first[2:]
    decoder = FrameDecoder()
    assert decoder.feed(broken) == []
    assert decoder.idle() == []
    assert decoder.feed(second) == [Frame(2, MsgType.NOP, b"\x00\x02")]
    assert decoder.stats.stale_partials >= 1


def test_stats_count_what_was_dropped():
    decoder = FrameDecoder()
    wire = bytearray(Ping().frame().encode())
    wire[-1] ^= 0xFF
    decoder.feed(b"\x00\x01" + bytes(wire))
    assert decoder.stats.garbage_bytes >= 2
    assert decoder.stats.crc_errors == 1
    assert binascii.crc_hqx(b"123456789", 0xFFFF) == CRC_CHECK
