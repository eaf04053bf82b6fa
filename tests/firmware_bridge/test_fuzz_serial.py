"""Fuzz the host side of the serial link with counts (issue 16; ``test_framing`` holds the hypothesis properties):
frames of every message type with a good CRC and random or mutated payloads (so that they reach the message
decoder), frames with the wrong length or an unknown type, frames with flipped bits, cut short or glued to garbage,
and plain random bytes. Fed to the ``FrameDecoder`` and ``decode`` each input is a message or is dropped (a counted
CRC or length failure, one ``ProtocolError``), never another exception; fed through a port to the ``Link``'s reader
thread, the reader survives all of them and still takes the next good snapshot. Bounded in time."""

from __future__ import annotations

import queue
import random
import threading
import time

import pytest

from firmware_bridge.config import LinkConfig, McuConfig
from firmware_bridge.errors import ProtocolError
from firmware_bridge.framing import MAX_PAYLOAD, SYNC, Frame, FrameDecoder, crc16
from firmware_bridge.link import Link
from firmware_bridge.messages import _REGISTRY, Message, Snapshot, _layout, decode

TYPES = sorted(_REGISTRY)


def _size(cls: type[Message]) -> int:
    return _layout(cls).struct.size


def _sample(cls: type[Message], rng: random.Random) -> bytes:
    """A payload ``cls`` decodes: random bytes of its size until one passes (enums refuse most bytes)."""
    for _ in range(500):
        payload = bytes(rng.randrange(256) for _ in range(_size(cls)))
        try:
            decode(Frame(0, int(cls.TYPE), payload))
        except ProtocolError:
            continue
        return payload
    return bytes(_size(cls))


def _wire(seq: int, kind: int, payload: bytes) -> bytes:
    """A frame with its CRC right, whatever the payload (up to the longest a frame holds)."""
    body = bytes((2 + len(payload), seq, kind)) + payload
    return bytes((SYNC,)) + body + crc16(body).to_bytes(2, "big")


