"""``mjtable doctor``'s broker check against a real Mosquitto on loopback (``fleet_harness.Broker``): the accounts
and the ACL of README's fleet section, a TLS listener with its own CA. Each failure names the ``[mqtt]`` key."""

from __future__ import annotations

import io
import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

import pytest

from controller.cli import main
from controller.config import MqttSection
from controller.errors import ControllerError
from controller.ops.broker_check import check_broker
from tests.controller.fleet_harness import Broker, Listener, free_port
from tests.controller.test_doctor import _doctor

# README §9: each table writes only under its own topics; the staff reads them all.
ACL = """user table1
topic readwrite mjtable/table1/#
user boss
topic write mjtable/+/cmd
topic read mjtable/#
"""
USERS = {"table1": "pw-table", "boss": "pw-boss"}


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    with Broker(tmp_path_factory.mktemp("broker"), USERS, ACL) as running:
        yield running


@pytest.fixture(scope="module")
def tls_broker(tmp_path_factory):
    with Broker(tmp_path_factory.mktemp("tls-broker"), tls=True) as running:
        yield running


def _write_config(tmp_path, url: str, **mqtt: str):
    config = tmp_path / "mjtable.toml"
    keys = "".join(f'{key} = "{value}"\n' for key, value in {"url": url, **mqtt}.items())
    config.write_text(f'[service]\nstate_dir = "{tmp_path / "state"}"\n[http]\nlisten = "off"\n[mqtt]\n{keys}')
    return config


def _problem(url: str, timeout: float = 5.0, **mqtt: str) -> str:
    with pytest.raises(ControllerError) as refused:
        check_broker(MqttSection(url=url, **mqtt), timeout)
    return str(refused.value)


def test_a_good_broker_passes_and_the_acl_probe_leaves_no_retained_message(tmp_path, broker):
    early = Listener(broker, username="boss", password="pw-boss")
    early.wait_for(lambda: early.connected, what="the staff listener")
    config = _write_config(tmp_path, broker.url, table_id="table1", username="table1", password="pw-table")
    code, answers = _doctor(config)
    assert code == 0, answers
    assert answers[-1]["check"] == "broker" and answers[-1]["ok"]
    detail = answers[-1]["detail"]
    assert f"127.0.0.1:{broker.port}" in detail and "no TLS" in detail and "'table1'" in detail
    assert "mjtable/table1/doctor" in detail
    # the probe went out retained at QoS 1 and was taken away with an empty retained message (MQTT 5 §3.3.1.3)
    early.wait_for(lambda: len(early.on("mjtable/table1/doctor")) == 2, what="the probe and its removal")
    assert early.on("mjtable/table1/doctor") == [b"mjtable doctor", b""]
    early.close()
    # a client that subscribes later gets the retained messages first, then what was published after it subscribed
    late = Listener(broker, username="table1", password="pw-table")
    late.wait_for(lambda: late.connected, what="the late listener")
    late.publish("mjtable/table1/marker", "after")
    late.wait_for(lambda: late.on("mjtable/table1/marker"), what="the marker")
    late.close()
    assert not late.on("mjtable/table1/doctor"), "the doctor left its probe retained on the broker"


@pytest.mark.parametrize(
    ("mqtt", "key", "cause"),
    [
        ({"table_id": "table1", "username": "table1", "password": "guess"}, "mqtt.password", "Not authorized"),
        ({"table_id": "table1", "username": "nobody", "password": "pw"}, "mqtt.username", "'nobody'"),
        ({"table_id": "table1"}, "mqtt.username", "anonymous"),
        # README's ACL grants table1 only mjtable/table1/#: a table_id that is not its own is refused, and MQTT 5
        # tells it in the PUBACK (§3.4.2.1, reason 0x87 Not authorized)
        ({"table_id": "table2", "username": "table1", "password": "pw-table"}, "mqtt.table_id", "mjtable/table2/"),
        ({"table_id": "table1", "username": "boss", "password": "pw-boss"}, "mqtt.table_id", "'boss'"),
    ],
)
def test_an_account_the_broker_refuses_or_an_acl_that_drops_the_tables_messages_is_named(broker, mqtt, key, cause):
    problem = _problem(broker.url, **mqtt)
    assert key in problem.split(": ")[0], problem  # the keys to change lead the message
    assert cause in problem


def test_a_closed_port_fails_the_doctor_naming_the_url(tmp_path):
    code, answers = _doctor(_write_config(tmp_path, f"mqtt://127.0.0.1:{free_port()}"))
    assert code == 1
    failed = {answer["check"]: answer["detail"] for answer in answers if not answer["ok"]}
    assert set(failed) == {"broker"}
    assert failed["broker"].startswith("mqtt.url:") and "connection refused" in failed["broker"]


def test_a_wrong_password_fails_the_doctor_naming_the_password(tmp_path, broker):
    config = _write_config(tmp_path, broker.url, table_id="table1", username="table1", password="guess")
    code, answers = _doctor(config)
    assert code == 1 and not answers[-1]["ok"] and "mqtt.password" in answers[-1]["detail"]


