"""``mjtable history --format tenhou6|botzone`` on journals the real table service wrote (``mjtable run``, bots on
the simulated table): each exported game replays through ``mjtable replay`` to the score changes of the table's own
history; a ruleset a format cannot hold, a damaged journal row and a flag out of place are named errors."""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from controller import export
from controller.cli import main

RUNS = {
    "riichi": ("riichi", "", ("--hands", "3", "--seed", "3")),
    "mcr": ("mcr", "{ flowers = false }", ("--hands", "4", "--seed", "7")),
    "flowers": ("mcr", "", ("--hands", "1", "--seed", "5")),
    "matches": (
        "riichi",
        '{ multiple_ron = "double", red_fives = true, length = "tonpuusen" }',
        ("--hands", "8", "--seed", "20"),
    ),
}
"""Seed 3 seats the riichi match's first dealer at seat 1: the export turns the seats to put him East. The MCR run
plays without flowers (option ``flowers``, as Botzone's matches do): seed 7 deals from every seat in turn (seat 2
first), with three wins and a drawn hand, so the Botzone seats are turned every way; seed 5 deals flowers (the
default set), which the Botzone text cannot hold. The East-only matches of seed 20 (double ron allowed) are two in 8
hands, and hand 2 is a double ron on a hand with a honba, which the first winner alone collects (上家取り)."""


def _run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, stdout=out)
    return code, out.getvalue()


def _journal(tmp_path_factory, run: str) -> Path:
    """A run by the table service itself (a few seconds); its ``--json`` lines are kept beside the journal."""
    state = tmp_path_factory.mktemp(run)
    rules, options, flags = RUNS[run]
    config = state / "mjtable.toml"
    config.write_text(f'[service]\nrules = "{rules}"\noptions = {options or "{}"}\n', encoding="utf-8")
    command = [sys.executable, "-m", "controller.cli", "run", "--config", str(config), *flags]
    command += ["--speed", "1000", "--http", "off", "--state", str(state), "--json"]
    done = subprocess.run(command, check=True, capture_output=True, timeout=120, text=True)
    (state / "run.jsonl").write_text(done.stdout, encoding="utf-8")
    return state


@pytest.fixture(scope="module")
def riichi(tmp_path_factory) -> Path:
    return _journal(tmp_path_factory, "riichi")


@pytest.fixture(scope="module")
def mcr(tmp_path_factory) -> Path:
    return _journal(tmp_path_factory, "mcr")


@pytest.fixture(scope="module")
def matches(tmp_path_factory) -> Path:
    return _journal(tmp_path_factory, "matches")


@pytest.fixture(scope="module")
def flowers(tmp_path_factory) -> Path:
    return _journal(tmp_path_factory, "flowers")


def _history(state: Path) -> list[dict]:
    code, text = _run(["history", "--state", str(state)])
    assert code == 0
    return [json.loads(line) for line in text.splitlines()]


def _round_trip(state: Path, fmt: str, exported: Path) -> tuple[list[dict], list[dict]]:
    """The run exported and replayed: the table's history and ``mjtable replay --json``'s answers."""
    code, text = _run(["history", "--state", str(state), "--format", fmt])
    assert code == 0, text
    exported.write_text(text, encoding="utf-8")
    code, lines = _run(["replay", str(exported), "--json"])
    answers = [json.loads(line) for line in lines.splitlines()]
    assert code == 0, answers
    assert all(answer["agrees"] for answer in answers)
    return _history(state), answers


def _turned(payments: dict[str, int], dealer: int) -> list[int]:
    """The table's payments in the record's seats: ``dealer`` sits at seat 0."""
    return [payments[str((seat + dealer) % 4)] for seat in range(4)]


def test_riichi_games_replay_from_tenhou6_to_the_tables_score_changes(riichi, tmp_path):
    history, answers = _round_trip(riichi, "tenhou6", tmp_path / "run.json")
    assert len(answers) == len(history) == 3
    first = history[0]["dealer"]  # tenhou.net/6 seats the first dealer as seat 0
    assert first == 1
    assert [answer["deltas"] for answer in answers] == [_turned(h["result"]["payments"], first) for h in history]


