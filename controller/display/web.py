"""The display's web server: the pages (``/`` the live table, ``/history``, ``/overlay``; their scripts and styles
under ``/static/``), ``GET /api/state`` (JSON), ``GET /api/history`` (the finished hands), ``GET /events``
(server-sent events, one per change), ``GET /tiles/<tile>.png`` (the tile faces), and the control endpoints
``POST /api/stop`` and ``POST /api/resume`` (after a repair), which need the configured token; so do the inputs,
which take a JSON object (``POST /api/correct``: a seat's correction of an unsure reading,
``controller.people.watch.Corrections``).

The connections, their deadlines and bounds are ``controller.display.httpd``'s; closing first wakes every event
stream through the view. Bad requests get a 4xx with a JSON ``{"error": ...}`` naming the problem.
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
from importlib import resources

from controller.display.httpd import GuardedServer, JsonHandler
from controller.display.view import TableView

log = logging.getLogger(__name__)

KEEPALIVE_S = 15.0
MAX_STREAMS = 32
TILES = resources.files("controller.display") / "static" / "tiles"
"""The tile faces the page draws (package data; see static/tiles/SOURCE.txt)."""
TILE_IMAGE = re.compile(r"((?:10|[0-9])[mps]|[1-7]z|[1-8]f)\.png")
"""The faces: the notation's tiles, riichi's red fives (``0m 0p 0s``) and 十万's tens (``10m 10p 10s``: 十万 writes
them ``0m``, which the page asks for as ``10m`` where suits have ten ranks)."""
STATIC = resources.files("controller.display") / "static"
PAGES = {"/": "table.html", "/history": "history.html", "/overlay": "overlay.html"}
"""The pages (package data in static/): the table-shaped live view, the match's hands with a plot of the scores,
and a read-only view with a transparent background for a stream."""
ASSET = re.compile(r"[a-z]+\.(js|css)")
STYLE_LINK = re.compile(r'<link rel="stylesheet" href="/static/([a-z]+\.css)">')
ASSET_TYPES = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}


def excerpt(text: str, limit: int = 80) -> str:
    """At most ``limit`` characters of what a client sent, for an error that names it."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def page(name: str) -> bytes:
    """A page with its style sheet written into it: the browser paints once the HTML is in, without asking for the
    style first (the scripts, at the end of the page, load while it paints). Read per request: a few kilobytes."""
    html = (STATIC / name).read_text(encoding="utf-8")
    return STYLE_LINK.sub(
        lambda link: f"<style>{(STATIC / link[1]).read_text(encoding='utf-8')}</style>", html
    ).encode()


class DisplayServer:
    """Serves ``view``; ``controls[name]`` is called by an authorised ``POST /api/<name>``, ``inputs[name]`` with its
    JSON body (a ``ValueError`` is the client's 400); ``token`` "" = none. ``limits`` (tests): ``GuardedServer``'s
    ``max_connections``, ``request_s``, ``answer_s``."""

    def __init__(
        self,
        listen: str,
        view: TableView,
        token: str,
        controls: dict[str, Callable[[], None]],
        max_streams: int = MAX_STREAMS,
        inputs: dict[str, Callable[[dict], None]] | None = None,
        **limits: float,
    ) -> None:
        self.view = view
        self.token = token
        self.inputs = inputs or {}
        self.controls: dict[str, Callable[[], None]] = {
            **controls,
            **{name: _unused for name in self.inputs},  # known names: a GET is told to POST
        }
        self.streams = threading.BoundedSemaphore(max_streams)
        """Event streams open at once: each holds a thread, so a flood of pages gets 503s, not the Pi's memory."""
        handler = type("Handler", (_Handler,), {"server_state": self})
        self._server = GuardedServer(listen, handler, "display-http", "http.listen", **limits).start()
        self.url = self._server.url
        host = self._server.server_address[0]
        log.info("display on %s", self.url)
        if token and not ipaddress.ip_address(socket.gethostbyname(host)).is_loopback:
            log.warning("the control endpoints answer on %s over plain HTTP: keep the token to trusted hands", host)

    def close(self) -> None:
        """Wake the event streams, then stop the server (bounded: see ``GuardedServer.close``)."""
        self.view.close()
        self._server.close()


def _unused() -> None:  # pragma: no cover - an input is called with its body, never as a control
    raise AssertionError("an input is taken with its body")