def test_a_port_that_takes_the_connection_but_never_answers_times_out():
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # the kernel completes the TCP handshake; nothing ever reads or answers
        port = silent.getsockname()[1]
        no_connack = _problem(f"mqtt://127.0.0.1:{port}", timeout=0.5)
        no_tls_hello = _problem(f"mqtts://127.0.0.1:{port}", timeout=0.5)
    assert no_connack.startswith("mqtt.url:") and "no MQTT answer within 0.5 s" in no_connack
    assert no_tls_hello.startswith("mqtt.url:") and "did not answer within 0.5 s" in no_tls_hello


def test_a_host_the_resolver_cannot_take_is_named():
    problem = _problem("mqtt://broker..local:1883")  # an empty label: refused before any lookup leaves the machine
    assert problem.startswith("mqtt.url:") and "'broker..local'" in problem


def test_over_tls_the_broker_s_ca_passes_and_each_mismatch_names_its_key(tmp_path, tls_broker):
    found = check_broker(MqttSection(url=tls_broker.url, table_id="t1", ca_certs=str(tls_broker.ca)))
    assert "(TLS, CA " in found and str(tls_broker.ca) in found
    untrusted = _problem(tls_broker.url, table_id="t1")  # the system's CAs do not know the test CA
    assert untrusted.startswith("mqtt.ca_certs:") and "not trusted" in untrusted
    plain_url = _problem(tls_broker.url.replace("mqtts://", "mqtt://"), table_id="t1")
    assert plain_url.startswith("mqtt.url:") and "mqtts://" in plain_url
    missing = _problem(tls_broker.url, ca_certs=str(tmp_path / "no-ca.crt"))
    assert missing.startswith("mqtt.ca_certs:") and "no-ca.crt" in missing
    not_pem = tmp_path / "ca.txt"
    not_pem.write_text("not a certificate\n")
    assert "mqtt.ca_certs" in _problem(tls_broker.url, ca_certs=str(not_pem))


def test_mqtts_to_a_plain_listener_names_the_url(broker):
    problem = _problem(broker.url.replace("mqtt://", "mqtts://"), table_id="table1")
    assert problem.startswith("mqtt.url:") and "mqtt://" in problem


@contextmanager
def _fake_server(answer: Callable[[socket.socket], None], connections: int = 1) -> Iterator[int]:
    """A loopback port whose connections ``answer`` serves in turn: a server that misbehaves as Mosquitto cannot."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()

        def serve() -> None:
            for _ in range(connections):
                connection, _ = server.accept()
                with connection:
                    answer(connection)

        serving = threading.Thread(target=serve, daemon=True)
        serving.start()
        yield server.getsockname()[1]
        serving.join(5)


def _plain_connack(connection: socket.socket) -> None:
    """A plain MQTT listener's answer (a CONNACK, MQTT 3.1.1 §3.2) to whatever came, the TLS hello included."""
    connection.recv(1024)
    connection.sendall(bytes([0x20, 0x02, 0x00, 0x00]))


def test_a_listener_that_answers_the_tls_hello_in_plain_text_names_the_url():
    with _fake_server(_plain_connack) as port:
        problem = _problem(f"mqtts://127.0.0.1:{port}")
    assert problem.startswith("mqtt.url:") and "TLS handshake" in problem and "mqtt://" in problem


def _mqtt311_only_broker(connection: socket.socket, levels: list[int]) -> None:
    """Answers as a 3.1.1 broker (MQTT 3.1.1 §3.2.2.3): CONNACK 0x01 "unacceptable protocol version" to protocol
    level 5 and hangs up, CONNACK 0x00 to level 4."""
    level = connection.recv(1024)[8]  # fixed header (2 bytes), protocol name (2 + 4), then the level
    levels.append(level)
    connection.sendall(bytes([0x20, 0x02, 0x00, 0x01 if level == 5 else 0x00]))
    if level != 5:
        connection.recv(1024)  # until the doctor's DISCONNECT


def test_a_broker_without_mqtt_5_is_checked_in_3_1_1_and_its_acl_is_said_to_be_unchecked():
    levels: list[int] = []
    with _fake_server(partial(_mqtt311_only_broker, levels=levels), connections=2) as port:
        found = check_broker(MqttSection(url=f"mqtt://127.0.0.1:{port}", table_id="t1"), 5.0)
    assert levels == [5, 4]
    assert "MQTT 3.1.1 only" in found and "ACL was not checked" in found


def test_the_service_and_the_fleet_page_name_a_tls_file_as_the_doctor_does(tmp_path):
    """The TLS files are read where the link's client is made (``mqtt_link.make_client``), for all three."""
    config = _write_config(tmp_path, "mqtts://127.0.0.1:1", ca_certs=str(tmp_path / "no-ca.crt"))
    for command in (["run", "--state", str(tmp_path / "state")], ["fleet", "--http", "127.0.0.1:0"]):
        out = io.StringIO()
        assert main([*command, "--config", str(config)], stdout=out) == 2
        assert json.loads(out.getvalue())["error"] == f"mqtt.ca_certs: {tmp_path / 'no-ca.crt'}: no such file"
