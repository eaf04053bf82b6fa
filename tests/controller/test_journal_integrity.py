"""The journal as an external input: edited, deleted, damaged or lost rows are named (the row, the column, what to do
instead), never a traceback, and a journal behind the table is never replayed as if nothing happened."""

from __future__ import annotations

import io
import json
import logging
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from controller.cli import main
from controller.config import Config
from controller.errors import JournalError
from controller.service.chain import link
from controller.service.events import Event, EventKind
from controller.service.hand import HandRecord, HandState
from controller.service.journal import Journal
from controller.service.players import next_action
from controller.service.service import Service, journal_path, serve
from controller.service.tableside import open_table
from controller.service.tail import table_ahead
from engine.match import Match
from engine.rulesets.registry import get_ruleset
from tests.controller.test_journal import OLD_SCHEMA


def _journal(path: Path, actions: int = 20) -> HandRecord:
    """A journal holding one run, one match and one hand of ``actions`` bot moves after the table steps."""
    with Journal(path) as journal:
        run = journal.start_run(7, "mcr", {}, 4, at=1.0)
        match = journal.start_match(run.id, 0, Match.start(get_ruleset("mcr").rotation, 0), at=1.0)
        record = journal.start_hand(HandRecord(0, 12345, 0, 0, 1, "mcr", match_id=match.id), at=1.0)
        state = HandState.start(record)
        for event in (Event.table("intake", 2.0), Event.dice((3, 4), 3.0, serial=5)):
            journal.append(record.id, event)
            state.apply(event)
        for count in range(actions):
            event = Event.action(next_action(state.referee, record.seed), "bot", 4.0 + count)
            journal.append(record.id, event)
            state.apply(event)
    return record


def _sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    with db:
        for statement in statements:
            db.execute(statement)
    db.close()


def _rechain(path: Path) -> None:
    """Recompute every hash as an editor who knows the chain would: the rows' own checks must still hold."""
    db = sqlite3.connect(path)
    with db:
        db.execute("ALTER TABLE events RENAME COLUMN hash TO old_hash")
        db.execute("ALTER TABLE events ADD COLUMN hash TEXT")
    tail = db.execute("SELECT hash FROM hands WHERE id = 1").fetchone()[0]
    with db:
        for seq, at, kind, data in db.execute("SELECT seq, at, kind, data FROM events ORDER BY seq").fetchall():
            tail = link(tail, "event", (seq, at, kind, data))
            db.execute("UPDATE events SET hash = ? WHERE seq = ?", (tail, seq))
    db.close()
    head = path.with_name("journal.sqlite-head")
    head.write_text(json.dumps({**json.loads(head.read_text()), "hash": tail}))


