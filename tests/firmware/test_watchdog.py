"""The host-silence watchdog seen from outside: the Pi side, a process of its own, is frozen (SIGSTOP) while the
disc turns; the firmware stops its motors and latches HOST_SILENT within 1.1 s (PROTOCOL.md §3: 1000 ms)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from firmware_bridge.config import BridgeConfig, LinkConfig
from firmware_bridge.messages import FaultKind, Phase, StateFlag
from firmware_bridge.table import Table
from hw_tests.firmware import LAUNCHERS, FirmwareMcu
from tests.paths import REPO

# The Pi side: connect, start an 8 s shuffle without waiting for it, say so, then live on (heartbeats) until frozen.
PI_SIDE = """
import sys, time
from firmware_bridge.config import BridgeConfig, LinkConfig
from firmware_bridge.messages import Shuffle
from firmware_bridge.table import Table
table = Table.connect(BridgeConfig(link=LinkConfig(port=sys.argv[1])))
table.link.command(Shuffle())
print("moving", flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("board", sorted(LAUNCHERS))
def test_a_frozen_host_is_noticed_within_1_1_s(board):
    with FirmwareMcu(board, speed=1.0) as mcu:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        pi = subprocess.Popen([sys.executable, "-c", PI_SIDE, mcu.path], stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert pi.stdout.readline().strip() == "moving"
            os.kill(pi.pid, signal.SIGSTOP)
            frozen = time.monotonic()
            while not mcu.channel.watchdog_at and time.monotonic() - frozen < 3:
                time.sleep(0.01)
            assert mcu.channel.watchdog_at, "the firmware kept its motors running with a frozen host"
            noticed = mcu.channel.watchdog_at[0] - frozen
        finally:
            pi.kill()
            pi.wait()
        # On the MCU's clock: the host silent for the 1 s timeout, noticed within 0.1 s more. The freeze came after
        # the last frame, so the freeze is noticed sooner still. Seen from here: at least the timeout less one
        # heartbeat period (0.25 s); at most 1.1 s plus what a loaded machine adds to QEMU and to this loop (a
        # machine running 14 processes on 2 cores saw more than 1.5 s: the MCU's clock is the firmware's check).
        (silence,) = mcu.watchdog_silences
        assert 1.0 <= silence <= 1.1, f"HOST_SILENT after {silence:.3f} s of silence on the MCU's clock"
        assert 0.7 < noticed <= 2.0, f"HOST_SILENT {noticed:.3f} s after the host froze"
        with Table.connect(BridgeConfig(link=LinkConfig(port=mcu.path))) as table:
            state = table.state
            assert state.fault is FaultKind.HOST_SILENT and state.phase is Phase.IDLE
            assert not state.flags & StateFlag.MOTORS_ON
