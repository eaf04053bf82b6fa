"""What ``mjtable fleet`` takes from the broker (issue 16): a bad retained state froze the fleet on every restart; now
it is refused with the field named, the page shows that table's problem, and the fleet goes on. A broker that cannot
be reached is said at once and tried again until it comes."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from controller.config import MqttSection
from controller.fleet.parlor import Fleet
from controller.fleet.statecheck import read_availability, read_state
from engine.errors import MjtableError
from tests.controller.fleet_harness import Broker, Listener, free_port

GOOD = {
    "version": 12,
    "hand": 0,
    "scores": [0, 0, 0, 0],
    "fault": None,
    "verdicts": [],
    "rules": "mcr",
    "dealer": 2,
    "round_wind": "E",
    "wall_remaining": 35,
    "phase": "over",
    "win": {"drawn": False, "wins": [{"seat": 1, "score": {"total": 14}}]},
}


def test_a_table_s_real_state_and_one_before_its_first_hand_are_read_as_sent():
    fresh = {"version": 0, "hand": None, "scores": [0, 0, 0, 0], "fault": None, "verdicts": []}
    for state in (GOOD, fresh):
        assert read_state(json.dumps(state).encode()) == state
    assert read_availability(b"online") == "online"


@pytest.mark.parametrize(
    ("payload", "named"),
    [
        (b'{"version": ' + b"9" * 4301 + b"}", "state: not JSON"),
        (b"[1, 2]", "state: expected a JSON object, got list"),
        (json.dumps({**GOOD, "scores": [1, 2]}).encode(), "state.scores: expected four numbers"),
        (json.dumps({**GOOD, "scores": [1, 2, 3, float("nan")]}).encode(), "not finite"),
        (json.dumps({**GOOD, "win": {"drawn": False, "wins": 3}}).encode(), "state.win: expected"),
        (json.dumps({**GOOD, "win": {"drawn": False, "wins": [{"seat": 9}]}}).encode(), "state.win.wins[0]"),
        (json.dumps({**GOOD, "dealer": True}).encode(), "state.dealer: expected an integer 0-3"),
        (json.dumps({**GOOD, "round_wind": "X" * 10_000}).encode(), "state.round_wind: expected one of E, S, W, N"),
        (json.dumps({**GOOD, "fault": "jammed"}).encode(), "state.fault"),
        (b"[" * 100_000, "state: "),
        (b"\xff", "state: not JSON (the bytes are not UTF-8 text)"),
    ],
)
def test_a_state_that_would_break_the_page_is_refused_with_the_field_named(payload, named):
    with pytest.raises(MjtableError) as refused:
        read_state(payload)
    assert named in str(refused.value) and len(str(refused.value)) < 200


def _tables(fleet: Fleet, wanted, timeout: float = 15.0) -> dict:
    deadline = time.monotonic() + timeout
    while not wanted(tables := fleet.tables()):
        assert time.monotonic() < deadline, tables
        time.sleep(0.02)
    return tables


def test_a_bad_retained_state_is_flagged_on_every_start_and_the_fleet_goes_on(tmp_path, caplog):
    with Broker(tmp_path) as broker:
        writer = Listener(broker)
        section = MqttSection(url=broker.url)
        good = {**GOOD, "version": 13}
        try:
            writer.wait_for(lambda: writer.connected, what="the writer's connection")
            for table, payload in (
                ("t1", b'{"id":"b","version":' + b"9" * 4301 + b"}"),
                ("t2", json.dumps(GOOD).encode()),
                ("t3", json.dumps({**GOOD, "win": {"drawn": False, "wins": "x"}}).encode()),
            ):
                writer.client.publish(f"mjtable/{table}/state", payload, qos=1, retain=True).wait_for_publish(5)
                writer.client.publish(f"mjtable/{table}/availability", "online", qos=1, retain=True).wait_for_publish(5)
            for _ in range(2):  # a restart hears the same retained messages
                fleet = Fleet(section, broker.url, client_id=f"fleet-{_}")
                fleet.start()
                try:
                    tables = _tables(
                        fleet, lambda t: len(t) == 3 and all(v["availability"] == "online" for v in t.values())
                    )
                    assert tables["t2"] == {"availability": "online", "state": GOOD, "problem": None}
                    assert tables["t1"]["state"] is None and tables["t1"]["problem"].startswith("state: not JSON")
                    assert tables["t3"]["state"] is None and tables["t3"]["problem"].startswith("state.win: expected")
                    writer.client.publish("mjtable/t1/state", json.dumps(good), qos=1, retain=True).wait_for_publish(5)
                    tables = _tables(fleet, lambda t: t["t1"]["state"] == good)  # the fleet still hears
                    assert tables["t1"]["problem"] is None
                    json.dumps(tables, allow_nan=False)  # what the page gets is JSON for the browser
                finally:
                    fleet.close()
                writer.client.publish("mjtable/t1/state", b"[", qos=1, retain=True).wait_for_publish(5)
            writer.client.publish("mjtable/t3/state", b"", qos=1, retain=True).wait_for_publish(5)  # cleared away
            writer.client.publish("mjtable/t3/availability", b"", qos=1, retain=True).wait_for_publish(5)
            fleet = Fleet(section, broker.url, client_id="fleet-last")
            fleet.start()
            try:
                assert sorted(_tables(fleet, lambda t: "t1" in t and "t2" in t)) == ["t1", "t2"]
            finally:
                fleet.close()
        finally:
            writer.close()
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.load(answer)


def test_fleet_with_no_broker_listening_says_so_and_follows_it_once_it_comes(tmp_path):
    broker = Broker(tmp_path)  # its port chosen, nothing listening yet
    http = f"127.0.0.1:{free_port()}"
    log = tmp_path / "fleet.log"
    command = [sys.executable, "-m", "controller.cli", "fleet", "--mqtt", broker.url, "--http", http]
    fleet = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log.open("wb"))
    try:
        assert fleet.stdout is not None
        assert json.loads(fleet.stdout.readline())["fleet"] == f"http://{http}"
        said = f"fleet: cannot reach the broker {broker.url} (Connection refused); trying again every few seconds"
        deadline = time.monotonic() + 15
        while said not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        away = _get(f"http://{http}/api/broker")
        assert away == {"url": broker.url, "connected": False, "error": "Connection refused"}
        broker.start()
        deadline = time.monotonic() + 20
        while not _get(f"http://{http}/api/broker")["connected"]:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        assert f"fleet: connected to {broker.url}" in log.read_text()
        assert log.read_text().count("cannot reach") == 1  # once per outage, not once per try
        fleet.send_signal(signal.SIGTERM)
        assert fleet.wait(10) == 0
    finally:
        if fleet.poll() is None:
            fleet.kill()
            fleet.wait(10)
        if fleet.stdout is not None:
            fleet.stdout.close()
        broker.stop()
    assert "Traceback" not in log.read_text()
