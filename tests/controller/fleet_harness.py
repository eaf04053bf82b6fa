"""The fleet tests' harness. A real Mosquitto broker: its own process on loopback, a free port, a temporary config.

``password_file`` and ``acl_file`` are made with ``mosquitto_passwd`` when users are given. Persistence is off,
so a restarted broker has forgotten every retained message: what a table shows after a restart it published
again. Skips nothing: a machine without mosquitto fails the tests (``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import paho.mqtt.client as mqtt

from controller.config import Config, MqttSection
from controller.ops.daemon import TableDaemon

TOKEN = "s3cret"
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def make_certificates(directory: Path) -> Path:
    """A throwaway CA and a server certificate for 127.0.0.1 (openssl); returns the CA file clients trust."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=directory)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=mjtable test CA",
            "-keyout", "ca.key", "-out", "ca.crt")  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key",
            "-out", "server.csr")  # fmt: skip
    (directory / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days",
            "1", "-extfile", "san.ext", "-out", "server.crt")  # fmt: skip
    return directory / "ca.crt"


class Broker:
    """``tls``: the listener speaks TLS only, with a certificate from ``make_certificates`` (``self.ca``)."""

    def __init__(self, directory: Path, users: dict[str, str] | None = None, acl: str = "", tls: bool = False) -> None:
        self.directory = directory
        self.port = free_port()
        self.url = f"{'mqtts' if tls else 'mqtt'}://127.0.0.1:{self.port}"
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", "user root"]
        self.ca: Path | None = None
        if tls:
            self.ca = make_certificates(directory)
            lines += [f"cafile {self.ca}", f"certfile {directory}/server.crt", f"keyfile {directory}/server.key"]
        lines.append(f"log_dest file {directory / 'mosquitto.log'}")
        if users:
            passwords = directory / "passwords"
            for index, (name, password) in enumerate(users.items()):
                create = ["-c"] if index == 0 else []
                subprocess.run(["mosquitto_passwd", *create, "-b", str(passwords), name, password], check=True)
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        if acl:
            (directory / "acl").write_text(acl)
            lines.append(f"acl_file {directory / 'acl'}")
        self.config = directory / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Broker:
        """Start the broker (again, after ``stop``, on the same port); ``with Broker(...) as broker`` starts it too."""
        if self.process is not None:
            raise RuntimeError("the broker is running already")
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"mosquitto exited: {self.process.stderr.read().decode()}") from None
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            if self.process.stderr is not None:
                self.process.stderr.close()
            self.process = None

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Listener:
    """A test client that records every message under ``topic`` (``mjtable/#`` by default), in arrival order."""

    def __init__(self, broker: Broker, topic: str = "mjtable/#", username: str = "", password: str = "") -> None:
        self.messages: list[tuple[str, bytes, bool, float]] = []
        self.connected: list[str] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        if username:
            self.client.username_pw_set(username, password)
        if broker.ca is not None:
            self.client.tls_set(ca_certs=str(broker.ca))
        self.client.on_connect = lambda c, u, f, reason, p: (
            self.connected.append(str(reason)),
            None if reason.is_failure else c.subscribe(topic, qos=1),
        )
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, m.payload, m.retain, time.time()))
        self.client.reconnect_delay_set(1, 1)
        self.client.connect_async("127.0.0.1", broker.port)
        self.client.loop_start()

    def on(self, topic: str) -> list[bytes]:
        return [payload for name, payload, _, _ in list(self.messages) if name == topic]

    def wait_for(self, predicate, timeout: float = 15.0, what: str = "the message") -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what} did not come within {timeout} s; heard {len(self.messages)} messages")
            time.sleep(0.02)

    def publish(self, topic: str, payload: str) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def table_config(tmp: Path, broker: Broker, table: str, hands: int = 0, http: str = "off", **mqtt) -> Config:
    config = Config().with_service(http=http, speed=1000.0, hands=hands, seed=7, state_dir=str(tmp / table))
    section = MqttSection(url=broker.url, table_id=table, command_token=TOKEN, keepalive_s=1, **mqtt)
    return replace(config, mqtt=section)


class Table:
    """A table service (``TableDaemon``) in a thread, as ``mjtable run --mqtt`` runs it."""

    def __init__(self, config: Config) -> None:
        self.lines: list[dict] = []
        self.daemon = TableDaemon(config, self.lines.append)
        self.thread = threading.Thread(target=self.daemon.run, name="table-under-test")
        self.thread.start()

    def close(self) -> None:
        self.daemon.stop()
        self.thread.join(30)
        assert not self.thread.is_alive()


def payloads(listener: Listener, topic: str) -> list[dict]:
    return [json.loads(payload) for payload in listener.on(topic)]


@contextmanager
def fleet_of_two(broker: Broker, tmp: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Two tables on ``broker`` — ``east`` has played its one hand and said goodbye, ``west`` is playing — and
    ``mjtable fleet`` watching them: yields the page's HOST:PORT and the fleet process (its first stdout line
    announces the page, its log goes to ``tmp``). Everything is stopped on leaving."""
    finished = Table(table_config(tmp, broker, "east", hands=1))
    finished.thread.join(60)
    playing = Table(table_config(tmp, broker, "west"))
    http = f"127.0.0.1:{free_port()}"
    command = [sys.executable, "-m", "controller.cli", "fleet", "--mqtt", broker.url, "--http", http]
    fleet = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=(tmp / "fleet.log").open("wb"))
    try:
        yield http, fleet
    finally:
        fleet.kill()
        fleet.wait(10)
        assert fleet.stdout is not None
        fleet.stdout.close()
        playing.close()
