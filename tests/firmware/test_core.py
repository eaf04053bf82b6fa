"""The firmware core's C unit tests and the frame reader's fuzz run, built by make and run from here.

``make -C firmware test`` builds the core with a fake hardware layer under AddressSanitizer and
UndefinedBehaviorSanitizer and runs its checks (the golden frames of PROTOCOL.md §2, the reader's resync, the link
rules of §3, the table's faults); ``make -C firmware fuzz`` feeds the frame reader random and mutated bytes. The
fuzz stream is also replayed through ``firmware_bridge.framing.FrameDecoder``: the C reader and the Python one must
find the same frames and count the same broken ones.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from firmware_bridge.framing import FrameDecoder
from hw_tests.firmware import FIRMWARE_DIR

FNV_OFFSET, FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3


def make(*targets: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE_DIR), *targets], capture_output=True, text=True, timeout=timeout
    )


def fuzz(count: int, seed: int, dump: str = "") -> dict[str, str]:
    done = make("fuzz", f"FUZZ_BYTES={count}", f"FUZZ_SEED={seed}", f"FUZZ_DUMP={dump}", timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    line = done.stdout.strip().splitlines()[-1]
    words = line.split()
    return dict(zip(words[::2], words[1::2], strict=True))


def test_the_core_passes_its_unit_tests():
    done = make("test")
    assert done.returncode == 0, done.stdout + done.stderr
    summary = re.search(r"(\d+) passed, (\d+) failed", done.stdout)
    assert summary is not None, done.stdout
    assert int(summary[1]) >= 60 and summary[2] == "0"


def python_reading(stream: bytes, quiet_at: list[int]) -> dict[str, int]:
    """The Python decoder over the same bytes, quiet at the same places: counts and the frames' digest."""
    decoder, digest, frames, start = FrameDecoder(), FNV_OFFSET, [], 0
    for end in [*quiet_at, len(stream)]:
        frames += decoder.feed(stream[start:end])
        if end != len(stream):
            frames += decoder.idle()
        start = end
    for frame in frames:
        for byte in bytes((frame.seq, frame.type, len(frame.payload))) + frame.payload:
            digest = ((digest ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    stats = decoder.stats
    return {"frames": len(frames), "crc_errors": stats.crc_errors, "bad_lengths": stats.bad_lengths,
            "garbage_bytes": stats.garbage_bytes, "stale_partials": stats.stale_partials, "digest": digest}  # fmt: skip


def test_the_frame_reader_survives_random_bytes_and_reads_as_the_python_one(tmp_path):
    dump = tmp_path / "stream"
    result = fuzz(200_000, 1, str(dump))
    assert int(result["bytes"]) >= 200_000 and int(result["guaranteed"]) > 100
    stream = (tmp_path / "stream.bin").read_bytes()
    quiet_at = [int(line) for line in (tmp_path / "stream.idle").read_text().split()]
    assert len(stream) == int(result["bytes"])
    python = python_reading(stream, quiet_at)
    assert python["frames"] > 1000
    for key in ("frames", "crc_errors", "bad_lengths", "garbage_bytes", "stale_partials"):
        assert python[key] == int(result[key]), key
    assert python["digest"] == int(result["digest"], 16)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_ten_million_bytes_under_the_sanitizers(seed):
    result = fuzz(10_000_000, seed)
    assert int(result["bytes"]) >= 10_000_000
    assert int(result["frames"]) > 50_000 and int(result["guaranteed"]) > 5000
