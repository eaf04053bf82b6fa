"""``mjtable run`` under systemd (issue 7), with the test in systemd's place: it binds the notify socket, sets
``NOTIFY_SOCKET`` and ``WATCHDOG_USEC``, runs the service on a simulated table it holds (the MCU simulator on a
pty, as a real port), hears READY and the watchdog pings, sees the pings stop while the MCU link is down and come
back, then sends SIGTERM and checks the stop: emergency stop at the MCU, every lamp out, ``offline`` retained on
the broker, the serial port closed."""

from __future__ import annotations

import configparser
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from controller.cli import build_parser
from controller.config import Config
from controller.ops.daemon import TableDaemon
from controller.ops.sdnotify import Notifier
from controller.ops.watchdog import Heartbeat, health
from controller.service.shutdown import Terminated
from firmware_bridge.messages import LampPattern
from hw_tests.faults import QUIET, Noise
from hw_tests.simulator import McuSimulator
from tests.controller.fleet_harness import Broker, Listener, payloads

REPO = Path(__file__).resolve().parents[2]
WATCHDOG_USEC = 400_000  # pings every 0.2 s


class FakeSystemd:
    """The notify socket: every datagram with the time it came."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.1)
        self.heard: list[tuple[float, dict[str, str]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="fake-systemd")
        self._thread.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            fields = dict(line.split("=", 1) for line in data.decode().splitlines())
            self.heard.append((time.monotonic(), fields))

    def pings_since(self, since: float) -> int:
        return sum(1 for at, fields in list(self.heard) if at >= since and fields.get("WATCHDOG") == "1")

    def wait_for(self, key: str, value: str | None = None, timeout: float = 20.0) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for at, fields in list(self.heard):
                if key in fields and (value is None or fields[key] == value):
                    return at
            time.sleep(0.02)
        raise AssertionError(f"systemd never heard {key}={value}; heard {[f for _, f in self.heard][-5:]}")

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


def test_the_notifier_speaks_the_protocol_and_is_silent_without_systemd(tmp_path):
    systemd = FakeSystemd(tmp_path / "notify")
    try:
        notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "3000000"})
        assert notifier.watchdog_s == 3.0
        notifier.ready("playing")
        notifier.watchdog()
        systemd.wait_for("WATCHDOG")
        assert [fields for _, fields in systemd.heard] == [{"READY": "1", "STATUS": "playing"}, {"WATCHDOG": "1"}]
    finally:
        systemd.close()
    quiet = Notifier({})
    assert not quiet.enabled and quiet.watchdog_s is None
    quiet.ready("no one listens")  # nothing to send to, nothing raised
    assert Notifier({"WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"}).watchdog_s is None  # meant for another process


class _Link:
    """What ``health`` reads of the bridge's link: up or not, and the fault the last snapshot shows."""

    def __init__(self, up: bool, fault: str = "") -> None:
        self.is_up = up
        self.snapshot = SimpleNamespace(fault_code=fault)


def test_health_needs_the_mcu_link_up_and_a_loop_that_moved_unless_it_waits_for_the_technician():
    now = [0.0]
    heartbeat = Heartbeat(lambda: now[0])
    assert health(_Link(True), heartbeat, 120.0) == ""
    assert health(_Link(False), heartbeat, 120.0) == "the MCU link is down"
    now[0] = 121.0
    assert health(_Link(True), heartbeat, 120.0) == "the control loop has not moved for 121 s"
    assert health(_Link(True, "JAM/STACKER/side2"), heartbeat, 120.0) == ""  # idle on purpose, fault shown
    assert health(_Link(False, "JAM/STACKER/side2"), heartbeat, 120.0) == "the MCU link is down"
    heartbeat.beat()
    assert health(_Link(True), heartbeat, 120.0) == ""


def test_the_unit_is_a_notify_service_with_a_watchdog_restarted_on_failure():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(REPO / "deploy" / "mjtable.service")
    service = unit["Service"]
    assert service["Type"] == "notify" and service["Restart"] == "on-failure"
    assert int(service["WatchdogSec"].rstrip("s")) > 2 * 0.25  # longer than the link's longest retransmission
    started = build_parser().parse_args(service["ExecStart"].split()[1:])
    # journald keeps every state change for the technician (-v); the file is the parlor's, not the defaults
    assert started.command == "run" and started.verbose == 1 and started.config == Path("/etc/mjtable/mjtable.toml")
    assert {"dialout", "gpio"} <= set(service["SupplementaryGroups"].split())
    rule = (REPO / "deploy" / "99-mjtable.rules").read_text()
    assert 'SYMLINK+="mjtable-mcu"' in rule


