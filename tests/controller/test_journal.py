import json
import sqlite3
from dataclasses import replace

import pytest

from controller.errors import JournalError
from controller.service.events import Event, EventKind
from controller.service.hand import HandRecord, HandState
from controller.service.journal import Journal
from controller.service.players import next_action
from controller.service.records import hand_log, hand_record
from engine.actions import Action, ActionKind
from engine.match import Match
from engine.referee import Phase
from engine.rulesets.registry import get_ruleset


def _start(journal: Journal) -> tuple:
    run = journal.start_run(7, "mcr", {}, 1, at=1.0)
    match = journal.start_match(run.id, 0, Match.start(get_ruleset("mcr").rotation, 0), at=1.0)
    record = journal.start_hand(HandRecord(0, 12345, 0, 0, 1, "mcr", match_id=match.id), at=1.0)
    return run, match, record


def _play(journal: Journal, record: HandRecord, limit: int | None = None) -> HandState:
    """Journal then apply, as the service does, stopping after ``limit`` actions."""
    state = HandState.start(record)
    for event in (Event.table("intake", 2.0), Event.dice((3, 4), 3.0)):
        journal.append(record.id, event)
        state.apply(event)
    count = 0
    while not state.over and (limit is None or count < limit):
        event = Event.action(next_action(state.referee, record.seed), "bot", 4.0 + count)
        journal.append(record.id, event)
        assert state.apply(event).ok
        count += 1
    return state


def test_replay_rebuilds_the_exact_referee_at_every_prefix(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        _, _, record = _start(journal)
        live = _play(journal, record, limit=60)
        events = journal.events(record.id)
    assert [event.kind for event in events[:2]] == [EventKind.TABLE, EventKind.DICE]
    assert len(events) == 62
    replayed = HandState.replay(record, events)
    assert replayed.referee.to_dict() == live.referee.to_dict()
    assert replayed.steps == ["intake"] and replayed.dice == (3, 4)
    # a reader in another connection sees every committed event (WAL)
    reader = sqlite3.connect(tmp_path / "j.sqlite")
    assert reader.execute("SELECT COUNT(*) FROM events").fetchone() == (62,)
    assert reader.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    reader.close()


def test_a_finished_hand_commits_result_match_and_run_together_and_exports(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        run, match, record = _start(journal)
        state = _play(journal, record)
        assert state.referee.phase is Phase.OVER
        result = state.referee.result
        after = match.match.record_hand(result)
        assert journal.open_run() == run
        journal.finish_hand(
            record,
            {
                "payments": result.to_dict()["payments"],
                "drawn": result.drawn,
                "wins": [w.to_dict() for w in state.referee.wins],
            },
            replace(match, match=after),
            replace(run, finished=True),
            at=9.0,
        )
        assert journal.open_run() is None
        assert journal.runs()[0].finished
        assert journal.matches(run.id)[0].match == after
        ((stored, stored_result),) = journal.hands(run.id)
        exported = hand_record(stored, journal.events(record.id), stored_result)
    json.dumps(exported)  # JSON all the way down
    actions = [event for event in exported["events"] if event["kind"] == "action"]
    assert all(event["verdict"]["ok"] for event in actions)
    assert exported["dice"] == [3, 4] and exported["round_wind"] == "E"
    log = hand_log(exported)
    assert log.splitlines()[0].startswith("hand 0 · mcr · seed 12345 · dealer seat 0")
    assert "dice    3+4" in log and "payments: seat 0" in log
    if not result.drawn:
        fan = state.referee.wins[0].score.fans[0]
        assert f"{fan.name_zh} {fan.name_en}" in log


def test_an_illegal_action_is_journaled_and_replays_to_the_same_verdict(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        _, _, record = _start(journal)
        state = _play(journal, record, limit=0)
        wrong = Event.action(Action(ActionKind.DISCARD, (record.dealer + 1) % 4, 0), "camera", 5.0)
        journal.append(record.id, wrong)
        live = state.apply(wrong)
        exported = hand_record(record, journal.events(record.id), None)
    assert not live.ok
    assert exported["events"][-1]["verdict"] == {"ok": False, "reason": live.reason}
    assert "ILLEGAL" in hand_log(exported) and "(in play)" in hand_log(exported)


def test_bad_input_is_named(tmp_path):
    with pytest.raises(JournalError, match="synchronous"):
        Journal(tmp_path / "j.sqlite", synchronous="sometimes")
    with pytest.raises(JournalError, match=r"event\.kind"):
        Event.from_dict({"kind": "teleport"})
    record = HandRecord(0, 1, 0, 0, 1, "mcr")
    with pytest.raises(JournalError, match="before the dice"):
        HandState.replay(record, [Event.action(Action(ActionKind.DRAW, 0), "bot", 0.0)])
    with pytest.raises(JournalError, match="two values 1-6"):
        HandState.replay(record, [Event(EventKind.DICE, {"dice": [0, 9]})])


OLD_SCHEMA = """
CREATE TABLE runs (id INTEGER PRIMARY KEY, seed INTEGER NOT NULL, rules TEXT NOT NULL, options TEXT NOT NULL,
    hands INTEGER, started_at REAL NOT NULL, finished_at REAL);
CREATE TABLE matches (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), number INTEGER NOT NULL,
    state TEXT NOT NULL, started_at REAL NOT NULL, finished_at REAL);
CREATE TABLE hands (id INTEGER PRIMARY KEY, match_id INTEGER NOT NULL REFERENCES matches(id), number INTEGER NOT NULL,
    seed INTEGER NOT NULL, dealer INTEGER NOT NULL, round_wind INTEGER NOT NULL,
    consecutive_dealer INTEGER NOT NULL, rules TEXT NOT NULL, options TEXT NOT NULL, dice TEXT,
    result TEXT, started_at REAL NOT NULL, finished_at REAL);
INSERT INTO runs VALUES (1, 7, 'mcr', '{}', 4, 1.0, NULL);
INSERT INTO matches VALUES (1, 1, 0, '{}', 1.0, NULL);
INSERT INTO hands VALUES (1, 1, 0, 12345, 0, 0, 1, 'mcr', '{}', NULL, NULL, 1.0, NULL);
"""


def test_a_journal_written_before_people_played_opens_and_resumes_as_the_bots_run_it_was(tmp_path):
    path = tmp_path / "journal.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    with Journal(path) as journal:
        run = journal.open_run()
        assert run is not None and (run.id, run.seed, run.players) == (1, 7, "bots")
        [(record, result)] = journal.hands(run.id)
        assert (record.seed, record.players, result) == (12345, "bots", None)
        people = journal.start_run(8, "basic", {}, 1, at=2.0, players="people")
        assert journal.open_run() == people and journal.runs()[-1].players == "people"
    with Journal(path) as journal:  # opened again: the columns are there, nothing is added twice
        assert [run.players for run in journal.runs()] == ["bots", "people"]


def test_the_dealers_void_ends_the_hand_in_play_with_no_win_and_no_payment(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        _, _, record = _start(journal)
        state = _play(journal, record, limit=30)
        assert not state.over
        verdict = state.apply(Event.button("void", 2, 9.0))
        assert verdict.ok and verdict.events == ("hand voided",) and state.voided and state.over
        result = state.referee.result
        assert result.drawn and all(amount == 0 for amount in result.payments.values())
        assert "the hand is over" in state.apply(Event.button("void", 2, 9.5)).reason
        before = HandState.start(record)
        assert "none is dealt" in before.apply(Event.button("void", 2, 1.0)).reason
