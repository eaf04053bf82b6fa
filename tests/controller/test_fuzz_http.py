"""Fuzz the display's HTTP server on loopback (issue 16): random and mutated requests — methods, paths, versions,
headers, bodies, requests cut short (then closed, or held open), garbage bytes — eight clients at once while the
table's state changes. Each input gets exactly one answer (a status line, its headers and as many body bytes as
it says; an event stream: its head), none for a client that sent nothing; every 4xx/5xx is JSON naming the error;
no warning, no traceback; the server still answers afterwards and holds no socket nor thread of the flood."""

from __future__ import annotations

import json
import logging
import random
import resource
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from controller.display.view import TableView
from controller.display.web import DisplayServer
from tests.controller.test_display_guard import _sockets_on

TOKEN = "s3cret"
METHODS = [
    "GET",
    "GET",
    "GET",
    "POST",
    "POST",
    "HEAD",
    "PUT",
    "DELETE",
    "PATCH",
    "OPTIONS",
    "BREW",
    "get",
    "",
    "G\x00T",
]
PATHS = ["/", "/api/state", "/events", "/tiles/5m.png", "/tiles/8z.png", "/api/stop", "/api/resume", "/api/nope",
         "/nope", "*", "", "//", "/../../etc/passwd", "/tiles/..%2F..%2Fpage.py", "/api/state?x=1",
         "http://h/"]  # fmt: skip
VERSIONS = ["HTTP/1.0", "HTTP/1.1", "HTTP/1.1", "HTTP/2.0", "HTTP/0.9", "HTTP/1.1.1", "HTTP/x", "", "HTTP/01.0"]
HEADERS = ["Host: table", f"Authorization: Bearer {TOKEN}", "Authorization: Bearer guess", "Authorization: x",
           "Content-Length: 0", "Content-Length: 5", "Content-Length: -1", "Content-Length: 99999999999999999999",
           "Content-Length: 5000", "Content-Length: ٣", "Transfer-Encoding: chunked", "Expect: 100-continue",
           "Connection: keep-alive", "X-Long: " + "y" * 9000, ": no name", "no colon", " folded"]  # fmt: skip
SHAPES = ["whole"] * 12 + ["cut"] * 3 + ["garbage", "empty", "held"]


def _random_text(rng: random.Random, size: int) -> str:
    return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x3000)])) for _ in range(size))


def request(rng: random.Random) -> tuple[bytes, str]:
    """One input and its shape: ``whole``, ``cut`` (then the client closes its side), ``held`` (cut, left open),
    ``garbage`` (random bytes), ``empty`` (nothing sent)."""
    shape = rng.choice(SHAPES)
    if shape == "empty":
        return b"", shape
    if shape == "garbage":
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 3000))), shape
    path = rng.choice(PATHS)
    if rng.random() < 0.3:
        path += rng.choice(["?", "#", "%00", "%ff", "/x", _random_text(rng, rng.randint(1, 40)), "a" * 20_000])
    line = " ".join(part for part in (rng.choice(METHODS), path, rng.choice(VERSIONS)) if part or rng.random() < 0.5)
    headers = rng.sample(HEADERS, rng.randint(0, 4))
    if rng.random() < 0.2:
        headers.append(f"{_random_text(rng, rng.randint(1, 20))}: {_random_text(rng, rng.randint(0, 60))}")
    body = bytes(rng.randrange(256) for _ in range(rng.choice([0, 0, 5, rng.randint(0, 6000)])))
    data = "\r\n".join([line, *headers, "", ""]).encode("utf-8", errors="surrogatepass") + body
    if shape in ("cut", "held"):
        data = data[: rng.randint(1, max(1, data.index(b"\r\n\r\n") + 3))]
    return data, shape


