"""``mjtable run --firmware BOARD``: the simulated table's MCU is a build of firmware/ (C) in place of the Python
simulator, and the hands come out the same for the same seed (the firmware's mechanism draws the dice as the
simulator does)."""

from __future__ import annotations

import io
import json

import pytest

from controller.cli import build_parser, main
from controller.config import Config, ServiceSection
from controller.errors import ConfigError
from firmware_bridge.config import BridgeConfig, LinkConfig
from hw_tests import firmware


def test_an_unknown_board_is_refused_naming_the_key():
    with pytest.raises(ConfigError, match=r"^service\.firmware: expected \"\" \(the Python simulator\) or host, qemu"):
        ServiceSection(firmware="pico")


def test_a_firmware_build_needs_the_simulated_table():
    with pytest.raises(ConfigError, match=r"^service\.firmware: 'qemu' runs a firmware build .*\(/dev/ttyAMA0\)$"):
        Config(ServiceSection(firmware="qemu"), bridge=BridgeConfig(link=LinkConfig(port="/dev/ttyAMA0")))


def test_the_flag_offers_the_launchers_boards(capsys):
    assert build_parser().parse_args(["run", "--firmware", "qemu"]).firmware == "qemu"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--firmware", "pico"])
    assert "invalid choice: 'pico' (choose from 'host', 'qemu')" in capsys.readouterr().err


def _run(tmp_path, name: str, *extra: str) -> list[dict]:
    out = io.StringIO()
    argv = ["run", "--hands", "2", "--seed", "7", "--http", "off", "--json", "--state", str(tmp_path / name)]
    assert main([*argv, *extra], stdout=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.slow
def test_two_hands_on_the_qemu_build_play_as_on_the_simulator(tmp_path, monkeypatch):
    started = []

    def launch_qemu(board_id: str) -> firmware.Launched:
        started.append(board_id)
        return firmware.launch_qemu(board_id)

    monkeypatch.setitem(firmware.LAUNCHERS, "qemu", launch_qemu)
    on_qemu = _run(tmp_path, "qemu", "--firmware", "qemu")
    on_simulator = _run(tmp_path, "simulator")
    assert len(started) == 1, "the run did not start QEMU"
    assert [line.get("hand") for line in on_qemu] == [0, 1, None]
    assert on_qemu == on_simulator
