"""The display's HTTP server against clients that never finish, never read, leave mid-way or come by the thousand
(issue 16): every request one answer, SIGTERM at once, a bounded number of sockets, no spinning, no traceback.
Everything on loopback; every flood is bounded and stops by itself."""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from controller.display.httpd import MAX_CONNECTIONS, MAX_HEAD, JsonHandler
from controller.display.view import TableView
from controller.display.web import DisplayServer
from tests.controller.fleet_harness import free_port

HALF = b"GET /api/state HTTP/1.1\r\nHost: table\r\n"  # no blank line: the request never ends


def _port(server: DisplayServer) -> int:
    return int(server.url.rsplit(":", 1)[1])


def _connect(port: int, data: bytes = b"") -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=10)
    if data:
        client.sendall(data)
    return client


def _answer(port: int, data: bytes) -> bytes:
    """Everything the server sends back for ``data`` (the client then closes its side) until it closes."""
    with _connect(port, data) as client:
        client.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := client.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _refused_or_answered(port: int) -> bytes:
    """What the server sends for a GET until it closes: a 503 comes, and the socket closes, before the request
    is sent (so the client does not half-close: its socket may be gone already)."""
    with _connect(port) as client:
        with contextlib.suppress(OSError):
            client.sendall(b"GET /api/state HTTP/1.0\r\n\r\n")
        chunks = []
        with contextlib.suppress(ConnectionResetError):
            while chunk := client.recv(65536):
                chunks.append(chunk)
    return b"".join(chunks)


def _status(answer: bytes) -> int:
    assert answer.startswith(b"HTTP/1.0 "), answer[:80]
    return int(answer[9:12])


def _reset(client: socket.socket) -> None:
    """Close with a TCP reset, as a client killed mid-request does."""
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    client.close()


