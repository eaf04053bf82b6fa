"""The SQLite journal (WAL): runs, matches, hands and the events of each hand, every event committed before the
service applies it, so that a restart rebuilds exactly the state the table had.

``synchronous`` is FULL by default: a Pi loses power more often than it crashes, and a commit that is not on the
card when the power goes would let a replayed hand miss a move that the players saw. One connection, used from the
service's thread only; readers (the display, tests) open their own.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.errors import JournalError
from controller.service.events import Event
from controller.service.hand import HandRecord
from engine.match import Match

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, seed INTEGER NOT NULL, rules TEXT NOT NULL, options TEXT NOT NULL,
    hands INTEGER, started_at REAL NOT NULL, finished_at REAL, players TEXT NOT NULL DEFAULT 'bots');
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), number INTEGER NOT NULL,
    state TEXT NOT NULL, started_at REAL NOT NULL, finished_at REAL);
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY, match_id INTEGER NOT NULL REFERENCES matches(id), number INTEGER NOT NULL,
    seed INTEGER NOT NULL, dealer INTEGER NOT NULL, round_wind INTEGER NOT NULL,
    consecutive_dealer INTEGER NOT NULL, rules TEXT NOT NULL, options TEXT NOT NULL, dice TEXT,
    result TEXT, started_at REAL NOT NULL, finished_at REAL, players TEXT NOT NULL DEFAULT 'bots');
CREATE TABLE IF NOT EXISTS events (
    hand_id INTEGER NOT NULL REFERENCES hands(id), seq INTEGER NOT NULL, at REAL NOT NULL, kind TEXT NOT NULL,
    data TEXT NOT NULL, PRIMARY KEY (hand_id, seq));
"""
SYNCHRONOUS = ("off", "normal", "full", "extra")
ADDED_COLUMNS = {"runs": "players TEXT NOT NULL DEFAULT 'bots'", "hands": "players TEXT NOT NULL DEFAULT 'bots'"}
"""Columns added since the first schema, added to an older journal when it is opened (its runs were all bots')."""


@dataclass(frozen=True)
class RunRecord:
    """One ``mjtable run``: its seed, ruleset and the number of hands to play (``None``: until stopped)."""

    id: int
    seed: int
    rules: str
    options: dict[str, Any]
    hands: int | None
    finished: bool = False
    players: str = "bots"


@dataclass(frozen=True)
class MatchRecord:
    id: int
    run_id: int
    number: int
    match: Match
    finished: bool = False


