"""The compiled riichi hand value (``engine/_riichi_native.c``) against the pure scorer, hand by hand: the
differential test's seeded random hands (every shape, 0-4 melds, kans open and closed, red fives, dora and ura)
under the situations and options the ruleset reads from them, the same hands under fuzzed situations (every flag,
wind, kan count, renhou and option, contradictory ones too) and near misses (one tile changed: mostly no winning
shape, sometimes another win). Wherever the core answers, its value (yaku and their order, han, fu, limit,
reason) must be the pure path's; it must answer the large majority, and ``hand_value`` gives the pure answer
where it declines. The core is loaded here even under ``MJTABLE_PURE=1`` (which keeps it out of the engine, not
out of this comparison); CI (``MJTABLE_NO_SKIPS=1``, gcc present) builds it, so there its absence fails."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations, pairwise
from types import ModuleType

import pytest

from engine import native as native_module
from engine.notation import Hand, Meld, MeldKind
from engine.rulesets.base import WinContext
from engine.rulesets.riichi import RiichiRuleset, scorer
from engine.rulesets.riichi.ruleset import read_riichi_tiles
from engine.rulesets.riichi.scorer import (
    NO_SHAPE,
    NO_YAKU,
    Bonus,
    HandValue,
    Options,
    native_hand_value,
    pure_hand_value,
)
from engine.rulesets.riichi.situation import read_situation
from engine.rulesets.riichi.yaku import WinFacts
from tests.engine.cores import built
from tests.engine.rulesets.riichi.oracle import random_case, situation_of

Case = tuple[Hand, WinFacts, Bonus, Options]

DIFFERENTIAL_SEEDS = (20261129, 11)
"""test_differential's seeds: its hands are compared here too."""
HANDS = 10_000
"""Random hands per seed (each also fuzzed and near-missed below)."""
MAJORITY = 0.98
"""The share of hands the core must answer (it declines only a tie of two readings with different yaku)."""


@pytest.fixture(scope="module")
def native() -> ModuleType:
    """The compiled core; where CI builds it (gcc present, no skip allowed) its absence is a failure."""
    return built("_riichi_native", native_module.RIICHI_SOURCE)


def native_value(native: ModuleType, case: Case) -> HandValue | None:
    return native_hand_value(native, *case)


def agree(native: ModuleType, cases: Iterator[Case]) -> Counter[str]:
    """Every case compared (the first disagreement fails); how many the core answered, by outcome."""
    seen: Counter[str] = Counter()
    for case in cases:
        mine = native_value(native, case)
        seen["cases"] += 1
        if mine is None:
            continue
        pure = pure_hand_value(*case)
        assert mine == pure, f"{case}: core {mine}, pure {pure}"
        seen["answered"] += 1
        seen["win" if mine.hu else mine.reason or ""] += 1
        seen["yakuman" if mine.yakuman else "melds" if case[0].melds else "closed"] += 1
    return seen


def ruleset_cases(seed: int, hands: int) -> Iterator[Case]:
    """The seeded random hands with the facts, dora and options the ruleset reads from their situations."""
    rng = random.Random(seed)
    for _ in range(hands):
        case = random_case(rng)
        ruleset = RiichiRuleset(case.options)
        ctx = WinContext.from_dict(situation_of(case))
        facts, bonus, _ = read_situation(case.hand, ctx, ruleset.options, read_riichi_tiles)
        yield case.hand, facts, bonus, ruleset.scoring


def fuzzed(rng: random.Random, hand: Hand) -> Case:
    """The hand under any situation the scorer can be asked about: every flag, wind and option at random."""
    flags = [rng.random() < 0.3 for _ in range(12)]
    kongs = sum(meld.kind is MeldKind.KONG for meld in hand.melds)
    facts = WinFacts(
        closed=all(meld.is_concealed_kong for meld in hand.melds) or flags[0],
        self_drawn=flags[1],
        seat_wind=27 + rng.randrange(4),
        round_wind=27 + rng.randrange(4),
        dealer=flags[2],
        riichi=flags[3],
        double_riichi=flags[4],
        ippatsu=flags[5],
        rinshan=flags[6],
        chankan=flags[7],
        last_tile=flags[8],
        first_turn=flags[9] or rng.random() < 0.2,
        kans=kongs if rng.random() < 0.8 else rng.randrange(5),
        open_tanyao=flags[10],
        double_yakuman=flags[11],
        renhou=rng.choice(("none", "han5", "yakuman")),
    )
    bonus = Bonus(*(tuple(rng.randrange(34) for _ in range(rng.randrange(6))) for _ in range(2)), rng.randrange(4))
    return hand, facts, bonus, Options(rng.choice(("yakuman", "sanbaiman")), rng.random() < 0.5)


def near_miss(rng: random.Random, hand: Hand) -> Hand:
    """The hand with one standing tile changed (at most four copies of a tile kept)."""
    tiles = hand.all_tiles()
    standing = list(hand.standing)
    while True:
        tile = rng.randrange(34)
        if tiles.count(tile) < 4:
            standing[rng.randrange(len(standing))] = tile
            return replace(hand, standing=tuple(sorted(standing)))