def _sockets_on(port: int, pid: int | str = "self") -> int:
    """Open file descriptors of process ``pid`` that are TCP sockets with local port ``port`` (the server's side)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        count += target.startswith("socket:[") and target[8:-1] in inodes
    return count


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GARBAGE\r\n\r\n", 400),
        (b"\r\n", 400),
        (b"\x00\xff\xfe garbage bytes \x80\r\n\r\n", 400),
        (b"GET / HTTP/9.9\r\n\r\n", 505),
        (b"FOO / HTTP/1.0\r\n\r\n", 501),
        (b"GET /" + b"a" * MAX_HEAD + b" HTTP/1.0\r\n\r\n", 431),
        (b"GET / HTTP/1.0\r\n" + b"X-A: b\r\n" * 101 + b"\r\n", 431),
        (b"GET / HTTP/1.0\r\nX-Big: " + b"b" * MAX_HEAD + b"\r\n\r\n", 431),
        (b"POST /api/stop HTTP/1.0\r\nContent-Length: abc\r\n\r\n", 400),
        (b"POST /api/stop HTTP/1.0\r\nContent-Length: 99999999999\r\n\r\n", 400),
        (b"POST /api/stop HTTP/1.0\r\nContent-Length: 5000\r\n\r\n", 413),
        (b"POST /api/stop HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501),
        (b"POST /api/stop HTTP/1.0\r\nContent-Length: 4\r\n\r\nbody", 403),
        (b"PATCH /api/state HTTP/1.0\r\n\r\n", 405),
        (b"GET /api/state", 200),  # cut short, then the client closed its side: what came is answered
    ],
)
def test_every_bad_request_gets_one_json_answer_naming_the_problem(request_bytes, status):
    server = DisplayServer("127.0.0.1:0", TableView(), "", {"stop": lambda: None})
    try:
        answer = _answer(_port(server), request_bytes)
    finally:
        server.close()
    assert _status(answer) == status
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"Content-Type: application/json" in head
    assert len(body) == int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])  # one answer, nothing after it
    if status != 200:
        assert 0 < len(json.loads(body)["error"]) < 400


def test_a_head_request_gets_its_status_without_a_body():
    server = DisplayServer("127.0.0.1:0", TableView(), "", {})
    try:
        answer = _answer(_port(server), b"HEAD / HTTP/1.0\r\n\r\n")
    finally:
        server.close()
    assert _status(answer) == 405 and answer.endswith(b"\r\n\r\n")


def test_a_request_half_sent_and_left_open_is_answered_408_and_closed():
    server = DisplayServer("127.0.0.1:0", TableView(), "", {}, request_s=0.3)
    try:
        with _connect(_port(server), HALF) as client:
            answer = client.recv(65536)
            assert client.recv(1) == b""  # closed by the server
    finally:
        server.close()
    assert _status(answer) == 408 and "did not arrive within 0.3 s" in answer.decode()


def test_close_returns_at_once_whatever_the_clients_hold():
    """Idle, half-sent, streaming: before issue 16 ``close`` joined their threads and waited for ever."""
    before = set(threading.enumerate())
    server = DisplayServer("127.0.0.1:0", TableView(), "", {}, request_s=600)
    port = _port(server)
    idle, half, stream = _connect(port), _connect(port, HALF), _connect(port, b"GET /events HTTP/1.0\r\n\r\n")
    assert stream.recv(4096).startswith(b"HTTP/1.0 200")
    closing = threading.Thread(target=server.close)
    closing.start()
    closing.join(10)
    assert not closing.is_alive(), "close waited on its clients"
    for client in (idle, half, stream):
        client.settimeout(5)
        while client.recv(65536):  # whatever was in flight, then the end: the server cut the connection
            pass
        client.close()
    deadline = time.monotonic() + 5
    while set(threading.enumerate()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not set(threading.enumerate()) - before


def test_a_flood_of_half_sent_requests_holds_few_sockets_and_the_page_stays_reachable():
    server = DisplayServer("127.0.0.1:0", TableView(), "", {}, max_connections=8, request_s=600)
    port = _port(server)
    flood: list[socket.socket] = []
    try:
        for _ in range(200):
            flood.append(_connect(port, HALF))
        deadline = time.monotonic() + 5
        # A 503 says "try again", as it should while the threads of the connections cut for room wind down (they
        # count towards twice the bound until then: seen on a loaded machine); a page that tries again gets in.
        while _status(answer := _refused_or_answered(port)) == 503 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _status(answer) == 200 and json.loads(answer.partition(b"\r\n\r\n")[2])["version"] == 0
        deadline = time.monotonic() + 5
        while (held := _sockets_on(port)) > 2 * 8 + 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert held <= 2 * 8 + 1, f"{held} sockets held for a flood of {len(flood)}"  # + the listening one
    finally:
        for client in flood:
            client.close()
        server.close()


def test_a_server_full_of_streams_answers_503_and_serves_again_once_one_is_gone():
    """Every connection answering (streams), none reading a request to make room with: the newcomer gets a 503. The
    seed's server wrote it while holding its connection lock, whose ``shutdown_request`` takes that lock again: the
    serving thread hung for good, and ``close`` with it (found as a hung CI run)."""
    view = TableView()
    server = DisplayServer("127.0.0.1:0", view, "", {}, max_connections=2, request_s=600)
    port = _port(server)
    closing = threading.Thread(target=server.close, daemon=True)
    try:
        streams = [_connect(port, b"GET /events HTTP/1.0\r\n\r\n") for _ in range(2)]
        for stream in streams:
            assert stream.recv(4096).startswith(b"HTTP/1.0 200")
        for _ in range(3):
            answer = _refused_or_answered(port)
            assert _status(answer) == 503 and "too many connections" in answer.decode()
        _reset(streams.pop())
        view.on_line({"hand": 0, "wins": [], "drawn": True, "scores": [0, 0, 0, 0]})  # its stream writes, and ends
        deadline = time.monotonic() + 5
        while _status(answer := _refused_or_answered(port)) == 503:
            assert time.monotonic() < deadline, "the server stayed full after a stream left"
            time.sleep(0.05)
        assert _status(answer) == 200
        streams.pop().close()
    finally:
        closing.start()
        closing.join(10)
    assert not closing.is_alive(), "close hung"


def test_out_of_file_descriptors_the_server_backs_off_instead_of_spinning(monkeypatch, caplog):
    """``accept`` failing with EMFILE leaves the connection pending and the listening socket readable: the stdlib
    loop retried at once, for ever (a core at 100 %). Counted, not timed: a spinning loop calls ``accept`` many
    thousand times a second, the backoff (50 ms doubling to 1 s) a handful of times."""
    server = DisplayServer("127.0.0.1:0", TableView(), "", {})
    listening = server._server.socket
    calls = []
    accept = socket.socket.accept

    def out_of_files(self: socket.socket):
        if self is listening:
            calls.append(1)
            raise OSError(errno.EMFILE, "Too many open files")
        return accept(self)

    try:
        with caplog.at_level(logging.WARNING, logger="controller.display.httpd"):
            monkeypatch.setattr(socket.socket, "accept", out_of_files)
            pending = _connect(_port(server), b"GET /api/state HTTP/1.0\r\n\r\n")
            time.sleep(1.0)
            monkeypatch.undo()
            refused = len(calls)
            answer = pending.recv(65536)  # accepted once files are free again
            pending.close()
    finally:
        server.close()
    assert 1 <= refused <= 10, f"accept called {refused} times in a second"
    assert _status(answer) == 200
    messages = [record.getMessage() for record in caplog.records]
    assert messages == ["display-http: cannot accept (Too many open files); trying again with backoff",
                        "display-http: accepting again"]  # fmt: skip


def test_a_client_that_leaves_mid_request_or_mid_stream_is_one_debug_line(caplog, capfd):
    view = TableView()
    server = DisplayServer("127.0.0.1:0", view, "", {})
    port = _port(server)
    try:
        with caplog.at_level(logging.DEBUG, logger="controller.display.httpd"):
            _reset(_connect(port, HALF))
            stream = _connect(port, b"GET /events HTTP/1.0\r\n\r\n")
            assert stream.recv(65536).startswith(b"HTTP/1.0 200")
            _reset(stream)
            deadline = time.monotonic() + 10
            while len([r for r in caplog.records if "reset" in r.getMessage()]) < 2:
                view.on_line({"hand": 0, "wins": [], "drawn": True, "scores": [0, 0, 0, 0]})  # the stream writes
                assert time.monotonic() < deadline, [r.getMessage() for r in caplog.records]
                time.sleep(0.01)
    finally:
        server.close()
    assert all(record.levelno == logging.DEBUG for record in caplog.records)
    assert "Traceback" not in capfd.readouterr().err


IDLE_S = 0.2
"""The handler's socket timeout in the idle tests (10 s in service), well under their ``request_s``: the socket's
timeout ends these connections, not the guard's deadline."""


