"""The HTTP server under the display and the fleet page (stdlib ``http.server``), guarded against clients that
never finish, never read, or come by the thousand.

- A connection has ``REQUEST_S`` to send its request (head and body: a request half-sent and left open is answered
  ``408`` and closed, as is one that sends nothing for ``IDLE_S``) and ``ANSWER_S`` to take the answer; only an
  event stream lives on, and its writes time out after ``IDLE_S`` with a client that stopped reading.
- At most ``max_connections`` at once, each with its thread and socket: when full, the oldest connection still
  sending its request makes room (a page asks in one packet, a flood of half-sent requests dribbles); when none
  does, the newcomer gets a ``503``. So a flood costs a bounded number of file descriptors and threads, and the page
  stays reachable.
- Out of file descriptors anyway (``EMFILE``: the process's other files), accepting backs off (``BACKOFF_S``,
  doubling to a second) instead of spinning a core on a listening socket that stays readable.
- ``close`` wakes nothing itself (the display wakes its streams first), shuts every connection's socket, and
  waits at most ``CLOSE_S`` for their threads (daemon threads: a stuck one cannot hold the process), so SIGTERM
  stops the table at once whatever the clients do.
- A client that goes away mid-answer is one line at DEBUG; any other error in a handler is one line at ERROR and
  a ``500``; bad requests get their 4xx as JSON ``{"error": ...}``, never an HTML page or a traceback.

HTTP/1.0: one request per connection, so the deadlines are per request.
"""

from __future__ import annotations

import contextlib
import errno
import http.client
import io
import json
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from controller.config import parse_listen
from controller.errors import ConfigError

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 64
REQUEST_S = 10.0
ANSWER_S = 30.0
IDLE_S = 10.0
CLOSE_S = 2.0
BACKOFF_S = 0.05
MAX_HEAD = 16 * 1024
"""Bytes of request line and headers (stdlib alone would take 100 headers of 64 KiB each, per connection)."""
MAX_BODY = 4 * 1024
"""Bytes of a request body (the controls take none; a small one is read and ignored)."""
LINGER_S = 0.5
LINGER_BYTES = 64 * 1024
"""After its answer, what a client still sends is read and dropped for at most this long and this much
(``JsonHandler.finish``)."""
OUT_OF_FILES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


@dataclass(eq=False)
class _Connection:
    sock: socket.socket
    deadline: float | None
    reading: bool = True
    head: bool = False
    """The request began ``HEAD ``: a timeout's answer to it carries no body either."""
    dropped: bool = False
    thread: threading.Thread | None = field(default=None, repr=False)


def _send_now(sock: socket.socket, data: bytes) -> None:
    """Best effort without blocking: a few hundred bytes fit in any fresh socket's buffer."""
    with contextlib.suppress(OSError):
        sock.send(data, socket.MSG_DONTWAIT)