def fuzzed_cases(seed: int, hands: int, miss: bool) -> Iterator[Case]:
    rng = random.Random(seed)
    for _ in range(hands):
        hand = random_case(rng).hand
        yield fuzzed(rng, near_miss(rng, hand) if miss else hand)


@pytest.mark.parametrize("seed", DIFFERENTIAL_SEEDS)
def test_random_hands_under_their_situations_agree(native: ModuleType, seed: int) -> None:
    seen = agree(native, ruleset_cases(seed, HANDS))
    assert seen["answered"] >= MAJORITY * seen["cases"], seen
    assert seen["win"] > HANDS // 2 and seen["yakuman"] > 50 and seen["melds"] > HANDS // 4, seen


@pytest.mark.parametrize("seed", DIFFERENTIAL_SEEDS)
def test_random_hands_under_fuzzed_situations_agree(native: ModuleType, seed: int) -> None:
    seen = agree(native, fuzzed_cases(seed, HANDS, miss=False))
    assert seen["answered"] >= MAJORITY * seen["cases"], seen
    assert seen[NO_YAKU] > 100 and seen["yakuman"] > 200, seen


@pytest.mark.parametrize("seed", DIFFERENTIAL_SEEDS)
def test_near_misses_agree(native: ModuleType, seed: int) -> None:
    seen = agree(native, fuzzed_cases(seed, HANDS // 2, miss=True))
    assert seen["answered"] >= MAJORITY * seen["cases"], seen
    assert seen[NO_SHAPE] > HANDS // 4 and seen["win"] > 100, seen


def one_suit_hands(every_win: bool) -> Iterator[Hand]:
    """Every closed hand of 14 characters (at most four copies of each) won on each tile it holds, or every fifth
    hand won on its lowest tile: all the readings a suit can have, chows against pungs, ties of their ranks."""
    for index, cut in enumerate(combinations(range(14 + 8), 8)):  # 14 tiles in 9 ranks: the counts are the gaps
        if not every_win and index % 5:
            continue
        counts = [b - a - 1 for a, b in pairwise((-1, *cut, 14 + 8))]
        if max(counts) > 4:
            continue
        tiles = [rank for rank, n in enumerate(counts) for _ in range(n)]
        for win in sorted(set(tiles)) if every_win else tiles[:1]:
            standing = list(tiles)
            standing.remove(win)
            yield Hand((), tuple(standing), win)


def one_suit_cases(every_win: bool) -> Iterator[Case]:
    for hand in one_suit_hands(every_win):
        for self_drawn in (False, True):
            facts = WinFacts(closed=True, self_drawn=self_drawn, seat_wind=28, round_wind=27, dealer=False)
            yield hand, facts, Bonus(), Options()


def test_one_suit_hands_won_on_their_lowest_tile_agree(native: ModuleType) -> None:
    seen = agree(native, one_suit_cases(every_win=False))
    assert seen["answered"] == seen["cases"] and seen["win"] > 2_000, seen


@pytest.mark.slow
def test_every_one_suit_hand_won_on_each_tile_agrees(native: ModuleType) -> None:
    seen = agree(native, one_suit_cases(every_win=True))
    assert seen["answered"] == seen["cases"] and seen["win"] > 100_000, seen


def test_the_core_declines_what_it_does_not_read(native: ModuleType) -> None:
    """A fifth copy, a hand of the wrong size, a flower, an unknown meld tile: None; ``hand_value`` answers the
    first two as the pure path does (the ruleset refuses the others before scoring)."""
    facts = WinFacts(closed=True, self_drawn=True, seat_wind=27, round_wind=27, dealer=True)
    won = Hand((), (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8), 0)
    assert native_value(native, (won, facts, Bonus(), Options())) is not None
    scored = (replace(won, standing=(0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 8, 8, 8)), replace(won, standing=won.standing[1:]))
    unread = (replace(won, standing=(*won.standing[:-1], 34)), Hand((Meld(MeldKind.PUNG, 40, 1),), won.standing[3:], 0))
    for hand in (*scored, *unread):
        assert native_value(native, (hand, facts, Bonus(), Options())) is None, hand
    for hand in scored:
        scorer.hand_value.cache_clear()
        assert scorer.hand_value(hand, facts, Bonus(), Options()) == pure_hand_value(hand, facts, Bonus(), Options())


def test_hand_value_is_the_cores_answer(native: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scorer's seam: with the core in place ``hand_value`` never needs the pure path for these hands."""
    if scorer.RIICHI_NATIVE is None:
        monkeypatch.setattr(scorer, "RIICHI_NATIVE", native)
    cases = list(ruleset_cases(5, 300))
    expected = [pure_hand_value(*case) for case in cases]
    monkeypatch.setattr(scorer, "pure_hand_value", None)
    scorer.hand_value.cache_clear()
    assert [scorer.hand_value(*case) for case in cases] == expected
    scorer.hand_value.cache_clear()
