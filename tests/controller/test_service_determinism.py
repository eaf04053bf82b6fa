"""Issue 24: a journal of the same seed is the same, timestamps aside, however fast the table builds the next walls
and whether the service was killed or not, at any point.

Every table of the journal is compared (runs, matches, hands, events) with the columns that hold a time masked, and
the hash chain columns, which cover the times. The next walls' steps come from a worker thread
(``controller.service.nextwalls``): a table that builds slower than the bots play must not move them in the journal.
A restart must give the same journal whether the table is the embedded simulator or a firmware board, which die with
the service and come back as the journal left it, or a real table, which kept its state and may have done a step the
journal had not yet written (here: the same simulator, kept running under a second service).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config
from controller.service.cycle import table_history
from controller.service.events import Event, EventKind
from controller.service.hand import HandRecord
from controller.service.journal import Journal
from controller.service.service import Service, journal_path, serve
from controller.service.tableside import open_table
from firmware_bridge.messages import Phase, Sensor
from tests.controller.test_service_recovery import _kill_then_finish

TABLES = {"runs": "id", "matches": "id", "hands": "id", "events": "hand_id, seq"}
MASKED = {"at", "started_at", "finished_at", "hash", "result_hash"}
"""The columns that hold a time, and the chain's hashes, which cover them."""
CLI = ["-m", "controller.cli", "run", "--hands", "5", "--seed", "11", "--json", "--http", "off"]


def journal_rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Every row of the journal's tables in order, the masked columns left out."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = {}
        for table, order in TABLES.items():
            cursor = db.execute(f"SELECT * FROM {table} ORDER BY {order}")
            names = [column[0] for column in cursor.description]
            rows[table] = [
                {name: value for name, value in zip(names, row, strict=True) if name not in MASKED} for row in cursor
            ]
        return rows
    finally:
        db.close()


def assert_same(got: dict[str, list[dict[str, Any]]], expected: dict[str, list[dict[str, Any]]]) -> None:
    """Table by table, row by row: a failure names the first row that differs."""
    for table in TABLES:
        assert [tuple(row.values()) for row in got[table]] == [tuple(row.values()) for row in expected[table]], table


def _config(state: Path, seed: int = 4, hands: int = 2) -> Config:
    return Config().with_service(http="off", state_dir=str(state), seed=seed, hands=hands, speed=1000.0)


def _play(config: Config, table_speed: float = 1000.0) -> dict[str, list[dict[str, Any]]]:
    """The run played with the bots at ``config``'s speed on a simulated table at ``table_speed``."""
    with Journal(journal_path(config)) as journal, open_table(config.with_service(speed=table_speed)) as side:
        Service(config, side, journal, lambda line: None).run()
    return journal_rows(journal_path(config))


def _steps(rows: dict[str, list[dict[str, Any]]]) -> list[tuple[int, int, str]]:
    """(hand, seq, step) of every table step: where the journal put them."""
    return [(e["hand_id"], e["seq"], e["data"]) for e in rows["events"] if e["kind"] == "table"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, list[dict[str, Any]]]:
    """The two hands of seed 4, never interrupted, on a table as fast as the bots."""
    return _play(_config(tmp_path_factory.mktemp("reference")))


def test_a_table_building_ten_times_slower_journals_the_same(reference, tmp_path):
    """Journaled as they came, the next walls' steps fell some 10 moves after the dice on the fast table and 40 to
    130 moves after on the slow one; they must land at the same place in the journal."""
    slow = _play(_config(tmp_path), table_speed=100.0)
    assert _steps(slow) == _steps(reference)
    assert_same(slow, reference)


class _Crash(Exception):
    """The Pi's power cut between the MCU doing a step and the journal holding it."""


class _CrashBefore(Journal):
    """A new run's journal that dies instead of committing the ``step`` of hand ``number`` (the table did it)."""

    def __init__(self, path: Path, number: int, step: str) -> None:
        super().__init__(path)
        self.number, self.step = number, step
        self.hand_id: int | None = None

    def start_hand(self, record: HandRecord, at: float) -> HandRecord:
        started = super().start_hand(record, at)
        if record.number == self.number:
            self.hand_id = started.id
        return started

    def append(self, hand_id: int, event: Event) -> int:
        if hand_id == self.hand_id and event.kind is EventKind.TABLE and event.data["step"] == self.step:
            raise _Crash
        return super().append(hand_id, event)


STEPS = ["hatch_open", "intake", "lifted", "lowered", "next:shuffled", "next:walls_built"]


@pytest.mark.parametrize("step", STEPS)
def test_a_table_that_kept_its_state_is_followed_to_the_same_journal(reference, tmp_path, step):
    """A real table: the service dies after the MCU confirmed hand 1's ``step`` and before it was journaled; the
    MCU keeps its state (the same simulator goes on under a new service), and the resumed service journals the step
    from what the MCU reports instead of doing it again, or skipping it."""
    config = _config(tmp_path)
    with open_table(config) as side:
        with _CrashBefore(journal_path(config), 1, step) as journal, pytest.raises(_Crash):
            Service(config, side, journal, lambda line: None).run()
        with Journal(journal_path(config)) as journal:
            Service(config, side, journal, lambda line: None).run()
    assert_same(journal_rows(journal_path(config)), reference)