class _Handler(JsonHandler):
    server_state: DisplayServer

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path in PAGES:
            self._send(HTTPStatus.OK, page(PAGES[path]), "text/html; charset=utf-8")
        elif path.startswith("/static/"):
            self._asset(path.removeprefix("/static/"))
        elif path == "/api/history":
            self._json(HTTPStatus.OK, {"hands": self.server_state.view.history()})
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
                HTTPStatus.NOT_FOUND,
                {"error": f"{excerpt(path)}: no such page; try /, /history, /overlay, /api/state, /tiles/5m.png"},
            )

    def _asset(self, name: str) -> None:
        """A script or style sheet of the pages; only the package's own files (a plain name, no path)."""
        found = ASSET.fullmatch(name)
        if found is None or not (STATIC / name).is_file():
            self._json(HTTPStatus.NOT_FOUND, {"error": f"/static/{excerpt(name)}: no such file"})
            return
        self._send(HTTPStatus.OK, (STATIC / name).read_bytes(), ASSET_TYPES[found[1]])

    def _tile(self, name: str) -> None:
        """A tile face image (``5m.png``, ``7z.png``, ``1f.png``, a red five ``0p.png``, a ten ``10s.png``); any other
        name is a 404 naming the names there are."""
        if not TILE_IMAGE.fullmatch(name):
            self._json(HTTPStatus.NOT_FOUND, {"error": f"/tiles/{excerpt(name)}: no such tile; names are "
                                              "1m.png-9s.png, 1z.png-7z.png, 1f.png-8f.png, red fives 0m.png 0p.png "
                                              "0s.png, tens 10m.png 10p.png 10s.png"})  # fmt: skip
            return
        self._send(HTTPStatus.OK, (TILES / name).read_bytes(), "image/png", ("Cache-Control", "max-age=86400"))

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        controls = self.server_state.controls
        control = controls.get(path.removeprefix("/api/"))
        if not self.read_body():
            return
        if control is None:
            known = ", ".join(f"/api/{name}" for name in controls)
            self._json(HTTPStatus.NOT_FOUND, {"error": f"{excerpt(path)}: no such control; the controls are {known}"})
            return
        token = self.server_state.token
        given = self.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if not token:
            self._json(HTTPStatus.FORBIDDEN, {"error": "control is off: set http.token in the configuration"})
        elif not given:
            self._json(HTTPStatus.UNAUTHORIZED, {"error": "missing 'Authorization: Bearer <token>'"})
        elif not hmac.compare_digest(given.encode(), token.encode()):
            self._json(HTTPStatus.FORBIDDEN, {"error": "wrong token"})
        elif path.removeprefix("/api/") in self.server_state.inputs:
            self._input(path, self.server_state.inputs[path.removeprefix("/api/")])
        else:
            control()
            self._json(HTTPStatus.ACCEPTED, {"accepted": path})

    def _input(self, path: str, take: Callable[[dict], None]) -> None:
        """An input's JSON body, checked by ``take``: any problem is a 400 naming it."""
        try:
            body = json.loads(self.body.decode("utf-8") or "null")
            if not isinstance(body, dict):
                raise ValueError(f"{path}: expected a JSON object as the body")
            take(body)
        except UnicodeDecodeError:
            self._json(HTTPStatus.BAD_REQUEST, {"error": f"{path}: the body is not UTF-8"})
        except json.JSONDecodeError as error:
            self._json(HTTPStatus.BAD_REQUEST, {"error": f"{path}: the body is not JSON ({error.msg} at {error.pos})"})
        except ValueError as error:
            self._json(HTTPStatus.BAD_REQUEST, {"error": excerpt(str(error), 200)})
        else:
            self._json(HTTPStatus.ACCEPTED, {"accepted": path})

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
        self.server.answering(self.connection, stream=True)
        view = self.server_state.view
        version = -1
        while not view.closed:  # a client gone is an OSError: the server's one DEBUG line
            state = view.wait_newer(version, KEEPALIVE_S)
            if state is None:
                chunk = ": keepalive\n\n"
            else:
                version = state["version"]
                chunk = f"data: {json.dumps(state, ensure_ascii=False)}\n\n"
            self.wfile.write(chunk.encode())
            self.wfile.flush()
