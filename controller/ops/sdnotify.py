"""The systemd notify protocol (sd_notify(3)): one datagram of ``KEY=VALUE`` lines to ``$NOTIFY_SOCKET``.

Written here rather than taken from a library: the protocol is one ``sendto`` on a unix datagram socket (an
``@`` first means the abstract namespace), the maintained binding (python-systemd) needs libsystemd headers to
build, and the small pure-Python packages add nothing but a dependency. Without ``$NOTIFY_SOCKET`` (a terminal,
the tests, a non-systemd init) every call does nothing, so the service code calls it unconditionally.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends state changes to the service manager that started us, if any."""

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        path = environ.get("NOTIFY_SOCKET", "")
        self.address = "\0" + path[1:] if path.startswith("@") else path
        self.watchdog_s = _watchdog_period(environ)

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def notify(self, **fields: str) -> None:
        """``notify(READY="1", STATUS="...")``; a manager gone away is logged, never raised (we play on)."""
        if not self.address:
            return
        message = "\n".join(f"{key}={value}" for key, value in fields.items()).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message, self.address)
        except OSError as error:
            log.warning("sd_notify to %s failed: %s", self.address.lstrip("\0"), error)

    def ready(self, status: str) -> None:
        self.notify(READY="1", STATUS=status)

    def status(self, status: str) -> None:
        self.notify(STATUS=status)

    def watchdog(self) -> None:
        self.notify(WATCHDOG="1")

    def stopping(self, status: str) -> None:
        self.notify(STOPPING="1", STATUS=status)


def _watchdog_period(environ: Mapping[str, str]) -> float | None:
    """``$WATCHDOG_USEC`` in seconds when it is meant for this process (``$WATCHDOG_PID`` unset or ours)."""
    usec, pid = environ.get("WATCHDOG_USEC", ""), environ.get("WATCHDOG_PID", "")
    ours = not pid or pid == str(os.getpid())
    if not (usec.isascii() and usec.isdigit() and len(usec) < 20) or int(usec) == 0 or not ours:
        return None
    return int(usec) / 1e6