def _plain(status: HTTPStatus, error: str, *, head_only: bool = False) -> bytes:
    body = json.dumps({"error": error}).encode()
    head = f"HTTP/1.0 {status.value} {status.phrase}\r\nContent-Type: application/json\r\n"
    return (head + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + (b"" if head_only else body)


class GuardedServer(ThreadingHTTPServer):
    """Serves ``handler`` on ``listen`` (HOST:PORT) in its own thread from ``start`` until ``close``."""

    daemon_threads = True
    block_on_close = False  # close() joins with a bound instead
    request_queue_size = 128
    allow_reuse_address = True  # as ThreadingHTTPServer: a restart binds while the last run's sockets TIME-WAIT

    def __init__(self, listen: str, handler: type[BaseHTTPRequestHandler], name: str, key: str, **limits: Any) -> None:
        """``key`` names the setting in errors (``http.listen``); ``limits`` override the module's bounds in tests:
        ``max_connections``, ``request_s``, ``answer_s``."""
        self.max_connections: int = limits.pop("max_connections", MAX_CONNECTIONS)
        self.request_s: float = limits.pop("request_s", REQUEST_S)
        self.answer_s: float = limits.pop("answer_s", ANSWER_S)
        if limits:
            raise TypeError(f"unknown limits {sorted(limits)}")
        self.name = name
        self._lock = threading.Lock()
        self._connections: dict[socket.socket, _Connection] = {}
        self._closing = threading.Event()
        self._backoff = 0.0
        try:
            super().__init__(parse_listen(listen), handler)
        except OSError as error:
            raise ConfigError(f"{key} {listen}: {error.strerror or error}") from None
        self._thread = threading.Thread(target=self.serve_forever, name=name)
        host, port = self.server_address[:2]
        self.url = f"http://{host}:{port}"

    def start(self) -> GuardedServer:
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop accepting, cut every connection, wait at most ``CLOSE_S`` for their threads."""
        self._closing.set()
        if self._thread.is_alive():
            self.shutdown()
            self._thread.join()
        with self._lock:
            connections = list(self._connections.values())
            for connection in connections:
                self._drop(connection)
        deadline = time.monotonic() + CLOSE_S
        for connection in connections:
            if connection.thread is not None:
                connection.thread.join(max(0.0, deadline - time.monotonic()))
        left = sum(1 for c in connections if c.thread is not None and c.thread.is_alive())
        if left:
            log.warning("%s: %d connection threads still busy at close; left to exit with the process", self.name, left)
        self.server_close()

    # -- accepting -----------------------------------------------------------------------------------------------

    def get_request(self) -> tuple[socket.socket, Any]:
        """``accept``, backing off while the process is out of file descriptors (the stdlib loop would retry at
        once, forever: the pending connection keeps the listening socket readable)."""
        try:
            request = super().get_request()
        except OSError as error:
            if error.errno in OUT_OF_FILES:
                if not self._backoff:
                    log.warning("%s: cannot accept (%s); trying again with backoff", self.name, error.strerror)
                self._backoff = min(1.0, self._backoff * 2 or BACKOFF_S)
                self._closing.wait(self._backoff)
            raise
        if self._backoff:
            log.warning("%s: accepting again", self.name)
            self._backoff = 0.0
        return request

    def process_request(self, request: Any, client_address: Any) -> None:
        """Room for the newcomer (or a ``503``, sent outside the lock: ``shutdown_request`` takes it), then its
        daemon thread."""
        with self._lock:
            live = [c for c in self._connections.values() if not c.dropped]
            readers = [c for c in live if c.reading]
            full = len(live) >= self.max_connections
            refused = full and (not readers or len(self._connections) >= 2 * self.max_connections)
            if not refused:
                if full:
                    slowest = min(readers, key=lambda c: c.deadline or 0.0)
                    self._drop(slowest, "the server is full and this request was the slowest to arrive")
                connection = _Connection(request, time.monotonic() + self.request_s)
                self._connections[request] = connection
                connection.thread = threading.Thread(
                    target=self.process_request_thread, args=(request, client_address), name=f"{self.name}-conn"
                )
                connection.thread.daemon = True
        if refused:
            _send_now(request, _plain(HTTPStatus.SERVICE_UNAVAILABLE, "too many connections; try again"))
            self.shutdown_request(request)
        else:
            connection.thread.start()

    def shutdown_request(self, request: Any) -> None:
        with self._lock:
            self._connections.pop(request, None)
        super().shutdown_request(request)

    # -- deadlines (the serving thread, about twice a second) --------------------------------------------------

    def service_actions(self) -> None:
        now = time.monotonic()
        with self._lock:
            for connection in list(self._connections.values()):
                if not connection.dropped and connection.deadline is not None and connection.deadline < now:
                    self._drop(connection, f"the request did not arrive within {self.request_s:g} s")

    def asked_head(self, sock: socket.socket) -> None:
        """The request on ``sock`` began ``HEAD ``, whatever may still be missing of it."""
        with self._lock:
            connection = self._connections.get(sock)
            if connection is not None:
                connection.head = True

    def answering(self, sock: socket.socket, stream: bool = False) -> None:
        """The handler has read its request and answers: the answer's deadline, none for an event stream."""
        with self._lock:
            connection = self._connections.get(sock)
            if connection is not None and not connection.dropped:
                connection.reading = False
                connection.deadline = None if stream else time.monotonic() + self.answer_s

    def _drop(self, connection: _Connection, why: str = "") -> None:
        """Shut the socket (the handler's next read or write ends it); one still reading its request hears why."""
        if connection.dropped:
            return
        connection.dropped = True
        if why and connection.reading:
            _send_now(connection.sock, _plain(HTTPStatus.REQUEST_TIMEOUT, why, head_only=connection.head))
        with contextlib.suppress(OSError):
            connection.sock.shutdown(socket.SHUT_RDWR)

    # -- errors ------------------------------------------------------------------------------------------------

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that left (broken pipe, reset, timeout) is no error; anything else is one line, no traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            log.debug("%s: %s: %s", self.name, client_address, error)
        else:
            log.error("%s: %s: %s: %s", self.name, client_address, type(error).__name__, error)


class _FirstBytes(io.RawIOBase):
    """The socket as the handler reads it, telling ``on_head`` as soon as the request's first bytes say ``HEAD ``:
    the guard may answer a request cut short while its first line is still unread (a ``408`` without a body). It
    also keeps the read that timed out, which the stdlib's ``handle_one_request`` swallows unanswered."""

    def __init__(self, raw: io.RawIOBase, on_head: Callable[[], None]) -> None:
        self._raw = raw
        self._on_head = on_head
        self._first = b""
        self.head = False
        """The request began ``HEAD ``."""
        self.timed_out = False
        """A read of the request waited the handler's ``timeout`` for the client's next byte."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        try:
            count = self._raw.readinto(buffer)
        except TimeoutError:
            self.timed_out = True
            raise
        if count and len(self._first) < 5:
            self._first += bytes(buffer[: min(count, 5 - len(self._first))])
            if self._first == b"HEAD ":
                self.head = True
                self._on_head()
        return count

    def close(self) -> None:
        self._raw.close()
        super().close()


class _Head:
    """The request's reader with a byte budget: a head over ``MAX_HEAD`` is refused, never held in memory."""

    def __init__(self, raw: Any, budget: int) -> None:
        self._raw = raw
        self.budget = budget

    def readline(self, limit: int = -1) -> bytes:
        allowed = self.budget if limit < 0 else min(limit, self.budget)
        line: bytes = self._raw.readline(allowed)
        self.budget -= len(line)
        if self.budget <= 0 and not line.endswith(b"\n"):
            raise http.client.LineTooLong(f"request head over {MAX_HEAD} bytes")
        return line

    def read(self, size: int) -> bytes:
        data: bytes = self._raw.read(size)
        return data

    def close(self) -> None:
        self._raw.close()


class JsonHandler(BaseHTTPRequestHandler):
    """Answers and errors as JSON, deadlines reported to the ``GuardedServer``; subclasses add ``do_GET`` ..."""

    server: GuardedServer
    timeout = IDLE_S
    default_request_version = "HTTP/1.0"  # a garbled request line is answered with a status line too
    error_content_type = "application/json"

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the stdlib's reader, replaced by one that notices a HEAD at its first bytes
        self._first_bytes = _FirstBytes(
            socket.SocketIO(self.connection, "rb"), lambda: self.server.asked_head(self.connection)
        )
        self.rfile = _Head(io.BufferedReader(self._first_bytes), MAX_HEAD)  # type: ignore[assignment]

    def finish(self) -> None:
        """The answer sent and the sending side shut, what the client still sends is read and dropped (``LINGER_S``,
        ``LINGER_BYTES``) before the socket closes: closed with unread bytes, a socket resets the connection, and a
        client answered before it finished sending (a ``431`` over a long header) lost its answer to the reset."""
        super().finish()
        end, left = time.monotonic() + LINGER_S, LINGER_BYTES
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)
            while left > 0 and (wait := end - time.monotonic()) > 0:
                self.connection.settimeout(wait)
                chunk = self.connection.recv(min(left, 65536))
                if not chunk:
                    break
                left -= len(chunk)

    def handle_one_request(self) -> None:
        """One request, one answer: a head over the budget is a ``431``, a request that stops coming a ``408`` (as
        the guard's deadline answers it), a bug in a handler a ``500`` and one ERROR line; a connection closed before
        a byte was sent gets none."""
        self._answered = False
        self.raw_requestline = b""  # set by the stdlib once its readline returns, which a timeout cuts short
        self.command, self.path, self.requestline = "", "", ""  # set by parse_request, which a 431 may precede
        self.request_version = self.default_request_version
        try:
            super().handle_one_request()  # a read that timed out is its DEBUG line, and it returns unanswered
            if self._answered:
                return
            if self._first_bytes.timed_out:
                self.send_error(HTTPStatus.REQUEST_TIMEOUT, f"no byte of the request came for {self.timeout:g} s")
            elif self.raw_requestline:  # the stdlib leaves a blank request line unanswered
                self.send_error(HTTPStatus.BAD_REQUEST, "empty request line")
        except http.client.LineTooLong as error:
            self.close_connection = True
            self.send_error(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, str(error))
        except OSError:
            raise  # the client left: handle_error's DEBUG line
        except Exception as error:
            self.close_connection = True
            log.error("%s: %s %.80s: %s: %s", self.server.name, self.command, self.path, type(error).__name__, error)
            if not self._answered:
                self.send_error(HTTPStatus.INTERNAL_SERVER_ERROR, "the server failed on this request; see its log")

    def parse_request(self) -> bool:
        """The stdlib's parsing, less HTTP/0.9: its answers carry no status line or headers, so an event stream
        asked for that way would be an endless body no client can tell from an error."""
        if not super().parse_request():
            return False
        if self.request_version == "HTTP/0.9":
            self.request_version = self.default_request_version
            self.send_error(HTTPStatus.HTTP_VERSION_NOT_SUPPORTED, "HTTP/0.9 is not served; send HTTP/1.0 or 1.1")
            return False
        return True

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    def send_response(self, code: int, message: str | None = None) -> None:
        if self.request_version == "HTTP/0.9":  # refused after the version was read: still a status line and headers
            self.request_version = self.default_request_version
        self._answered = True
        self.server.answering(self.connection)
        super().send_response(code, message)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The stdlib's error page as JSON: ``{"error": "400 Bad request version ('X')"}``."""
        status = HTTPStatus(code)
        text = f"{code} {message or status.phrase}" + (f": {explain}" if explain and explain != message else "")
        self.close_connection = True
        self._json(status, {"error": text[:300]})

    def _send(self, status: HTTPStatus, body: bytes, content_type: str, *headers: tuple[str, str]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if not self._asked_head():
            self.wfile.write(body)

    def _asked_head(self) -> bool:
        """A HEAD request, also one refused before its command was parsed (an answer to it has no body)."""
        return self.command == "HEAD" or (not self.command and self._first_bytes.head)

    def _json(self, status: HTTPStatus, data: dict[str, Any]) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode(), "application/json; charset=utf-8")

    body: bytes = b""
    """The request body ``read_body`` read (the display's inputs take a small JSON object)."""

    def read_body(self) -> bool:
        """Read the request body into ``body`` (most endpoints ignore it); ``False`` once a 4xx answered a bad
        length."""
        if "Transfer-Encoding" in self.headers:
            self._json(HTTPStatus.NOT_IMPLEMENTED, {"error": "Transfer-Encoding is not served; send Content-Length"})
            return False
        text = self.headers.get("Content-Length", "0").strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            self._json(HTTPStatus.BAD_REQUEST, {"error": f"Content-Length: expected bytes 0-{MAX_BODY}"})
            return False
        if int(text) > MAX_BODY:
            self._json(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": f"Content-Length {text}: at most {MAX_BODY} bytes"}
            )
            return False
        self.body = self.rfile.read(int(text))
        return True

    def do_PUT(self) -> None:
        self._json(
            HTTPStatus.METHOD_NOT_ALLOWED, {"error": f"{self.command} {self.path[:80]}: only GET and POST are served"}
        )

    do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_PUT
