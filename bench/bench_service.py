"""Display latency and footprint of ``mjtable run`` on the simulated table.

Latency: from an action event's timestamp to the moment an event-stream client on loopback (what the web page
runs) has the state that shows it: journal commit + referee + view + SSE push. A bot's move is timestamped when it
is made; with ``--camera sim`` a discard the camera read is timestamped when the frame that showed it was
captured, so ``frame_to_display_ms`` is the whole discard-to-display path: recognition of the frame, tracker,
journal commit, referee, view, SSE. The rendering of the simulated frame (in its own process, see
``controller/people/renderer.py``) is the camera's work and is left out. Reference, measured in the same run: a plain
``GET /api/state`` round trip on the same server.

Footprint: CPU seconds per wall second of the run (the share of one core) of the service process, and its peak
resident memory; with the camera also those of the render process (a real table's camera does that work).

With ``--players people`` the service reads every frame of the simulated people's table (all eight zones) and a
discard's sight is stamped when its frame arrived: ``frame_to_display_ms`` is then frame arrival → recognition of
the whole table, tracker, journal commit, witness, referee, view, SSE. The people's own side (their bots, the
table model) runs in the service's process and is counted in its CPU share; the rendering is not.

    python bench/bench_service.py [--hands 2] [--speed 20] [--camera sim] [--players people]
"""

from __future__ import annotations

import argparse
import http.client
import json
import resource
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

from controller.config import Config
from controller.service.service import serve


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _connect(port: int) -> http.client.HTTPConnection:
    deadline = time.monotonic() + 10
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.connect()
            return connection
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _watch(port: int, seen: list[tuple[dict, float]], done: threading.Event) -> None:
    """Every action state the event stream pushes, with the time it arrived."""
    connection = _connect(port)
    connection.request("GET", "/events")
    response = connection.getresponse()
    last = -1
    while not done.is_set():
        line = response.fp.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            arrived = time.time()
            state = json.loads(line[6:])
            event = state.get("last_event") or {}
            if event.get("kind") in ("action", "sight") and state["version"] > last:
                seen.append((event, arrived))
            last = state["version"]
    connection.close()


def _round_trips(port: int, count: int) -> list[float]:
    times = []
    for _ in range(count):
        connection = _connect(port)
        start = time.perf_counter()
        connection.request("GET", "/api/state")
        connection.getresponse().read()
        times.append(time.perf_counter() - start)
        connection.close()
    return times


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"count": 0}
    return {"p50": round(_percentile(values, 0.5) * 1000, 2), "p99": round(_percentile(values, 0.99) * 1000, 2),
            "count": len(values)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--speed", type=float, default=20.0)
    parser.add_argument("--camera", choices=("off", "sim"), default="off", help="sim: discards read by the camera")
    parser.add_argument("--players", choices=("bots", "people"), default="bots", help="people: seen only by the camera")
    args = parser.parse_args()
    port = _free_port()
    with tempfile.TemporaryDirectory() as state:
        config = Config.from_dict({"http": {"listen": f"127.0.0.1:{port}"}})
        config = config.with_service(
            state_dir=str(Path(state)), seed=1, hands=args.hands, speed=args.speed, camera=args.camera
        )
        config = config.with_service(players=args.players)
        seen: list[tuple[dict, float]] = []
        lines: list[dict] = []
        done = threading.Event()
        runner = threading.Thread(target=serve, args=(config, lines.append))
        usage = resource.getrusage(resource.RUSAGE_SELF)
        started = time.perf_counter()
        runner.start()
        watcher = threading.Thread(target=_watch, args=(port, seen, done))
        watcher.start()
        reference = _round_trips(port, 200)
        runner.join()
        wall = time.perf_counter() - started
        done.set()
        watcher.join()
    after = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the render process, ended with the run
    cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime
    latencies = [arrived - event["at"] for event, arrived in seen]
    reference_p50 = statistics.median(reference)
    p50 = _percentile(latencies, 0.5)
    report: dict = {"hands": args.hands, "speed": args.speed, "camera": args.camera, "players": args.players}
    if args.players == "people":
        discards = [arrived - event["at"] for event, arrived in seen if event.get("sight") == "discard"]
        report |= {
            "frame_to_display_ms": _ms(discards),
            "render_process": {
                "cpu_share": round((children.ru_utime + children.ru_stime) / wall, 3),
                "max_rss_mb": round(children.ru_maxrss / 1024, 1),
            },
        }
    if args.camera != "off":
        figures = lines[-1]["camera"]
        camera = [arrived - event["at"] for event, arrived in seen if event.get("source") == "camera"]
        report |= {
            "frame_to_display_ms": _ms(camera),
            "frame_to_verdict_ms": {"p50": figures.get("p50_ms"), "p99": figures.get("p99_ms")},
            "camera_discards": figures["discards"],
            "camera_takes": figures["takes"],
            "camera_reveals": figures["reveals"],
            "camera_mismatches": figures["mismatches"],
            "camera_frames": figures["frames"],
            "render_process": {
                "cpu_share": round((children.ru_utime + children.ru_stime) / wall, 3),
                "max_rss_mb": round(children.ru_maxrss / 1024, 1),
            },
        }
    report |= {
        "event_to_display_ms": _ms(latencies),
        "get_state_round_trip_ms_p50": round(reference_p50 * 1000, 2),
        "latency_p50_over_round_trip": round(p50 / reference_p50, 2),
        "cpu_share": round(cpu / wall, 3),
        "max_rss_mb": round(after.ru_maxrss / 1024, 1),
        "wall_s": round(wall, 2),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
