"""Fuzz the journal as an input (issue 16): a journal the service wrote (a run of three hands, stopped in its second),
then random row mutations — an SQL ``UPDATE`` of random columns to random values (text, JSON that is bad or of the
wrong type, huge integers, NULL, blobs, a value from another row), rows deleted or duplicated, the head file cut or
swapped, bytes of the file flipped — then what a restart and ``mjtable history`` do with it. Each journal either
reads cleanly or is refused with one ``JournalError`` line naming the journal and the table, row or column (and what
to do instead); never another exception, never a traceback, in bounded time."""

from __future__ import annotations

import io
import json
import random
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.config import Config
from controller.errors import JournalDamaged, JournalError
from controller.service.journal import Journal
from controller.service.service import Service, journal_path, serve
from controller.service.tableside import open_table

CONFIG = dict(http="off", seed=8, hands=3, speed=1000.0)
"""The run the journal holds; a restart with the same settings resumes it."""
TABLES = {
    "runs": ["id", "seed", "rules", "options", "hands", "started_at", "finished_at", "players", "hash"],
    "matches": ["id", "run_id", "number", "state", "started_at", "finished_at"],
    "hands": ["id", "match_id", "number", "seed", "dealer", "round_wind", "consecutive_dealer", "rules", "options",
              "dice", "result", "started_at", "finished_at", "players", "hash", "match_state", "result_hash"],
    "events": ["hand_id", "seq", "at", "kind", "data", "hash"],
    "meta": ["key", "value"],
}  # fmt: skip
VALUES: list[Any] = [
    None, "", "x", "mcr", "people", "bots", "{", "[1, 2]", "{}", '{"a": 1}', '"text"', "null", "NaN", "1e999",
    "[" * 5000, '{"n": ' + "9" * 5000 + "}", "{" * 100, "é" * 3000, 0, -1, 1, 3, 4, 2**31, 2**63 - 1, -(2**63),
    "99999999999999999999999", 1.5, -0.0, 1e308, float("inf"), float("-inf"), b"", b"\x00\xff", b"{}", b"x" * 5000,
    '{"from": "migration", "at": "x", "hands_before": -1}', '{"from": "creation"}', '{"dealer": 9}',
    '{"kind": "action"}', '{"dice": [9, 9]}', '{"dice": "x"}', '{"seat": 7}', '{"action": {"kind": "bogus"}}',
]  # fmt: skip
HEADS = ["", "{", "null", "[]", '{"run": 1}', '{"run": 1, "row": "event", "hash": "0", "hand_id": 2, "hand": 1, '
         '"seq": 9999}', '{"run": 99, "row": "run", "hash": "x", "hand_id": 0, "hand": -1, "seq": -1}']  # fmt: skip
MAX_MESSAGE = 2000
CALL_S = 20.0


class _Stop(Exception):
    """Stands for the power going off after the 150th event (the second hand in play)."""


