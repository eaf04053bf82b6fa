"""``mjtable doctor``'s broker check: the ``[mqtt]`` broker is reached, trusted, accepts the table's account, and
its ACL lets the table publish under its own topics. Each problem names the key to change.

The connection is made by ``mqtt_link.make_client``, so the host, port, TLS files and credentials are those the
service uses. Two differences, both deliberate:

- the client id is the service's with ``-doctor`` appended: a broker drops a client whose id connects again, so
  the service's own id would throw a running table off the broker (and publish its last will, ``offline``);
- the doctor speaks MQTT 5, where the broker's PUBACK carries a reason code: a 3.1.1 broker (Mosquitto
  included) acknowledges a publish its ACL dropped as if it went through, so only MQTT 5 can tell. A broker that
  refuses MQTT 5 is asked again in 3.1.1, which checks everything but the ACL, and says so.

The ACL probe: a retained QoS 1 message on ``mjtable/<table_id>/doctor``, then an empty retained message there,
which removes it; the probe also expires by itself after ``PROBE_EXPIRY_S`` should the doctor die in between.
It does not publish on ``availability`` or ``state``: that would overwrite what a running table retained there
and show the fleet page a table that is not. So it checks the ACL that README prescribes, which grants each
table its whole subtree (``topic readwrite mjtable/<table_id>/#``); an ACL listing single topics without
``doctor`` fails it.
"""

from __future__ import annotations

import socket
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from controller.config import MqttSection, parse_mqtt_url
from controller.errors import ControllerError
from controller.fleet.mqtt_link import Topics, make_client, table_id

TIMEOUT_S = 10.0
"""A broker on the parlor's network answers within a second; one that has not in this long is not reachable."""

PROBE_EXPIRY_S = 10
"""The retained probe's MQTT 5 message expiry: it cannot outlive a doctor killed before it removed it."""

PROBE = "doctor"
"""The probe's topic level, below the table's ``mjtable/<table_id>``."""

_REFUSED_ACCOUNT = {134, 135}  # CONNACK: bad user name or password, not authorized
_UNSUPPORTED_PROTOCOL = 132
_PLAIN_LISTENER = "is its listener plain MQTT? then mqtt://, not mqtts://."


@dataclass
class _Heard:
    """What paho's callbacks reported. They run in the doctor's own thread (``client.loop``): no locks."""

    connack: ReasonCode | None = None
    pubacks: dict[int, ReasonCode] = field(default_factory=dict)
    lost: bool = False


