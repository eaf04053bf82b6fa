"""Display latency and footprint of ``mjtable run`` on the simulated table.

Latency: from an action event's timestamp (taken when the move is made, before the journal commit) to the moment
an event-stream client on loopback has the state that shows it: journal commit + referee + view + SSE push.
Reference, measured in the same run: a plain ``GET /api/state`` round trip on the same server. Footprint: CPU
seconds per wall second of the run (the share of one core) and the peak resident memory of the process.

With ``--camera sim`` the bots' discards go through the simulated camera (``controller.camera``) and the run's
summary adds frame-to-verdict latency: from the moment the frame that shows a discard is captured (rendered) to
the referee's verdict on what the camera read (recognition of the frame, tracker, journal commit, referee). The
rendering itself (about 0.1 s a frame) is the simulated camera's cost, not the service's, and is left out. The
event-to-display figures above are then measured from the verdict on.

    python bench/bench_service.py [--hands 2] [--speed 20] [--camera sim]
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
from controller.service import serve


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


def _watch(port: int, latencies: list[float], done: threading.Event) -> None:
    connection = _connect(port)
    connection.request("GET", "/events")
    response = connection.getresponse()
    seen = -1
    while not done.is_set():
        line = response.fp.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            state = json.loads(line[6:])
            event = state.get("last_event") or {}
            if event.get("kind") == "action" and state["version"] > seen:
                latencies.append(time.time() - event["at"])
            seen = state["version"]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--speed", type=float, default=20.0)
    parser.add_argument("--camera", choices=("off", "sim"), default="off", help="sim: discards read by the camera")
    args = parser.parse_args()
    port = _free_port()
    with tempfile.TemporaryDirectory() as state:
        config = Config.from_dict({"http": {"listen": f"127.0.0.1:{port}"}})
        config = config.with_service(
            state_dir=str(Path(state)), seed=1, hands=args.hands, speed=args.speed, camera=args.camera
        )
        latencies: list[float] = []
        lines: list[dict] = []
        done = threading.Event()
        runner = threading.Thread(target=serve, args=(config, lines.append))
        usage = resource.getrusage(resource.RUSAGE_SELF)
        started = time.perf_counter()
        runner.start()
        watcher = threading.Thread(target=_watch, args=(port, latencies, done))
        watcher.start()
        reference = _round_trips(port, 200)
        runner.join()
        wall = time.perf_counter() - started
        done.set()
        watcher.join()
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime
    p50, p99 = _percentile(latencies, 0.5), _percentile(latencies, 0.99)
    reference_p50 = statistics.median(reference)
    camera = {}
    if args.camera != "off":
        figures = lines[-1]["camera"]
        camera = {
            "camera": args.camera,
            "frame_to_verdict_ms": {"p50": figures.get("p50_ms"), "p99": figures.get("p99_ms")},
            "camera_discards": figures["discards"],
            "camera_takes": figures["takes"],
            "camera_mismatches": figures["mismatches"],
            "camera_frames": figures["frames"],
        }
    print(
        json.dumps(
            {
                **camera,
                "hands": args.hands,
                "speed": args.speed,
                "actions": len(latencies),
                "latency_ms": {"p50": round(p50 * 1000, 2), "p99": round(p99 * 1000, 2)},
                "get_state_round_trip_ms_p50": round(reference_p50 * 1000, 2),
                "latency_p50_over_round_trip": round(p50 / reference_p50, 2),
                "cpu_share": round(cpu / wall, 3),
                "max_rss_mb": round(after.ru_maxrss / 1024, 1),
                "wall_s": round(wall, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