def _history(*args: str) -> tuple[int, list[dict]]:
    out = io.StringIO()
    code = main(["history", *args], stdout=out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_two_discards_swapped_are_named_at_start_and_by_history(tmp_path):
    path = tmp_path / "journal.sqlite"
    _journal(path)
    with Journal(path) as journal:
        journal.verify(1)  # as written, the chain holds
    db = sqlite3.connect(path)
    discards = db.execute("SELECT seq, data FROM events WHERE data LIKE '%\"discard\"%' ORDER BY seq").fetchall()
    db.close()
    (first, one), (second, other) = discards[:2]
    assert one != other
    _sql(
        path,
        f"UPDATE events SET data = '{other}' WHERE seq = {first}",
        f"UPDATE events SET data = '{one}' WHERE seq = {second}",
    )
    with Journal(path) as journal, pytest.raises(JournalError, match=rf"run 1 hand 0 event {first}: changed") as met:
        journal.verify(1)
    assert f"inspect it with `mjtable history --state {tmp_path}`" in str(met.value)  # the service may send you there
    code, lines = _history("--state", str(tmp_path))
    assert code == 2 and f"event {first}: changed after it was written" in lines[0]["error"]
    assert "mjtable history" not in lines[0]["error"]  # never the command that just failed
    assert f"keep this one aside: `mkdir {tmp_path}/journal-aside-" in lines[0]["error"]
    assert f"&& mv {path}* {tmp_path}/journal-aside-" in lines[0]["error"]


def test_a_deleted_event_is_named_and_the_next_sequence_number_follows_the_last(tmp_path):
    path = tmp_path / "journal.sqlite"
    record = _journal(path, actions=10)
    _sql(path, "DELETE FROM events WHERE seq = 4")
    with Journal(path) as journal:
        with pytest.raises(JournalError, match="run 1 hand 0 event 4: missing: the next event is numbered 5"):
            journal.verify(1)
        assert journal.append(record.id, Event.table("lowered", 9.0)) == 12  # max + 1: no IntegrityError


def test_a_deleted_last_event_is_a_lost_tail(tmp_path):
    path = tmp_path / "journal.sqlite"
    _journal(path, actions=10)
    _sql(path, "DELETE FROM events WHERE seq = 11")
    with Journal(path) as journal:
        journal.verify(1)  # what is left is a chain...
        assert "ends at event 10 of hand 0 of run 1, but event 11 of hand 0 of run 1 had been written" in journal.lost
    head = path.with_name("journal.sqlite-head")
    head.write_text("{not json")
    with Journal(path) as journal:
        assert journal.lost is None  # an unreadable head file is logged, and only weakens the check


def test_a_rewritten_chain_is_named_by_the_head_file(tmp_path):
    path = tmp_path / "journal.sqlite"
    _journal(path, actions=10)
    head = path.with_name("journal.sqlite-head")
    written = head.read_text()
    _sql(path, "UPDATE events SET data = '{}' WHERE seq = 5")
    _rechain(path)
    head.write_text(written)
    with pytest.raises(JournalError, match="event 11 of hand 0 of run 1: holds other content than was written"):
        Journal(path)


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("{'seat': 0", "column data: not valid JSON"),
        ("[1, 2]", "column data: expected a JSON dict"),
        (
            '{"action": {"kind": "fly", "seat": 0}, "source": "bot"}',
            "column data: hand 0: action.kind: expected one of",
        ),
    ],
)
def test_an_event_row_that_does_not_read_names_its_row_and_column(tmp_path, data, problem):
    path = tmp_path / "journal.sqlite"
    _journal(path, actions=10)
    _sql(path, f"UPDATE events SET data = '{data.replace(chr(39), chr(39) * 2)}' WHERE seq = 6")
    _rechain(path)
    with Journal(path) as journal:
        journal.verify(1)  # the editor rechained it: the row's own check names it
        with pytest.raises(JournalError, match=rf"run 1 hand 0 event 6, {problem}"):
            journal.replay(journal.hands(1)[0][0])
    code, lines = _history("--state", str(tmp_path))
    assert code == 2 and f"hand 0 event 6, {problem.split(':')[0]}" in lines[0]["error"]


def test_a_match_state_of_the_wrong_type_is_named(tmp_path):
    path = tmp_path / "journal.sqlite"
    _journal(path, actions=2)
    for state in ('"a string"', '{"scores": "abcd"}', json.dumps({**_state(), "scores": ["a", "b", "c", "d"]})):
        _sql(path, f"UPDATE matches SET state = '{state}'")
        with Journal(path) as journal, pytest.raises(JournalError, match=r"matches row 1 \(run 1\), column state"):
            journal.matches(1)


def _state() -> dict:
    return Match.start(get_ruleset("mcr").rotation, 0).to_dict()


def test_the_service_names_a_damaged_row_instead_of_a_traceback(tmp_path):
    config = Config().with_service(http="off", state_dir=str(tmp_path), seed=7, hands=4, speed=1000.0)
    _journal(journal_path(config), actions=10)
    _sql(journal_path(config), "UPDATE events SET at = 'noon' WHERE seq = 3")
    with pytest.raises(JournalError, match="run 1 hand 0 event 3: changed after it was written"):
        serve(config.with_service(rules="mcr"), lambda line: None)
    _rechain(journal_path(config))
    with pytest.raises(JournalError, match="run 1 hand 0 event 3, column at: expected a time, found 'noon'"):
        serve(config.with_service(rules="mcr"), lambda line: None)