def _until_closed(client: socket.socket) -> bytes:
    """What the server sent before it closed the connection."""
    chunks = []
    while chunk := client.recv(65536):
        chunks.append(chunk)
    client.close()
    return b"".join(chunks)


@pytest.mark.parametrize(
    "sent",
    [
        b"",  # the tester's idle sockets
        b"G",
        b"GET /api/st",  # half a request line
        b"HEAD /api/st",  # its 408 has no body
        HALF,
        b"HEAD /api/state HTTP/1.0\r\n",
        b"POST /api/stop HTTP/1.0\r\nContent-Length: 4\r\n\r\nbo",  # half the body
    ],
)
def test_connections_left_idle_time_out_quietly_with_a_408_and_free_their_slots(monkeypatch, caplog, capfd, sent):
    """Issue 24: a read timed out before the request line was in (``rfile.readline`` raised, so the stdlib never set
    ``raw_requestline``) was an AttributeError, an ERROR line and a 500; one timed out later in the request was
    answered "400 empty request line". The guard's deadline answers such a connection 408: the socket's timeout
    answers it the same, and logs it at DEBUG."""
    monkeypatch.setattr(JsonHandler, "timeout", IDLE_S)
    server = DisplayServer("127.0.0.1:0", TableView(), "", {}, request_s=600)
    port = _port(server)
    try:
        with caplog.at_level(logging.DEBUG, logger="controller.display.httpd"):
            answers = [_until_closed(client) for client in [_connect(port, sent) for _ in range(MAX_CONNECTIONS)]]
            deadline = time.monotonic() + 5
            while (held := _sockets_on(port)) > 1 and time.monotonic() < deadline:
                time.sleep(0.01)
            answer = _answer(port, b"GET /api/state HTTP/1.0\r\n\r\n")
    finally:
        server.close()
    assert held == 1, f"{held - 1} connections still held after their timeout"
    error = {"error": f"408 no byte of the request came for {IDLE_S:g} s"}
    for got in answers:
        body = got.partition(b"\r\n\r\n")[2]
        assert _status(got) == 408 and (body == b"" if sent.startswith(b"HEAD ") else json.loads(body) == error), got
    assert _status(answer) == 200
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert "Traceback" not in capfd.readouterr().err


