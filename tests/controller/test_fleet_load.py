"""The fleet load test, small (issue 7): ten headless tables publish to one broker for two seconds and every event
arrives once, none is dropped, each table's state arrives, and every table says offline at the end. The full run
with 100 tables and its figures is ``bench/bench_fleet.py``; no timing is asserted here."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tests.controller.fleet_harness import Broker

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_fleet.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_fleet", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ten_tables_on_one_broker_deliver_every_event_once(tmp_path):
    with Broker(tmp_path) as broker:
        report = _bench().measure(broker.port, tables=10, seconds=2.0, rate=10.0)
    assert report["moves"] >= 10  # every table moved
    assert report["events_published"] >= report["moves"]  # a verdict per move, a result per hand
    assert report["all_delivered"] and report["events_received"] == report["events_published"]
    assert report["dropped"] == 0
    assert report["by_topic"]["state"] >= 10
    assert report["offline_at_end"] == 10
