"""Fuzz what a table and the fleet read from the broker (issue 16): command payloads on ``mjtable/<id>/cmd`` and
state and availability payloads as ``mjtable fleet`` reads them. Valid payloads lightly mutated as JSON (a field
set to a hostile value: a 4,301-digit number, NaN, a deep nest, a surrogate; dropped, added), as text and as bytes,
mixed with junk. Every command payload gets exactly one reply (``id``, ``cmd``, ``ok`` and ``detail`` or a short
``error``), strict JSON; every state is kept or refused with one ``MjtableError`` naming the field, and the fleet's
page data stays strict JSON. Nothing raises, nothing takes long.

The default run feeds the parsing functions directly (the real command set of a ``TableDaemon``, the real
``Fleet``); the slow one sends 10,000 of each through a real Mosquitto on loopback, then checks that the table's link
still answers a valid command and the fleet still takes a good state."""

from __future__ import annotations

import copy
import json
import logging
import random
import threading
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from controller.config import Config, MqttSection
from controller.fleet.mqtt_link import MAX_ID, answer_command
from controller.fleet.parlor import Fleet
from controller.fleet.statecheck import read_availability, read_state
from controller.ops.daemon import TableDaemon
from engine.errors import MjtableError
from tests.controller.fleet_harness import TOKEN, Broker, Listener
from tests.controller.test_fleet_state import GOOD

BIG = "9" * 4301
"""A JSON integer Python's ``int`` refuses (over 4,300 digits): it killed paho's thread once."""
RAW = {"@big": BIG, "@negbig": "-" + BIG, "@nan": "NaN", "@inf": "-Infinity", "@e999": "1e999",
       "@deep": "[" * 3000 + "]" * 3000, "@surrogate": '"\\ud800"', "@float": "1.0000000000000000001"}  # fmt: skip
"""Raw JSON text a value may be replaced with (``json.dumps`` cannot write these)."""
HOSTILE: list[Any] = [None, True, False, 0, -1, 2**53, 2**53 + 1, 2**64, 10**30, 1.5, -0.0, 1e308, "", "x",
                      "x" * 5000, "²", "١", "\u2028", "\x00", "🀄", [], [None], {}, {"a": {"b": {}}},
                      *RAW]  # fmt: skip
COMMANDS = [
    {"id": "1", "cmd": "pause", "token": TOKEN},
    {"id": 2, "cmd": "resume", "token": TOKEN},
    {"id": "3", "cmd": "set_ruleset", "token": TOKEN, "rules": "sichuan", "options": {}},
    {"id": "4", "cmd": "set_ruleset", "token": TOKEN, "rules": "mcr", "options": {"minimum": 8}},
    {"id": "5", "cmd": "start_match", "token": TOKEN, "rules": "basic"},
    {"id": "6", "cmd": "pause"},
]
FRESH = {"version": 0, "hand": None, "scores": [0, 0, 0, 0], "fault": None, "verdicts": []}
STATES = [
    GOOD,
    FRESH,
    {**GOOD, "fault": {"code": "jam", "hint_en": "clear the lift", "hint_zh": "清理"}, "win": None},
    {**GOOD, "win": {"drawn": True, "wins": []}, "wall_remaining": None, "phase": None},
    {**GOOD, "verdicts": [{"seat": 1, "kind": "discard", "ok": True}], "scores": [1.5, -0.5, 0, -1]},
]
JUNK = [b"", b" ", b"null", b"[]", b"{}", b"online", b"offline", b"\xff\xfe", b"[" * 20_000, b"x" * 300_000,
        b'{"id":"b","cmd":"pause","n":' + BIG.encode() + b"}", b"{" * 100, b"\x00" * 50, b"NaN", b"1e999",
        b'"online"', b"ONLINE", b"online\n", "在线".encode()]  # fmt: skip
CHARS = [*'{}[]":,0123456789.-eE tfn\\', "\u00b2", "\ud800"]
MAX_ERROR = 400
CALL_S = 5.0


def _encode(value: Any, rng: random.Random) -> bytes:
    """JSON of ``value``, with the raw placeholders written as raw text."""
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5, allow_nan=True)
    for name, raw in RAW.items():
        text = text.replace(json.dumps(name), raw)
    return text.encode("utf-8", errors="surrogatepass")


def _set_somewhere(data: Any, rng: random.Random) -> None:
    """Set, drop or add one field at a random depth of ``data`` (a dict or list)."""
    for _ in range(4):
        children = [(k, v) for k, v in (data.items() if isinstance(data, dict) else enumerate(data))]
        nested = [(k, v) for k, v in children if isinstance(v, dict | list) and v]
        if not nested or rng.random() < 0.5:
            break
        _, data = rng.choice(nested)
    roll = rng.random()
    if isinstance(data, dict):
        if roll < 0.2 and data:
            del data[rng.choice(sorted(data))]
        elif roll < 0.7 and data:
            data[rng.choice(sorted(data))] = copy.deepcopy(rng.choice(HOSTILE))
        else:
            data[rng.choice(["bogus", "id", "cmd", "token", "rules", "options", "hand", "scores", "win"])] = rng.choice(
                HOSTILE
            )
    elif data:
        data[rng.randrange(len(data))] = copy.deepcopy(rng.choice(HOSTILE))


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    chars = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        index = rng.randrange(len(chars) + 1)
        roll = rng.random()
        if roll < 0.3 and chars:
            del chars[min(index, len(chars) - 1)]
        elif roll < 0.5 and chars:
            chars[min(index, len(chars) - 1)] = rng.randrange(256)
        else:
            chars[index:index] = rng.choice(CHARS).encode("utf-8", errors="surrogatepass")
    return bytes(chars)


