"""Fleet load: many headless simulated tables publishing to one Mosquitto broker for a bounded time.

Each table is the engine without the hardware: four bots (``controller.service.players``) play hands through the same
``HandState``, ``TableView`` and ``MqttLink`` the service uses, so every move publishes one verdict event and makes
the retained state due, each hand's end one result event. A subscriber on ``mjtable/#`` counts what arrives and
takes each event's delivery latency: from ``sent_at`` (stamped when the table hands the event to its outbox, before
any queue) to its arrival at the subscriber, through the outbox, paho, the broker and back. A parlor has one
table per Pi; here the tables are split over ``--processes`` processes on one host, each with its tables' paho and
publisher threads under one GIL, so the tail of the latency is mostly this host's thread scheduling: an upper bound
of what the network path costs. Reference in the same run: one table alone at the same move rate; the ratio is the
price of sharing the broker and the host with the other tables.

    python bench/bench_fleet.py [--tables 100] [--seconds 10] [--rate 5] [--processes 4] [--json]

Starts its own Mosquitto on a free loopback port (``mosquitto`` must be installed; ``.ci/run`` installs it).
"""

from __future__ import annotations

import argparse
import heapq
import json
import multiprocessing
import queue
import random
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.config import MqttSection
from controller.display.view import TableView
from controller.fleet.mqtt_link import MqttLink
from controller.service.events import Event
from controller.service.hand import HandRecord, HandState
from controller.service.players import next_action


class HeadlessTable:
    """One table's service without the table: bots play hands, the view and the fleet link see every move."""

    def __init__(self, table_id: str, url: str, seed: int) -> None:
        self.view = TableView()
        self.link = MqttLink(MqttSection(url=url, table_id=table_id), url, self.view.snapshot, {})
        self.rng = random.Random(seed)
        self.number = 0
        self.published = 0
        self.moves = 0
        self._deal()

    def _deal(self) -> None:
        record = HandRecord(self.number, self.rng.getrandbits(63), self.number % 4, 0, 1, "mcr")
        self.hand = HandState.start(record)
        self._record(Event.dice((self.rng.randint(1, 6), self.rng.randint(1, 6)), time.time()))

    def _record(self, event: Event) -> None:
        verdict = self.hand.apply(event)
        self.view.on_event(self.hand, event, verdict)
        self.link.on_event(self.hand, event, verdict)
        self.published += verdict is not None

    def step(self) -> None:
        referee = self.hand.referee
        assert referee is not None
        self._record(Event.action(next_action(referee, self.hand.record.seed), "bot", time.time()))
        self.moves += 1
        if self.hand.over:
            assert referee.result is not None
            line = {"hand": self.number, "drawn": referee.result.drawn, "wins": [w.to_dict() for w in referee.wins]}
            line["scores"] = [0, 0, 0, 0]
            self.view.on_line(line)
            self.link.on_line(line)
            self.published += 1
            self.number += 1
            self._deal()