class _StoppingJournal(Journal):
    appended = 0

    def append(self, hand_id: int, event) -> int:
        seq = super().append(hand_id, event)
        type(self).appended += 1
        if type(self).appended == 150:
            raise _Stop
        return seq


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A state directory whose journal holds one finished hand and one in play, as the service wrote them."""
    state = tmp_path_factory.mktemp("journal") / "state"
    config = Config().with_service(state_dir=str(state), **CONFIG)
    _StoppingJournal.appended = 0
    with pytest.raises(_Stop), _StoppingJournal(journal_path(config)) as journal, open_table(config) as side:
        Service(config, side, journal, lambda line: None).run()
    return state


def _rowids(db: sqlite3.Connection, table: str) -> list[int]:
    return [row[0] for row in db.execute(f"SELECT rowid FROM {table}")]


def _value(rng: random.Random, db: sqlite3.Connection, table: str, column: str) -> Any:
    if rng.random() < 0.2:  # a value of another row, the same column: two discards swapped, a hand renumbered
        rows = db.execute(f"SELECT {column} FROM {table}").fetchall()
        if rows:
            return rng.choice(rows)[0]
    value = rng.choice(VALUES)
    return str(value) if type(value) is int and not -(2**63) <= value < 2**63 else value


def mutate(state: Path, rng: random.Random) -> list[str]:
    """One to three changes to the journal in ``state`` (and its head file); returns what was done."""
    path = state / "journal.sqlite"
    done = []
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for _ in range(rng.randint(1, 3)):
            table = rng.choice([*TABLES, "events", "events", "hands"])
            rowids = _rowids(db, table)
            if not rowids:
                continue
            rowid = rng.choice(rowids)
            roll = rng.random()
            try:
                if roll < 0.7:
                    column = rng.choice(TABLES[table])
                    value = _value(rng, db, table, column)
                    db.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (value, rowid))
                    done.append(f"{table} {rowid} {column} = {str(value)[:40]!r}")
                elif roll < 0.85:
                    db.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))
                    done.append(f"{table} {rowid} deleted")
                else:
                    columns = TABLES[table]
                    key = {"events": "seq", "meta": "key"}.get(table, "id")
                    bump = "'k' || " if table == "meta" else f"{rng.choice([1, 1000, -1])} + "
                    chosen = ", ".join(f"{bump}{c}" if c == key else c for c in columns)
                    db.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {chosen} FROM {table} "
                               "WHERE rowid = ?", (rowid,))  # fmt: skip
                    done.append(f"{table} {rowid} duplicated")
            except sqlite3.IntegrityError:  # NOT NULL or a key taken: SQLite itself refuses this edit
                done.append(f"{table} {rowid}: refused by SQLite")
    finally:
        db.close()
    head = state / "journal.sqlite-head"
    roll = rng.random()
    if roll < 0.05:
        head.unlink(missing_ok=True)
        done.append("head deleted")
    elif roll < 0.1:
        head.write_text(rng.choice(HEADS))
        done.append("head replaced")
    elif roll < 0.13:
        data = bytearray(path.read_bytes())
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        path.write_bytes(bytes(data))
        done.append("bytes flipped")
    return done


def _one_line(message: str, state: Path, what: list[str]) -> None:
    assert "\n" not in message and len(message) <= MAX_MESSAGE, (what, message[:3000])
    assert str(state / "journal.sqlite") in message, (what, message[:500])
    assert "Traceback" not in message


def resume(state: Path, what: list[str]) -> bool:
    """What a restart reads before it plays on (``Service._open_run``, ``_match``, ``_hand_in_play``): ``True`` when
    it reads cleanly, ``False`` for one ``JournalError``."""
    started = time.monotonic()
    try:
        with Journal(state / "journal.sqlite") as journal:
            run = journal.open_run()
            if run is not None:
                journal.verify(run.id)
                journal.matches(run.id)
                hands = journal.hands(run.id)
                if hands and hands[-1][1] is None:
                    journal.replay(hands[-1][0])
                for record, _ in hands:
                    journal.events(record.id)
            journal.runs()
    except JournalError as error:
        _one_line(str(error), state, what)
        return False
    finally:
        assert time.monotonic() - started < CALL_S, what
    return True


def history(state: Path, what: list[str], capsys: pytest.CaptureFixture[str], log: bool = False) -> bool:
    """``mjtable history --state``: JSON lines (or the readable log), or one ``{"error"}`` line; no traceback."""
    out = io.StringIO()
    started = time.monotonic()
    code = main(["history", "--state", str(state), *(["--log"] if log else [])], stdout=out)
    assert time.monotonic() - started < CALL_S, what
    err = capsys.readouterr().err
    assert "Traceback" not in err and all(line.startswith("mjtable history: warning: ")
                                          for line in err.splitlines()), (what, err[-2000:])  # fmt: skip
    lines = out.getvalue().splitlines()
    if code == 2:
        assert len(lines) == 1, (what, lines[:3])
        _one_line(json.loads(lines[0])["error"], state, what)
        return False
    assert code == 0 and lines, (what, code, lines[:3])
    if not log:
        for line in lines:
            json.loads(line)
    return True


def full_restart(state: Path, what: list[str]) -> bool:
    """The service itself started on the journal (``serve``): the run played to its end, or one ``JournalError``."""
    config = Config().with_service(state_dir=str(state), **CONFIG)
    started = time.monotonic()
    try:
        serve(config, lambda line: None)
    except JournalError as error:
        _one_line(str(error), state, what)
        return False
    finally:
        assert time.monotonic() - started < 60, what
    return True


def _fuzz(template: Path, work: Path, count: int, seed: int, capsys, restarts: int = 0) -> dict[str, dict[str, int]]:
    rng = random.Random(seed)
    counts = {name: {"inputs": 0, "answered": 0, "refused": 0} for name in ("resume", "history", "restart")}
    every = count // restarts if restarts else 0
    for index in range(count):
        state = work / f"j{index % 2}"
        shutil.rmtree(state, ignore_errors=True)
        shutil.copytree(template, state)
        what = mutate(state, rng)
        runs = {"resume": resume(state, what), "history": history(state, what, capsys, log=rng.random() < 0.3)}
        if every and index % every == every - 1:
            runs["restart"] = full_restart(state, what)
        for name, clean in runs.items():
            counts[name]["inputs"] += 1
            counts[name]["answered" if clean else "refused"] += 1
    return counts


def test_the_unmutated_journal_reads_cleanly(template, tmp_path, capsys):
    state = tmp_path / "state"
    shutil.copytree(template, state)
    assert resume(state, []) and history(state, [], capsys) and history(state, [], capsys, log=True)
    assert full_restart(state, [])  # the run resumed and played to its end


def test_mutated_journal_rows_are_read_or_named(template, tmp_path, capsys):
    counts = _fuzz(template, tmp_path, 150, 1, capsys, restarts=2)
    assert counts["resume"]["answered"] > 5 and counts["resume"]["refused"] > 50, counts
    with capsys.disabled():
        print(f"\nfuzz journal: {counts}")


def _quick_check(path: Path) -> bool:
    """Whether SQLite itself finds the file sound (its quick_check, or it cannot even open it)."""
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    except sqlite3.DatabaseError:
        return False
    finally:
        db.close()


def _files(state: Path) -> dict[str, bytes]:
    return {file.name: file.read_bytes() for file in sorted(state.iterdir())}


def test_flipped_pages_are_refused_before_anything_is_appended(template, tmp_path, capsys):
    """Up to 64 bytes of a page flipped at a random offset (issue 24): a journal SQLite finds damaged is refused at
    the service's opening (``JournalDamaged``) and not a byte of it changes, a restart included; any other reads or
    is named; ``mjtable history`` reads or names it; never a traceback."""
    rng = random.Random(3)
    counts = {"damaged": 0, "sound": 0}
    for index in range(60):
        state = tmp_path / f"p{index % 2}"
        shutil.rmtree(state, ignore_errors=True)
        shutil.copytree(template, state)
        path = state / "journal.sqlite"
        data = bytearray(path.read_bytes())
        start = rng.randrange(len(data))
        count = min(rng.randint(1, 64), 4096 - start % 4096)
        data[start : start + count] = bytes(byte ^ rng.randrange(1, 256) for byte in data[start : start + count])
        path.write_bytes(bytes(data))
        what = [f"page {start // 4096 + 1}: {count} bytes flipped from offset {start % 4096}"]
        sound = _quick_check(path)
        counts["sound" if sound else "damaged"] += 1
        if not sound:
            before = _files(state)
            with pytest.raises(JournalDamaged) as refused:
                Journal(path)
            _one_line(str(refused.value), state, what)
            assert not full_restart(state, what) and _files(state) == before, what
        clean = resume(state, what)  # read, or one named error
        assert sound or not clean, what
        history(state, what, capsys)
    assert counts["damaged"] > 10 and counts["sound"] > 10, counts
    with capsys.disabled():
        print(f"\nfuzz journal pages: {counts}")


@pytest.mark.slow
def test_ten_thousand_mutated_journals(template, tmp_path, capsys):
    counts = _fuzz(template, tmp_path, 10_000, 2, capsys, restarts=40)
    with capsys.disabled():
        print(f"\nfuzz journal (slow): {counts}")