def test_a_run_of_two_matches_with_a_double_ron_replays_game_by_game(matches, tmp_path):
    history, answers = _round_trip(matches, "tenhou6", tmp_path / "run.jsonl")
    assert len((tmp_path / "run.jsonl").read_text(encoding="utf-8").splitlines()) == 2  # one game per match
    played = [json.loads(line) for line in (matches / "run.jsonl").read_text(encoding="utf-8").splitlines()]
    for hand, result in zip(history, played, strict=False):
        hand["match"] = result["match"]
    assert [answer["game"] for answer in answers] == [hand["match"] for hand in history]
    assert len(answers) == 8 and {hand["match"] for hand in history} == {0, 1}
    double = [answer for answer in answers if len(answer["winners"]) == 2]
    assert len(double) == 1 and double[0]["hand"] == 2
    for match in (0, 1):
        hands = [hand for hand in history if hand["match"] == match]
        replayed = [answer["deltas"] for answer in answers if answer["game"] == match]
        assert replayed == [_turned(hand["result"]["payments"], hands[0]["dealer"]) for hand in hands]


def test_mcr_hands_replay_from_botzone_to_the_tables_score_changes(mcr, tmp_path):
    history, answers = _round_trip(mcr, "botzone", tmp_path / "run.txt")
    assert len(answers) == len(history) == 4
    dealers = [hand["dealer"] for hand in history]
    assert sorted(dealers) == [0, 1, 2, 3]  # each Botzone match seats its dealer as seat 0
    assert [answer["deltas"] for answer in answers] == [
        _turned(hand["result"]["payments"], dealer) for hand, dealer in zip(history, dealers, strict=True)
    ]
    assert [[win["total"] for win in answer.get("wins", [])] for answer in answers] == [
        [win["score"]["total"] for win in hand["result"].get("wins", [])] for hand in history
    ]


def test_mcr_as_tenhou6_is_named(mcr):
    code, text = _run(["history", "--state", str(mcr), "--format", "tenhou6"])
    assert code != 0
    assert "--format tenhou6 holds riichi games only; run 1 has mcr hands (use --format botzone)" in text


def test_riichi_as_botzone_is_named(riichi):
    code, text = _run(["history", "--state", str(riichi), "--format", "botzone"])
    assert code != 0
    assert "--format botzone holds mcr games only; run 1 has riichi hands (use --format tenhou6)" in text


@pytest.mark.slow
def test_an_mcr_hand_with_flowers_is_named_not_written(flowers):
    """The Botzone text as ``engine.records.botzone`` reads it has no flowers; the table deals them."""
    code, text = _run(["history", "--state", str(flowers), "--format", "botzone"])
    assert code != 0
    error = json.loads(text)["error"]
    assert "run 1 hand 0: flowers were dealt" in error
    assert "option flowers = false" in error


def test_a_damaged_journal_row_is_named(riichi, tmp_path):
    state = tmp_path / "damaged"
    shutil.copytree(riichi, state)
    with sqlite3.connect(state / "journal.sqlite") as db:
        db.execute('UPDATE events SET data = \'{"action": {"kind": "discard"\' WHERE rowid = 20')
    code, text = _run(["history", "--state", str(state), "--format", "tenhou6"])
    assert code != 0
    error = json.loads(text)["error"]
    assert "journal.sqlite: run 1 hand 0 event 19: changed after it was written" in error


@pytest.mark.parametrize(
    ("table", "column", "value"),
    [("events", "data", "{"), ("events", "kind", "nonsense"), ("events", "at", "x"), ("hands", "seed", "-1")],
)
def test_damaged_rows_of_every_kind_are_named(riichi, tmp_path, table, column, value):
    """A little fuzz: rows damaged anywhere give history's named error, never a traceback."""
    state = tmp_path / "damaged"
    shutil.copytree(riichi, state)
    with sqlite3.connect(state / "journal.sqlite") as db:
        db.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = (SELECT max(rowid) FROM {table})", (value,))
    code, text = _run(["history", "--state", str(state), "--format", "tenhou6"])
    assert code != 0
    assert json.loads(text)["error"].startswith(str(state / "journal.sqlite"))


def test_an_export_with_hand_or_log_is_refused_by_name(riichi):
    code, text = _run(["history", "--state", str(riichi), "--format", "tenhou6", "--hand", "1"])
    assert code != 0
    assert "--format tenhou6 writes whole games: not with --hand or --log" in text


def test_an_unknown_format_is_refused_by_name(riichi):
    with pytest.raises(SystemExit):
        main(["history", "--state", str(riichi), "--format", "mjlog"], stdout=io.StringIO())


def test_a_bug_met_in_a_hand_is_named_not_a_traceback(riichi, monkeypatch):
    def broken(self, referee):
        raise KeyError("han")

    monkeypatch.setattr(export._Walk, "_result", broken)
    code, text = _run(["history", "--state", str(riichi), "--format", "tenhou6"])
    assert code != 0
    assert "run 1 hand 0: not exported (KeyError: 'han'); please report it" in json.loads(text)["error"]
