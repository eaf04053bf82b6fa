"""Fans made of chows: 4-, 3- and 2-chow patterns with the account-once rule (套算一次) and the terminal-chow
hands (一色/三色双龙会). Chows are given by their middle tiles, sorted."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

from engine.analysis.suit_tables import Memo
from engine.rulesets.mcr.codes import Code
from engine.rulesets.mcr.fans import (
    FOUR_PURE_SHIFTED_CHOWS,
    MIXED_DOUBLE_CHOW,
    MIXED_SHIFTED_CHOWS,
    MIXED_STRAIGHT,
    MIXED_TRIPLE_CHOW,
    PURE_DOUBLE_CHOW,
    PURE_SHIFTED_CHOWS,
    PURE_STRAIGHT,
    PURE_TERMINAL_CHOWS,
    PURE_TRIPLE_CHOW,
    QUADRUPLE_CHOW,
    SHORT_STRAIGHT,
    THREE_SUITED_TERMINAL_CHOWS,
    TWO_TERMINAL_CHOWS,
)
from engine.rulesets.mcr.traits import TraitCounts, chow_trait_counts

Fans = dict[int, int]

PAIR_FANS_ORDER = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)
"""The 1-fan chow pairs; when they must be cut (account once), the later ones go first."""


def four_chows_fan(t0: Code, t1: Code, t2: Code, t3: Code) -> int | None:
    if (t0 + 2 == t1 and t1 + 2 == t2 and t2 + 2 == t3) or (t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3):
        return FOUR_PURE_SHIFTED_CHOWS
    if t0 == t1 == t2 == t3:
        return QUADRUPLE_CHOW
    return None


def three_chows_fan(t0: Code, t1: Code, t2: Code) -> int | None:
    s0, s1, s2 = t0 >> 4, t1 >> 4, t2 >> 4
    if s0 != s1 and s0 != s2 and s1 != s2:
        ranks = sorted((t0 & 15, t1 & 15, t2 & 15))
        if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
            return MIXED_SHIFTED_CHOWS
        if ranks[0] == ranks[2]:
            return MIXED_TRIPLE_CHOW
        if ranks == [2, 5, 8]:
            return MIXED_STRAIGHT
        return None
    if t0 + 3 == t1 and t1 + 3 == t2:
        return PURE_STRAIGHT
    if (t0 + 2 == t1 and t1 + 2 == t2) or (t0 + 1 == t1 and t1 + 1 == t2):
        return PURE_SHIFTED_CHOWS
    if t0 == t1 == t2:
        return PURE_TRIPLE_CHOW
    return None


def two_chows_fan(t0: Code, t1: Code) -> int | None:
    if t0 >> 4 != t1 >> 4:
        return MIXED_DOUBLE_CHOW if t0 & 15 == t1 & 15 else None
    if t0 + 3 == t1 or t1 + 3 == t0:
        return SHORT_STRAIGHT
    if {t0 & 15, t1 & 15} == {2, 8}:
        return TWO_TERMINAL_CHOWS
    return PURE_DOUBLE_CHOW if t0 == t1 else None


def _extra_chow_fan(group: tuple[Code, ...], extra: Code) -> int | None:
    """Beside a 3-chow fan the fourth chow combines once, with the best-ranked 1-fan pattern."""
    found = {two_chows_fan(tile, extra) for tile in group}
    return next((fan for fan in PAIR_FANS_ORDER if fan in found), None)


def account_once(found: list[int], limit: int, fans: Fans) -> None:
    """Keep at most ``limit`` of the 1-fan chow pairs: cut repeats first (down to one each, then none),
    starting from 老少副 (the summerinsects reading of 套算一次 and 不得相同)."""
    table = {fan: found.count(fan) for fan in PAIR_FANS_ORDER}
    count = len(found)
    keep = 1
    while count > limit and keep >= 0:
        for fan in reversed(PAIR_FANS_ORDER):
            while table[fan] > keep and count > limit:
                table[fan] -= 1
                count -= 1
        keep -= 1
    for fan, n in table.items():
        if n:
            fans[fan] = fans.get(fan, 0) + n


def chow_fans(mids: list[Code], fans: Fans) -> None:
    """Fans of 2-4 chows (sorted middle tiles) without the terminal-chow hands."""
    if len(mids) == 4:
        fan = four_chows_fan(*mids)
        if fan is not None:
            fans[fan] = 1
            return
        for trio in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            group = (mids[trio[0]], mids[trio[1]], mids[trio[2]])
            fan = three_chows_fan(*group)
            if fan is not None:
                fans[fan] = 1
                extra = _extra_chow_fan(group, mids[trio[3]])
                if extra is not None:
                    fans[extra] = 1
                return
        index_pairs = list(combinations(range(4), 2))
        pairs = [two_chows_fan(mids[a], mids[b]) for a, b in index_pairs]
        related = {chow for (a, b), fan in zip(index_pairs, pairs, strict=True) if fan for chow in (a, b)}
        limit = len(related) - 1  # at most 3 pairs, one fewer for each chow that combines with no other
        if limit > 0:
            account_once([fan for fan in pairs if fan], limit, fans)
        return
    if len(mids) == 3:
        fan = three_chows_fan(*mids)
        if fan is not None:
            fans[fan] = 1
            return
        account_once([fan for a, b in combinations(mids, 2) if (fan := two_chows_fan(a, b))], 2, fans)
        return
    if len(mids) == 2:
        fan = two_chows_fan(*mids)
        if fan is not None:
            fans[fan] = fans.get(fan, 0) + 1


def _chow_shape(mids: tuple[Code, ...]) -> tuple[tuple[tuple[int, int], ...], TraitCounts]:
    fans: Fans = {}
    chow_fans(list(mids), fans)
    return tuple(fans.items()), chow_trait_counts(mids)


CHOW_SHAPES: Memo[tuple[Code, ...], tuple[tuple[tuple[int, int], ...], TraitCounts]] = Memo(_chow_shape)
"""Sorted chow middles → ((fan, count) of ``chow_fans``, their trait counts), filled as chow tuples are met;
``prime_chow_shapes`` fills those of up to three."""

CHOW_MIDDLES = tuple(suit * 16 + rank for suit in (1, 2, 3) for rank in range(2, 9))


def prime_chow_shapes() -> None:
    """Fill ``CHOW_SHAPES`` with every tuple of 0-3 chows (2,024, a few hundredths of a second): most readings
    hold at most three. The 10,626 tuples of four chows would take 0.15 s, more than they save a batch of a few
    thousand fresh hands (under a tenth of readings are all chows); those are filled as they are met."""
    for size in range(4):
        for mids in combinations_with_replacement(CHOW_MIDDLES, size):
            CHOW_SHAPES[mids]


def terminal_chows_fan(mids: Sequence[Code], pair: Code) -> int | None:
    """一色双龙会 / 三色双龙会: four chows 123 + 789 twice around a pair of 5s."""
    if pair >= 0x40 or pair & 15 != 5:
        return None
    if any(mid & 15 not in (2, 8) for mid in mids):
        return None
    pair_suit = pair >> 4
    suits = [mid >> 4 for mid in mids]
    if all(s == pair_suit for s in suits):
        low = sum(1 for mid in mids if mid & 15 == 2)
        return PURE_TERMINAL_CHOWS if low == 2 else None
    others = sorted({1, 2, 3} - {pair_suit})
    if sorted(mids) == sorted(others[i] * 16 + r for i in (0, 1) for r in (2, 8)):
        return THREE_SUITED_TERMINAL_CHOWS
    return None
