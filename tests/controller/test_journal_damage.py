"""The journal file itself (issue 24): a damaged page is refused before anything is appended, a full disk is named
as a full disk with the free space, the advice never sends the user to the command that just failed, and the check
at opening is bounded (skipped for the file a clean close left, stopped at its budget)."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

import controller.service.service as service_module
from controller.cli import main
from controller.errors import DiskFull, JournalDamaged
from controller.ops.doctor import checks
from controller.service.events import Event
from controller.service.journal import Journal
from tests.controller.test_journal_integrity import _journal

RUN = ["--hands", "1", "--seed", "4", "--speed", "1000", "--http", "off"]


def _finished(path: Path, actions: int = 60) -> None:
    """A journal whose one run is over: the next ``mjtable run`` starts run 2 after it, as the tester's did."""
    _journal(path, actions)
    with Journal(path) as journal:
        journal.close_run(1, at=100.0)


def _flip(path: Path) -> int:
    """64 bytes inverted in the middle of an events page that a new run never reads (the tester's damage), so that
    quick_check fails; returns the page."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        leaves = [
            page for (page,) in db.execute("SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf'")
        ]
    db.close()
    page = leaves[len(leaves) // 2]
    with open(path, "r+b") as file:
        file.seek((page - 1) * 4096 + 2000)
        data = file.read(64)
        file.seek((page - 1) * 4096 + 2000)
        file.write(bytes(byte ^ 0xFF for byte in data))
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA quick_check").fetchall() != [("ok",)]  # damaged, as SQLite sees it
    db.close()
    return page


def _files(directory: Path) -> dict[str, bytes]:
    return {file.name: file.read_bytes() for file in sorted(directory.iterdir()) if file.is_file()}


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    """``mjtable`` in this process: its exit code and stdout lines; nothing but log lines on stderr."""
    out = io.StringIO()
    code = main(list(argv), stdout=out)
    assert "Traceback" not in capsys.readouterr().err
    return code, out.getvalue().splitlines()


def _error(lines: list[str]) -> str:
    """The one line of a failed command: a named error, nothing else."""
    assert len(lines) == 1, lines
    return json.loads(lines[0])["error"]


def test_a_damaged_page_is_refused_by_run_and_nothing_is_appended(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    _finished(path)
    _flip(path)
    before = _files(tmp_path)
    code, lines = _cli(capsys, "run", "--state", str(tmp_path), *RUN)
    error = _error(lines)
    assert code == 2 and error.startswith(f"journal {path} is damaged: SQLite's quick_check finds: ")
    assert _files(tmp_path) == before  # not a byte appended, no WAL left beside it
    assert f"`mjtable history --state {tmp_path}/journal-aside-" in error  # the service may send you there
    code, lines = _cli(capsys, "history", "--state", str(tmp_path), "--run", "1")
    error = _error(lines)
    assert code == 2 and error.startswith(f"journal {path} is damaged: SQLite cannot read it (")
    assert "mjtable history" not in error  # never the command that just failed
    command = re.search(r"keep this one aside: `(mkdir [^`]+)`", error)[1]
    subprocess.run(["sh", "-c", command], check=True)  # the way out, as the message says it
    code, lines = _cli(capsys, "run", "--state", str(tmp_path), *RUN)
    assert code == 0 and json.loads(lines[-1])["hands"] == 1  # a new journal
    (kept,) = tmp_path.glob("journal-aside-*")
    assert {name: _files(kept)[name] for name in before} == before  # beside an empty WAL history's reading left


class _Capped(Journal):
    """A journal SQLite lets grow by ``room`` pages only (``max_page_count``): SQLITE_FULL for real."""

    room = 2

    def _open(self, *args: Any) -> sqlite3.Connection:
        db = super()._open(*args)
        (pages,) = db.execute("PRAGMA page_count").fetchone()
        db.execute(f"PRAGMA max_page_count = {pages + self.room}")
        return db


def test_a_full_disk_is_named_with_its_free_space_and_the_write_is_rolled_back(tmp_path):
    path = tmp_path / "journal.sqlite"
    record = _journal(path, actions=10)
    with _Capped(path) as journal:
        appended = []
        with pytest.raises(DiskFull) as full:
            for count in range(1000):
                event = Event.table("intake", 50.0 + count)
                journal.append(record.id, event)
                appended.append(event)
    message = str(full.value)
    assert message.startswith(f"journal {path}: disk full: SQLite could not write it (database or disk is full); ")
    assert re.search(
        rf"; [\d.,]+ [kMG]?B(ytes)? free of [\d.,]+ [kMG]?B(ytes)? on the filesystem of {tmp_path}, ", message
    )
    assert "the write needed at least 4,096 bytes more" in message and "damaged" not in message.replace("not dam", "")
    with Journal(path) as journal:  # the room made: everything before the failed write, nothing of it
        assert journal.lost is None
        journal.verify(1)
        assert journal.events(record.id)[-len(appended) :] == appended
        assert journal.append(record.id, Event.table("lowered", 99.0)) == 12 + len(appended)
        journal.verify(1)


def test_run_on_a_full_disk_names_it_and_the_next_start_resumes(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(_Capped, "room", 1)  # full a few dozen events into the hand
    monkeypatch.setattr(service_module, "Journal", _Capped)
    code, lines = _cli(capsys, "run", "--state", str(tmp_path), *RUN)
    error = _error(lines)
    assert code == 2 and error.startswith(f"journal {tmp_path / 'journal.sqlite'}: disk full: SQLite could not write")
    monkeypatch.setattr(service_module, "Journal", Journal)
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert journal.lost is None  # the head file names the last row the journal holds
        (run,) = journal.runs()
        ((hand, result),) = journal.hands(run.id)
        assert result is None and 20 < len(journal.events(hand.id)) < 100
    code, lines = _cli(capsys, "run", "--state", str(tmp_path), *RUN)
    assert code == 0 and json.loads(lines[-1])["hands"] == 1, lines


def test_a_head_file_without_room_is_a_full_disk_and_the_run_resumes(tmp_path, capsys):
    """``/dev/full`` answers every write with ENOSPC: the head file's new copy made a link to it."""
    (tmp_path / "journal.sqlite-head.new").symlink_to("/dev/full")
    code, lines = _cli(capsys, "run", "--state", str(tmp_path), *RUN)
    error = _error(lines)
    assert code == 2 and error.startswith(
        f"journal {tmp_path / 'journal.sqlite'}: disk full: could not write its head file journal.sqlite-head (No "
        "space left on device); "
    )
    assert "the start of run 1 is in the journal" in error and "the run resumes from there" in error
    assert not (tmp_path / "journal.sqlite-head.new").exists()
    code, lines = _cli(capsys, "run", "--state", str(tmp_path), *RUN)
    assert code == 0 and json.loads(lines[-1])["hands"] == 1
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert [run.id for run in journal.runs()] == [1]  # resumed, not started again


