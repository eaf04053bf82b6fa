"""Frames of the MCU link (PROTOCOL.md §2): ``7E LEN SEQ TYPE PAYLOAD CRC_HI CRC_LO``.

The CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, no xorout; check("123456789") =
0x29B1), computed by the stdlib ``binascii.crc_hqx`` at C speed over LEN..PAYLOAD. There is no byte stuffing:
the sync byte, the length range and the CRC together find frames, and the decoder resynchronises after garbage
by skipping one byte past a failed sync and searching again (the Klipper approach).
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass

from firmware_bridge.errors import ProtocolError

SYNC = 0x7E
MIN_LEN = 2  # SEQ + TYPE
MAX_LEN = 60  # so that a whole frame fits in 64 bytes
MAX_PAYLOAD = MAX_LEN - MIN_LEN
CRC_CHECK = 0x29B1


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data``."""
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True)
class Frame:
    """One decoded frame: its sequence byte, message type byte and payload."""

    seq: int
    type: int
    payload: bytes = b""

    def encode(self) -> bytes:
        """The frame's bytes on the wire; a ProtocolError names the field out of range."""
        for name, value in (("seq", self.seq), ("type", self.type)):
            if not 0 <= value <= 0xFF:
                raise ProtocolError(f"frame {name}: {value} is not a byte (0-255)")
        if len(self.payload) > MAX_PAYLOAD:
            raise ProtocolError(f"frame payload: {len(self.payload)} bytes, at most {MAX_PAYLOAD}")
        body = bytes((MIN_LEN + len(self.payload), self.seq, self.type)) + self.payload
        return bytes((SYNC,)) + body + crc16(body).to_bytes(2, "big")


@dataclass
class DecoderStats:
    """What the decoder threw away; a noisy line shows here first."""

    frames: int = 0
    crc_errors: int = 0
    bad_lengths: int = 0
    garbage_bytes: int = 0
    stale_partials: int = 0

    @property
    def broken_frames(self) -> int:
        """Frames that started but failed: each may have been one the peer is waiting for."""
        return self.crc_errors + self.bad_lengths + self.stale_partials


class FrameDecoder:
    """Turns a byte stream into frames; never raises on input, counts what it drops in ``stats``."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.stats = DecoderStats()

    def feed(self, data: bytes) -> list[Frame]:
        self._buf += data
        frames: list[Frame] = []
        buf = self._buf
        stats = self.stats
        while buf:
            start = buf.find(SYNC)
            if start < 0:
                stats.garbage_bytes += len(buf)
                buf.clear()
                break
            if start:
                stats.garbage_bytes += start
                del buf[:start]
            if len(buf) < 2:
                break
            length = buf[1]
            if not MIN_LEN <= length <= MAX_LEN:
                stats.bad_lengths += 1
                del buf[0]
                continue
            end = 2 + length
            if len(buf) < end + 2:
                break
            if crc16(bytes(buf[1:end])) != int.from_bytes(buf[end : end + 2], "big"):
                stats.crc_errors += 1
                del buf[0]
                continue
            frames.append(Frame(buf[2], buf[3], bytes(buf[4:end])))
            stats.frames += 1
            del buf[: end + 2]
        return frames

    def idle(self) -> list[Frame]:
        """The line went quiet: a partial frame still waiting for bytes had a corrupted length; resynchronise."""
        frames: list[Frame] = []
        while len(self._buf) >= 2:
            self.stats.stale_partials += 1
            del self._buf[0]
            frames += self.feed(b"")
        return frames

    @property
    def pending(self) -> int:
        """Bytes held back waiting for the rest of a frame."""
        return len(self._buf)