@pytest.mark.parametrize("step", ["lifted", "next:shuffled", "next:walls_built"])
def test_a_simulated_table_restarted_with_the_service_comes_back_as_the_journal_left_it(reference, tmp_path, step):
    """The embedded simulator dies with the service: the restarted one is brought to the state the journal says the
    table was in (its built set, its dice count) and does again what the journal lacks."""
    config = _config(tmp_path)
    with _CrashBefore(journal_path(config), 1, step) as journal, open_table(config) as side, pytest.raises(_Crash):
        Service(config, side, journal, lambda line: None).run()
    serve(config, lambda line: None)
    assert_same(journal_rows(journal_path(config)), reference)


@pytest.mark.parametrize("firmware", ["", "host"])
def test_a_restored_simulator_shows_the_table_the_journal_describes(reference, tmp_path, firmware):
    """After two hands: the walls built during hand 1 wait below, of the set its last build names, and the MCU has
    thrown the dice twice; the Python simulator and a firmware board (its steps done again through the link)."""
    events = [Event.from_dict({**json.loads(row["data"]), "kind": row["kind"]}) for row in reference["events"]]
    built = [event.data for event in events if event.data.get("step", "").endswith("walls_built")]
    thrown = [event.data for event in events if event.kind is EventKind.DICE]
    with open_table(_config(tmp_path).with_service(firmware=firmware)) as side:
        assert side.restore is not None
        side.restore(table_history(events))
        state = side.table.state
    assert state is not None and state.phase is Phase.WALLS_READY and state.sensors & Sensor.HATCH_CLOSED
    assert [built[-1]["set"], built[-1]["counts"]] == [state.built_set, list(state.counts)]
    assert len(thrown) == thrown[-1]["serial"] == state.dice_serial
    if not firmware:  # a board threw its dice again: the last faces are its own
        assert thrown[-1]["dice"] == list(state.dice)


@pytest.mark.slow
def test_five_hands_of_a_seed_journal_the_same_at_two_speeds(tmp_path):
    """``mjtable run --hands 5 --seed 11`` at speed 1000 and at speed 200: the bots and the table both slow down,
    but not the service's own work, so the next walls fall elsewhere among the moves."""
    for speed in ("1000", "200"):
        _kill_then_finish(tmp_path / speed, [*CLI, "--speed", speed], ())
    assert_same(journal_rows(tmp_path / "200" / "journal.sqlite"), journal_rows(tmp_path / "1000" / "journal.sqlite"))


@pytest.mark.slow
@pytest.mark.parametrize("firmware", [(), ("--firmware", "host"), ("--firmware", "qemu")])
def test_sigkill_anywhere_in_hand_2_and_around_its_next_walls_then_restart_gives_the_same_journal(tmp_path, firmware):
    """On the Python simulator and on the firmware boards, which die with the service as the simulator does."""
    args = [*CLI, "--speed", "1000", *firmware]
    _kill_then_finish(tmp_path / "reference", args, ())
    expected = journal_rows(tmp_path / "reference" / "journal.sqlite")
    hand_ids = [hand["id"] for hand in expected["hands"]]
    at = {}  # (hand number, table step or event kind) → how many events the journal holds before its first one
    for index, event in enumerate(expected["events"]):
        what = json.loads(event["data"]).get("step") if event["kind"] == "table" else event["kind"]
        at.setdefault((hand_ids.index(event["hand_id"]), what), index)
    kills = (
        at[(2, "hatch_open")] + 1,  # hand 2's cycle: the used set going in
        at[(2, "dice")] + 5,  # hand 2 dealt, its next walls being built under the table, their steps held
        at[(2, "next:shuffled")],  # at the hand's fixed point, where they are journaled
        at[(2, "next:walls_built")],
        at[(2, "next:walls_built")] + 3,  # after them, hand 2 still in play
        at[(3, "lifted")],  # hand 3 lifting the walls built during hand 2
    )
    _kill_then_finish(tmp_path / "killed", args, kills)
    assert_same(journal_rows(tmp_path / "killed" / "journal.sqlite"), expected)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "seed", "firmware"),
    [("riichi", "7", ()), ("riichi", "7", ("--firmware", "host")), ("shiwan", "2", ())],
)
def test_sigkill_around_riichi_declarations_and_shiwan_hands_then_restart_gives_the_same_journal(
    tmp_path, rules, seed, firmware
):
    """Riichi (seed 7: a declaration in hand 2) and 十万 killed in each hand, and riichi right before and after
    its declaration was journaled: the same journal as an unkilled run, the match's points included."""
    args = ["-m", "controller.cli", "run", "--rules", rules, "--hands", "3", "--seed", seed, "--json", "--http", "off"]
    args += ["--speed", "1000", *firmware]
    _kill_then_finish(tmp_path / "reference", args, ())
    expected = journal_rows(tmp_path / "reference" / "journal.sqlite")
    hand_ids = [hand["id"] for hand in expected["hands"]]
    at: dict[tuple[int, str], int] = {}  # (hand number, event kind or action) → events before its first one
    for index, event in enumerate(expected["events"]):
        data = json.loads(event["data"])
        what = data["action"]["kind"] if event["kind"] == "action" else event["kind"]
        at.setdefault((hand_ids.index(event["hand_id"]), what), index)
    kills = [at[(0, "dice")] + 20, at[(1, "dice")] + 1, at[(2, "discard")] + 30]
    if (2, "ready") in at:
        kills[2:] = [at[(2, "ready")], at[(2, "ready")] + 1, at[(2, "ready")] + 4]
    _kill_then_finish(tmp_path / "killed", args, tuple(sorted(kills)))
    assert_same(journal_rows(tmp_path / "killed" / "journal.sqlite"), expected)
    if rules == "riichi":
        assert (2, "ready") in at, "seed 7 declares riichi in hand 2"