def test_sigterm_in_the_service_s_own_process_puts_the_pi_s_lamps_out_and_closes_the_serial_port(tmp_path):
    """The parts of the stop only the process itself can see: its GPIO lamps (mock pins here) and its port."""
    config = Config().with_service(http="off", speed=1000.0, state_dir=str(tmp_path / "state"))
    lines: list[dict] = []
    daemon = TableDaemon(config, lines.append)
    before: dict[str, list] = {}

    def terminate_once_a_hand_is_dealt() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            service = daemon._service
            if service is not None and service._hand is not None and service._hand.referee is not None:
                before["lamps"] = list(service.cycle.side.panel.lamps.patterns)
                break
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGTERM)

    killer = threading.Thread(target=terminate_once_a_hand_is_dealt)
    killer.start()
    with pytest.raises(Terminated):
        daemon.run()  # in the main thread, where the SIGTERM handler lives
    killer.join()
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handler is put back
    assert LampPattern.STEADY in before["lamps"], "a dealer lamp was lit before the stop"
    side = daemon._service.cycle.side
    assert all(pattern is LampPattern.OFF for pattern in side.panel.lamps.patterns)
    assert not side.table.link._port.is_open  # the serial port (the simulator's pty) is closed


@pytest.mark.slow
def test_under_systemd_ready_pings_only_while_healthy_and_sigterm_stops_the_table_safely(tmp_path):
    systemd = FakeSystemd(tmp_path / "notify")
    with McuSimulator(seed=3, speed=200) as sim, Broker(tmp_path) as broker:
        config = tmp_path / "mjtable.toml"
        config.write_text(
            f'[service]\nspeed = 20.0\nthink_s = 2.0\nstate_dir = "{tmp_path / "state"}"\n[http]\nlisten = "off"\n'
            f'[bridge.link]\nport = "{sim.path}"\n[mqtt]\nurl = "{broker.url}"\ntable_id = "pi1"\n'
        )
        listener = Listener(broker)
        env = {**os.environ, "NOTIFY_SOCKET": str(systemd.path), "WATCHDOG_USEC": str(WATCHDOG_USEC)}
        log = (tmp_path / "service.log").open("wb")
        # -v as the systemd unit runs it: the shutdown steps are INFO lines
        command = [sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--json", "-v"]
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=log)
        try:
            ready = systemd.wait_for("READY", "1")
            # READY comes once the table answered; then the bots play with the motors at rest
            listener.wait_for(
                lambda: any(s.get("phase") in ("act", "draw") for s in payloads(listener, "mjtable/pi1/state")),
                timeout=30,
                what="a hand in play",
            )
            healthy = time.monotonic()
            time.sleep(1.0)
            assert systemd.pings_since(healthy) >= 3, "pinged while healthy"
            assert ready < healthy
            lit = [lamp for lamp, (pattern, _) in sim.model.lamps.items() if pattern is not LampPattern.OFF]
            assert lit, "the dealer lamp is on while a hand is played"

            sim.set_noise(Noise(drop=1.0))  # the MCU falls silent: the bridge declares the link down
            systemd.wait_for("STATUS", "the MCU link is down", timeout=10)
            quiet = time.monotonic()
            time.sleep(0.8)
            assert systemd.pings_since(quiet) == 0, "pinged while the MCU link was down"
            sim.set_noise(QUIET)
            back = systemd.wait_for("STATUS", "playing", timeout=10)
            time.sleep(0.6)
            assert systemd.pings_since(back) >= 2, "no pings after the link came back"

            process.send_signal(signal.SIGTERM)
            assert process.wait(20) == 0
            stopping = systemd.wait_for("STOPPING", "1")
            assert stopping > back
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(10)
            log.close()
            systemd.close()
        listener.wait_for(lambda: listener.on("mjtable/pi1/availability")[-1:] == [b"offline"], what="offline")
        listener.close()
        assert sim.estop_at is not None, "no emergency stop reached the MCU"
        assert all(pattern is LampPattern.OFF for pattern, _ in sim.model.lamps.values())
        assert process.stdout is not None
        last = json.loads(process.stdout.read().decode().splitlines()[-1])
        process.stdout.close()
        assert last["stopped"].startswith("terminated")
        text = (tmp_path / "service.log").read_text()
        order = ["emergency stop confirmed", "shutdown: lamps off", "serial port released"]
        positions = [text.index(phrase) for phrase in order]
        assert positions == sorted(positions), text[-2000:]
