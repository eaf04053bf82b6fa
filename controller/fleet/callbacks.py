"""paho's callbacks made safe, and the broker's reachability said aloud, for the table's link and the fleet.

paho runs every callback on its one network thread, and an exception a callback raises ends that thread for good:
no more messages, replies or reconnects, and nothing said. So each callback body is ``guarded`` (one ERROR line,
the thread goes on), and ``suppress_exceptions`` is set as well in case one is not. paho also retries an
unreachable broker without a word: ``Reach`` says it once per outage, with the error, and once when it is back.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

log = logging.getLogger(__name__)

RETRY = "trying again every few seconds"


def excerpt(text: object, limit: int = 160) -> str:
    """At most ``limit`` characters of a text that came from outside (an error may quote a whole payload)."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def guarded(where: str, callback: Callable[..., None]) -> Callable[..., None]:
    """``callback`` that logs any exception in one ERROR line naming ``where`` instead of raising into paho."""

    @functools.wraps(callback)
    def run(*args: Any) -> None:
        try:
            callback(*args)
        except Exception as error:
            log.error("%s: %s failed: %s: %s", where, callback.__name__, type(error).__name__, excerpt(error))

    return run


class Reach:
    """Whether ``client`` reaches the broker at ``where`` (``host:port``), said in the log once per change:
    ``<who>: cannot reach the broker <where> (<error>); trying again every few seconds``, then ``connected``.
    The owner calls ``connected`` and ``disconnected`` from its own ``on_connect`` / ``on_disconnect``."""

    def __init__(self, client: mqtt.Client, who: str, where: str) -> None:
        self.who = who
        self.where = where
        self.error: str | None = "not connected yet"
        """Why the broker is not reached now; ``None`` while connected."""
        self._said = False
        self._last: OSError | None = None
        connect = client.reconnect

        def reconnect() -> mqtt.MQTTErrorCode:  # paho swallows the error of a failed attempt: keep it to say
            try:
                return connect()
            except OSError as error:
                self._last = error
                raise

        client.reconnect = reconnect  # type: ignore[method-assign]
        client.on_connect_fail = guarded(who, self._failed)
        client.suppress_exceptions = True

    def _failed(self, client: mqtt.Client, userdata: Any) -> None:
        error = self._last
        self.error = excerpt(error.strerror or error) if error is not None else "no answer"
        if not self._said:
            log.warning("%s: cannot reach the broker %s (%s); %s", self.who, self.where, self.error, RETRY)
            self._said = True

    def connected(self) -> None:
        self.error = None
        self._said = False

    def disconnected(self, reason: object) -> None:
        self.error = f"disconnected ({excerpt(reason)})"

    def refused(self, reason: object) -> None:
        """The broker answered and refused (credentials, ACL): said once until a connection succeeds."""
        self.error = f"refused the connection: {excerpt(reason)}"
        if not self._said:
            log.error("%s: the broker %s %s; %s", self.who, self.where, self.error, RETRY)
            self._said = True
