"""Damaged records replayed (``engine.records.replay``), two ways, never an exception, a bug report or a hang:

* the file mutants of ``test_fuzz`` (a byte flipped, a tag or line dropped, doubled or swapped, a tag cut short, the
  file truncated): an answer per hand the reader kept, with the referee's score changes or the reason (the record's
  damage, or the move the referee refused); a hand wholly before the damage still agrees with the record. The hands
  before the damage are the clean ones (``test_fuzz``, replayed by ``test_replay``): each mutant replays its damaged
  hand and the next, and the last hand before the damage;
* hands with a move dropped, doubled, swapped or given another tile, handed to the replay as read (the reader's
  checks catch such damage in a file): a refusal naming its move, or a hand the referee finishes.

The default run tries 200 file mutants (two halves, run in parallel) and 300 damaged hands; the slow run 2,000 each.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from engine.records import Discard, Draw, HandRecord, RecordError, RecordTile, parse
from engine.records.replay import record_ruleset, replay_hand, replay_record
from tests.engine.records.corpus import game
from tests.engine.records.test_fuzz import FILES, hand_ends, run
from tests.paths import needs_records

pytestmark = needs_records
SECONDS = 5.0
"""The longest one mutant may take to replay (a clean game takes well under a second)."""
AFTER = 2
"""Hands replayed from the damage on: the damaged one and the next (the later ones read as the clean ones)."""


def check(path: Path, mutant: bytes, changed: int) -> str:
    """Replay one mutant from its damaged hand on; say how it ended (refused, failed: a hand named broken or
    refused, disagrees, agrees)."""
    started = time.perf_counter()
    try:
        record = parse(mutant)
    except RecordError:
        return "refused"
    ends = hand_ends(path)
    whole = [hand for hand in record.hands if hand.index < len(ends) and ends[hand.index] <= changed]
    damaged = record.hands[len(whole) : len(whole) + AFTER]
    answers = list(replay_record(replace(record, hands=damaged), path.name))
    assert time.perf_counter() - started < SECONDS
    for answer in answers:
        line = json.dumps(answer.to_dict(), ensure_ascii=False)
        assert answer.error is None or (answer.error.strip() and "please report it" not in answer.error), line
        assert answer.error is not None or len(answer.deltas) == 4, line
    kept = [answer.hand for answer in answers if answer.hand is not None and answer.error is None]
    assert kept == sorted(set(kept)) and set(kept) <= {hand.index for hand in record.hands}
    if whole and record.rules == game(path.name).rules:  # the first hand before the damage, replayed here too
        (first,) = replay_record(replace(record, hands=whole[-1:], problems=()), path.name)
        assert first.agrees, first.to_dict()
    if any(answer.error for answer in answers):
        return "failed"
    return "agrees" if all(answer.agrees for answer in answers) else "disagrees"


def mutate_moves(hand: HandRecord, rng: random.Random) -> tuple[HandRecord, str]:
    """The hand with one move dropped, doubled, swapped with the next, or given another tile: damage the reader's
    checks would catch in a file, given straight to the replay."""
    moves, spot = list(hand.moves), rng.randrange(len(hand.moves) - 1)
    kind = rng.choice(["drop", "double", "swap", "tile"])
    if kind == "drop":
        del moves[spot]
    elif kind == "double":
        moves.insert(spot, moves[spot])
    elif kind == "swap":
        moves[spot], moves[spot + 1] = moves[spot + 1], moves[spot]
    else:
        spot = next((n for n in range(spot, len(moves)) if isinstance(moves[n], Draw | Discard)), spot)
        if isinstance(moves[spot], Draw | Discard):
            moves[spot] = replace(moves[spot], tile=RecordTile(rng.randrange(34), rng.random() < 0.2))
    return replace(hand, moves=tuple(moves)), f"{kind} at move {spot}"


def replay_moved(count: int, seed: int) -> Counter[str]:
    """Replay ``count`` hands with a damaged move each: a named refusal (its move number within the hand), or a
    hand the referee finishes, never an exception."""
    outcomes: Counter[str] = Counter()
    rng = random.Random(seed)
    for number in range(count):
        path = FILES[number % len(FILES)]
        record = game(path.name)
        hand, what = mutate_moves(record.hands[rng.randrange(len(record.hands))], rng)
        answer = replay_hand(record_ruleset(record), hand, path.name)
        line = answer.to_dict()
        assert answer.error is None or "please report it" not in answer.error, (number, what, line)
        assert answer.error is None or 0 <= answer.move <= len(hand.moves), (number, what, line)
        outcomes["refused" if answer.error else "agrees" if answer.agrees else "disagrees"] += 1
    return outcomes


def test_300_hands_with_a_damaged_move():
    outcomes = replay_moved(300, seed=5)
    assert sum(outcomes.values()) == 300 and outcomes["refused"] > outcomes["disagrees"]


@pytest.mark.parametrize("half", [0, 1])
def test_200_mutants(half):
    outcomes = run(100, seed=3, first=100 * half, judge=check)
    assert sum(outcomes.values()) == 100 and outcomes["failed"] + outcomes["refused"] > 0


@pytest.mark.slow
def test_2000_hands_with_a_damaged_move():
    outcomes = replay_moved(2000, seed=6)
    assert sum(outcomes.values()) == 2000 and outcomes["refused"] > outcomes["disagrees"]


@pytest.mark.slow
def test_2000_mutants():
    outcomes = run(2000, seed=4, judge=check)
    assert sum(outcomes.values()) == 2000 and outcomes["failed"] + outcomes["refused"] > outcomes["disagrees"]
