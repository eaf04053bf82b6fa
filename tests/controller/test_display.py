import http.client
import json
import socket
import threading
import time

from controller.config import Config
from controller.display.view import TableView
from controller.display.web import DisplayServer
from controller.service.service import serve
from firmware_bridge.messages import Phase
from hw_tests.faults import FaultPlan, ResetDuring


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _request(port: int, method: str, path: str, headers: dict | None = None) -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        connection.close()


def _wait_listening(port: int) -> None:
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except ConnectionRefusedError:
            assert time.monotonic() < deadline, "the display never listened"
            time.sleep(0.01)


def _events(port: int, count: int) -> list[dict]:
    """The first ``count`` states the event stream pushes."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/events")
        response = connection.getresponse()
        assert response.getheader("Content-Type") == "text/event-stream"
        states = []
        while len(states) < count:
            line = response.fp.readline().decode()
            if line.startswith("data: "):
                states.append(json.loads(line[6:]))
        return states
    finally:
        connection.close()


def test_the_display_follows_the_hand_and_the_token_stops_the_run(tmp_path):
    threads_before = set(threading.enumerate())
    port = _free_port()
    config = Config.from_dict({"http": {"listen": f"127.0.0.1:{port}", "token": "s3cret"}})
    config = config.with_service(state_dir=str(tmp_path), seed=1, hands=3, speed=50.0)
    lines: list[dict] = []
    runner = threading.Thread(target=lambda: serve(config, lines.append))
    runner.start()
    try:
        _wait_listening(port)
        states = _events(port, 40)
        versions = [state["version"] for state in states]
        assert versions == sorted(set(versions))
        dealt = [state for state in states if state.get("seats")]
        assert dealt, "no dealt hand in the first 40 states"
        last = dealt[-1]
        assert last["round_wind"] == "E" and len(last["seat_winds"]) == 4 and 0 < last["wall_remaining"] < 136
        assert all(set(seat) == {"discards", "melds", "flowers"} for seat in last["seats"])
        status, kind, body = _request(port, "GET", "/api/state")
        state = json.loads(body)
        assert status == 200 and kind.startswith("application/json") and state["version"] >= last["version"]
        assert "concealed" not in body.decode()
        status, kind, page = _request(port, "GET", "/")
        assert status == 200 and kind.startswith("text/html") and b"/static/table.js" in page
        status, kind, script = _request(port, "GET", "/static/mj.js")  # the pages' shared script follows /events
        assert status == 200 and kind.startswith("text/javascript") and b"EventSource" in script
        for path in ("/history", "/overlay", "/static/table.css"):
            assert _request(port, "GET", path)[0] == 200, path
        for path in ("/static/nope.js", "/static/..%2Fview.py", "/static/tiles/5m.png"):
            assert _request(port, "GET", path)[0] == 404, path
        assert _request(port, "GET", "/api/history")[2].startswith(b'{"hands": [')
        assert _request(port, "GET", "/nope")[0] == 404
        assert _request(port, "GET", "/api/stop")[0] == 405
        assert _request(port, "POST", "/api/stop")[0] == 401
        assert _request(port, "POST", "/api/stop", {"Authorization": "Bearer guess"})[0] == 403
        assert _request(port, "POST", "/api/stop", {"Authorization": "Bearer s3cret"})[0] == 202
    finally:
        runner.join(timeout=30)
    assert not runner.is_alive()
    assert lines[-1]["stopped"] is True and lines[-1]["hands"] < 3
    assert set(threading.enumerate()) <= threads_before


def test_without_a_token_the_display_is_read_only(tmp_path):
    view = TableView()
    stopped = []
    server = DisplayServer("127.0.0.1:0", view, "", {"stop": lambda: stopped.append(True)})
    try:
        port = int(server.url.rsplit(":", 1)[1])
        status, _, body = _request(port, "POST", "/api/stop", {"Authorization": "Bearer anything"})
        assert status == 403 and "http.token" in json.loads(body)["error"]
        assert _request(port, "POST", "/api/other")[0] == 404
        assert json.loads(_request(port, "GET", "/api/state")[2])["version"] == 0
    finally:
        server.close()
    assert stopped == []


def test_other_methods_and_too_many_streams_get_clear_answers():
    """Issue 6, Security: "Bad requests get clear 4xx answers"; a flood of open pages is refused, not served."""
    view = TableView()
    server = DisplayServer("127.0.0.1:0", view, "", {}, max_streams=1)
    try:
        port = int(server.url.rsplit(":", 1)[1])
        for method in ("PUT", "DELETE", "PATCH"):
            status, kind, body = _request(port, method, "/api/state")
            assert status == 405 and kind.startswith("application/json"), method
            assert "only GET and POST" in json.loads(body)["error"]
        first = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        first.request("GET", "/events")
        assert first.getresponse().status == 200  # the one stream allowed is open
        status, _, body = _request(port, "GET", "/events")
        assert status == 503 and "too many displays" in json.loads(body)["error"]
        first.close()
    finally:
        server.close()


def test_tile_faces_are_served_for_every_tile_and_nothing_else():
    """Issue 6, dealer-light display: "each seat's discards drawn as tile images"; 34 kinds and 8 flowers. Issue 25:
    riichi's red fives (0m 0p 0s) and 十万's tens (10m 10p 10s), each a face of its own."""
    server = DisplayServer("127.0.0.1:0", TableView(), "", {})
    try:
        port = int(server.url.rsplit(":", 1)[1])
        codes = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)]
        codes += [f"{n}z" for n in range(1, 8)] + [f"{n}f" for n in range(1, 9)]
        codes += [f"{n}{suit}" for n in (0, 10) for suit in "mps"]
        bodies = set()
        for code in codes:
            status, kind, body = _request(port, "GET", f"/tiles/{code}.png")
            assert (status, kind, body[:8]) == (200, "image/png", b"\x89PNG\r\n\x1a\n"), code
            bodies.add(body)
        assert len(bodies) == 48  # one face per tile
        wrongs = ("0z.png", "8z.png", "9f.png", "5m.svg", "..%2Fpage.py", "5m.png/", "11m.png", "010m.png", "10z.png")
        for wrong in (*wrongs, "00p.png", "-1s.png", "%30m.png", "1m.png%00", "extra.py", "SOURCE.txt", "x" * 5000):
            status, _, body = _request(port, "GET", f"/tiles/{wrong}")
            assert status == 404 and "no such tile" in json.loads(body)["error"], wrong
    finally:
        server.close()


def test_with_on_fault_wait_the_display_shows_the_hint_and_the_technician_resumes(tmp_path):
    port = _free_port()
    config = Config.from_dict(
        {"service": {"on_fault": "wait"}, "http": {"listen": f"127.0.0.1:{port}", "token": "fix"}}
    ).with_service(state_dir=str(tmp_path / "faulted"), seed=3, hands=1, speed=1000.0)
    lines: list[dict] = []
    reset = FaultPlan(reset=ResetDuring(Phase.STACKING, 0.0))
    runner = threading.Thread(target=lambda: serve(config, lines.append, reset))
    runner.start()
    try:
        _wait_listening(port)
        deadline = time.monotonic() + 20
        while not (fault := json.loads(_request(port, "GET", "/api/state")[2])["fault"]):
            assert time.monotonic() < deadline, "no fault shown"
            time.sleep(0.02)
        assert fault["code"].startswith("MCU_RESET") and fault["hint_en"] and fault["hint_zh"]
        time.sleep(0.2)
        assert runner.is_alive() and lines == [{**lines[0], "fault": fault["code"]}], "the run did not wait"
        assert _request(port, "POST", "/api/resume", {"Authorization": "Bearer fix"})[0] == 202
    finally:
        runner.join(timeout=30)
    assert not runner.is_alive()
    assert lines[0]["hint"] == fault["hint_en"]
    clean: list[dict] = []
    serve(config.with_service(http="off", state_dir=str(tmp_path / "clean")), clean.append)
    assert lines[1:] == clean


def _post(port: int, path: str, body: bytes, token: str = "s3cret") -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_a_seat_corrects_an_unsure_reading_with_a_tap_carrying_the_token():
    """POST /api/correct: the body checked field by field, queued for the watch loop (which journals it as a
    ``correct`` sight); the display lists the open readings with their choices (``unsure``)."""
    from controller.people.sights import SightKind
    from controller.people.watch import Corrections

    corrections = Corrections()
    server = DisplayServer("127.0.0.1:0", TableView(), "s3cret", {}, inputs={"correct": corrections.post})
    port = int(server.url.rsplit(":", 1)[1])
    try:
        assert _post(port, "/api/correct", b'{"seat": 2, "tiles": "5m", "sight": 17}') == (
            202,
            {"accepted": "/api/correct"},
        )
        sight = corrections.take()
        assert sight is not None and sight.kind is SightKind.CORRECT and (sight.seat, sight.about) == (2, 17)
        assert corrections.take() is None
        bad = {
            b'{"seat": 5, "tiles": "5m"}': "correct.seat: expected a seat number 0-3, got 5",
            b'{"seat": 1, "tiles": "5x"}': "correct.tiles:",
            b'{"seat": 1}': "correct.tiles: expected the tiles it shows",
            b'{"seat": 1, "tiles": "5m", "sight": "x"}': "correct.sight: expected the number of a sight",
            b'{"seat": 1, "tiles": "5m", "who": 1}': "correct: unknown field 'who'",
            b"[1, 2]": "/api/correct: expected a JSON object as the body",
            b"{nope": "/api/correct: the body is not JSON",
            b"\xff": "/api/correct: the body is not UTF-8",
        }
        for body, error in bad.items():
            status, answer = _post(port, "/api/correct", body)
            assert status == 400 and answer["error"].startswith(error), (body, answer)
        assert _post(port, "/api/correct", b'{"seat": 1, "tiles": "5m"}', token="guess")[0] == 403
        assert corrections.take() is None  # nothing refused was queued
        assert _request(port, "GET", "/api/correct")[0] == 405
    finally:
        server.close()


def test_the_display_state_lists_the_open_readings_of_a_people_hand():
    from controller.people.sights import Sight, SightKind
    from controller.service.events import Event
    from controller.service.hand import HandRecord, HandState

    hand = HandState.start(HandRecord(0, 1, 0, 0, 1, "basic", players="people"))
    view = TableView()
    for event in (
        Event.dice((3, 4), 0.0),
        Event.sight(Sight(SightKind.DISCARD, 0, (5,), (((5, 0.4), (6, 0.35)),)), 1.0),
    ):
        view.on_event(hand, event, hand.apply(event))
    (shown,) = view.snapshot()["unsure"]
    assert shown == {
        "n": 0,
        "seat": 0,
        "sight": "discard",
        "tiles": ["6m"],
        "doubtful": False,
        "confirmed": False,
        "unsure": [{"at": 0, "choices": [["6m", 0.4], ["7m", 0.35]]}],
    }