def one_input(rng: random.Random, samples: dict[int, bytes]) -> bytes:
    """One input: a frame that reaches ``decode`` (55 %), a damaged frame (30 %), or garbage."""
    kind = rng.choice(TYPES)
    payload = bytearray(samples[kind])
    roll = rng.random()
    if roll < 0.1:  # a valid message
        return _wire(rng.randrange(256), kind, bytes(payload))
    if roll < 0.55:  # the CRC right, the content not
        choice = rng.random()
        if choice < 0.4 and payload:
            for _ in range(rng.randint(1, 3)):
                payload[rng.randrange(len(payload))] = rng.randrange(256)
        elif choice < 0.6:
            payload = bytearray(rng.randrange(256) for _ in range(rng.randrange(MAX_PAYLOAD + 1)))
        elif choice < 0.8:
            kind = rng.randrange(256)
        else:
            payload = payload[: rng.randrange(len(payload) + 1)] if rng.random() < 0.5 else payload + b"\0"
        return _wire(rng.randrange(256), kind, bytes(payload))
    wire = bytearray(_wire(rng.randrange(256), kind, bytes(payload)))
    if roll < 0.7:
        for _ in range(rng.randint(1, 4)):
            bit = rng.randrange(8 * len(wire))
            wire[bit // 8] ^= 1 << (bit % 8)
    elif roll < 0.8:
        wire = wire[: rng.randrange(len(wire))]
    elif roll < 0.85:
        wire = bytearray(bytes((SYNC, rng.randrange(256)))) + wire
    else:
        return bytes(rng.choice([rng.randrange(256), SYNC]) for _ in range(rng.randrange(1, 120)))
    return bytes(wire)


def inputs(count: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    samples = {kind: _sample(_REGISTRY[kind], rng) for kind in TYPES}
    return [one_input(rng, samples) for _ in range(count)]


def decoder_fuzz(items: list[bytes]) -> dict[str, int]:
    """Each input, then an idle line (``idle``), through one decoder: a message, or dropped / refused."""
    decoder = FrameDecoder()
    counts = {"inputs": 0, "answered": 0, "refused": 0}
    started = time.monotonic()
    for data in items:
        frames = decoder.feed(data) + decoder.idle()
        decoded = 0
        for frame in frames:
            try:
                message = decode(frame)
            except ProtocolError as error:
                assert "\n" not in str(error) and len(str(error)) < 500, str(error)[:600]
                continue
            assert isinstance(message, Message)
            decoded += 1
        counts["inputs"] += 1
        counts["answered" if decoded else "refused"] += 1
        assert decoder.pending < 2, "an idle line leaves no partial frame behind"
    good = Snapshot.unpack(inputs_snapshot()).frame(5)
    assert decoder.feed(good.encode()) == [good], "the decoder resynchronises after all of it"
    assert time.monotonic() - started < 30, "a hang guard, not a speed measure"
    return counts


def inputs_snapshot() -> bytes:
    return _sample(Snapshot, random.Random(0))


class FeedPort:
    """A serial port whose reads give the test's chunks; an empty read is the line idle."""

    def __init__(self) -> None:
        self.chunks: queue.Queue[bytes] = queue.Queue()
        self.written: list[bytes] = []

    @property
    def in_waiting(self) -> int:
        return 0

    def read(self, size: int = 1) -> bytes:
        try:
            return self.chunks.get(timeout=0.01)
        except queue.Empty:
            return b""

    def write(self, data: bytes) -> int:
        self.written.append(data)
        return len(data)

    def close(self) -> None:
        pass


def link_fuzz(items: list[bytes]) -> dict[str, int]:
    """The inputs through the ``Link``'s own reader thread; it is still reading afterwards. Counts: the frames it
    found (good CRC), of which it dispatched (``answered``, the last good snapshot not counted) or dropped with a
    ``ProtocolError`` (``refused``), and the broken frames (CRC, length, partial) its decoder skipped."""
    port = FeedPort()
    link = Link(port, LinkConfig(), McuConfig())
    reader = threading.Thread(target=link._read_loop, name="fuzz-reader", daemon=True)
    reader.start()
    started = time.monotonic()
    try:
        for data in items:
            port.chunks.put(data)
            port.chunks.put(b"")
        deadline = time.monotonic() + 60
        while not port.chunks.empty() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert port.chunks.empty() and reader.is_alive(), "the reader stopped on an input"
        good = Snapshot.unpack(inputs_snapshot())
        port.chunks.put(good.frame(9).encode())
        assert link.wait_snapshot(lambda snapshot: snapshot == good, 5.0) == good, "the reader took no good frame"
    finally:
        link._stop.set()
        reader.join(5)
    assert not reader.is_alive()
    assert time.monotonic() - started < 90, "a hang guard, not a speed measure"
    frames, bad = link.decoder_stats.frames, link.stats.bad_messages
    return {"inputs": len(items), "frames": frames, "answered": frames - bad - 1, "refused": bad,
            "broken_frames": link.decoder_stats.broken_frames}  # fmt: skip


def test_mutated_frames_are_decoded_or_dropped_never_raised():
    counts = decoder_fuzz(inputs(1500, 1))
    assert counts["answered"] > 100 and counts["refused"] > 500, counts
    print(f"\nfuzz serial decoder: {counts}")


def test_the_link_reader_survives_mutated_frames():
    counts = link_fuzz(inputs(300, 2))
    assert counts["answered"] > 30 and counts["refused"] > 30 and counts["broken_frames"] > 30, counts
    print(f"\nfuzz serial link reader: {counts}")


@pytest.mark.slow
def test_ten_thousand_mutated_frames_through_the_decoder_and_the_link_reader(capsys):
    items = inputs(10_000, 3)
    decoded = decoder_fuzz(items)
    read = link_fuzz(items)
    assert decoded["inputs"] == read["inputs"] == 10_000
    with capsys.disabled():
        print(f"\nfuzz serial decoder (slow): {decoded}\nfuzz serial link reader (slow): {read}")