def test_an_older_journal_is_chained_on_migration_and_says_from_when(tmp_path):
    path = tmp_path / "journal.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    code, lines = _history("--state", str(tmp_path))  # read-only: migrated in memory, the file untouched
    assert code == 0 and lines[0]["chained"].startswith("on migration at ")
    with sqlite3.connect(path) as db:
        assert "hash" not in {row[1] for row in db.execute("PRAGMA table_info(events)")}
    with Journal(path) as journal:
        assert journal.chained_from["from"] == "migration" and journal.chained_from["hands_before"] == 1
        journal.verify(1)
        record, _ = journal.hands(1)[0]
        journal.append(record.id, Event.table("intake", 5.0))  # and goes on from there
    with Journal(path) as journal:
        journal.verify(1)
        assert journal.chained_from["from"] == "migration"
    new = tmp_path / "new" / "journal.sqlite"
    _journal(new, actions=1)
    code, lines = _history("--state", str(new.parent))
    assert code == 0 and lines[0]["chained"] == "when written"


def test_history_writes_nothing_and_names_a_missing_or_damaged_journal(tmp_path):
    typo = tmp_path / "typo"
    code, lines = _history("--state", str(typo))
    assert code == 2 and "no journal there" in lines[0]["error"] and not typo.exists()
    path = tmp_path / "journal.sqlite"
    _journal(path, actions=30)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    before = sorted(p.name for p in tmp_path.iterdir())
    with open(path, "r+b") as file:  # every page after the first scribbled over
        file.seek(4096)
        file.write(b"\xa5" * 4096 * (pages - 1))
    code, lines = _history("--state", str(tmp_path))
    assert code == 2 and f"journal {path} is damaged: SQLite cannot read it" in lines[0]["error"]
    assert "mjtable history" not in lines[0]["error"] and f"&& mv {path}* " in lines[0]["error"]
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    path.write_bytes(b"not a database at all" * 100)
    code, lines = _history("--state", str(tmp_path))
    assert code == 2 and "SQLite cannot read it (file is not a database)" in lines[0]["error"]


def _crash_after(config: Config, after: int) -> None:
    """Play the configured run and stop it dead right after event ``after`` is committed."""

    class Crash(Exception):
        pass

    class Crashing(Journal):
        def append(self, hand_id: int, event: Event) -> int:
            seq = super().append(hand_id, event)
            if seq == after:
                raise Crash
            return seq

    with Crashing(journal_path(config)) as journal, open_table(config) as side, pytest.raises(Crash):
        Service(config, side, journal, lambda line: None).run()


def test_a_journal_that_lost_its_tail_mid_hand_voids_the_hand_loudly(tmp_path, caplog):
    config = Config().with_service(http="off", state_dir=str(tmp_path), seed=8, hands=2, speed=1000.0)
    _crash_after(config, 60)
    _sql(journal_path(config), "DELETE FROM events WHERE seq > 30")  # what a cut WAL leaves: an earlier point
    lines: list[dict] = []
    with caplog.at_level(logging.ERROR):
        serve(config, lines.append)
    behind = lines[0]
    assert behind["journal"] == "behind" and behind["hand"] == 0 and behind["done"] == "the hand is voided"
    assert "ends at event 30 of hand 0 of run 1, but event 60 of hand 0 of run 1 had been written" in behind["reason"]
    assert any("the journal is behind the table" in record.message for record in caplog.records)
    result = lines[1]
    assert result["hand"] == 0 and result["voided"] and result["void_reason"] == behind["reason"]
    assert all(amount == 0 for amount in result["payments"].values())
    assert lines[2]["hand"] == 1 and lines[-1]["hands"] == 2  # the run goes on with the next hand
    code, records = _history("--state", str(tmp_path), "--hand", "0")
    moves = [event for event in records[0]["events"] if event["kind"] in ("action", "button")]
    assert code == 0 and moves[-1]["by"] == "service"  # the void ends the hand's moves (the next set's steps follow)
    out = io.StringIO()
    main(["history", "--state", str(tmp_path), "--hand", "0", "--log"], stdout=out)
    assert "service voided the hand: " in out.getvalue()


