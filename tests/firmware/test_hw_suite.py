"""The hardware suite, the link soak and the served port, run against the firmware's host board (C, a Linux
process) instead of the Python simulator: every check passes, fault checks included (the whole suite in the slow run;
the safety checks of issue 28, the watchdog and the hard fault, in the default one)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from firmware_bridge.config import BridgeConfig, LinkConfig
from firmware_bridge.table import Table
from hw_tests.cli import main
from hw_tests.firmware import EXEC
from hw_tests.harness import simulated_table
from hw_tests.soak import soak
from hw_tests.suite import CHECKS
from tests.paths import REPO

SAFETY = ("handshake", "hatch switch never closes", "stepper step limit", "disc index never counts",
          "lowering switch never closes", "driver fault at rest", "over-current", "stalled main loop",
          "hard fault")  # fmt: skip


@pytest.mark.slow
def test_the_whole_suite_passes_against_the_host_firmware(capsys):
    assert main(["--firmware", "host", "--speed", "50", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(f"{len(CHECKS)} passed, 0 failed, 0 skipped"), out
    assert "mjtable-fw 1.0, board FW-SIM-0001" in out  # the firmware answered, not the simulator
    for code in ("EMERGENCY_STOP", "JAM/STACKER/side1", "MISCOUNT/STACKER/side3", "TRAVEL_TIMEOUT/LIFT/side0",
                 "MCU_RESET", "HOST_SILENT"):  # fmt: skip
        assert code in out, code


def test_the_safety_checks_pass_against_the_host_firmware(capsys):
    assert main(["--firmware", "host", "--speed", "50", "--seed", "3", *(f"--check={name}" for name in SAFETY)]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(f"{len(SAFETY)} passed, 0 failed, 0 skipped"), out
    assert "mjtable-fw 1.0, board FW-SIM-0001" in out
    for code in ("TRAVEL_TIMEOUT/HATCH", "OVERTRAVEL/HATCH", "RUN_TIMEOUT/DISC", "TRAVEL_TIMEOUT/LIFT/side2",
                 "DRIVER_FAULT/HATCH", "OVERCURRENT/DISC", "MCU_RESET"):  # fmt: skip
        assert code in out, code


def test_the_soak_loses_and_repeats_nothing_on_a_noisy_line_to_the_firmware():
    result = soak(300, corrupt=0.05, drop=0.1, seed=2, firmware="host")
    assert (result["sent"], result["executed"], result["duplicates"], result["lost"]) == (300, 300, 0, 0)
    assert result["in_order"] and result["retransmits"] > 0 and result["naks"] > 0
    assert result["mcu"] == "firmware host"


def test_serve_runs_the_firmware_for_other_programs():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "hw_tests", "serve", "--firmware", "host", "--speed", "50"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env) as server:
        path = server.stdout.readline().strip()
        assert path.startswith("/dev/pts/")
        with Table.connect(BridgeConfig(link=LinkConfig(port=path))) as table:
            assert table.identity.firmware == "mjtable-fw 1.0"
            table.set_dealer(1, 0)
        server.stdin.close()
        assert server.wait(timeout=10) == 0


def test_what_the_firmware_ran_is_counted_after_its_acks_however_late_its_side_channel():
    """A command's EXEC comes back on the side channel, its ACK on the host link: the ACK may come first (a loaded
    soak once counted its last NOP lost). Here the side channel's reader dwells 0.3 s on every EXEC."""
    with simulated_table(seed=1, speed=50, firmware="host") as (mcu, table):
        decoder = mcu.channel._decoder
        feed = decoder.feed

        def late(data: bytes) -> list:
            frames = feed(data)
            if any(frame.type == EXEC for frame in frames):
                time.sleep(0.3)
            return frames

        decoder.feed = late
        for token in range(3):
            table.nop(token)
        assert mcu.tokens() == [0, 1, 2]