def mutated(valid: list[dict[str, Any]], rng: random.Random, junk: list[bytes] = JUNK) -> bytes:
    """One payload: a valid one (15 %), one changed as JSON (55 %), as bytes (20 %), or junk."""
    roll = rng.random()
    if roll < 0.9:
        data = json.loads(json.dumps(rng.choice(valid)))
        if roll >= 0.15:
            for _ in range(rng.randint(1, 3)):
                _set_somewhere(data, rng)
        payload = _encode(data, rng)
        return _mutate_bytes(payload, rng) if roll >= 0.7 else payload
    return rng.choice(junk)


# -- checks -------------------------------------------------------------------------------------------------------


def check_reply(payload: bytes, reply: Any) -> bool:
    """One reply as the link sends it; ``True`` when the command was carried out."""
    text = json.dumps(reply, ensure_ascii=False, allow_nan=False)  # the reply goes out as strict JSON, in UTF-8
    text.encode()
    assert isinstance(reply, dict) and {"id", "cmd", "ok"} <= set(reply), (payload[:100], reply)
    assert (
        reply["id"] is None
        or (type(reply["id"]) is str and len(reply["id"]) <= MAX_ID)
        or (type(reply["id"]) is int and abs(reply["id"]) <= 2**53)
    ), reply["id"]
    assert reply["cmd"] in (None, "pause", "resume", "set_ruleset", "start_match"), reply["cmd"]
    if reply["ok"] is True:
        assert isinstance(reply.get("detail"), str) and "error" not in reply, reply
        return True
    assert reply["ok"] is False and isinstance(reply.get("error"), str), reply
    assert 0 < len(reply["error"]) <= MAX_ERROR and "\n" not in reply["error"], reply["error"][:500]
    assert len(text) < 2 * MAX_ERROR + 2 * MAX_ID, text[:300]
    return False


def check_state(payload: bytes) -> bool:
    """``read_state``: a dict that is strict JSON, or one short ``MjtableError`` naming the state or its field."""
    try:
        state = read_state(payload)
    except MjtableError as error:
        message = str(error)
        assert message.startswith("state") and len(message) <= MAX_ERROR and "\n" not in message, message[:500]
        return False
    assert isinstance(state, dict)
    json.dumps(state, allow_nan=False)
    return True


def check_availability(payload: bytes) -> bool:
    try:
        value = read_availability(payload)
    except MjtableError as error:
        assert str(error).startswith("availability: ") and len(str(error)) <= MAX_ERROR, str(error)[:500]
        return False
    assert value in ("online", "offline")
    return True


def _daemon(tmp_path: Path, url: str = "mqtt://127.0.0.1:1") -> TableDaemon:
    """A table daemon with its real fleet commands (not run: ``start_match`` finds no table playing)."""
    config = Config().with_service(http="off", speed=1000.0, hands=1, seed=7, state_dir=str(tmp_path / "table"))
    return TableDaemon(replace(config, mqtt=MqttSection(url=url, table_id="fuzz", command_token=TOKEN)), print)


def _timed(call, *args):
    started = time.monotonic()
    value = call(*args)
    assert time.monotonic() - started < CALL_S, f"{args[0][:80]!r}: a hang guard, not a speed measure"
    return value


# -- the default run: the parsing functions -----------------------------------------------------------------------


def _fuzz_commands(count: int, seed: int, tmp_path: Path) -> dict[str, int]:
    rng = random.Random(seed)
    daemon = _daemon(tmp_path)
    assert daemon.link is not None
    commands = daemon.link.commands
    counts = {"inputs": 0, "answered": 0, "refused": 0}
    for _ in range(count):
        payload = mutated(COMMANDS, rng)
        reply = _timed(answer_command, payload, TOKEN, commands)
        counts["answered" if check_reply(payload, reply) else "refused"] += 1
        counts["inputs"] += 1
    daemon.gate.resume()
    return counts


def _fuzz_fleet(count: int, seed: int) -> dict[str, int]:
    """State and availability payloads through ``read_state`` / ``read_availability`` and through the fleet's own
    message handler (a real ``Fleet``, not connected), whose page data must stay strict JSON."""
    rng = random.Random(seed)
    fleet = Fleet(MqttSection(url="mqtt://127.0.0.1:1"), "mqtt://127.0.0.1:1")
    counts = {"inputs": 0, "answered": 0, "refused": 0}
    for _ in range(count):
        table = rng.choice(["t1", "t2", "t3", "", "é", "x" * 300])
        if rng.random() < 0.8:
            kind, payload = "state", mutated(STATES, rng)
            kept = _timed(check_state, payload)
        else:
            kind = "availability"
            payload = rng.choice([b"online", b"offline"]) if rng.random() < 0.4 else mutated([{"a": 1}], rng)
            kept = _timed(check_availability, payload)
        counts["answered" if kept else "refused"] += 1
        counts["inputs"] += 1
        _timed(fleet._on_message, None, None, SimpleNamespace(topic=f"mjtable/{table}/{kind}", payload=payload))
        json.dumps(fleet.tables(), allow_nan=False)
    return counts


