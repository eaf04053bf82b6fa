"""``mjtable fleet``: the parlor's view of every table, from the broker (``mjtable/+/state`` and
``mjtable/+/availability``, both retained, so a fresh fleet view sees every table at once) on one web page.

The page (``GET /``) polls ``GET /api/tables``: ``{"<table_id>": {"availability": "online", "state": {...},
"problem": null}}``, the state being each table's own ``/api/state``, ``problem`` why the table's last message was
refused (``controller.fleet.statecheck``: a bad retained state must not break the page nor stop the fleet), and
``GET /api/broker``: whether the broker is reached. Read-only: commands go to the tables through the broker, whose
ACL decides who may send them.

A broker that cannot be reached (not started yet, a wrong address) is said on stderr at once, with the error, and
tried again every few seconds: the fleet page is a long-running view on the parlor's PC, often started before the
broker after a power cut, and it should show the tables as soon as the broker is up, not exit and need a restart.
The page says the broker is away meanwhile.
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
from controller.fleet.callbacks import Reach, excerpt, guarded
from controller.fleet.mqtt_link import make_client
from controller.fleet.page import FLEET_PAGE
from controller.fleet.statecheck import read_availability, read_state
from engine.errors import MjtableError

log = logging.getLogger(__name__)

MAX_TABLES = 1000
"""Tables the fleet follows: a flood of made-up table ids on the broker must not take the parlor PC's memory."""


class Fleet:
    """Every table heard of, with its availability, its latest good state, and ``problem``: why the last message
    of a kind was refused (``None`` when none was); kept up to date by paho's thread. An empty retained message (the
    parlor clearing a table away) forgets that kind; a table with neither is forgotten."""

    def __init__(self, section: MqttSection, url: str, client_id: str = "mjtable-fleet") -> None:
        self.url = url
        self._lock = threading.Lock()
        self._tables: dict[str, dict[str, Any]] = {}
        self._problems: dict[str, dict[str, str]] = {}
        self._full = False
        self.client, self._host, self._port = make_client(section, url, client_id)
        self.reach = Reach(self.client, "fleet", url)
        self.client.on_connect = guarded("fleet", self._on_connect)
        self.client.on_disconnect = guarded("fleet", self._on_disconnect)
        self.client.on_message = guarded("fleet", self._on_message)

    def start(self) -> None:
        self.client.connect_async(self._host, self._port, keepalive=30)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def tables(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {name: dict(table) for name, table in sorted(self._tables.items())}

    def broker(self) -> dict[str, Any]:
        """``{"url", "connected", "error"}``: the page says why it shows no table when the broker is away."""
        error = self.reach.error
        return {"url": self.url, "connected": error is None, "error": error}

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self.reach.refused(reason)
            return
        self.reach.connected()
        client.subscribe([("mjtable/+/state", 1), ("mjtable/+/availability", 1)])
        log.info("fleet: connected to %s", self.url)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.reach.disconnected(reason)
        if reason.is_failure:
            log.warning("fleet: lost the broker %s (%s); trying again every few seconds", self.url, reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        _, table_id, kind = message.topic.split("/", 2)
        problem = None
        value: Any = None
        if message.payload:
            try:
                value = read_availability(message.payload) if kind == "availability" else read_state(message.payload)
            except MjtableError as error:
                problem = str(error)
        with self._lock:
            said = self._record(table_id, kind, value, problem)
        if problem is not None and not said:
            log.warning("fleet: table %s: %s; its last good %s is kept", excerpt(table_id, 40), problem, kind)

    def _record(self, table_id: str, kind: str, value: Any, problem: str | None) -> bool:
        """Keep a good value or the problem; ``True`` when the same problem was already there (said once)."""
        table = self._tables.get(table_id)
        if table is None:
            if len(self._tables) >= MAX_TABLES:
                if not self._full:
                    log.warning("fleet: following %d tables already; table %s and any more are left out",
                                MAX_TABLES, excerpt(table_id, 40))  # fmt: skip
                self._full = True
                return True
            table = self._tables[table_id] = {"availability": "unknown", "state": None, "problem": None}
        problems = self._problems.setdefault(table_id, {})
        said = problems.get(kind) == problem
        if problem is None:
            table[kind] = value if value is not None or kind == "state" else "unknown"
            problems.pop(kind, None)
        else:
            problems[kind] = problem
        table["problem"] = "; ".join(problems.values()) or None
        if table == {"availability": "unknown", "state": None, "problem": None}:
            del self._tables[table_id], self._problems[table_id]
        return said


class FleetServer:
    """The parlor page, ``/api/tables`` and ``/api/broker`` on ``listen`` (HOST:PORT), until ``close``."""

    def __init__(self, listen: str, fleet: Fleet) -> None:
        handler = type("Handler", (_Handler,), {"fleet": fleet})
        self._server = GuardedServer(listen, handler, "fleet-http", "fleet --http").start()
        self.url = self._server.url

    def close(self) -> None:
        self._server.close()


class _Handler(JsonHandler):
    """The fleet's three pages; nothing to POST."""

    fleet: Fleet

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._send(HTTPStatus.OK, FLEET_PAGE.encode(), "text/html; charset=utf-8")
        elif path == "/api/tables":
            self._json(HTTPStatus.OK, self.fleet.tables())
        elif path == "/api/broker":
            self._json(HTTPStatus.OK, self.fleet.broker())
        else:
            self._json(HTTPStatus.NOT_FOUND, {"error": f"{excerpt(path, 80)}: no such page; try / or /api/tables"})

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