@dataclass(frozen=True)
class _Broker:
    """Where the check connects and how, which its messages name."""

    host: str
    port: int
    tls: bool
    section: MqttSection

    @property
    def where(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def check_broker(section: MqttSection, timeout: float = TIMEOUT_S) -> str:
    """What the broker of ``[mqtt] url`` said, or a ``ControllerError`` naming the key to change."""
    if not section.url:
        return "off (no [mqtt] url)"
    host, port, tls = parse_mqtt_url(section.url)
    broker = _Broker(host, port, tls, section)
    heard = _connect(broker, mqtt.MQTTv5, timeout)
    if heard.connack is not None and heard.connack.value == _UNSUPPORTED_PROTOCOL:
        _connect(broker, mqtt.MQTTv311, timeout)
        return f"{_found(broker)}; the broker speaks MQTT 3.1.1 only, so its ACL was not checked"
    base = Topics(table_id(section)).base
    return (
        f"{_found(broker)}; may publish under {base}/ (a retained QoS 1 probe on {base}/{PROBE} acknowledged, then "
        "removed)"
    )


def _found(broker: _Broker) -> str:
    section = broker.section
    tls = f"TLS, CA {section.ca_certs or 'of the system'}" if broker.tls else "plain MQTT, no TLS"
    return f"{broker.where}: connected ({tls}) as {_account(section)}"


def _connect(broker: _Broker, protocol: mqtt.MQTTProtocolVersion, timeout: float) -> _Heard:
    """Connect, and in MQTT 5 publish the probe; a CONNACK refusing MQTT 5 is returned, any other problem raised."""
    section = broker.section
    client, _, _ = make_client(section, section.url, f"mjtable-{table_id(section)}-doctor", protocol)
    heard = _Heard()
    client.on_connect = lambda c, u, flags, reason, p: setattr(heard, "connack", reason)
    client.on_publish = lambda c, u, mid, reason, p: heard.pubacks.__setitem__(mid, reason)
    client.on_disconnect = lambda c, u, flags, reason, p: setattr(heard, "lost", True)
    client.connect_timeout = timeout
    deadline = time.monotonic() + timeout
    try:
        _open(client, broker, timeout)
        if not _loop_until(client, heard, lambda: heard.connack is not None, deadline):
            if heard.lost:
                raise ControllerError(_closed_unanswered(broker))
            raise ControllerError(
                f"mqtt.url: {broker.where} took the connection but gave no MQTT answer within {timeout:g} s "
                "(not an MQTT broker, or one too busy to answer)"
            )
        assert heard.connack is not None
        if protocol == mqtt.MQTTv5 and heard.connack.value == _UNSUPPORTED_PROTOCOL:
            return heard  # check_broker asks again in 3.1.1
        _accepted(broker, heard.connack)
        if protocol == mqtt.MQTTv5:
            _probe(client, broker, heard, deadline)
        return heard
    finally:
        client.disconnect()
        client.loop(timeout=0.01)  # sends the DISCONNECT, closes the socket


def _open(client: mqtt.Client, broker: _Broker, timeout: float) -> None:
    """The TCP connection and the TLS handshake; each failure with the key that would fix it."""
    where = broker.where
    try:
        client.connect(broker.host, broker.port, keepalive=broker.section.keepalive_s)
    except ssl.SSLCertVerificationError as error:
        if "mismatch" in (error.verify_message or ""):
            raise ControllerError(
                f"mqtt.url: the certificate of {where} is for another host ({error.verify_message}): name the "
                "broker as its certificate does"
            ) from None
        raise ControllerError(
            f"mqtt.ca_certs: the certificate of {where} is not trusted ({error.verify_message}): set "
            f"mqtt.ca_certs to the CA that signed it (now {broker.section.ca_certs or 'the system CAs'})"
        ) from None
    except ssl.SSLError as error:
        raise ControllerError(
            f"mqtt.url: the TLS handshake with {where} failed ({error.reason or error}): {_PLAIN_LISTENER} Or does "
            "it want a client certificate (mqtt.certfile, mqtt.keyfile)?"
        ) from None
    except ConnectionRefusedError:
        raise ControllerError(
            f"mqtt.url: nothing listens on {where} (connection refused): is the broker running, is the port right?"
        ) from None
    except socket.gaierror as error:
        raise ControllerError(f"mqtt.url: the host {broker.host!r} is not known ({error.strerror})") from None
    except TimeoutError:
        raise ControllerError(
            f"mqtt.url: {where} did not answer within {timeout:g} s (the wrong host, or a firewall between)"
        ) from None
    except OSError as error:
        if broker.tls and isinstance(error, ConnectionResetError):  # a plain listener hangs up on a TLS hello
            raise ControllerError(f"mqtt.url: {where} hung up on the TLS handshake: {_PLAIN_LISTENER}") from None
        raise ControllerError(f"mqtt.url: cannot reach {where}: {error.strerror or error}") from None
    except ValueError as error:  # the resolver's: a name with an empty label, or too long
        raise ControllerError(f"mqtt.url: {broker.host!r} is not a host name ({error})") from None


def _closed_unanswered(broker: _Broker) -> str:
    if broker.tls:
        return f"mqtt.url: {broker.where} closed the connection without an MQTT answer"
    return (
        f"mqtt.url: {broker.where} closed the connection without an MQTT answer: does it speak TLS there? "
        "then mqtts:// (with mqtt.ca_certs)"
    )


def _accepted(broker: _Broker, connack: ReasonCode) -> None:
    section = broker.section
    if not connack.is_failure:
        return
    if connack.value in _REFUSED_ACCOUNT and section.username:
        raise ControllerError(
            f"mqtt.username, mqtt.password: {broker.where} refused user {section.username!r} ({connack}): "
            "check the password, and that the broker's password file holds the user"
        )
    if connack.value in _REFUSED_ACCOUNT:
        raise ControllerError(
            f"mqtt.username: {broker.where} refused an anonymous client ({connack}): set mqtt.username and "
            "mqtt.password to the table's account"
        )
    raise ControllerError(f"mqtt.url: {broker.where} refused the connection ({connack})")


def _probe(client: mqtt.Client, broker: _Broker, heard: _Heard, deadline: float) -> None:
    """Publish the retained probe and take it away again; the first PUBACK says whether the ACL let it in."""
    base = Topics(table_id(broker.section)).base
    topic = f"{base}/{PROBE}"
    expiry = Properties(PacketTypes.PUBLISH)
    expiry.MessageExpiryInterval = PROBE_EXPIRY_S
    for payload in (b"mjtable doctor", b""):  # an empty retained message removes the retained one
        mid = client.publish(topic, payload, qos=1, retain=True, properties=expiry).mid
        if not _loop_until(client, heard, partial(heard.pubacks.__contains__, mid), deadline) and not heard.lost:
            raise ControllerError(f"mqtt.table_id: {broker.where} did not acknowledge a message on {topic} in time")
        reason = heard.pubacks.get(mid)
        if reason is None or reason.is_failure:  # some brokers close the connection of a client the ACL refuses
            what = reason or "the broker closed the connection"
            raise ControllerError(
                f"mqtt.table_id: the broker's ACL does not let {_account(broker.section)} publish on {topic} "
                f"({what}): the table's availability and state would be dropped; grant it "
                f"'topic readwrite {base}/#' in the broker's acl_file"
            )


def _account(section: MqttSection) -> str:
    return f"user {section.username!r}" if section.username else "an anonymous client"


def _loop_until(client: mqtt.Client, heard: _Heard, done: Callable[[], bool], deadline: float) -> bool:
    """Run paho's network loop here until ``done`` (True), the connection is lost (``heard.lost``), or the deadline."""
    while not done() and not heard.lost and time.monotonic() < deadline:
        if client.loop(timeout=min(0.1, max(0.0, deadline - time.monotonic()))) != mqtt.MQTT_ERR_SUCCESS:
            heard.lost = True
    return done()
