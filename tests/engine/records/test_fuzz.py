"""Damaged records: every real record of ``shared/records`` mutated by a seeded mutator (a byte flipped, a tag or
line dropped, duplicated or swapped with the next, a tag cut short, the file truncated). Whatever the damage, a
reader answers in bounded time with a ``GameRecord`` or a ``RecordError`` (never another exception), every problem
is a ``RecordError`` naming where, and every hand it returns that lies wholly before the damage is the clean hand.

The default run tries 300 mutants; the slow run 2,000."""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from engine.records import RecordError, parse
from tests.engine.records.corpus import BOTZONE, MJLOGS, TENHOU6, game
from tests.paths import needs_records

pytestmark = needs_records
FILES = [*MJLOGS, *TENHOU6, BOTZONE]
SECONDS = 2.0
"""The longest one mutant may take to read (a clean game takes a few milliseconds)."""
_TAG = re.compile(rb"<[^<>]*>")


def _units(path: Path, data: bytes) -> list[tuple[int, int]]:
    """The spans a mutation drops, cuts, doubles or swaps: tags of an mjlog, lines of a Botzone text, the pieces
    between commas of a JSON log."""
    if path.suffix == ".mjlog":
        return [match.span() for match in _TAG.finditer(data)]
    cut = b"\n" if path.suffix == ".txt" else b","
    spans, start = [], 0
    while start < len(data):
        end = data.find(cut, start)
        end = len(data) if end < 0 else end + 1
        spans.append((start, end))
        start = end
    return spans


def mutate(path: Path, data: bytes, rng: random.Random) -> tuple[bytes, int, str]:
    """One mutant, the offset of its first changed byte, and what was done."""
    units = _units(path, data)
    kind = rng.choice(["flip", "drop", "cut", "truncate", "double", "swap"])
    start, end = units[rng.randrange(len(units) - 1)]
    if kind == "flip":
        spot = rng.randrange(len(data))
        return data[:spot] + bytes([data[spot] ^ rng.randrange(1, 256)]) + data[spot + 1 :], spot, kind
    if kind == "drop":
        return data[:start] + data[end:], start, kind
    if kind == "cut":
        keep = start + rng.randrange(1, max(2, end - start))
        return data[:keep] + data[end:], keep, kind
    if kind == "truncate":
        spot = rng.randrange(len(data))
        return data[:spot], spot, kind
    if kind == "double":
        return data[:end] + data[start:end] + data[end:], end, kind
    following = units[units.index((start, end)) + 1]
    return data[:start] + data[following[0] : following[1]] + data[start:end] + data[following[1] :], start, kind


@cache
def hand_ends(path: Path) -> tuple[int, ...]:
    """The byte offset where each clean hand's text ends (the next hand's start, or the game's closing)."""
    data = path.read_bytes()
    if path.suffix == ".mjlog":
        starts = [match.start() for match in re.finditer(rb"<INIT ", data)]
        return (*starts[1:], data.rindex(b"</mjloggm>"))
    if path.suffix == ".txt":
        starts = [match.start() for match in re.finditer(rb"^Match ", data, re.MULTILINE)]
        return (*starts[1:], len(data.rstrip()))
    text = data.decode()
    decoder, position, ends = json.JSONDecoder(), re.search(r'"log"\s*:\s*\[', text).end(), []
    for _ in json.loads(text)["log"]:
        while text[position] in " ,\n":
            position += 1
        position = decoder.raw_decode(text, position)[1]
        ends.append(len(text[:position].encode()))
    return tuple(ends)


def check(path: Path, mutant: bytes, changed: int) -> str:
    """Read one mutant and hold it to the promises above; say how it ended (refused, named, unnoticed)."""
    started = time.perf_counter()
    try:
        record = parse(mutant)
    except RecordError as error:
        assert str(error)
        return "refused"
    finally:
        assert time.perf_counter() - started < SECONDS
    assert all(isinstance(problem, RecordError) and problem.reason for problem in record.problems)
    json.dumps(record.to_dict(), ensure_ascii=False)
    indices = [hand.index for hand in record.hands]
    assert indices == sorted(set(indices))
    clean, ends = game(path.name), hand_ends(path)
    for hand in record.hands:
        if hand.index < len(ends) and ends[hand.index] <= changed:
            assert hand == clean.hands[hand.index], f"hand {hand.index} before the damage at {changed} differs"
    return "named" if record.problems else "unnoticed"


def run(count: int, seed: int, first: int = 0, judge: Callable[[Path, bytes, int], str] = check) -> Counter[str]:
    """Mutants ``first`` to ``first + count`` of ``seed``, each held to ``judge`` (the reader's promises, or the
    replay's: ``test_replay_fuzz``); how many ended each way."""
    outcomes: Counter[str] = Counter()
    contents = {path: path.read_bytes() for path in FILES}
    for number in range(first, first + count):
        rng = random.Random(seed * 1_000_003 + number)
        path = FILES[number % len(FILES)]
        mutant, changed, kind = mutate(path, contents[path], rng)
        try:
            outcomes[judge(path, mutant, changed)] += 1
        except AssertionError as failure:
            raise AssertionError(f"mutant {number} of {path.name} ({kind} at byte {changed}): {failure}") from None
    return outcomes


def test_the_mutator_mutates():
    data = MJLOGS[0].read_bytes()
    rng = random.Random(1)
    kinds = set()
    for _ in range(60):
        mutant, changed, kind = mutate(MJLOGS[0], data, rng)
        kinds.add(kind)
        assert mutant != data and mutant[:changed] == data[:changed]
    assert len(kinds) == 6


def test_300_mutants():
    outcomes = run(300, seed=1)
    assert sum(outcomes.values()) == 300
    assert outcomes["named"] + outcomes["refused"] > outcomes["unnoticed"]


@pytest.mark.slow
def test_2000_mutants():
    outcomes = run(2000, seed=2)
    assert sum(outcomes.values()) == 2000
    assert outcomes["named"] + outcomes["refused"] > outcomes["unnoticed"]