class Journal:
    """The journal file of one table; ``Journal(path)`` creates it on first use."""

    def __init__(self, path: Path, synchronous: str = "full") -> None:
        if synchronous not in SYNCHRONOUS:
            raise JournalError(f"journal.synchronous: expected one of {', '.join(SYNCHRONOUS)}, got {synchronous!r}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._add_columns()
        except (OSError, sqlite3.Error) as error:
            raise JournalError(f"journal {path}: {error}") from None
        self.path = path
        self._next_seq: dict[int, int] = {}

    def _add_columns(self) -> None:
        for table, column in ADDED_COLUMNS.items():
            present = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column.split()[0] not in present:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _transaction(self, *statements: tuple[str, tuple[Any, ...]]) -> int | None:
        """Run the statements in one committed transaction; returns the last inserted row id."""
        cursor = self._db.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        try:
            for sql, values in statements:
                cursor.execute(sql, values)
        except BaseException:
            cursor.execute("ROLLBACK")
            raise
        cursor.execute("COMMIT")
        return cursor.lastrowid

    # -- runs and matches ---------------------------------------------------------------------------------

    def open_run(self) -> RunRecord | None:
        """The latest run not yet finished: the one a restart resumes."""
        return next((run for run in reversed(self.runs()) if not run.finished), None)

    def runs(self) -> list[RunRecord]:
        rows = self._db.execute("SELECT id, seed, rules, options, hands, finished_at, players FROM runs ORDER BY id")
        return [RunRecord(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5] is not None, r[6]) for r in rows]

    def start_run(
        self, seed: int, rules: str, options: dict[str, Any], hands: int | None, at: float, players: str = "bots"
    ) -> RunRecord:
        sql = "INSERT INTO runs (seed, rules, options, hands, started_at, players) VALUES (?, ?, ?, ?, ?, ?)"
        run_id = self._transaction((sql, (seed, rules, json.dumps(options, sort_keys=True), hands, at, players)))
        assert run_id is not None
        return RunRecord(run_id, seed, rules, options, hands, players=players)

    def close_run(self, run_id: int, at: float) -> None:
        """End a run before its last hand (a new match was asked for): a restart no longer resumes it."""
        self._transaction(("UPDATE runs SET finished_at = ? WHERE id = ? AND finished_at IS NULL", (at, run_id)))

    def matches(self, run_id: int) -> list[MatchRecord]:
        rows = self._db.execute(
            "SELECT id, number, state, finished_at FROM matches WHERE run_id = ? ORDER BY number", (run_id,)
        )
        return [MatchRecord(r[0], run_id, r[1], Match.from_dict(json.loads(r[2])), r[3] is not None) for r in rows]

    def start_match(self, run_id: int, number: int, match: Match, at: float) -> MatchRecord:
        sql = "INSERT INTO matches (run_id, number, state, started_at) VALUES (?, ?, ?, ?)"
        match_id = self._transaction((sql, (run_id, number, json.dumps(match.to_dict()), at)))
        assert match_id is not None
        return MatchRecord(match_id, run_id, number, match)

    # -- hands and events ---------------------------------------------------------------------------------

    def hands(self, run_id: int) -> list[tuple[HandRecord, dict[str, Any] | None]]:
        """Every hand of a run in order, with its result (``None`` while it is being played)."""
        rows = self._db.execute(
            "SELECT h.id, h.match_id, h.number, h.seed, h.dealer, h.round_wind, h.consecutive_dealer, h.rules, "
            "h.options, h.result, h.players FROM hands h JOIN matches m ON h.match_id = m.id WHERE m.run_id = ? "
            "ORDER BY h.number",
            (run_id,),
        )
        return [
            (
                HandRecord(r[2], r[3], r[4], r[5], r[6], r[7], json.loads(r[8]), r[10], id=r[0], match_id=r[1]),
                None if r[9] is None else json.loads(r[9]),
            )
            for r in rows
        ]

    def start_hand(self, record: HandRecord, at: float) -> HandRecord:
        sql = (
            "INSERT INTO hands (match_id, number, seed, dealer, round_wind, consecutive_dealer, rules, options, "
            "started_at, players) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        values = (record.match_id, record.number, record.seed, record.dealer, record.round_wind)
        values += (record.consecutive_dealer, record.rules, json.dumps(record.options, sort_keys=True), at)
        values += (record.players,)
        hand_id = self._transaction((sql, values))
        assert hand_id is not None
        return HandRecord(**{**record.to_dict(), "id": hand_id})

    def append(self, hand_id: int, event: Event) -> int:
        """Commit one event of a hand; returns its sequence number. The dice are also kept on the hand row."""
        seq = self._next_seq.get(hand_id)
        if seq is None:
            (count,) = self._db.execute("SELECT COUNT(*) FROM events WHERE hand_id = ?", (hand_id,)).fetchone()
            seq = count
        data = {key: value for key, value in event.to_dict().items() if key not in ("kind", "at")}
        statements = [
            (
                "INSERT INTO events (hand_id, seq, at, kind, data) VALUES (?, ?, ?, ?, ?)",
                (hand_id, seq, event.at, event.kind.value, json.dumps(data, ensure_ascii=False)),
            )
        ]
        if "dice" in data:
            statements.append(("UPDATE hands SET dice = ? WHERE id = ?", (json.dumps(data["dice"]), hand_id)))
        self._transaction(*statements)
        self._next_seq[hand_id] = seq + 1
        return seq

    def events(self, hand_id: int) -> list[Event]:
        rows = self._db.execute("SELECT at, kind, data FROM events WHERE hand_id = ? ORDER BY seq", (hand_id,))
        return [Event.from_dict({"kind": kind, "at": at, **json.loads(data)}) for at, kind, data in rows]

    def finish_hand(
        self, hand: HandRecord, result: dict[str, Any], match: MatchRecord, run: RunRecord, at: float
    ) -> None:
        """The hand's result, the match after it and, when they end with it, the match and the run: one commit."""
        match_done = at if match.finished else None
        run_done = at if run.finished else None
        self._transaction(
            (
                "UPDATE hands SET result = ?, finished_at = ? WHERE id = ?",
                (json.dumps(result, ensure_ascii=False), at, hand.id),
            ),
            (
                "UPDATE matches SET state = ?, finished_at = ? WHERE id = ?",
                (json.dumps(match.match.to_dict()), match_done, match.id),
            ),
            ("UPDATE runs SET finished_at = ? WHERE id = ?", (run_done, run.id)),
        )
