"""The display's web server (stdlib ``http.server``): the page, ``GET /api/state`` (JSON), ``GET /events``
(server-sent events, one per change), ``GET /tiles/<tile>.png`` (the tile faces), and the control endpoints
``POST /api/stop`` and ``POST /api/resume`` (after a repair), which need the configured token.

Threads, like the bridge: one per connection, joined when the server stops (``close``), which first wakes every
event stream through the view. Bad requests get a 4xx with a JSON ``{"error": ...}`` naming the problem.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import re
import socket
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from controller.config import parse_listen
from controller.display.page import PAGE
from controller.display.view import TableView
from controller.errors import ConfigError

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0
MAX_STREAMS = 32
TILES = resources.files("controller.display") / "static" / "tiles"
"""The tile faces the page draws (package data; see static/tiles/SOURCE.txt)."""
TILE_IMAGE = re.compile(r"([1-9][mps]|[1-7]z|[1-8]f)\.png")


class DisplayServer:
    """Serves ``view``; ``controls[name]`` is called by an authorised ``POST /api/<name>``; ``token`` "" = none."""

    def __init__(
        self,
        listen: str,
        view: TableView,
        token: str,
        controls: dict[str, Callable[[], None]],
        max_streams: int = MAX_STREAMS,
    ) -> None:
        self.view = view
        self.token = token
        self.controls = controls
        self.streams = threading.BoundedSemaphore(max_streams)
        """Event streams open at once: each holds a thread, so a flood of pages gets 503s, not the Pi's memory."""
        handler = type("Handler", (_Handler,), {"server_state": self})
        try:
            self._server = ThreadingHTTPServer(parse_listen(listen), handler)
        except OSError as error:
            raise ConfigError(f"http.listen {listen}: {error.strerror}") from None
        self._server.daemon_threads = False
        self._thread = threading.Thread(target=self._server.serve_forever, name="display-http")
        self._thread.start()
        host, port = self._server.server_address[:2]
        self.url = f"http://{host}:{port}"
        log.info("display on %s", self.url)
        if token and not ipaddress.ip_address(socket.gethostbyname(host)).is_loopback:
            log.warning("the control endpoints answer on %s over plain HTTP: keep the token to trusted hands", host)

    def close(self) -> None:
        self.view.close()
        self._server.shutdown()
        self._server.server_close()  # joins the connection threads
        self._thread.join()


class _Handler(BaseHTTPRequestHandler):
    server_state: DisplayServer

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: HTTPStatus, data: dict[str, Any]) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode(), "application/json; charset=utf-8")

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._send(HTTPStatus.OK, PAGE.encode(), "text/html; charset=utf-8")
        elif path == "/api/state":
            self._json(HTTPStatus.OK, self.server_state.view.snapshot())
        elif path == "/events":
            self._stream()
        elif path.startswith("/tiles/"):
            self._tile(path.removeprefix("/tiles/"))
        elif path.removeprefix("/api/") in self.server_state.controls:
            self._json(HTTPStatus.METHOD_NOT_ALLOWED, {"error": f"{path}: use POST"})
        else:
            self._json(
                HTTPStatus.NOT_FOUND, {"error": f"{path}: no such page; try /, /api/state, /events, /tiles/5m.png"}
            )

    def _tile(self, name: str) -> None:
        """A tile face image; a name that is no tile in the notation (``5m.png``, ``7z.png``, ``1f.png``) is a 404."""
        if not TILE_IMAGE.fullmatch(name):
            self._json(HTTPStatus.NOT_FOUND, {"error": f"/tiles/{name}: no such tile; names are 1m.png-9s.png, "
                                              "1z.png-7z.png, 1f.png-8f.png"})  # fmt: skip
            return
        body = (TILES / name).read_bytes()
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=86400")
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        controls = self.server_state.controls
        control = controls.get(path.removeprefix("/api/"))
        if control is None:
            known = ", ".join(f"/api/{name}" for name in controls)
            self._json(HTTPStatus.NOT_FOUND, {"error": f"{path}: no such control; the controls are {known}"})
            return
        token = self.server_state.token
        given = self.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if not token:
            self._json(HTTPStatus.FORBIDDEN, {"error": "control is off: set http.token in the configuration"})
        elif not given:
            self._json(HTTPStatus.UNAUTHORIZED, {"error": "missing 'Authorization: Bearer <token>'"})
        elif not hmac.compare_digest(given.encode(), token.encode()):
            self._json(HTTPStatus.FORBIDDEN, {"error": "wrong token"})
        else:
            control()
            self._json(HTTPStatus.ACCEPTED, {"accepted": path})

    def do_PUT(self) -> None:
        self._json(
            HTTPStatus.METHOD_NOT_ALLOWED, {"error": f"{self.command} {self.path}: only GET and POST are served"}
        )

    do_DELETE = do_PATCH = do_PUT

    def _stream(self) -> None:
        streams = self.server_state.streams
        if not streams.acquire(blocking=False):
            self._json(HTTPStatus.SERVICE_UNAVAILABLE, {"error": "too many displays open; close one and reload"})
            return
        try:
            self._push()
        finally:
            streams.release()

    def _push(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        view = self.server_state.view
        version = -1
        try:
            while not view.closed:
                state = view.wait_newer(version, KEEPALIVE_S)
                if state is None:
                    chunk = ": keepalive\n\n"
                else:
                    version = state["version"]
                    chunk = f"data: {json.dumps(state, ensure_ascii=False)}\n\n"
                self.wfile.write(chunk.encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return
