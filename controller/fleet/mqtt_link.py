"""The table's link to the parlor's MQTT broker (paho-mqtt): availability, retained state, events, commands.

Topics under ``mjtable/<table_id>/``: ``availability`` (retained ``online``/``offline``, the last will
``offline``), ``state`` (retained JSON, the same object as ``GET /api/state``), ``event`` (each verdict and hand
result), ``cmd`` (commands with a request id) answered on ``cmd/reply``.

The control loop never waits for the broker: it only appends to a bounded outbox and sets a flag. One worker
thread publishes (the latest state only, so a burst of moves costs one message), paho's own thread does the
network and reconnects with backoff. Events go to paho only while connected and while fewer than ``queue`` of
ours await the broker's acknowledgement; the rest wait in the outbox, which drops (and counts) what exceeds
``queue``. So availability and state are never refused by a queue full of events: on every (re)connect the
table says ``online``, re-publishes its state first, then the events it kept, and a broker that restarted
without persistence catches up.
"""

from __future__ import annotations

import hmac
import json
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.config import MqttSection, parse_mqtt_url
from controller.errors import ConfigError
from controller.fleet.callbacks import Reach, excerpt, guarded
from controller.jsonin import read_json
from controller.service.events import Event
from controller.service.hand import HandState
from engine.actions import Verdict
from engine.errors import MjtableError

log = logging.getLogger(__name__)

Command = Callable[[dict[str, Any]], str]
"""A command's action: takes the request, returns what was done; a ``MjtableError`` refuses it."""

MAX_COMMAND = 16 * 1024
"""Bytes of a command message: a command is a few fields; a larger payload is refused before it is decoded."""
MAX_ID = 100
"""Characters of a command's string ``id`` (an integer ``id`` is at most 2**53 in size, as JSON numbers go)."""


