"""The fleet link against a real Mosquitto broker on loopback (issue 7): availability and the last will, retained
state equal to ``/api/state``, events, commands with replies, a broker restart, and refusals (ACL, token)."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from controller.config import MqttSection
from controller.fleet.mqtt_link import MqttLink, answer_command
from engine.errors import MjtableError
from tests.controller.fleet_harness import TOKEN, Broker, Listener, Table, free_port, payloads, table_config


def _command(listener: Listener, table: str, **request) -> dict:
    """Send one command and wait for the reply with its id."""
    listener.publish(f"mjtable/{table}/cmd", json.dumps(request))
    replies = lambda: [r for r in payloads(listener, f"mjtable/{table}/cmd/reply") if r["id"] == request["id"]]  # noqa: E731
    listener.wait_for(replies, what=f"the reply to {request['id']}")
    return replies()[0]


# -- commands, without a broker -----------------------------------------------------------------------------------


def _pause(request: dict) -> str:
    return "paused"


def _bad(request: dict) -> str:
    raise MjtableError("no such ruleset")


def _broken(request: dict) -> str:
    raise ValueError("a bug in an action")


COMMANDS = {"pause": _pause, "set_ruleset": _bad, "fail": _broken}


@pytest.mark.parametrize(
    ("payload", "token", "expected"),
    [
        (b'{"id": "1", "cmd": "pause", "token": "s3cret"}', TOKEN, {"ok": True, "detail": "paused"}),
        (b'{"id": "2", "cmd": "pause"}', TOKEN, {"ok": False, "error": "refused: missing or wrong cmd.token"}),
        (b'{"id": "3", "cmd": "pause", "token": "guess"}', TOKEN, {"ok": False}),
        (b'{"id": "4", "cmd": "pause", "token": ""}', "", {"ok": False}),  # no token configured: commands off
        (
            b'{"cmd": "pause", "token": "s3cret"}',
            TOKEN,
            {"ok": False, "error": "cmd.id: expected a string of at most 100 characters or an integer"},
        ),
        (b'{"id": 9007199254740993, "cmd": "pause", "token": "s3cret"}', TOKEN, {"id": None, "ok": False}),
        (b'{"id": "x", "cmd": "pause", "token": "\\ud800"}', TOKEN, {"id": "x", "ok": False}),  # a lone surrogate
        # issue 16: one such message killed paho's thread; the id is answered, the token read before any number
        (
            b'{"id":"b","cmd":"pause","n":' + b"9" * 4301 + b"}",
            TOKEN,
            {"id": "b", "error": "refused: missing or wrong cmd.token"},
        ),
        (b'{"id":"b","cmd":"pause","token":"s3cret","n":' + b"9" * 4301 + b"}", TOKEN, {"id": "b", "ok": False}),
        (
            b'{"id": "big", "pad": "' + b"x" * 20_000 + b'"}',
            TOKEN,
            {"id": None, "error": "cmd: 20024 bytes; at most 16384"},
        ),
        (b'{"id": 7, "cmd": "fail", "token": "s3cret"}', TOKEN, {"id": 7, "cmd": "fail", "ok": False}),
        (b'{"id": 5, "cmd": "fly", "token": "s3cret"}', TOKEN, {"id": 5, "ok": False}),
        (
            b'{"id": 6, "cmd": "set_ruleset", "token": "s3cret"}',
            TOKEN,
            {"ok": False, "error": "set_ruleset: no such ruleset"},
        ),
        (b"pause", TOKEN, {"id": None, "ok": False}),
        (b"\xff", TOKEN, {"id": None, "ok": False, "error": "cmd: not JSON (the bytes are not UTF-8 text)"}),
        (b"[" * 16_000, TOKEN, {"id": None, "ok": False, "error": "cmd: not JSON (nested too deeply)"}),
    ],
)
def test_a_command_needs_an_id_and_the_token_and_errors_are_replies(payload, token, expected):
    reply = answer_command(payload, token, COMMANDS)
    assert reply.items() >= expected.items()
    assert set(reply) == {"id", "cmd", "ok", "detail" if reply["ok"] else "error"} and len(reply.get("error", "")) < 400


# -- against the broker --------------------------------------------------------------------------------------------


def test_a_table_publishes_availability_retained_state_every_verdict_and_the_hand_result(tmp_path):
    with Broker(tmp_path) as broker:
        listener = Listener(broker)
        table = Table(table_config(tmp_path, broker, "t1", hands=1))
        table.thread.join(60)
        assert not table.thread.is_alive()
        listener.wait_for(lambda: listener.on("mjtable/t1/availability")[-1:] == [b"offline"], what="offline")
        listener.close()
        assert listener.on("mjtable/t1/availability")[0] == b"online"
        events = payloads(listener, "mjtable/t1/event")
        results = [e for e in events if e["type"] == "hand"]
        assert len(results) == 1 and results[0]["hand"] == 0
        verdicts = [e for e in events if e["type"] == "verdict"]
        # every move of the hand was published and none twice (the result counts the referee's history)
        assert len(verdicts) == results[0]["actions"]
        assert all(v["verdict"]["ok"] for v in verdicts)
        draws = [v["event"]["action"] for v in verdicts if v["event"]["action"]["kind"] == "draw"]
        assert draws and all("tile" not in draw for draw in draws)  # a drawn tile is concealed
        # a listener that comes later gets the retained state: the table after its one hand
        late = Listener(broker)
        late.wait_for(lambda: late.on("mjtable/t1/state") and late.on("mjtable/t1/availability"), what="retained")
        late.close()
        (state,) = payloads(late, "mjtable/t1/state")
        assert state["hand"] == 0 and state["scores"] == results[0]["scores"]
        assert late.on("mjtable/t1/availability") == [b"offline"]


def test_commands_pause_and_resume_the_table_refuse_a_wrong_token_and_start_a_match_with_new_rules(tmp_path):
    http = f"127.0.0.1:{free_port()}"
    with Broker(tmp_path) as broker:
        listener = Listener(broker)
        table = Table(table_config(tmp_path, broker, "t2", http=http))
        try:
            listener.wait_for(lambda: any(s["hand"] is not None for s in payloads(listener, "mjtable/t2/state")))
            reply = _command(listener, "t2", id="p1", cmd="pause", token=TOKEN)
            assert reply["ok"] and reply["cmd"] == "pause"
            time.sleep(0.5)  # the move in flight ends; the retained state is then the paused table's
            before = len(listener.on("mjtable/t2/state"))
            time.sleep(0.5)
            assert len(listener.on("mjtable/t2/state")) == before, "a paused table kept moving"
            with urllib.request.urlopen(f"http://{http}/api/state", timeout=5) as answer:
                assert json.load(answer) == payloads(listener, "mjtable/t2/state")[-1]  # the same object as the page's
            refused = _command(listener, "t2", id="p2", cmd="resume", token="guess")
            assert not refused["ok"] and "refused" in refused["error"]
            assert len(listener.on("mjtable/t2/state")) == before
            bad = _command(listener, "t2", id=3, cmd="set_ruleset", rules="nope", token=TOKEN)
            assert not bad["ok"] and "nope" in bad["error"]
            assert _command(listener, "t2", id="p4", cmd="resume", token=TOKEN)["ok"]
            listener.wait_for(lambda: len(listener.on("mjtable/t2/state")) > before + 3, what="moves after resume")
            assert _command(listener, "t2", id="m1", cmd="start_match", rules="basic", token=TOKEN)["ok"]
            listener.wait_for(
                lambda: any(s.get("rules") == "basic" for s in payloads(listener, "mjtable/t2/state")),
                what="a hand under the new rules",
            )
        finally:
            table.close()
            listener.close()
        assert [line for line in table.lines if line.get("stopped")]  # the first run was stopped for the match


def test_a_table_killed_with_sigkill_is_declared_offline_by_its_last_will(tmp_path):
    with Broker(tmp_path) as broker:
        config = tmp_path / "table.toml"
        config.write_text(
            f'[service]\nspeed = 1000.0\nstate_dir = "{tmp_path / "t3"}"\n[http]\nlisten = "off"\n'
            '[mqtt]\ntable_id = "t3"\nkeepalive_s = 1\n'
        )
        listener = Listener(broker)
        command = [sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--mqtt", broker.url]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            listener.wait_for(lambda: listener.on("mjtable/t3/state"), what="the table's state")
            assert listener.on("mjtable/t3/availability") == [b"online"]
        finally:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(10)
        listener.wait_for(lambda: listener.on("mjtable/t3/availability")[-1:] == [b"offline"], timeout=5, what="will")
        listener.close()
        late = Listener(broker)
        late.wait_for(lambda: late.on("mjtable/t3/availability") and late.on("mjtable/t3/state"), what="retained")
        late.close()
        assert late.on("mjtable/t3/availability") == [b"offline"]


def test_the_table_plays_on_while_the_broker_is_down_and_republishes_its_state_when_it_is_back(tmp_path):
    broker = Broker(tmp_path).start()
    listener = Listener(broker)
    table = Table(table_config(tmp_path, broker, "t4"))
    try:
        listener.wait_for(lambda: any(s["hand"] is not None for s in payloads(listener, "mjtable/t4/state")))
        listener.close()
        broker.stop()
        played = len(table.lines)
        deadline = time.monotonic() + 20
        while len(table.lines) < played + 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(table.lines) >= played + 2, "the table stopped playing with its broker"
        last_before = json.loads(listener.on("mjtable/t4/state")[-1])
        broker.start()  # same port, no persistence: every retained message is gone
        back = Listener(broker)
        back.wait_for(lambda: back.on("mjtable/t4/availability") and back.on("mjtable/t4/state"), what="catch-up")
        assert back.on("mjtable/t4/availability")[0] == b"online"
        # the first state after the restart is the table's current one: two hands on from the last one seen
        assert json.loads(back.on("mjtable/t4/state")[0])["hand"] >= last_before["hand"] + 2
        back.close()
    finally:
        table.close()
        broker.stop()


ACL = """user table5
topic readwrite mjtable/table5/#
user boss
topic write mjtable/+/cmd
topic read mjtable/#
user viewer
topic read mjtable/#
"""


def test_the_broker_refuses_strangers_and_a_viewer_cannot_command_a_table(tmp_path):
    users = {"table5": "pw-table", "boss": "pw-boss", "viewer": "pw-viewer"}
    with Broker(tmp_path, users, ACL) as broker:
        stranger = Listener(broker)
        wrong = Listener(broker, username="boss", password="guess")
        table = Table(table_config(tmp_path, broker, "table5", username="table5", password="pw-table"))
        viewer = Listener(broker, username="viewer", password="pw-viewer")
        boss = Listener(broker, username="boss", password="pw-boss")
        try:
            viewer.wait_for(lambda: viewer.on("mjtable/table5/state"), what="the state, to the viewer")
            stranger.wait_for(lambda: stranger.connected, what="the stranger's answer")
            wrong.wait_for(lambda: wrong.connected, what="the wrong password's answer")
            assert stranger.connected[0] == "Not authorized" and not stranger.messages
            assert wrong.connected[0] == "Not authorized"
            viewer.publish("mjtable/table5/cmd", json.dumps({"id": "v1", "cmd": "pause", "token": TOKEN}))
            assert _command(boss, "table5", id="b1", cmd="pause")["error"].startswith("refused")
            assert _command(boss, "table5", id="b2", cmd="pause", token=TOKEN)["ok"]
            ids = [reply["id"] for reply in payloads(boss, "mjtable/table5/cmd/reply")]
            assert ids == ["b1", "b2"]  # the viewer's command never reached the table (the ACL dropped it)
        finally:
            table.close()
            for client in (stranger, wrong, viewer, boss):
                client.close()


@pytest.mark.slow  # certificates made with openssl, two tables: keeps the default run of these tests near 20 s
def test_over_tls_a_table_trusting_the_broker_s_ca_connects_and_one_that_does_not_never_shows_up(tmp_path):
    with Broker(tmp_path, tls=True) as broker:
        listener = Listener(broker)
        trusting = Table(table_config(tmp_path, broker, "tls1", ca_certs=str(broker.ca)))
        doubting = Table(table_config(tmp_path, broker, "tls2"))  # the system's CAs do not know the test CA
        try:
            listener.wait_for(lambda: listener.on("mjtable/tls1/state"), what="the state over TLS")
            deadline = time.monotonic() + 10
            while len(doubting.lines) < 1 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert doubting.lines, "the table without the CA stopped playing"  # it plays on, unheard
            assert not [topic for topic, *_ in listener.messages if topic.startswith("mjtable/tls2/")]
        finally:
            trusting.close()
            doubting.close()
            listener.close()


def test_a_broker_url_that_is_not_mqtt_is_named_in_the_error(tmp_path):
    from io import StringIO

    from controller.cli import main

    out = StringIO()
    assert main(["run", "--mqtt", "http://broker:1883", "--http", "off", "--state", str(tmp_path)], stdout=out) == 2
    assert "mqtt.url: expected mqtt://HOST:PORT" in json.loads(out.getvalue())["error"]


def test_events_of_an_outage_wait_in_the_bounded_outbox_and_follow_the_state_when_the_broker_comes(tmp_path):
    broker = Broker(tmp_path)  # its port chosen, nothing listening yet
    section = MqttSection(url=broker.url, table_id="t6", queue=5, keepalive_s=1)
    link = MqttLink(section, broker.url, lambda: {"version": 42}, {})
    link.start()
    try:
        for number in range(20):
            link.publish_event({"type": "notice", "n": number})
        assert link.dropped == 15  # the outbox holds the first five
        broker.start()  # the link retries a second after its failed first try: the listener is there before it
        listener = Listener(broker)
        listener.wait_for(lambda: len(listener.on("mjtable/t6/event")) == 5, what="the five kept events")
        # online (paho's thread, on connect), then the state, then the kept events (the publisher, in that order)
        topics = [topic for topic, *_ in listener.messages]
        assert topics[:2] == ["mjtable/t6/availability", "mjtable/t6/state"]
        assert [event["n"] for event in payloads(listener, "mjtable/t6/event")] == [0, 1, 2, 3, 4]
        assert payloads(listener, "mjtable/t6/state") == [{"version": 42}]
        listener.close()
    finally:
        link.close()
        broker.stop()


def test_no_command_payload_stops_the_link(tmp_path, caplog):
    """Issue 16: one message with a 4,301-digit number killed paho's network thread: no more state, events or
    replies, no reconnect. Each of these gets its reply and the link goes on publishing."""
    nasty = [
        b'{"id":"b","cmd":"pause","n":' + b"9" * 4301 + b"}",
        b'{"id":"c","cmd":"pause","token":"s3cret","n":' + b"9" * 4301 + b"}",
        b"\xff\xfe not text",
        b"[" * 16_000,
        b'{"id": "d", "cmd": "fail", "token": "s3cret"}',
        b'{"id": "e", "cmd": "pause", "token": "\\ud800"}',
        b"x" * 100_000,
        b"",
    ]
    with Broker(tmp_path) as broker:
        version = [0]
        link = MqttLink(
            MqttSection(url=broker.url, table_id="t7", command_token=TOKEN),
            broker.url,
            lambda: {"version": version[0]},
            COMMANDS,
        )
        listener = Listener(broker)
        link.start()
        try:
            listener.wait_for(lambda: listener.on("mjtable/t7/state"), what="the first state")
            with caplog.at_level(logging.WARNING):
                for payload in nasty:
                    listener.client.publish("mjtable/t7/cmd", payload, qos=1).wait_for_publish(5)
                listener.wait_for(lambda: len(listener.on("mjtable/t7/cmd/reply")) == len(nasty), what="every reply")
            assert _command(listener, "t7", id="ok", cmd="pause", token=TOKEN)["detail"] == "paused"
            version[0] = 1
            link.state_changed()
            listener.wait_for(lambda: {"version": 1} in payloads(listener, "mjtable/t7/state"), what="a new state")
        finally:
            link.close()
            listener.close()
    replies = payloads(listener, "mjtable/t7/cmd/reply")
    assert [reply["id"] for reply in replies[: len(nasty)]] == ["b", "c", None, None, "d", "e", None, None]
    assert not any(reply["ok"] for reply in replies[: len(nasty)])
    assert [record.getMessage() for record in caplog.records] == [
        "fleet command fail failed: ValueError: a bug in an action"
    ]