def test_the_check_is_skipped_only_for_the_file_a_clean_close_left(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    _finished(path)
    with caplog.at_level(logging.INFO, "controller.service.journal"), Journal(path):
        pass
    assert "unchanged since its last clean check" in caplog.text
    times = path.stat()
    _flip(path)
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))  # the damage hidden as well as a tool can
    assert path.stat().st_size == times.st_size
    with pytest.raises(JournalDamaged, match="quick_check finds"):
        Journal(path)


def test_a_check_out_of_time_goes_on_unchecked_says_so_and_is_done_next_time(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    _finished(path, actions=2)
    (tmp_path / "journal.sqlite-checked").unlink()  # as after a power cut
    with caplog.at_level(logging.INFO, "controller.service.journal"):
        with Journal(path, check_s=0.0) as journal:
            journal.runs()
        assert "its check did not finish in 0 s, the service goes on unchecked" in caplog.text
        assert not (tmp_path / "journal.sqlite-checked").exists()  # unchecked: nothing vouches for it
        caplog.clear()
        Journal(path).close()
        assert "quick_check ok" in caplog.text
    assert (tmp_path / "journal.sqlite-checked").exists()


def test_doctor_names_a_damaged_journal_and_records_a_clean_one(tmp_path, caplog):
    config = tmp_path / "mjtable.toml"
    config.write_text(f'[service]\nstate_dir = "{tmp_path}"\n[http]\nlisten = "off"\n')
    path = tmp_path / "journal.sqlite"
    _finished(path)
    (tmp_path / "journal.sqlite-checked").unlink()
    journal = next(answer for answer in checks(config) if answer["check"] == "journal")
    assert journal["ok"] and "quick_check ok" in journal["detail"]
    with caplog.at_level(logging.INFO, "controller.service.journal"), Journal(path):
        pass
    assert "unchanged since its last clean check" in caplog.text  # the doctor's check recorded
    _flip(path)
    journal = next(answer for answer in checks(config) if answer["check"] == "journal")
    assert not journal["ok"] and journal["detail"].startswith(f"journal {path} is damaged: SQLite's quick_check")
    assert "mjtable" not in journal["detail"] and "&& mv " in journal["detail"]