def test_mutated_command_payloads_each_get_one_reply(tmp_path):
    counts = _fuzz_commands(600, 1, tmp_path)
    assert counts["answered"] > 20 and counts["refused"] > 300, counts
    print(f"\nfuzz mqtt commands: {counts}")


def test_mutated_state_payloads_are_kept_or_refused_by_field(caplog):
    with caplog.at_level(logging.ERROR):
        counts = _fuzz_fleet(600, 1)
    assert not caplog.records, caplog.records[0].getMessage()
    assert counts["answered"] > 50 and counts["refused"] > 200, counts
    print(f"\nfuzz mqtt states: {counts}")


# -- the slow run: 10,000 of each through Mosquitto ---------------------------------------------------------------


def _version(fleet: Fleet, table: str) -> Any:
    state = (fleet.tables().get(table) or {}).get("state")
    return state.get("version") if isinstance(state, dict) else None


@pytest.mark.slow
def test_ten_thousand_mutated_commands_and_states_through_a_real_broker(tmp_path, caplog):
    count = 10_000
    rng = random.Random(2)
    with Broker(tmp_path) as broker:
        daemon = _daemon(tmp_path, broker.url)
        link = daemon.link
        assert link is not None
        link.state = lambda: {**FRESH, "version": 1}
        fleet = Fleet(MqttSection(url=broker.url), broker.url)
        listener = Listener(broker)
        link.start()
        fleet.start()
        try:
            listener.wait_for(lambda: listener.on("mjtable/fuzz/state"), what="the table's first state")
            listener.wait_for(lambda: fleet.reach.error is None, what="the fleet's connection")
            commands = [mutated(COMMANDS, rng) for _ in range(count)]
            states = [
                (f"mjtable/{rng.choice(['f1', 'f2', 'f3'])}/{kind}", mutated(STATES, rng) if kind == "state"
                 else mutated([{"a": 1}], rng))
                for kind in (rng.choice(["state"] * 4 + ["availability"]) for _ in range(count))
            ]  # fmt: skip
            with caplog.at_level(logging.ERROR):
                for index, payload in enumerate(commands):
                    listener.client.publish("mjtable/fuzz/cmd", payload, qos=1)
                    if index % 200 == 199:  # paced: the table's outbox holds ``queue`` replies, not 10,000
                        listener.wait_for(lambda i=index: len(listener.on("mjtable/fuzz/cmd/reply")) > i - 100,
                                          timeout=60, what=f"the replies up to {index}")  # fmt: skip
                for topic, payload in states:
                    listener.client.publish(topic, payload, qos=1, retain=rng.random() < 0.1)
                listener.wait_for(lambda: len(listener.on("mjtable/fuzz/cmd/reply")) >= count, timeout=120,
                                  what="a reply to every command")  # fmt: skip
                listener.publish("mjtable/probe/state", json.dumps({**GOOD, "version": 77}))
                listener.wait_for(lambda: _version(fleet, "probe") == 77, timeout=60,
                                  what="the fleet taking a good state after the flood")  # fmt: skip
            assert not caplog.records, caplog.records[0].getMessage()
            replies = [json.loads(payload) for payload in listener.on("mjtable/fuzz/cmd/reply")]
            assert len(replies) == count and link.dropped == 0
            answered = sum(check_reply(payload, reply) for payload, reply in zip(commands, replies, strict=True))
            listener.publish("mjtable/fuzz/cmd", json.dumps({"id": "alive", "cmd": "resume", "token": TOKEN}))
            listener.wait_for(
                lambda: any(json.loads(p)["id"] == "alive" for p in listener.on("mjtable/fuzz/cmd/reply")),
                what="the answer to a valid command after the flood",
            )
            json.dumps(fleet.tables(), allow_nan=False)
            kept = sum(check_state(p) if "/state" in t else check_availability(p) for t, p in states)
            assert link.client._thread is not None and link.client._thread.is_alive()  # paho's network thread
            assert fleet.client._thread is not None and fleet.client._thread.is_alive()
        finally:
            link.close()
            fleet.close()
            listener.close()
            daemon.gate.resume()
    assert not [thread for thread in threading.enumerate() if thread.name == "mqtt-publisher"]
    print(f"\nfuzz mqtt commands (slow, broker): {{'inputs': {count}, 'answered': {answered}, "
          f"'refused': {count - answered}}}")  # fmt: skip
    print(f"fuzz mqtt states (slow, broker): {{'inputs': {count}, 'answered': {kept}, 'refused': {count - kept}}}")