class Subscriber:
    """Everything under ``mjtable/#``: counts per kind and the delivery latency of each event."""

    def __init__(self, port: int) -> None:
        self.lock = threading.Lock()
        self.counts: dict[str, int] = {}
        self.latencies: list[float] = []
        self.online: set[str] = set()
        self.offline: set[str] = set()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-subscriber")
        self.client.on_connect = lambda client, u, f, reason, p: client.subscribe("mjtable/#", qos=1)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        arrived = time.time()
        _, table, kind = message.topic.split("/", 2)
        with self.lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            if kind == "event":
                self.latencies.append(arrived - json.loads(message.payload)["sent_at"])
            elif kind == "availability":
                (self.online if message.payload == b"online" else self.offline).add(table)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _wait(predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def drive(port: int, names: list[str], seconds: float, rate: float, go: Any, done: Any, results: Any) -> None:
    """Run the tables ``names`` (a process or a thread of the bench): connect, wait for ``go``, make ``rate``
    moves a second per table for ``seconds``, report, wait for ``done`` (everything delivered), say offline."""
    url = f"mqtt://127.0.0.1:{port}"
    fleet = [HeadlessTable(name, url, index) for index, name in enumerate(names)]
    for table in fleet:
        table.link.start()
    go.wait()
    started = time.monotonic()
    due = [(started + index / (rate * len(fleet)), index) for index in range(len(fleet))]
    heapq.heapify(due)
    while due[0][0] < started + seconds:
        at, index = heapq.heappop(due)
        pause = at - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        fleet[index].step()
        heapq.heappush(due, (at + 1 / rate, index))
    moves = sum(table.moves for table in fleet)
    published = sum(table.published for table in fleet)
    results.put({"moves": moves, "published": published, "seconds": time.monotonic() - started})
    done.wait()
    for table in fleet:
        table.link.close()
    results.put({"dropped": sum(table.link.dropped for table in fleet)})


def measure(
    port: int, tables: int, seconds: float, rate: float, processes: int = 1, prefix: str = "bench"
) -> dict[str, Any]:
    """``tables`` tables each making ``rate`` moves a second for ``seconds`` on the broker at 127.0.0.1:``port``,
    split over ``processes`` processes (1: threads of this one)."""
    subscriber = Subscriber(port)
    names = [f"{prefix}{index:03d}" for index in range(tables)]
    groups = [names[offset::processes] for offset in range(processes)]
    context: Any = threading if processes == 1 else multiprocessing.get_context("spawn")
    go, done = context.Event(), context.Event()
    results: Any = queue.Queue() if processes == 1 else context.Queue()
    runner = threading.Thread if processes == 1 else context.Process
    workers = [runner(target=drive, args=(port, group, seconds, rate, go, done, results)) for group in groups]
    for worker in workers:
        worker.start()
    dead = lambda: [worker for worker in workers if not worker.is_alive()]  # noqa: E731
    if not _wait(lambda: subscriber.online >= set(names) or dead(), 60) or dead():
        online = len(subscriber.online & set(names))
        raise RuntimeError(f"{online} of {tables} tables came online; {len(dead())} workers died (traceback above)")
    with subscriber.lock:
        subscriber.counts.clear()
        subscriber.latencies.clear()
    started = time.monotonic()
    go.set()
    driven = [results.get(timeout=seconds + 60) for _ in workers]
    published = sum(report["published"] for report in driven)
    delivered = _wait(lambda: len(subscriber.latencies) >= published, 30)
    elapsed = time.monotonic() - started
    with subscriber.lock:
        counts = dict(subscriber.counts)
        latencies = list(subscriber.latencies)
    done.set()
    dropped = sum(results.get(timeout=30)["dropped"] for _ in workers)
    for worker in workers:
        worker.join(30)
    _wait(lambda: subscriber.offline >= set(names), 10)
    subscriber.close()
    moves = sum(report["moves"] for report in driven)
    seconds_driven = max(report["seconds"] for report in driven)
    received = sum(counts.values())
    return {
        "tables": tables,
        "processes": processes,
        "seconds": round(seconds_driven, 2),
        "moves": moves,
        "moves_per_s": round(moves / seconds_driven, 1),
        "events_published": published,
        "events_received": counts.get("event", 0),
        "all_delivered": delivered,
        "dropped": dropped,
        "messages_received": received,
        "messages_per_s": round(received / elapsed, 1),
        "by_topic": counts,
        "latency_ms": {
            "p50": round(_percentile(latencies, 0.50) * 1000, 2),
            "p90": round(_percentile(latencies, 0.90) * 1000, 2),
            "p99": round(_percentile(latencies, 0.99) * 1000, 2),
            "mean": round(statistics.fmean(latencies) * 1000, 2) if latencies else None,
        },
        "offline_at_end": len(subscriber.offline & set(names)),
    }


class Mosquitto:
    """A throwaway broker on a free loopback port (no persistence, anonymous)."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self._dir = tempfile.TemporaryDirectory(prefix="bench-fleet-")
        config = Path(self._dir.name) / "mosquitto.conf"
        lines = [f"listener {self.port} 127.0.0.1", "allow_anonymous true", "persistence false", "user root"]
        config.write_text("\n".join([*lines, "max_queued_messages 100000"]) + "\n")
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        self.process = subprocess.Popen([binary, "-c", str(config)], stderr=subprocess.DEVNULL)
        if not _wait(lambda: self._listening(), 10):
            raise RuntimeError("mosquitto did not start")

    def _listening(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(10)
        self._dir.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=5.0, help="moves per second per table (a real table: ~1)")
    parser.add_argument("--processes", type=int, default=4, help="processes the tables are split over (GIL)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    broker = Mosquitto()
    try:
        reference = measure(broker.port, 1, min(args.seconds, 5.0), args.rate, prefix="alone")
        fleet = measure(broker.port, args.tables, args.seconds, args.rate, args.processes)
    finally:
        broker.close()
    ratio = {key: round(fleet["latency_ms"][key] / reference["latency_ms"][key], 2) for key in ("p50", "p99")}
    report = {"fleet": fleet, "reference_one_table": reference, "latency_ratio_fleet_to_one": ratio}
    if args.json:
        print(json.dumps(report))
        return
    where = f"{fleet['processes']} processes"
    print(f"{fleet['tables']} tables × {args.rate:g} moves/s for {fleet['seconds']} s on one broker ({where})")
    print(f"  moves driven        {fleet['moves']} ({fleet['moves_per_s']}/s)")
    print(f"  messages received   {fleet['messages_received']} ({fleet['messages_per_s']}/s) {fleet['by_topic']}")
    print(
        f"  events              {fleet['events_received']}/{fleet['events_published']} delivered, "
        f"{fleet['dropped']} dropped by the outboxes"
    )
    latency = fleet["latency_ms"]
    print(f"  event latency       p50 {latency['p50']} ms, p90 {latency['p90']} ms, p99 {latency['p99']} ms")
    print(f"  one table alone     p50 {reference['latency_ms']['p50']} ms, p99 {reference['latency_ms']['p99']} ms")
    print(f"  ratio fleet / alone p50 ×{ratio['p50']}, p99 ×{ratio['p99']}")
    print(f"  offline at the end  {fleet['offline_at_end']}/{fleet['tables']}")


if __name__ == "__main__":
    main()
