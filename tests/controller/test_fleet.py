"""``mjtable fleet`` (issue 7): the parlor page follows every table through the broker's retained messages."""

from __future__ import annotations

import json
import signal
import time
import urllib.request

from tests.controller.fleet_harness import Broker, Listener, fleet_of_two, payloads


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.read()


def test_the_fleet_page_shows_every_table_with_its_availability_and_state(tmp_path):
    with Broker(tmp_path) as broker:
        listener = Listener(broker)
        try:
            with fleet_of_two(broker, tmp_path) as (http, fleet):
                assert fleet.stdout is not None
                announced = json.loads(fleet.stdout.readline())
                assert announced == {"fleet": f"http://{http}", "broker": broker.url}
                deadline = time.monotonic() + 15
                tables: dict = {}
                while time.monotonic() < deadline and not (
                    tables.get("west", {}).get("state") and tables.get("east", {}).get("state")
                ):
                    time.sleep(0.1)
                    tables = json.loads(_get(f"http://{http}/api/tables"))
                assert sorted(tables) == ["east", "west"]
                assert tables["east"]["availability"] == "offline"  # its one hand played, the table said goodbye
                assert tables["west"]["availability"] == "online"
                assert tables["east"]["state"] == payloads(listener, "mjtable/east/state")[-1]  # the table's own state
                assert tables["west"]["state"]["rules"] == "mcr"
                page = _get(f"http://{http}/").decode()
                assert "<title>mjtable fleet</title>" in page and "/api/tables" in page
                fleet.send_signal(signal.SIGTERM)
                assert fleet.wait(10) == 0
        finally:
            listener.close()


def test_fleet_without_a_broker_says_what_to_give(tmp_path):
    from io import StringIO

    from controller.cli import main

    out = StringIO()
    assert main(["fleet"], stdout=out) == 2
    assert "--mqtt" in json.loads(out.getvalue())["error"]
