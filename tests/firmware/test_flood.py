"""Floods of the host link (issue 28): 3 s of 7E 3C (a sync byte and LEN 60, so a 61-byte CRC every two bytes) and
then 1 MB of random bytes, written by another process straight into the firmware's port as fast as it reads them,
while the disc turns and the host's own frames are cut. The firmware must keep its main loop running: snapshots no
more than 0.3 s apart and HOST_SILENT latched on time, both on the firmware's own clock (the side channel reports
them), on the host board and in QEMU. Before the byte budget the host board sent no snapshot for the whole flood and
latched HOST_SILENT only after it."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from firmware_bridge.messages import FaultKind, Shuffle, StateFlag
from hw_tests.flood import SnapshotTimes, until_quiet
from hw_tests.harness import simulated_table

WRITER = """
import os, random, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_NOCTTY)
end, chunk = time.monotonic() + float(sys.argv[2]), bytes((0x7E, 0x3C)) * 2048
sent = 0
while time.monotonic() < end:
    sent += os.write(fd, chunk)
rng, left = random.Random(1), int(sys.argv[3])
while left > 0:
    data = rng.randbytes(min(4096, left))
    while data:
        done = os.write(fd, data)
        data, left, sent = data[done:], left - done, sent + done
print(sent)
"""


@pytest.mark.slow
@pytest.mark.parametrize("board", ["host", "qemu"])
def test_a_flooded_line_leaves_the_main_loop_running(board):
    with simulated_table(seed=1, speed=1.0, firmware=board) as (mcu, table):
        link = table.link
        timeout_s = link.configuration.host_timeout_ms / 1000
        link.command(Shuffle())  # an 8 s mix: the disc turns through the flood until HOST_SILENT stops it
        assert link.wait_snapshot(lambda s: bool(s.flags & StateFlag.MOTORS_ON), 2.0)
        times = SnapshotTimes(link)
        mcu.gaps(reset=True)
        mcu.silence_host(60)  # the host's own frames (heartbeats) no longer reach it: only the flood does
        start = time.monotonic()
        writer = subprocess.run(
            [sys.executable, "-c", WRITER, mcu._launched.link_path, "3", str(1 << 20)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        end = time.monotonic()
        assert writer.returncode == 0, writer.stderr
        snapshot_gap, poll_gap = mcu.gaps()
        mcu.silence_host(0)
        until_quiet(link)
        silences = mcu.watchdog_silences
        arrival_gap = times.max_gap(start, end)
        times.close()
        state = table.state
    sent = int(writer.stdout)
    print(
        f"{board}: {sent} bytes in {end - start:.1f} s; on the firmware's clock snapshots at most "
        f"{snapshot_gap:.3f} s apart, polls {poll_gap * 1000:.0f} ms, HOST_SILENT after "
        f"{silences[0] if silences else None} s of silence; on arrival at most {arrival_gap:.2f} s apart"
    )
    assert sent >= 1 << 20
    assert snapshot_gap < 0.3, f"snapshots {snapshot_gap:.3f} s apart on the firmware's clock"
    assert len(silences) == 1 and timeout_s <= silences[0] < timeout_s + 0.15, silences
    assert state is not None and state.fault is FaultKind.HOST_SILENT and not state.flags & StateFlag.MOTORS_ON
    # On arrival the gap adds the host's threads and QEMU's, which share two cores with the flood's writer: 1.24 s was
    # seen on a loaded CI machine while the firmware's own clock kept them 0.3 s apart (the bound above is the loop's).
    assert arrival_gap < 2.0, f"snapshots arrived {arrival_gap:.2f} s apart"
