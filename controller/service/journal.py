"""The SQLite journal (WAL): runs, matches, hands and the events of each hand, every event committed before the
service applies it, so that a restart rebuilds exactly the state the table had.

``synchronous`` is FULL by default: a Pi loses power more often than it crashes, and a commit that is not on the
card when the power goes would let a replayed hand miss a move that the players saw. One connection, used from the
service's thread only; readers (the display, tests, ``mjtable history``) open their own, read-only.

What the journal holds is checked as it is read, as any external input: every row is chained to the one before
(``controller.service.chain``), so an edited, deleted or reordered row is named (``verify``); a value of the wrong
type or JSON that does not parse names its table, row and column. Beside the journal, ``journal.sqlite-head`` keeps
the last row written: a journal opened again without that row lost its tail (``lost``), which the service must not
replay as if nothing happened. Every such error says what to do instead (``remedy``), chosen by who opened the
journal: the service may send its user to ``mjtable history``, ``mjtable history`` itself never does.

The file itself is checked before the service writes to it (``Journal._check``): a damaged page is refused
(``JournalDamaged``), never appended to. A full disk is named as such with the free space (``DiskFull``): the journal
is then intact, since a failed write is rolled back whole.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import math
import os
import shlex
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from controller.errors import DiskFull, JournalDamaged, JournalError
from controller.service.chain import (
    EVENT_COLUMNS,
    GENESIS,
    HAND_COLUMNS,
    RESULT_COLUMNS,
    RUN_COLUMNS,
    Head,
    link,
)
from controller.service.events import Event
from controller.service.hand import HandRecord, HandState
from engine.errors import MjtableError, quoted
from engine.match import Match

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, seed INTEGER NOT NULL, rules TEXT NOT NULL, options TEXT NOT NULL,
    hands INTEGER, started_at REAL NOT NULL, finished_at REAL, players TEXT NOT NULL DEFAULT 'bots', hash TEXT);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), number INTEGER NOT NULL,
    state TEXT NOT NULL, started_at REAL NOT NULL, finished_at REAL);
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY, match_id INTEGER NOT NULL REFERENCES matches(id), number INTEGER NOT NULL,
    seed INTEGER NOT NULL, dealer INTEGER NOT NULL, round_wind INTEGER NOT NULL,
    consecutive_dealer INTEGER NOT NULL, rules TEXT NOT NULL, options TEXT NOT NULL, dice TEXT,
    result TEXT, started_at REAL NOT NULL, finished_at REAL, players TEXT NOT NULL DEFAULT 'bots', hash TEXT,
    match_state TEXT, result_hash TEXT);
CREATE TABLE IF NOT EXISTS events (
    hand_id INTEGER NOT NULL REFERENCES hands(id), seq INTEGER NOT NULL, at REAL NOT NULL, kind TEXT NOT NULL,
    data TEXT NOT NULL, hash TEXT, PRIMARY KEY (hand_id, seq));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
SYNCHRONOUS = ("off", "normal", "full", "extra")
ADDED_COLUMNS = (
    ("runs", "players TEXT NOT NULL DEFAULT 'bots'"),
    ("hands", "players TEXT NOT NULL DEFAULT 'bots'"),
    ("runs", "hash TEXT"),
    ("hands", "hash TEXT"),
    ("hands", "match_state TEXT"),
    ("hands", "result_hash TEXT"),
    ("events", "hash TEXT"),
)
"""Columns added since the first schema, added to an older journal when it is opened (its runs were all bots'; its
rows are chained then, and the journal says from when: ``chained_from``)."""
INSPECT = "inspect it with `mjtable history --state {dir}` (--run, --hand, --log); "
"""The service's advice on a journal it cannot go on from; never ``mjtable history``'s own (it is what failed)."""
ASIDE = "to start a new journal, keep this one aside: `{command}` (the run in it is not resumed)"
PLAYERS = ("bots", "people")
CHECK_S = 20.0
"""The longest the check at opening may take before the service goes on unchecked (``Journal._check``): by estimate
enough for a journal of about 500 MB (a year of a busy table) on a Pi's SD card, and well inside systemd's 90 s."""
PROBLEMS = 3
"""How many of quick_check's findings a damaged journal's error quotes."""
TICK_NS = 11_000_000
"""Longer than a tick of the clock the kernel stamps file times with (a jiffy, 10 ms at most): ``record_checked``."""
FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)
"""A file write that failed for want of room (SQLite says ``SQLITE_FULL`` for both)."""
DECODE = "Could not decode to UTF-8"
"""How Python's sqlite3 says a text column holds bytes that are not UTF-8 (a damaged page); it has no error code."""


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
    """The journal file of one table; ``Journal(path)`` creates it on first use, ``Journal(path, readonly=True)``
    reads an existing one and writes nothing (an older journal is migrated in memory). ``check_s`` bounds the check
    of an existing journal before it is written to (``_check``)."""

    def __init__(
        self, path: Path, synchronous: str = "full", *, readonly: bool = False, check_s: float = CHECK_S
    ) -> None:
        if synchronous not in SYNCHRONOUS:
            raise JournalError(f"journal.synchronous: expected one of {', '.join(SYNCHRONOUS)}, got {synchronous!r}")
        self.path = path
        self.readonly = readonly
        self._head_path = path.with_name(path.name + "-head")
        self._sound = False
        """The file passed its check (or is new) and only this connection's commits changed it since: a clean
        close then records it as checked (``record_checked``), so the next opening need not check it again."""
        self._page_size = 4096
        self._next_seq: dict[int, int] = {}
        self._tails: dict[int, str] = {}
        """Each run's last chained row hash, the one the next row of the run links to."""
        self._hand_runs: dict[int, tuple[int, int]] = {}
        """hand id → (run id, hand number), for the head file and the error messages."""
        existed = path.exists()
        try:
            self._db = self._open_readonly() if readonly else self._open(synchronous, existed, check_s)
        except (OSError, sqlite3.Error, UnicodeDecodeError) as error:  # UnicodeDecodeError: a damaged page
            raise self._failed(error) from None
        self.lost = self._check_head(existed)
        """What the journal lost since its head file was written (a cut WAL, a card that dropped writes), or
        ``None``; the service reports it and voids the hand it would otherwise replay as if nothing happened."""

    def _open(self, synchronous: str, existed: bool, check_s: float) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            self._sound = not existed or self._check(db, check_s)  # before anything is written to it
            _checked_path(self.path).unlink(missing_ok=True)  # from here on, only a clean close vouches for it
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            db.execute("PRAGMA foreign_keys=ON")
            db.executescript(SCHEMA)
            self._migrate(db)
            (self._page_size,) = db.execute("PRAGMA page_size").fetchone()
        except BaseException:
            db.close()
            raise
        return db

    def _check(self, db: sqlite3.Connection, budget_s: float) -> bool:
        """SQLite's ``quick_check`` of the file before anything is written to it: ``True`` when clean, ``False`` when
        ``budget_s`` ran out first (the service goes on unchecked, and says so); a damaged file raises.

        Bounded, because the check reads every page. On a 504 MB journal of real-shaped rows (17,200 hands, 2.66 M
        events; ``bench/bench_journal_check.py``) it took 0.6-0.7 s here with the file in the page cache but
        8.6-9.9 s from disk, its walk reading pages out of file order; reading the file once in order first
        (``_prefetch``) brings that to 1.7-2.5 s. A Pi's SD card is slower still (about 40 MB/s in order, far less
        at random: not measured here), and systemd gives the whole start, handshake included, 90 s.

        So a clean close records the file as it then is (``record_checked``), and an opening that finds it unchanged
        (inode, size, times, WAL) skips the check: 3 ms instead of 1.2 s for that journal. Only the start after a
        power cut or a crash, or after the file was copied back, edited or damaged from outside, pays for it. And
        the check stops after ``budget_s`` (``CHECK_S``; bounded to 0.5 s, it returned after 0.50 s): a journal
        still unchecked then is logged, not refused, since a table that cannot start after a power cut is worse
        than a check left to ``mjtable doctor``. Damage the record cannot see (a card decaying under an unchanged
        file) is left to the rows' own checks as they are read, and to the doctor."""
        stamp = file_stamp(self.path)
        if _recorded_stamp(self.path) == stamp:
            log.info("journal %s: unchanged since its last clean check, not checked again", self.path)
            return True
        seconds, problems = quick_check(db, self.path, budget_s)
        if problems:
            raise damaged(self.path, f"SQLite's quick_check finds: {problems}", writer=True)
        size = _bytes(self.path.stat().st_size)
        if seconds is None:
            log.warning(
                "journal %s (%s): its check did not finish in %g s, the service goes on unchecked; stop it and run "
                "`mjtable doctor`, which checks it without this limit and records it as checked",
                self.path,
                size,
                budget_s,
            )
            return False
        log.info("journal %s (%s): quick_check ok in %.2f s", self.path, size, seconds)
        return True

    def _open_readonly(self) -> sqlite3.Connection:
        if not self.path.is_file():
            raise JournalError(
                f"{self.path}: no journal there (`mjtable run` writes it in its state directory: give that "
                "directory with --state, or the configuration with --config)"
            )
        db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"runs", "matches", "hands"} <= tables:
            db.close()
            raise JournalError(f"{self.path}: not a journal (its tables are {sorted(tables) or 'none'})")
        current = {"runs", "matches", "hands", "events", "meta"} <= tables
        if current and all(column.split()[0] in _columns(db, table) for table, column in ADDED_COLUMNS):
            return db
        memory = sqlite3.connect(":memory:", isolation_level=None)  # an older journal: migrated here, not on disk
        db.backup(memory)
        db.close()
        memory.executescript(SCHEMA)
        self._migrate(memory)
        return memory

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Add the columns of later versions; rows written before the chain are chained now, and the journal says
        that its chain vouches for them from this moment only."""
        unchained = "hash" not in _columns(db, "runs")  # every journal has runs; the oldest had no events table
        for table, column in ADDED_COLUMNS:
            if column.split()[0] not in _columns(db, table):
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
        if not unchained:
            db.execute("INSERT OR IGNORE INTO meta VALUES ('chain', ?)", (json.dumps({"from": "creation"}),))
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            _chain_all(db)
            (hand_id,) = db.execute("SELECT COALESCE(MAX(id), 0) FROM hands").fetchone()
            chained = {"from": "migration", "at": time.time(), "hands_before": hand_id}
            db.execute("INSERT OR REPLACE INTO meta VALUES ('chain', ?)", (json.dumps(chained),))
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        log.warning(
            "journal %s: chained on migration; its %d hands written before were not chained when written",
            self.path,
            hand_id,
        )

    def close(self) -> None:
        self._db.close()
        if self._sound and not self.readonly:
            record_checked(self.path, file_stamp(self.path))

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading and writing, every SQLite error named ----------------------------------------------------

    @property
    def remedy(self) -> str:
        """What to do about a journal that cannot be gone on from, as its opener may advise."""
        return _remedy(self.path, writer=not self.readonly)

    def _failed(self, error: BaseException) -> JournalError:
        """An SQLite or file error, named (``failure``); the file no longer counts as checked."""
        self._sound = False
        return failure(self.path, error, writer=not self.readonly, page_size=self._page_size)

    def _rows(self, sql: str, values: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, values).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._failed(error) from None

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Cursor]:
        """One committed transaction; nothing of it is kept when a statement or the commit fails. SQLite rolls back
        by itself after some errors (``SQLITE_FULL``), so the rollback is only asked for when one is still open."""
        cursor = self._db.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE")
            try:
                yield cursor
                cursor.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    cursor.execute("ROLLBACK")
                raise
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise self._failed(error) from None

    def _json(self, where: str, column: str, text: Any, kind: type) -> Any:
        """A column holding JSON of ``kind`` (an object), as the service writes it."""
        try:
            if not isinstance(text, str):
                raise ValueError(f"a {type(text).__name__}, not JSON text")
            value = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise self._bad(f"{where}, column {column}", f"not valid JSON ({error})") from None
        if not isinstance(value, kind):
            raise self._bad(f"{where}, column {column}", f"expected a JSON {kind.__name__}, found {text[:80]!r}")
        return value

    def _integer(self, where: str, column: str, value: Any, low: int, high: int) -> None:
        if not _within(value, low, high):
            raise self._bad(f"{where}, column {column}", f"expected an integer {low}-{high}, found {quoted(value)}")

    def _bad(self, where: str, problem: str) -> JournalError:
        """A row that is not what the service wrote: named, with what to do instead."""
        return JournalError(f"{self.path}: {where}: {problem}; {self.remedy}")

    # -- the chain ----------------------------------------------------------------------------------------

    @property
    def chained_from(self) -> dict[str, Any]:
        """``{"from": "creation"}``, or ``{"from": "migration", "at": time, "hands_before": id}``: the hands up
        to that id were written before the journal had a chain, and were chained when it was migrated."""
        rows = self._rows("SELECT value FROM meta WHERE key = 'chain'")
        try:
            found = json.loads(rows[0][0]) if rows else None
        except (TypeError, ValueError, RecursionError):
            found = None
        migrated = isinstance(found, dict) and found.get("from") == "migration"
        if migrated and not (_within(found.get("hands_before"), 0, 2**63 - 1) and _amount(found.get("at"))):
            found = None
        if not isinstance(found, dict) or found.get("from") not in ("creation", "migration"):
            raise self._bad("meta row chain", f"expected where the chain starts, found {quoted(rows)}")
        return found

    def verify(self, run_id: int) -> None:
        """Walk the chain up to the end of the run: every run row, then the run's hands, events and results in
        order; the first row whose hash does not follow from the rows before it is named. The match states the
        service updates in place must be the ones the match's last result links."""
        before = GENESIS
        for row in self._rows(f"SELECT {', '.join(RUN_COLUMNS)}, hash FROM runs ORDER BY id"):
            before = self._follows(before, "run", row, f"runs row {row[0]}")
            if row[0] == run_id:
                break
        else:
            raise self._bad(f"run {run_id}", "no such run")
        columns = ", ".join(f"h.{column}" for column in (*HAND_COLUMNS, "hash", *RESULT_COLUMNS, "result_hash"))
        hands = self._rows(
            f"SELECT {columns} FROM hands h JOIN matches m ON h.match_id = m.id WHERE m.run_id = ? "
            "ORDER BY h.number, h.id",
            (run_id,),
        )
        states: dict[int, Any] = {}
        for index, hand in enumerate(hands):
            where = f"run {run_id} hand {index}"
            if hand[2] != index:
                problem = "is missing (deleted, or hands renumbered)" if hand[2] != index - 1 else "is there twice"
                raise self._bad(where, f"hands row {hand[0]} says hand {quoted(hand[2])}: hand {index} {problem}")
            if index and hands[index - 1][12] is None:
                raise self._bad(f"run {run_id} hand {index - 1}", "has no result, yet a hand follows it")
            before = self._follows(before, "hand", hand[:12], f"{where} (hands row {hand[0]})")
            events = self._rows(
                f"SELECT {', '.join(EVENT_COLUMNS)}, hash FROM events WHERE hand_id = ? ORDER BY seq", (hand[0],)
            )
            for seq, event in enumerate(events):
                if event[0] != seq:
                    raise self._bad(f"{where} event {seq}", f"missing: the next event is numbered {quoted(event[0])}")
                before = self._follows(before, "event", event, f"{where} event {seq}")
            if hand[-1] is not None or hand[12] is not None:
                before = self._follows(before, "result", (*hand[12:15], hand[-1]), f"{where}, its result")
                states[hand[1]] = hand[13]
        for match_id, number, state in self._rows("SELECT id, number, state FROM matches WHERE run_id = ?", (run_id,)):
            if match_id in states and states[match_id] != state:
                raise self._bad(
                    f"run {run_id} match {number}, column state",
                    "not the match state its last result was written with (edited?)",
                )
        self._tails[run_id] = before

    def _follows(self, before: str, what: str, row: tuple[Any, ...], where: str) -> str:
        """The row's hash when it links to ``before``; else the row is named."""
        *values, stored = row
        expected = link(before, what, values)
        if stored != expected:
            raise self._bad(
                where,
                "changed after it was written: its hash does not follow from the rows before it (an edited, "
                "deleted, inserted or reordered row)",
            )
        return expected

    def _tail(self, run_id: int) -> str:
        """The hash the run's next row links to: its last hand's result, last event or start; else the run's."""
        if run_id not in self._tails:
            hands = self._rows(
                "SELECT h.id, h.hash, h.result_hash FROM hands h JOIN matches m ON h.match_id = m.id "
                "WHERE m.run_id = ? ORDER BY h.number DESC, h.id DESC LIMIT 1",
                (run_id,),
            )
            if hands:
                hand_id, hand_hash, result_hash = hands[0]
                last = self._rows("SELECT hash FROM events WHERE hand_id = ? ORDER BY seq DESC LIMIT 1", (hand_id,))
                self._tails[run_id] = result_hash or (last[0][0] if last else hand_hash)
            else:
                self._tails[run_id] = self._rows("SELECT hash FROM runs WHERE id = ?", (run_id,))[0][0]
        return self._tails[run_id]

    def _written(self, head: Head) -> None:
        """The run's chain moved to ``head``: kept for the next row, and in the head file for the next opening."""
        self._tails[head.run] = head.hash
        temporary = self._head_path.with_name(self._head_path.name + ".new")
        text = json.dumps(head.to_dict())
        try:
            temporary.write_text(text)
            os.replace(temporary, self._head_path)
        except OSError as error:
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)
            if error.errno in FULL_ERRNOS:  # stopped at a row the journal holds, not played on with the check blind
                raise _disk_full(
                    self.path,
                    f"could not write its head file {self._head_path.name} ({error.strerror})",
                    len(text.encode()),
                    f"{head.describe()} is in the journal, its head file still names the row before (or none yet), "
                    "which the next start accepts: the run resumes from there",
                ) from None
            # the table goes on; only the check of the next opening is weaker
            log.warning("journal head %s: %s: a lost journal tail would go unnoticed", self._head_path, error)

    def _check_head(self, existed: bool) -> str | None:
        """Compare the journal with its head file: ``None`` when it holds the head's row as written."""
        try:
            text = self._head_path.read_text()
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            log.warning("journal head %s unreadable (%s): the journal's tail cannot be checked", self._head_path, error)
            return None
        if not existed:
            log.warning("journal head %s without its journal (moved aside?): a new journal starts", self._head_path)
            return None
        try:
            head = Head.from_dict(json.loads(text))
        except (ValueError, RecursionError) as error:
            log.warning("journal head %s unreadable (%s): the journal's tail cannot be checked", self._head_path, error)
            return None
        stored = self._stored_hash(head)
        if stored == head.hash:
            return None
        if stored is not None:
            raise self._bad(head.describe(), "holds other content than was written (the chain was rewritten)")
        return (
            f"{self.path} ends at {self._end()}, but {head.describe()} had been written ({self._head_path.name} says "
            "so): the rows after were lost (a cut WAL file, or a power cut the card did not survive)"
        )

    def _stored_hash(self, head: Head) -> str | None:
        if head.row == "run":
            rows = self._rows("SELECT hash FROM runs WHERE id = ?", (head.run,))
        elif head.row == "event":
            rows = self._rows("SELECT hash FROM events WHERE hand_id = ? AND seq = ?", (head.hand_id, head.seq))
        else:
            column = "hash" if head.row == "hand" else "result_hash"
            rows = self._rows(f"SELECT {column} FROM hands WHERE id = ?", (head.hand_id,))
        return rows[0][0] if rows else None

    def _end(self) -> str:
        """Where the journal ends, in words."""
        runs = self._rows("SELECT MAX(id) FROM runs")
        if runs[0][0] is None:
            return "no run"
        run_id = runs[0][0]
        hands = self._rows(
            "SELECT h.id, h.number, h.result FROM hands h JOIN matches m ON h.match_id = m.id WHERE m.run_id = ? "
            "ORDER BY h.number DESC LIMIT 1",
            (run_id,),
        )
        if not hands:
            return f"the start of run {run_id}"
        hand_id, number, result = hands[0]
        if result is not None:
            return f"the result of hand {number} of run {run_id}"
        (count,) = self._rows("SELECT COUNT(*) FROM events WHERE hand_id = ?", (hand_id,))[0]
        return f"event {count - 1} of hand {number} of run {run_id}" if count else f"the start of hand {number}"

    # -- runs and matches ---------------------------------------------------------------------------------

    def open_run(self) -> RunRecord | None:
        """The latest run not yet finished: the one a restart resumes."""
        return next((run for run in reversed(self.runs()) if not run.finished), None)

    def runs(self) -> list[RunRecord]:
        self._orphans()
        rows = self._rows("SELECT id, seed, rules, options, hands, finished_at, players FROM runs ORDER BY id")
        return [self._run(row) for row in rows]

    def _orphans(self) -> None:
        """A row whose run, match or hand is gone (deleted, renumbered) is named: read through their joins, the
        rows under it would silently vanish, and a restart would play again what they held."""
        orphan = self._rows(
            "SELECT 'matches', id, 'run', run_id FROM matches WHERE run_id NOT IN (SELECT id FROM runs) UNION ALL "
            "SELECT 'hands', id, 'match', match_id FROM hands WHERE match_id NOT IN (SELECT id FROM matches) "
            "UNION ALL SELECT 'events', hand_id, 'hand', hand_id FROM events WHERE hand_id NOT IN (SELECT id FROM "
            "hands) LIMIT 1"
        )
        if orphan:
            table, row, parent, parent_id = orphan[0]
            where = f"{table} row {quoted(row)}" if table != "events" else f"the events of hand row {quoted(row)}"
            gone = f"its {parent} {quoted(parent_id)} is not in the journal (a row deleted or renumbered)"
            raise self._bad(where, gone)

    def _run(self, row: tuple[Any, ...]) -> RunRecord:
        run_id, seed, rules, options, hands, finished_at, players = row
        where = f"runs row {run_id}"
        self._integer(where, "seed", seed, 0, 2**63 - 1)
        if hands is not None:
            self._integer(where, "hands", hands, 1, 2**63 - 1)
        if not isinstance(rules, str) or players not in PLAYERS:
            raise self._bad(
                where,
                "columns rules, players: expected a ruleset name and bots or people, "
                f"found {quoted(rules)}, {quoted(players)}",
            )
        return RunRecord(
            run_id, seed, rules, self._json(where, "options", options, dict), hands, finished_at is not None, players
        )

    def start_run(
        self, seed: int, rules: str, options: dict[str, Any], hands: int | None, at: float, players: str = "bots"
    ) -> RunRecord:
        values = (seed, rules, json.dumps(options, sort_keys=True), hands, at, players)
        with self._writing() as cursor:
            last = cursor.execute("SELECT hash FROM runs ORDER BY id DESC LIMIT 1").fetchone()
            sql = "INSERT INTO runs (seed, rules, options, hands, started_at, players) VALUES (?, ?, ?, ?, ?, ?)"
            run_id = cursor.execute(sql, values).lastrowid
            assert run_id is not None
            chained = link(GENESIS if last is None else last[0], "run", (run_id, *values))
            cursor.execute("UPDATE runs SET hash = ? WHERE id = ?", (chained, run_id))
        self._written(Head(run_id, "run", chained))
        return RunRecord(run_id, seed, rules, options, hands, players=players)

    def close_run(self, run_id: int, at: float) -> None:
        """End a run before its last hand (a new match was asked for): a restart no longer resumes it."""
        with self._writing() as cursor:
            cursor.execute("UPDATE runs SET finished_at = ? WHERE id = ? AND finished_at IS NULL", (at, run_id))

    def matches(self, run_id: int) -> list[MatchRecord]:
        rows = self._rows(
            "SELECT id, number, state, finished_at FROM matches WHERE run_id = ? ORDER BY number", (run_id,)
        )
        return [
            MatchRecord(r[0], run_id, r[1], self._match(f"matches row {r[0]} (run {run_id})", r[2]), r[3] is not None)
            for r in rows
        ]

    def _match(self, where: str, text: Any, column: str = "state") -> Match:
        """A match state as the service wrote it; anything else (another type, a value out of range) is named."""
        data = self._json(where, column, text, dict)
        try:
            match = Match.from_dict(data)
            same = match.to_dict() == data
        except (MjtableError, KeyError, TypeError, ValueError, AttributeError) as error:
            raise self._bad(
                f"{where}, column {column}", f"not a match state ({type(error).__name__}: {error})"
            ) from None
        deal = match.deal
        seats = (deal.dealer, deal.first_dealer, deal.round_wind)
        ranged = all(_within(seat, 0, 3) for seat in seats) and _within(deal.consecutive_dealer, 1, 2**31)
        scores = len(match.scores) == 4 and all(_amount(score) for score in match.scores)
        seating = len(match.seating) == 4 and all(_within(seat, 0, 3) for seat in match.seating)
        if not (same and ranged and scores and seating and set(match.seating) == {0, 1, 2, 3}):
            raise self._bad(f"{where}, column {column}", "not a match state the service writes (a value out of range)")
        return match

    def start_match(self, run_id: int, number: int, match: Match, at: float) -> MatchRecord:
        with self._writing() as cursor:
            sql = "INSERT INTO matches (run_id, number, state, started_at) VALUES (?, ?, ?, ?)"
            match_id = cursor.execute(sql, (run_id, number, json.dumps(match.to_dict()), at)).lastrowid
        assert match_id is not None
        return MatchRecord(match_id, run_id, number, match)

    # -- hands and events ---------------------------------------------------------------------------------

    def hands(self, run_id: int) -> list[tuple[HandRecord, dict[str, Any] | None]]:
        """Every hand of a run in order, with its result (``None`` while it is being played). What the match carried
        into each hand (``HandRecord.honba``, ``pot``, ``scores``) is the match state the hand before in its match
        left (``hands.match_state``), or for a match's first hand the ruleset's start of a match."""
        rows = self._rows(
            "SELECT h.id, h.match_id, h.number, h.seed, h.dealer, h.round_wind, h.consecutive_dealer, h.rules, "
            "h.options, h.result, h.players, h.match_state FROM hands h JOIN matches m ON h.match_id = m.id "
            "WHERE m.run_id = ? ORDER BY h.number",
            (run_id,),
        )
        hands: list[tuple[HandRecord, dict[str, Any] | None]] = []
        left: dict[int, Match] = {}
        """The match state each match's last finished hand left."""
        for row in rows:
            record, result = self._hand(run_id, row[:-1])
            where = f"run {run_id} hand {record.number} (hands row {record.id})"
            before = left.get(record.match_id) or self._match_start(where, record)
            hands.append((replace(record, **before.deal_facts()), result))
            if row[-1] is not None:
                left[record.match_id] = self._match(where, row[-1], "match_state")
        return hands

    def _match_start(self, where: str, record: HandRecord) -> Match:
        """The start of the match whose first hand ``record`` is (its dealer deals first)."""
        try:
            return record.ruleset().start_match(record.dealer)
        except MjtableError as error:
            raise self._bad(f"{where}, columns rules, options", str(error)) from None

    def _hand(self, run_id: int, row: tuple[Any, ...]) -> tuple[HandRecord, dict[str, Any] | None]:
        hand_id, match_id, number, seed, dealer, round_wind, consecutive, rules, options, result, players = row
        where = f"run {run_id} hand {quoted(number)} (hands row {hand_id})"
        self._integer(where, "number", number, 0, 2**63 - 1)
        self._integer(where, "seed", seed, 0, 2**63 - 1)
        self._integer(where, "dealer", dealer, 0, 3)
        self._integer(where, "round_wind", round_wind, 0, 3)
        self._integer(where, "consecutive_dealer", consecutive, 1, 2**31)
        if not isinstance(rules, str) or players not in PLAYERS:
            raise self._bad(
                where,
                "columns rules, players: expected a ruleset name and bots or people, "
                f"found {quoted(rules)}, {quoted(players)}",
            )
        self._hand_runs[hand_id] = (run_id, number)
        record = HandRecord(
            number,
            seed,
            dealer,
            round_wind,
            consecutive,
            rules,
            self._json(where, "options", options, dict),
            players,
            id=hand_id,
            match_id=match_id,
        )
        return record, None if result is None else self._json(where, "result", result, dict)

    def start_hand(self, record: HandRecord, at: float) -> HandRecord:
        options = json.dumps(record.options, sort_keys=True)
        values = (record.match_id, record.number, record.seed, record.dealer, record.round_wind)
        values += (record.consecutive_dealer, record.rules, options, at, record.players)
        with self._writing() as cursor:
            (run_id,) = cursor.execute("SELECT run_id FROM matches WHERE id = ?", (record.match_id,)).fetchone()
            sql = (
                "INSERT INTO hands (match_id, number, seed, dealer, round_wind, consecutive_dealer, rules, options, "
                "started_at, players) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            )
            hand_id = cursor.execute(sql, values).lastrowid
            assert hand_id is not None
            chained = link(self._tail(run_id), "hand", (hand_id, *values))
            cursor.execute("UPDATE hands SET hash = ? WHERE id = ?", (chained, hand_id))
        self._hand_runs[hand_id] = (run_id, record.number)
        self._next_seq[hand_id] = 0
        self._written(Head(run_id, "hand", chained, hand_id, record.number))
        return HandRecord(**{**record.to_dict(), "id": hand_id})

    def _hand_of(self, hand_id: int) -> tuple[int, int]:
        """(run id, hand number) of a hand row."""
        if hand_id not in self._hand_runs:
            rows = self._rows(
                "SELECT m.run_id, h.number FROM hands h JOIN matches m ON h.match_id = m.id WHERE h.id = ?", (hand_id,)
            )
            if not rows:
                raise JournalError(f"{self.path}: no hand with id {hand_id}")
            self._hand_runs[hand_id] = rows[0]
        return self._hand_runs[hand_id]

    def append(self, hand_id: int, event: Event) -> int:
        """Commit one event of a hand; returns its sequence number (one past the last: a gap is the chain's to
        name, never a reason to fail). The dealer's throw is also kept on the hand row (a second throw, where the wall
        is broken by two, is in its event only)."""
        run_id, number = self._hand_of(hand_id)
        seq = self._next_seq.get(hand_id)
        if seq is None:
            (last,) = self._rows("SELECT MAX(seq) FROM events WHERE hand_id = ?", (hand_id,))[0]
            seq = 0 if last is None else int(last) + 1
        data = {key: value for key, value in event.to_dict().items() if key not in ("kind", "at")}
        values = (seq, event.at, event.kind.value, json.dumps(data, ensure_ascii=False))
        chained = link(self._tail(run_id), "event", values)
        with self._writing() as cursor:
            cursor.execute(
                "INSERT INTO events (hand_id, seq, at, kind, data, hash) VALUES (?, ?, ?, ?, ?, ?)",
                (hand_id, *values, chained),
            )
            if "dice" in data:
                dice = json.dumps(data["dice"])
                cursor.execute("UPDATE hands SET dice = ? WHERE id = ? AND dice IS NULL", (dice, hand_id))
        self._next_seq[hand_id] = seq + 1
        self._written(Head(run_id, "event", chained, hand_id, number, seq))
        return seq

    def events(self, hand_id: int) -> list[Event]:
        rows = self._rows("SELECT seq, at, kind, data FROM events WHERE hand_id = ? ORDER BY seq", (hand_id,))
        run_id, number = self._hand_of(hand_id)
        events = []
        for seq, at, kind, data in rows:
            where = f"run {run_id} hand {quoted(number)} event {quoted(seq)}"
            body = self._json(where, "data", data, dict)
            if not isinstance(at, int | float) or not math.isfinite(at):
                raise self._bad(f"{where}, column at", f"expected a time, found {quoted(at)}")
            try:
                events.append(Event.from_dict({**body, "kind": kind, "at": at}))
            except JournalError as error:
                raise self._bad(f"{where}, column kind", str(error)) from None
        return events

    def replay(self, record: HandRecord) -> HandState:
        """The hand in play rebuilt from its events; an event the hand cannot take is named by its row."""
        run_id, number = self._hand_of(record.id)
        where = f"run {run_id} hand {number}"
        events = self.events(record.id)
        try:
            state = HandState.start(record)
        except MjtableError as error:
            raise self._bad(f"{where}, columns rules, options", str(error)) from None
        for seq, event in enumerate(events):
            try:
                state.apply(event)
            except MjtableError as error:
                raise self._bad(f"{where} event {seq}, column data", str(error)) from None
        return state

    def finish_hand(
        self, hand: HandRecord, result: dict[str, Any], match: MatchRecord, run: RunRecord, at: float
    ) -> None:
        """The hand's result, the match after it and, when they end with it, the match and the run: one commit."""
        match_done = at if match.finished else None
        run_done = at if run.finished else None
        result_text, state = json.dumps(result, ensure_ascii=False), json.dumps(match.match.to_dict())
        chained = link(self._tail(run.id), "result", (result_text, state, at))
        with self._writing() as cursor:
            cursor.execute(
                "UPDATE hands SET result = ?, match_state = ?, finished_at = ?, result_hash = ? WHERE id = ?",
                (result_text, state, at, chained, hand.id),
            )
            cursor.execute("UPDATE matches SET state = ?, finished_at = ? WHERE id = ?", (state, match_done, match.id))
            cursor.execute("UPDATE runs SET finished_at = ? WHERE id = ?", (run_done, run.id))
        self._written(Head(run.id, "result", chained, hand.id, hand.number))


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _chain_all(db: sqlite3.Connection) -> None:
    """Chain every row of an older journal as ``Journal`` would have written it. Each match's state is linked with
    its last finished hand (the states after the earlier hands were overwritten, so those link none)."""
    before = GENESIS
    for run in db.execute(f"SELECT {', '.join(RUN_COLUMNS)} FROM runs ORDER BY id").fetchall():
        before = tail = link(before, "run", run)
        db.execute("UPDATE runs SET hash = ? WHERE id = ?", (before, run[0]))
        hands = db.execute(
            f"SELECT {', '.join('h.' + column for column in HAND_COLUMNS)}, h.result, h.finished_at, m.state "
            "FROM hands h JOIN matches m ON h.match_id = m.id WHERE m.run_id = ? ORDER BY h.number, h.id",
            (run[0],),
        ).fetchall()
        last = {hand[1]: hand[0] for hand in hands if hand[11] is not None}
        for hand in hands:
            tail = link(tail, "hand", hand[:11])
            db.execute("UPDATE hands SET hash = ? WHERE id = ?", (tail, hand[0]))
            sql = f"SELECT {', '.join(EVENT_COLUMNS)} FROM events WHERE hand_id = ? ORDER BY seq"
            for event in db.execute(sql, (hand[0],)).fetchall():
                tail = link(tail, "event", event)
                db.execute("UPDATE events SET hash = ? WHERE hand_id = ? AND seq = ?", (tail, hand[0], event[0]))
            if hand[11] is not None:
                state = hand[13] if last[hand[1]] == hand[0] else None
                tail = link(tail, "result", (hand[11], state, hand[12]))
                db.execute("UPDATE hands SET match_state = ?, result_hash = ? WHERE id = ?", (state, tail, hand[0]))


def _within(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _amount(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


# -- the file: its check, and its errors named for what they are ----------------------------------------------------


def quick_check(db: sqlite3.Connection, path: Path, budget_s: float) -> tuple[float | None, str]:
    """``PRAGMA quick_check`` of ``path`` (open in ``db``) within ``budget_s``: the seconds it took (``None`` when the
    budget ran out first) and what it found wrong (empty when clean). The file is read once in order first
    (``_prefetch``). The deadline is a timer calling ``sqlite3_interrupt``, which the b-tree walk polls; SQLite 3.40
    (Debian 12's, so the Pi's) calls no progress handler inside that walk, measured: a handler asking to stop at
    once was only heard after the whole walk."""
    started = time.monotonic()
    deadline = started + budget_s
    _prefetch(path, deadline)
    if time.monotonic() >= deadline:
        return None, ""
    lock = threading.Lock()
    running = [True]

    def interrupt() -> None:
        with lock:
            if running[0]:  # never once the check is over: the flag would stop the connection's next statement
                db.interrupt()

    timer = threading.Timer(deadline - time.monotonic(), interrupt)
    timer.start()
    try:
        rows = db.execute(f"PRAGMA quick_check({PROBLEMS})").fetchall()
    except sqlite3.OperationalError as error:
        if error.sqlite_errorcode == sqlite3.SQLITE_INTERRUPT:
            return None, ""
        raise
    finally:
        with lock:
            running[0] = False
        timer.cancel()
    found = [line for (row,) in rows for line in str(row).splitlines() if not line.startswith("*** in database")]
    return time.monotonic() - started, "" if found == ["ok"] else _said("; ".join(found))


def _prefetch(path: Path, deadline: float) -> None:
    """Read the file once from start to end (until ``deadline``) so that quick_check's walk, which reads pages out
    of file order, finds them in the page cache (504 MB from disk: 1.7-2.5 s instead of 8.6-9.9 s). A file that
    cannot be read is left to the check to name."""
    buffer = bytearray(1 << 20)
    with contextlib.suppress(OSError), open(path, "rb", buffering=0) as file:
        while time.monotonic() < deadline and file.readinto(buffer):
            pass


def file_stamp(path: Path) -> list[list[int] | None]:
    """What any change to the journal changes: the device, inode, size, modification and change times (no tool sets
    the change time back) of the file and of its WAL; an empty WAL, which a reader such as ``mjtable history``
    leaves behind, holds nothing and counts as none."""
    stamp: list[list[int] | None] = []
    for file in (path, path.with_name(path.name + "-wal")):
        try:
            found = file.stat()
        except FileNotFoundError:
            found = None
        if found is None or (file != path and found.st_size == 0):
            stamp.append(None)
        else:
            stamp.append([found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns])
    return stamp


def _checked_path(path: Path) -> Path:
    return path.with_name(path.name + "-checked")


def _recorded_stamp(path: Path) -> Any:
    """The stamp of the journal's last clean check (``record_checked``), or ``None``."""
    try:
        return json.loads(_checked_path(path).read_text()).get("stamp")
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, AttributeError):
        return None


def record_checked(path: Path, stamp: list[list[int] | None]) -> None:
    """Record beside the journal that it was clean as ``stamp`` shows it; a record that cannot be written only costs
    the next opening a check. The kernel stamps file times from a clock that moves a tick at a time, so a change
    within the tick of the last write would keep the stamp (git's "racy clean" files): the record is written once
    that tick is past, and any later change shows in the change time."""
    newest = max((found[-1] for found in stamp if found is not None), default=0)  # the change times
    time.sleep(max(0, newest + TICK_NS - time.time_ns()) / 1e9)
    record = _checked_path(path)
    temporary = record.with_name(record.name + ".new")
    try:
        temporary.write_text(json.dumps({"stamp": stamp, "at": time.time()}))
        os.replace(temporary, record)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        full = " (disk full)" if error.errno in FULL_ERRNOS else ""
        log.warning("journal %s: its clean check not recorded%s: %s; the next start checks it again", path, full, error)


def failure(path: Path, error: BaseException, *, writer: bool, page_size: int = 4096) -> JournalError:
    """An SQLite or file error named for what it is: the disk full (``DiskFull``: the journal is intact), the file
    damaged (``JournalDamaged``), or else in SQLite's own words (a lock, a permission, an I/O error)."""
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary == sqlite3.SQLITE_FULL or getattr(error, "errno", None) in FULL_ERRNOS:
        who = "SQLite" if isinstance(error, sqlite3.Error) else "the service"
        return _disk_full(
            path,
            f"{who} could not write it ({_said(error)})",
            page_size,
            "the journal is not damaged: nothing of the failed write was kept",
        )
    unreadable = isinstance(error, UnicodeDecodeError) or str(error).startswith(DECODE)
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or unreadable:
        return damaged(path, f"SQLite cannot read it ({_said(error)})", writer=writer)
    name = getattr(error, "sqlite_errorname", None) or type(error).__name__
    return JournalError(f"journal {path}: {_said(error)} ({name})")


def damaged(path: Path, what: str, *, writer: bool) -> JournalDamaged:
    """A journal SQLite cannot read, refused with the way out: keep it aside, start a new one. The service (the
    writer) may point at ``mjtable history`` for what is left; the readers are ``history`` and ``doctor``."""
    kept, command = _aside(path)
    spared = f"; `mjtable history --state {shlex.quote(str(kept))}` may still read the runs it spared" if writer else ""
    return JournalDamaged(
        f"journal {path} is damaged: {what}; nothing is written to it; {ASIDE.format(command=command)}{spared}"
    )


def _remedy(path: Path, *, writer: bool) -> str:
    """What to do about a journal whose rows do not hold, as its opener may say it."""
    inspect = INSPECT.format(dir=shlex.quote(str(path.parent))) if writer else ""
    return inspect + ASIDE.format(command=_aside(path)[1])


def _aside(path: Path) -> tuple[Path, str]:
    """Where the journal is kept aside, and the shell command that does it: with its WAL, head and check files,
    since a WAL left behind would be played into the next journal. Named by when the journal was last written."""
    try:
        when = time.strftime("%Y%m%d-%H%M%S", time.localtime(path.stat().st_mtime))
    except OSError:
        when = "old"
    kept = path.parent / f"{path.name.split('.')[0]}-aside-{when}"
    quoted_kept = shlex.quote(str(kept))
    return kept, f"mkdir {quoted_kept} && mv {shlex.quote(str(path))}* {quoted_kept}/"


def _disk_full(path: Path, what: str, needed: int, after: str) -> DiskFull:
    """The filesystem of the journal ``path`` is full: its free space, what the write needed, what became of it."""
    where = path.parent
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        usage = shutil.disk_usage(where)
        room = f"{_bytes(usage.free)} free of {_bytes(usage.total)} on the filesystem of {where}"
    except OSError as error:
        room = f"the free space on the filesystem of {where} unknown ({error.strerror})"
    try:
        size = f" (the journal is {_bytes(path.stat().st_size)})"
    except OSError:
        size = ""
    return DiskFull(
        f"journal {path}: disk full: {what}; {room}, the write needed at least {_bytes(needed)} more{size}. Free "
        f"space there and start again: {after}"
    )


def _bytes(count: int) -> str:
    for unit, size in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if count >= 10 * size:
            return f"{count / size:,.1f} {unit}"
    return f"{count:,} bytes"


def _said(error: BaseException | str) -> str:
    """SQLite's message on one line and cut short: a damaged text column is quoted in it whole."""
    text = " ".join(str(error).split())
    return text if len(text) <= 300 else text[:299] + "…"