def _read_answer(client: socket.socket, head_request: bool = False) -> tuple[bytes, bytes, bytes]:
    """The first answer's head and body, and whatever came after it (nothing, for one answer per request); the
    answer to a HEAD request has no body, whatever its Content-Length."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = client.recv(65536)
        if not chunk:
            return data, b"", b""
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    if b"text/event-stream" in head:
        return head, b"", b""  # the stream goes on: its head is the answer
    length = int(head.split(b"Content-Length: ", 1)[1].split(b"\r\n", 1)[0]) if b"Content-Length: " in head else 0
    while True:
        chunk = client.recv(65536)
        if not chunk:
            break
        rest += chunk
    if head_request:
        length = 0
    return head, rest[:length], rest[length:]


def _exchange(port: int, data: bytes, shape: str) -> tuple[bytes, bytes, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        try:
            client.sendall(data)
            if shape != "held":
                client.shutdown(socket.SHUT_WR)
        except OSError:  # the server answered (a 4xx) and closed before all of a long request was sent
            pass
        try:
            return _read_answer(client, data.startswith(b"HEAD "))
        except ConnectionResetError:
            raise AssertionError(f"reset without an answer: {data[:120]!r}") from None


def _check(data: bytes, shape: str, answer: tuple[bytes, bytes, bytes]) -> int:
    head, body, after = answer
    if not data:
        assert head == b"", "an answer to nothing"
        return 0
    assert head.startswith(b"HTTP/1.0 "), (data[:120], head[:120])
    status = int(head[9:12])
    assert 200 <= status < 600 and not after, (data[:120], head[:200], after[:80])
    if status >= 400 and body:
        assert b"Content-Type: application/json" in head, head
        error = json.loads(body)["error"]
        assert isinstance(error, str) and 0 < len(error) < 400, error
    return status


def _fuzz(count: int, seed: int, caplog, capfd) -> dict[int, int]:
    rng = random.Random(seed)
    inputs = [request(rng) for _ in range(count)]
    view = TableView()
    controls = {"stop": lambda: None, "resume": lambda: None}
    before = set(threading.enumerate())
    memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    server = DisplayServer("127.0.0.1:0", view, TOKEN, controls, request_s=0.3)
    port = int(server.url.rsplit(":", 1)[1])
    playing = threading.Event()

    def play() -> None:  # the table moves: event streams write, and notice a client gone
        hand = 0
        while not playing.wait(0.05):
            hand += 1
            view.on_line({"hand": hand, "wins": [], "drawn": True, "scores": [0, 0, 0, 0]})

    table = threading.Thread(target=play)
    table.start()
    statuses: dict[int, int] = {}
    try:
        with caplog.at_level(logging.WARNING), ThreadPoolExecutor(8) as clients:
            answers = clients.map(lambda item: _exchange(port, *item), inputs)
            for (data, shape), answer in zip(inputs, answers, strict=True):
                status = _check(data, shape, answer)
                statuses[status] = statuses.get(status, 0) + 1
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(b"GET /api/state HTTP/1.0\r\n\r\n")
            head, body, _ = _read_answer(client)
        assert head.startswith(b"HTTP/1.0 200") and json.loads(body)["version"] > 0, "the server died"
        deadline = time.monotonic() + 10
        while _sockets_on(port) > 1 and time.monotonic() < deadline:  # the listening socket alone
            time.sleep(0.05)
        assert _sockets_on(port) == 1, "sockets of the flood still held"
    finally:
        playing.set()
        table.join()
        server.close()
    assert set(threading.enumerate()) <= before, "threads left behind"
    assert [record.getMessage() for record in caplog.records] == []
    assert "Traceback" not in capfd.readouterr().err
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - memory) / 1024
    assert grown_mb < 200, f"the process grew by {grown_mb:.0f} MB"
    return statuses


def test_fuzz_http_requests(caplog, capfd):
    statuses = _fuzz(300, seed=16, caplog=caplog, capfd=capfd)
    assert sum(statuses.values()) == 300 and len(statuses) > 5  # the inputs reach many answers, not one refusal


@pytest.mark.slow
def test_fuzz_http_requests_10000(caplog, capfd):
    statuses = _fuzz(10_000, seed=1616, caplog=caplog, capfd=capfd)
    print("HTTP fuzz, 10,000 inputs, answers by status:", dict(sorted(statuses.items())))
    assert sum(statuses.values()) == 10_000
