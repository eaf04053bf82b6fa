"""Crash-exact recovery: ``mjtable run`` killed with SIGKILL at several points and restarted with the same
``--state`` ends with the same results, and the same moves in every hand, as a run that was never interrupted.

The kill points are journal positions: the test watches the journal from outside (a second SQLite connection,
as WAL allows) and sends SIGKILL as soon as it holds at least k events, so the process dies wherever it is then:
inside the table cycle, between a commit and its apply, in the middle of a claim, between hands.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.config import Config
from controller.service.events import Event
from controller.service.journal import Journal
from controller.service.service import Service, journal_path, serve
from controller.service.tableside import open_table
from tests.paths import REPO

ARGS = [
    "-m",
    "controller.cli",
    "run",
    "--hands",
    "4",
    "--seed",
    "1",
    "--json",
    "--speed",
    "1000",
    "--http",
    "127.0.0.1:0",
]
KILL_AT = (3, 9, 70, 180, 420)  # events committed: mid table cycle, just dealt, mid hand, on the hu of hand 0, hand 2
DEADLINE_S = 30.0


def _start(state: Path, args: list[str] = ARGS) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, *args, "--state", str(state)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def _events(state: Path) -> int:
    path = state / "journal.sqlite"
    if not path.exists():
        return 0
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    try:
        return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0
    finally:
        db.close()


def _kill_when(process: subprocess.Popen[str], state: Path, count: int, within_s: float = DEADLINE_S) -> int:
    """SIGKILL once the journal holds ``count`` events; returns how many it held when the process died."""
    deadline = time.monotonic() + within_s
    while _events(state) < count:
        assert process.poll() is None, f"the run ended before {count} events"
        assert time.monotonic() < deadline, f"no {count} events within {within_s} s"
        time.sleep(0.001)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=DEADLINE_S)
    assert process.returncode == -signal.SIGKILL
    return _events(state)


def _finish(process: subprocess.Popen[str], within_s: float = DEADLINE_S * 2) -> list[dict]:
    out, _ = process.communicate(timeout=within_s)
    assert process.returncode == 0
    return [json.loads(line) for line in out.splitlines()]


def _reap(processes: list[subprocess.Popen[str]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.communicate()


def _kill_then_finish(state: Path, args: list[str], kills: tuple[int, ...], within_s: float = DEADLINE_S) -> list[dict]:
    """Start the run on ``state`` and SIGKILL it at each journal position of ``kills`` in turn, then let a last
    start finish it; returns that start's output lines."""
    processes: list[subprocess.Popen[str]] = []
    try:
        held = []
        for count in kills:
            processes.append(_start(state, args))
            held.append(_kill_when(processes[-1], state, count, within_s))
        processes.append(_start(state, args))
        final = _finish(processes[-1], within_s * 2)
    finally:
        _reap(processes)
    assert all(count <= got for count, got in zip(kills, held, strict=True)), held
    return final


def _history(state: Path) -> list[tuple[dict, list[tuple[str, dict]]]]:
    """Every hand's result and its dice and moves (table steps a restarted simulator repeated are left out, and so
    is the MCU's count of its throws, which a restarted simulator starts again)."""
    with Journal(state / "journal.sqlite") as journal:
        (run,) = journal.runs()
        assert run.finished
        journal.verify(run.id)
        return [
            (result, [_move(e) for e in journal.events(hand.id) if e.kind in ("dice", "action")])
            for hand, result in journal.hands(run.id)
        ]


def _move(event: Event) -> tuple[str, dict]:
    return event.kind.value, {key: value for key, value in event.data.items() if key != "serial"}


@pytest.mark.slow
def test_sigkill_at_five_points_then_restart_gives_the_uninterrupted_results(tmp_path):
    reference = _kill_then_finish(tmp_path / "reference", ARGS, ())
    assert [line.get("hand") for line in reference] == [0, 1, 2, 3, None]
    expected = _history(tmp_path / "reference")
    assert sum(len(moves) for _, moves in expected) > max(KILL_AT), "the kill points must fall inside the run"
    state = tmp_path / "crashed"
    final = _kill_then_finish(state, ARGS, KILL_AT)
    assert final[-1] == reference[-1]
    assert final[-1]["hands"] == 4
    assert _history(state) == expected


class _Crash(Exception):
    """Stands for the power going off right after a commit, before the event is applied."""


class _CrashingJournal(Journal):
    def __init__(self, path: Path, after: int) -> None:
        super().__init__(path)
        self.after = after

    def append(self, hand_id: int, event) -> int:
        seq = super().append(hand_id, event)
        if seq == self.after:
            raise _Crash
        return seq


@pytest.mark.parametrize("after", [1, 5, 7, 50])  # mid cycle, the dice, the first move, mid hand
def test_an_event_committed_but_never_applied_is_applied_on_restart(tmp_path, after):
    config = Config().with_service(http="off", state_dir=str(tmp_path / "crashed"), seed=8, hands=1, speed=1000.0)
    path = journal_path(config)
    with _CrashingJournal(path, after) as journal, open_table(config) as side, pytest.raises(_Crash):
        Service(config, side, journal, lambda line: None).run()
    with Journal(path) as journal:
        ((hand, _),) = journal.hands(journal.runs()[0].id)
        assert len(journal.events(hand.id)) == after + 1
    resumed: list[dict] = []
    serve(config, resumed.append)
    reference: list[dict] = []
    serve(config.with_service(state_dir=str(tmp_path / "reference")), reference.append)
    assert resumed == reference
    assert _history(tmp_path / "crashed") == _history(tmp_path / "reference")


class _CrashingOnAction(Journal):
    """The power going off right after the first action of ``kind`` was committed."""

    def __init__(self, path: Path, kind: str) -> None:
        super().__init__(path)
        self.kind = kind

    def append(self, hand_id: int, event) -> int:
        seq = super().append(hand_id, event)
        if event.kind == "action" and event.data["action"]["kind"] == self.kind:
            raise _Crash
        return seq


def test_a_riichi_declaration_committed_but_never_applied_is_applied_on_restart(tmp_path):
    """Seed 7's hand 2: seat 3 declares riichi (``ready``), the power goes off after its commit; the resumed run
    plays on from the declaration (the stick, the locked hand) to the results of an unkilled run."""
    service = {"http": "off", "rules": "riichi", "seed": 7, "hands": 3, "speed": 1000.0}
    config = Config().with_service(state_dir=str(tmp_path / "crashed"), **service)
    crashing = _CrashingOnAction(journal_path(config), "ready")
    with crashing as journal, open_table(config) as side, pytest.raises(_Crash):
        Service(config, side, journal, lambda line: None).run()
    resumed: list[dict] = []
    serve(config, resumed.append)
    reference: list[dict] = []
    serve(config.with_service(state_dir=str(tmp_path / "reference")), reference.append)
    assert resumed[-1] == reference[-1] and resumed[-1]["hands"] == 3
    assert _history(tmp_path / "crashed") == _history(tmp_path / "reference")
    assert any(result["declared_ready"] for result, _ in _history(tmp_path / "reference"))
