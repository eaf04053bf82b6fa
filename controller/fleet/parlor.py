"""``mjtable fleet``: the parlor's view of every table, from the broker (``mjtable/+/state`` and
``mjtable/+/availability``, both retained, so a fresh fleet view sees every table at once) on one web page.

The page (``GET /``) polls ``GET /api/tables``: ``{"<table_id>": {"availability": "online", "state": {...}}}``, the
state being each table's own ``/api/state``. Read-only: commands go to the tables through the broker, whose ACL
decides who may send them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import paho.mqtt.client as mqtt

from controller.config import MqttSection
from controller.display.httpd import GuardedServer, JsonHandler
from controller.fleet.mqtt_link import make_client
from controller.fleet.page import FLEET_PAGE
from controller.jsonin import read_json
from engine.errors import MjtableError

log = logging.getLogger(__name__)


class Fleet:
    """Every table heard of, with its availability and latest state; kept up to date by paho's thread."""

    def __init__(self, section: MqttSection, url: str, client_id: str = "mjtable-fleet") -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, dict[str, Any]] = {}
        self.client, self._host, self._port = make_client(section, url, client_id)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message

    def start(self) -> None:
        self.client.connect_async(self._host, self._port, keepalive=30)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def tables(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {name: dict(table) for name, table in sorted(self._tables.items())}

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.error("fleet: the broker %s:%d refused the connection: %s", self._host, self._port, reason)
            return
        client.subscribe([("mjtable/+/state", 1), ("mjtable/+/availability", 1)])
        log.info("fleet: connected to %s:%d", self._host, self._port)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        _, table_id, kind = message.topic.split("/", 2)
        try:
            value: Any = message.payload.decode() if kind == "availability" else read_json(message.payload, "payload")
        except (UnicodeDecodeError, MjtableError) as error:
            log.warning("fleet: %s: unreadable payload (%s)", message.topic, error)
            return
        with self._lock:
            table = self._tables.setdefault(table_id, {"availability": "unknown", "state": None})
            table[kind] = value


class FleetServer:
    """The parlor page and ``/api/tables`` on ``listen`` (HOST:PORT), until ``close``."""

    def __init__(self, listen: str, fleet: Fleet) -> None:
        handler = type("Handler", (_Handler,), {"fleet": fleet})
        self._server = GuardedServer(listen, handler, "fleet-http", "fleet --http").start()
        self.url = self._server.url

    def close(self) -> None:
        self._server.close()


class _Handler(JsonHandler):
    """The fleet's two pages; nothing to POST."""

    fleet: Fleet

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._send(HTTPStatus.OK, FLEET_PAGE.encode(), "text/html; charset=utf-8")
        elif path == "/api/tables":
            self._json(HTTPStatus.OK, self.fleet.tables())
        else:
            self._json(HTTPStatus.NOT_FOUND, {"error": f"{path[:80]}: no such page; try / or /api/tables"})

    def do_POST(self) -> None:
        if self.read_body():
            self._json(HTTPStatus.METHOD_NOT_ALLOWED, {"error": "the fleet view is read-only"})


def serve_fleet(
    section: MqttSection, url: str, listen: str, announce: Callable[[str], None], stop: threading.Event
) -> None:
    """Follow the broker and serve the page until ``stop`` is set (or a signal's exception unwinds the wait)."""
    fleet = Fleet(section, url)
    fleet.start()
    try:
        server = FleetServer(listen, fleet)
        try:
            announce(server.url)
            stop.wait()
        finally:
            server.close()
    finally:
        fleet.close()
