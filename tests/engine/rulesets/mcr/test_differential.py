"""Differential test against PyMahjongGB 1.4.0 (engine.md §7.3) on freshly generated hands: every form of winning
hand must give the same fan multiset, and near misses the same verdict (no win). Every mismatch is printed in
notation. A small seeded run by default; 100,000 hands in the slow run."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from controller.cli import win_context
from engine.notation import Hand, format_hand
from engine.rulesets.mcr.fans import FANS
from engine.rulesets.registry import get_ruleset
from tests.engine.rulesets.mcr.generator import near_miss, random_winning_hand
from tests.engine.rulesets.mcr.oracle import oracle_fans

MahjongGB = pytest.importorskip("MahjongGB")
RULESET = get_ruleset("mcr")


def ours(hand: Hand) -> Counter[str] | None:
    score = RULESET.evaluate(hand, win_context(hand))
    return Counter({fan.name_zh: fan.count for fan in score.fans}) if score.shape_ok else None


def mismatches(hands: list[Hand], seen: Counter[str]) -> list[str]:
    """Hands scored differently, in notation; ``seen`` counts the fans met."""
    found = []
    for hand in hands:
        expected, got = oracle_fans(MahjongGB.MahjongFanCalculator, hand), ours(hand)
        seen.update(got or ())
        if expected != got:
            found.append(f"{format_hand(hand)}: PyMahjongGB {expected and dict(expected)}, mcr {got and dict(got)}")
    return found


def run(seed: int, wins: int, misses: int) -> Counter[str]:
    """Compare ``wins`` winning hands and ``misses`` near misses; the fans met, for coverage checks."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    winning = [random_winning_hand(rng) for _ in range(wins)]
    found = mismatches(winning, seen) + mismatches([near_miss(rng) for _ in range(misses)], seen)
    for line in found:
        print(line)
    assert not found, f"{len(found)} of {wins + misses} hands differ from PyMahjongGB"
    return seen


def test_random_hands_agree_with_pymahjonggb() -> None:
    run(seed=2026, wins=2000, misses=1000)


@pytest.mark.slow
def test_100k_random_hands_agree_with_pymahjonggb() -> None:
    seen = run(seed=11, wins=100_000, misses=20_000)
    assert {fan.name_zh for fan in FANS[:82]} <= set(seen), "the generator must reach every fan"


def test_random_non_winning_hands_never_hu() -> None:
    """Random 14 tiles (almost never a win) and near misses: no hu unless the oracle also sees a win."""
    rng = random.Random(7)
    wall = [tile for tile in range(34) for _ in range(4)]
    for _ in range(3000):
        tiles = rng.sample(wall, 14)
        hand = Hand((), tuple(sorted(tiles[:13])), tiles[13])
        score = RULESET.evaluate(hand, win_context(hand))
        assert score.shape_ok == (oracle_fans(MahjongGB.MahjongFanCalculator, hand) is not None), format_hand(hand)
        assert not score.hu or score.shape_ok
