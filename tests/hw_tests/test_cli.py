"""``python -m hw_tests``: the suite's table, skips on a real port without --allow-motion or --allow-injection, a
technician's injections on a real table, and the soak JSON."""

import json
import os
import subprocess
import sys

import pytest

from firmware_bridge.config import BridgeConfig, LinkConfig
from firmware_bridge.messages import Mechanism
from firmware_bridge.table import Table
from hw_tests.cli import main
from hw_tests.faults import NO_FAULTS, FaultPlan, Jam
from hw_tests.simulator import McuSimulator
from hw_tests.suite import CHECKS, run_suite
from tests.paths import REPO

SAFETY = ("hatch switch never closes", "stepper step limit", "disc index never counts", "lowering switch never closes",
          "driver fault at rest", "over-current")  # fmt: skip


@pytest.mark.slow
def test_suite_against_the_simulator_passes(capsys):
    assert main(["--speed", "50", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:5] == ["check", "result", "time", "fault", "codes"]
    assert "stacker jam                   PASS" in out
    codes = ("JAM/STACKER/side1", "MCU_RESET", "HOST_SILENT", "TRAVEL_TIMEOUT/HATCH", "OVERTRAVEL/HATCH",
             "RUN_TIMEOUT/DISC", "TRAVEL_TIMEOUT/LIFT/side2", "DRIVER_FAULT/HATCH", "OVERCURRENT/DISC")  # fmt: skip
    for code in codes:
        assert code in out, code
    assert out.rstrip().endswith(f"{len(CHECKS)} passed, 0 failed, 0 skipped")


def test_the_safety_checks_pass_against_the_simulator(capsys):
    assert main(["--speed", "50", "--seed", "3", *(f"--check={name}" for name in SAFETY)]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(f"{len(SAFETY)} passed, 0 failed, 0 skipped"), out


def test_a_real_port_skips_motion_without_allow_motion(capsys):
    with McuSimulator(seed=4, speed=50) as sim:  # stands in for a table on a serial port
        assert main(["--port", sim.path, "--json"]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert sim.model.phase.name == "IDLE" and not sim.model.motors_on
    status = {row["name"]: row["status"] for row in rows}
    assert status["handshake"] == status["link round trip"] == status["dealer lamps"] == "PASS"
    assert status["full cycle"] == "SKIP" and status["stacker jam"] == "SKIP"
    details = {row["name"]: row["detail"] for row in rows}
    assert "--allow-motion" in details["full cycle"]
    assert "--allow-injection" in details["driver fault at rest"]
    assert "--allow-injection" in details["stalled main loop"]
    assert details["hard fault"].startswith("needs a simulated board")


def test_on_a_real_table_the_technician_makes_the_faults_when_asked():
    """--allow-injection on a real port: each fault is asked for by hand (here a simulator standing in for the table
    takes the technician's part), and the MCU's own watchdog test needs nobody."""
    asked: list[str] = []
    by_hand = {
        "unplug the hatch's open switch": FaultPlan(jams=(Jam(Mechanism.HATCH),)),
        "connect the hatch driver's nFAULT (PC4) to GND": FaultPlan(driver_faults=(Mechanism.HATCH,)),
    }
    with McuSimulator(seed=4, speed=50) as sim:

        def technician(text: str) -> None:
            asked.append(text)
            sim.inject(next((plan for start, plan in by_hand.items() if text.startswith(start)), NO_FAULTS))

        with Table.connect(BridgeConfig(link=LinkConfig(port=sim.path)), time_scale=0.05) as table:
            only = ("hatch switch never closes", "driver fault at rest", "stalled main loop", "hard fault")
            outcomes = run_suite(table, None, True, allow_injection=True, prompt=technician, only=only)
    status = {outcome.name: (outcome.status, outcome.detail) for outcome in outcomes}
    assert [name for name, (result, _) in status.items() if result == "PASS"] == list(only[:3]), status
    assert status["hard fault"][0] == "SKIP"
    assert len(asked) == 4 and asked[1].startswith("plug") and asked[3] == "remove the wire from PC4"


def test_a_missing_port_is_one_error_line(capsys):
    assert main(["--port", "/dev/does-not-exist"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: serial port '/dev/does-not-exist':") and "Traceback" not in err


def test_a_silent_port_is_one_error_line(capsys):
    master, slave = os.openpty()  # a device that never answers
    try:
        assert main(["--port", os.ttyname(slave)]) == 2
    finally:
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert err.startswith("error: MCU link down: no answer to IDENTIFY for 1.5 s") and "Traceback" not in err


def test_soak_prints_one_json_object():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "hw_tests", "soak", "--commands", "150", "--corrupt", "0.05", "--drop", "0.1"]
    done = subprocess.run([*command, "--seed", "2", "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert {"sent", "executed", "duplicates", "lost", "retransmits", "rtt_p50_ms", "rtt_p99_ms"} <= result.keys()
    assert (result["sent"], result["executed"], result["duplicates"], result["lost"]) == (150, 150, 0, 0)
    assert result["retransmits"] > 0 and result["rtt_p99_ms"] >= result["rtt_p50_ms"] > 0


def test_a_reader_gone_is_no_traceback_and_no_pass():
    """``python -m hw_tests soak --json | head -c 0``: the verdict cannot be written, so it is not a pass."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "hw_tests", "soak", "--commands", "20", "--json"]
    soaking = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    soaking.stdout.close()
    assert soaking.wait(timeout=120) == 1
    assert b"Traceback" not in soaking.stderr.read()


@pytest.mark.parametrize("bad", [["soak", "--corrupt", "2"], ["--speed", "fast"]])
def test_bad_arguments_are_usage_errors(bad, capsys):
    with pytest.raises(SystemExit) as exited:
        main(bad)
    assert exited.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_serve_runs_a_simulator_other_programs_open():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "hw_tests", "serve", "--speed", "50"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env) as server:
        path = server.stdout.readline().strip()
        assert path.startswith("/dev/pts/")
        with Table.connect(BridgeConfig(link=LinkConfig(port=path))) as table:
            assert table.identity.firmware == "mjtable-sim 1.0"
            assert table.roll_dice()
        server.stdin.close()
        assert server.wait(10) == 0