class Topics:
    """The topics of one table: ``mjtable/<table_id>/availability``, ``state``, ``event``, ``cmd``, ``cmd/reply``."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.base = f"mjtable/{table_id}"
        self.availability = f"{self.base}/availability"
        self.state = f"{self.base}/state"
        self.event = f"{self.base}/event"
        self.cmd = f"{self.base}/cmd"
        self.reply = f"{self.base}/cmd/reply"


def table_id(section: MqttSection) -> str:
    return section.table_id or socket.gethostname()


def make_client(
    section: MqttSection, url: str, client_id: str, protocol: mqtt.MQTTProtocolVersion = mqtt.MQTTv311
) -> tuple[mqtt.Client, str, int]:
    """A paho client with the configured credentials and TLS, and the broker's host and port from ``url``.
    ``protocol``: the link speaks MQTT 3.1.1; ``mjtable doctor`` asks for 5, whose PUBACK says whether the ACL
    let a message through (a 3.1.1 broker acknowledges a denied one all the same)."""
    host, port, tls = parse_mqtt_url(url)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol)
    if section.username:
        client.username_pw_set(section.username, section.password or None)
    if tls:
        _set_tls(client, section)
    client.reconnect_delay_set(1, 5)  # a restarted broker is found again within 5 s
    return client, host, port


def _set_tls(client: mqtt.Client, section: MqttSection) -> None:
    """The TLS files of ``[mqtt]``; one that is missing or not PEM is a ``ConfigError`` naming its key."""
    files = {"ca_certs": section.ca_certs, "certfile": section.certfile, "keyfile": section.keyfile}
    for key, path in files.items():
        if path and not Path(path).is_file():
            raise ConfigError(f"mqtt.{key}: {path}: no such file")
    try:
        client.tls_set(**{key: path or None for key, path in files.items()})
    except OSError as error:  # ssl.SSLError is one: a file that is not PEM, a key that is not the certificate's
        raise ConfigError(f"mqtt.ca_certs, mqtt.certfile, mqtt.keyfile: not usable for TLS: {error}") from None


class MqttLink:
    """Publishes one table; ``state`` gives the current display state, ``commands`` maps names to actions."""

    def __init__(
        self,
        section: MqttSection,
        url: str,
        state: Callable[[], dict[str, Any]],
        commands: dict[str, Command],
    ) -> None:
        self.section = section
        self.topics = Topics(table_id(section))
        self.state = state
        self.commands = commands
        self.dropped = 0
        """Events the full outbox turned away (the broker was away, or slower than the table, for ``queue`` of them)."""
        self._outbox: deque[tuple[str, bytes]] = deque()
        self._state_due = True
        self._connected = False
        self._closing = False
        self._unacknowledged = 0
        self._cv = threading.Condition()
        self.client, self._host, self._port = make_client(section, url, f"mjtable-{self.topics.table_id}")
        self.reach = Reach(self.client, "fleet link", f"{self._host}:{self._port}")
        self.client.will_set(self.topics.availability, "offline", qos=1, retain=True)
        self.client.on_connect = guarded("fleet link", self._on_connect)
        self.client.on_disconnect = guarded("fleet link", self._on_disconnect)
        self.client.on_publish = guarded("fleet link", self._on_publish)
        self.client.message_callback_add(self.topics.cmd, guarded("fleet link", self._on_command))
        self._worker = threading.Thread(target=self._publish_loop, name="mqtt-publisher", daemon=True)

    # -- life cycle ------------------------------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background: a broker that is down does not keep the table from playing."""
        self.client.connect_async(self._host, self._port, keepalive=self.section.keepalive_s)
        self.client.loop_start()
        self._worker.start()
        log.info("fleet link: %s:%d as %s", self._host, self._port, self.topics.base)

    def close(self, timeout: float = 2.0) -> None:
        """Publish the last state and ``offline`` (retained), then disconnect; bounded by ``timeout``."""
        with self._cv:
            self._closing = True
            self._cv.notify_all()
        self._worker.join(timeout)
        if self._connected:
            info = self._publish(self.topics.availability, "offline", retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError) as error:  # paho: not queued, or the connection went meanwhile
                log.warning("fleet link: 'offline' not confirmed: %s", error)
        self.client.disconnect()
        self.client.loop_stop()
        unsent = len(self._outbox)
        if self.dropped or unsent:
            log.warning("fleet link: %d events dropped, %d unsent at the end", self.dropped, unsent)

    # -- fed by the control loop (never blocks) --------------------------------------------------------------

    def state_changed(self) -> None:
        with self._cv:
            self._state_due = True
            self._cv.notify()

    def publish_event(self, event: dict[str, Any]) -> None:
        self._enqueue(self.topics.event, {**event, "table": self.topics.table_id, "sent_at": time.time()})

    def on_event(self, hand: HandState, event: Event, verdict: Verdict | None) -> None:
        """A service listener: each verdict goes out as an event, and the state is due."""
        if verdict is not None:
            number, seen = hand.record.number, public_event(event)
            self.publish_event({"type": "verdict", "hand": number, "event": seen, "verdict": verdict.to_dict()})
        self.state_changed()

    def on_line(self, line: dict[str, Any]) -> None:
        """A line the service emits: a hand's result (``type`` hand), or a notice (a summary, a fault to repair)."""
        self.publish_event({"type": "hand" if "wins" in line else "notice", **line})
        self.state_changed()

    def _enqueue(self, topic: str, payload: dict[str, Any]) -> None:
        with self._cv:
            if len(self._outbox) >= self.section.queue:
                self.dropped += 1
                return
            self._outbox.append((topic, json.dumps(payload, ensure_ascii=False).encode()))
            self._cv.notify()

    # -- the publisher thread --------------------------------------------------------------------------------

    def _room(self) -> int:
        """Events paho may take now: none while disconnected, up to ``queue`` awaiting acknowledgement."""
        return max(0, self.section.queue - self._unacknowledged) if self._connected else 0

    def _publish_loop(self) -> None:
        while True:
            with self._cv:
                self._cv.wait_for(
                    lambda: self._closing or (self._connected and (self._state_due or (self._outbox and self._room())))
                )
                send_state = self._state_due and self._connected
                self._state_due = self._state_due and not send_state
                items = [self._outbox.popleft() for _ in range(min(len(self._outbox), self._room()))]
                closing = self._closing
            if send_state or (closing and self._connected):
                # QoS 0: paho sends a QoS 1 message again after a reconnect, which would let a stale state
                # overtake the current one this loop publishes on reconnect and become the retained state.
                state = json.dumps(self.state(), ensure_ascii=False)
                self._publish(self.topics.state, state, retain=True, qos=0)
            for topic, payload in items:
                self._publish(topic, payload)
            if closing:
                return

    def _publish(self, topic: str, payload: str | bytes, retain: bool = False, qos: int = 1) -> mqtt.MQTTMessageInfo:
        """Counted until the broker acknowledges it, or paho has sent it at QoS 0 (``_on_publish``)."""
        with self._cv:
            self._unacknowledged += 1
        return self.client.publish(topic, payload, qos=qos, retain=retain)

    # -- paho's thread ---------------------------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:  # paho tries again every few seconds: said once, until a connection succeeds
            self.reach.refused(reason)
            return
        self.reach.connected()
        with self._cv:  # paho sends again what the lost connection left unacknowledged; at most ``queue`` more
            self._unacknowledged = 0
        log.info("fleet link: connected; publishing %s", self.topics.base)
        self._publish(self.topics.availability, "online", retain=True)
        client.subscribe(self.topics.cmd, qos=1)
        with self._cv:
            self._connected = True
            self._state_due = True
            self._cv.notify()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        with self._cv:
            was, self._connected = self._connected, False
        self.reach.disconnected(reason)
        if was and not self._closing:
            log.warning("fleet link: disconnected (%s); the table plays on and catches up on reconnect", reason)

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        with self._cv:
            self._unacknowledged = max(0, self._unacknowledged - 1)
            self._cv.notify()

    def _on_command(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        """Every command message gets one reply (``"id": null`` when it names none) and one log line."""
        reply = answer_command(message.payload, self.section.command_token, self.commands)
        log.info("fleet command %s: %s", reply.get("cmd"), "ok" if reply["ok"] else reply["error"])
        self._enqueue(self.topics.reply, reply)


def public_event(event: Event) -> dict[str, Any]:
    """The event as the fleet may see it: the tile a player draws is concealed, so it is left out."""
    data = event.to_dict()
    action = data.get("action")
    if isinstance(action, dict) and action.get("kind") == "draw":
        data["action"] = {key: value for key, value in action.items() if key != "tile"}
    return data


class _Number(str):
    """A JSON number left as its text: the first reading of a command converts none (a 4,301-digit integer is
    ``ValueError`` for ``int``), so that the token is checked before anything can fail or cost."""


def _skim(payload: bytes) -> Any:
    """The command with every number as ``_Number`` text; a payload that is not JSON is the error ``read_json``
    names for it."""
    try:
        return json.loads(payload, parse_int=_Number, parse_float=_Number, parse_constant=_Number)
    except (ValueError, RecursionError):
        read_json(payload, "cmd")  # raises the named error (the same syntax fails the same way)
        raise MjtableError("cmd: not JSON") from None


def _reply_id(value: Any) -> str | int | None:
    """The request's ``id`` to echo: a string of at most ``MAX_ID`` characters or an integer up to 2**53."""
    if type(value) is str:  # a lone surrogate ("\ud800") is no text the reply could carry as UTF-8
        return value if len(value) <= MAX_ID and _utf8(value) else None
    if isinstance(value, _Number) and value.lstrip("-").isascii() and value.lstrip("-").isdigit() and len(value) < 17:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= 2**53:
        return value
    return None


def _utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def answer_command(payload: bytes, token: str, commands: dict[str, Command]) -> dict[str, Any]:
    """The reply to one command: ``{"id", "cmd", "ok": true, "detail"}`` or ``{"id", "cmd", "ok": false, "error"}``.
    A command needs ``"token"`` equal to ``mqtt.command_token``; with no token configured every command is refused
    (the broker's ACL is the first gate, the token the second). The token is read first, from a reading that
    converts no number; then the whole command is decoded. No payload, whatever it holds, raises: an action's own
    failure is the reply's error and one log line."""
    if len(payload) > MAX_COMMAND:
        return {"id": None, "cmd": None, "ok": False, "error": f"cmd: {len(payload)} bytes; at most {MAX_COMMAND}"}
    try:
        skimmed = _skim(payload)
    except MjtableError as error:
        return {"id": None, "cmd": None, "ok": False, "error": excerpt(error)}
    if not isinstance(skimmed, dict):
        error = 'cmd: expected an object such as {"id": "1", "cmd": "pause", "token": "..."}'
        return {"id": None, "cmd": None, "ok": False, "error": error}
    request_id, name, given = _reply_id(skimmed.get("id")), skimmed.get("cmd"), skimmed.get("token")
    known = type(name) is str and name in commands
    reply: dict[str, Any] = {"id": request_id, "cmd": name if known else None, "ok": False}
    if not token:
        return {**reply, "error": "refused: commands are off (set mqtt.command_token in the configuration)"}
    secret = token.encode()
    if type(given) is not str or not hmac.compare_digest(given.encode("utf-8", "surrogatepass"), secret):
        return {**reply, "error": "refused: missing or wrong cmd.token"}
    if request_id is None:
        return {**reply, "error": f"cmd.id: expected a string of at most {MAX_ID} characters or an integer"}
    if not known:
        got = excerpt(repr(name), 40)
        return {**reply, "error": f"cmd.cmd: expected one of {', '.join(sorted(commands))}, got {got}"}
    try:
        request = read_json(payload, "cmd")
    except (MjtableError, ValueError) as error:  # ValueError: int() refuses over 4,300 digits
        return {**reply, "error": excerpt(error if isinstance(error, MjtableError) else f"cmd: {error}")}
    try:
        return {**reply, "ok": True, "detail": commands[name](request)}
    except MjtableError as error:
        return {**reply, "error": excerpt(f"{name}: {error}", 300)}
    except Exception as error:  # a bug, or an input the action did not foresee: the link and the table go on
        log.error("fleet command %s failed: %s: %s", name, type(error).__name__, excerpt(error))
        return {**reply, "error": f"{name}: failed ({type(error).__name__}); the table's log has the details"}