def test_three_hundred_idle_sockets_at_the_default_bound_log_no_error(monkeypatch, caplog, capfd):
    """The tester's run: 300 idle sockets were 111 ERROR lines and as many 500s (here 64 at the service's 10 s, one
    per connection the bound let live to its timeout; about 140 at 0.2 s, as some time out while the last connect).
    The ones cut to make room and the ones timed out alike get a 408, and nothing is logged above DEBUG."""
    monkeypatch.setattr(JsonHandler, "timeout", IDLE_S)
    server = DisplayServer("127.0.0.1:0", TableView(), "", {}, request_s=600)
    port = _port(server)
    try:
        with caplog.at_level(logging.DEBUG, logger="controller.display.httpd"):
            answers = [_until_closed(client) for client in [_connect(port) for _ in range(300)]]
            answer = _answer(port, b"GET /api/state HTTP/1.0\r\n\r\n")
    finally:
        server.close()
    assert {_status(got) for got in answers} == {408}
    assert _status(answer) == 200
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert "Traceback" not in capfd.readouterr().err


def test_sigterm_stops_the_service_at_once_while_clients_hold_connections(tmp_path):
    """Before issue 16 this process never exited: under systemd every stop became a SIGKILL."""
    port = free_port()
    command = [sys.executable, "-m", "controller.cli", "run", "--http", f"127.0.0.1:{port}", "--speed", "1000",
               "--state", str(tmp_path)]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    clients: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 30
        while not clients:
            try:
                clients.append(_connect(port))
            except ConnectionRefusedError:
                assert time.monotonic() < deadline and process.poll() is None, "the display never listened"
                time.sleep(0.05)
        clients += [_connect(port, HALF), _connect(port, b"GET /events HTTP/1.0\r\n\r\n")]
        assert clients[-1].recv(4096).startswith(b"HTTP/1.0 200")
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 0
        assert process.stdout is not None
        assert json.loads(process.stdout.read().splitlines()[-1])["stopped"].startswith("terminated")
    finally:
        for client in clients:
            client.close()
        if process.poll() is None:
            process.kill()
            process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


FLOOD_SERVER = """
import sys, signal, threading
from controller.display.view import TableView
from controller.display.web import DisplayServer
server = DisplayServer("127.0.0.1:0", TableView(), "", {})
print(server.url, flush=True)
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
stop.wait()
server.close()
"""


@pytest.mark.slow  # 8 s: a thousand sockets
def test_a_thousand_half_sent_requests_hold_at_most_twice_the_connection_bound_and_sigterm_still_stops(tmp_path):
    """The issue's flood, in a process of its own (its file descriptors counted alone): the default bounds."""
    server = subprocess.Popen([sys.executable, "-c", FLOOD_SERVER], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert server.stdout is not None and server.stderr is not None
    flood: list[socket.socket] = []
    try:
        port = int(server.stdout.readline().decode().rsplit(":", 1)[1])
        for _ in range(1000):
            flood.append(_connect(port, HALF))
        answer = _answer(port, b"GET /api/state HTTP/1.0\r\n\r\n")
        assert _status(answer) == 200
        held = _sockets_on(port, server.pid)
        assert held <= 2 * MAX_CONNECTIONS + 1, f"{held} sockets held for a flood of 1000"  # + the listening one
        server.send_signal(signal.SIGTERM)
        assert server.wait(20) == 0
    finally:
        for client in flood:
            client.close()
        if server.poll() is None:
            server.kill()
            server.wait(10)
        errors = server.stderr.read().decode()
        server.stdout.close()
        server.stderr.close()
    assert "Traceback" not in errors


@pytest.mark.slow  # about 45 s: a hundred servers started and closed
def test_a_client_answered_before_it_finished_sending_still_reads_its_answer():
    """A head over the budget is answered 431 at once; the rest the client sends is read and dropped, so the socket
    closes without a reset and the answer arrives (it was lost about one time in thirty before)."""
    request = b"GET / HTTP/1.0\r\nX-Big: " + b"b" * MAX_HEAD + b"\r\n\r\n"
    for _ in range(100):
        server = DisplayServer("127.0.0.1:0", TableView(), "", {})
        try:
            assert _status(_answer(_port(server), request)) == 431
        finally:
            server.close()