def test_a_voided_hand_is_left_out_of_an_export_and_the_hands_after_it_replay(tmp_path):
    """A voided hand was redealt, not played: the Botzone text holds the next hand only, which replays as paid."""
    config = Config().with_service(http="off", state_dir=str(tmp_path), seed=8, hands=2, speed=1000.0)
    config = config.with_service(options={"flowers": False})  # the Botzone text has no flowers
    _crash_after(config, 60)
    _sql(journal_path(config), "DELETE FROM events WHERE seq > 30")
    lines: list[dict] = []
    serve(config, lines.append)
    assert lines[1]["voided"] and lines[2]["hand"] == 1 and "voided" not in lines[2]
    out = io.StringIO()
    assert main(["history", "--state", str(tmp_path), "--format", "botzone"], stdout=out) == 0
    exported = tmp_path / "run.txt"
    exported.write_text(out.getvalue(), encoding="utf-8")
    assert out.getvalue().count("Match ") == 1
    out = io.StringIO()
    assert main(["replay", "--json", str(exported)], stdout=out) == 0
    (answer,) = [json.loads(line) for line in out.getvalue().splitlines()]
    dealer = lines[2]["dealer"]  # the Botzone text seats the dealer as seat 0
    assert answer["agrees"]
    assert answer["deltas"] == [lines[2]["payments"][str((seat + dealer) % 4)] for seat in range(4)]


def test_a_journal_that_lost_the_deal_says_so_and_deals_from_the_table(tmp_path):
    config = Config().with_service(http="off", state_dir=str(tmp_path), seed=8, hands=1, speed=1000.0)
    _crash_after(config, 40)
    _sql(journal_path(config), "DELETE FROM events WHERE seq > 2")
    lines: list[dict] = []
    serve(config, lines.append)
    assert lines[0]["journal"] == "behind" and lines[0]["done"] == "the hand is dealt from the table as it stands"
    assert "voided" not in lines[1] and lines[-1]["hands"] == 1


def _mcu(configured: bool, serial: int) -> tuple[SimpleNamespace, SimpleNamespace]:
    return SimpleNamespace(configured=configured), SimpleNamespace(dice_serial=serial)


@pytest.mark.parametrize(
    ("dealt", "configured", "serial", "behind"),
    [
        (True, True, 5, False),  # the throw the hand was dealt with
        (True, True, 6, True),  # one more throw: a hand the journal lost
        (False, True, 6, False),  # thrown, the service died before journaling it: thrown again
        (False, True, 7, True),
        (True, False, 9, False),  # the MCU booted since: its counter cannot vouch
        (True, True, 0, False),  # no throw since its boot
    ],
)
def test_the_mcus_count_of_throws_checks_the_journal(tmp_path, dealt, configured, serial, behind):
    path = tmp_path / "journal.sqlite"
    _journal(path, actions=1)
    with Journal(path) as journal:
        (run,) = journal.runs()
        record = journal.hands(run.id)[0][0]
        hand = journal.replay(record) if dealt else HandState.start(record)
        found = table_ahead(journal, run, hand, *_mcu(configured, serial))
    assert (found is not None) == behind
    if behind:
        assert f"threw the dice {serial - 5} times since the journal's last throw (hand 0" in found


def test_the_service_journals_the_mcus_count_of_each_throw(tmp_path):
    config = Config().with_service(http="off", state_dir=str(tmp_path), seed=8, hands=1, speed=1000.0)
    serve(config, lambda line: None)
    with Journal(journal_path(config)) as journal:
        (hand, _), = journal.hands(1)
        dice = [event for event in journal.events(hand.id) if event.kind is EventKind.DICE]
    assert [event.data["serial"] for event in dice] == [1]
