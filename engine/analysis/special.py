"""The special shapes (rules-B §3.2, §6) on count vectors: recognition, readings and waits.

Seven pairs, thirteen orphans and honors-and-knitted need 14 concealed tiles. The knitted straight (组合龙)
takes its nine knitted tiles out and leaves a standard remainder: 1 set + pair, or a pair alone beside one
exposed meld. Each check starts with a cheap test that rejects almost every other hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet
from operator import itemgetter

from engine.analysis.shapes import HONORS, KNITTED_PATTERNS, KNITTED_STARTS, THIRTEEN_ORPHANS, ShapeRules
from engine.analysis.standard import (
    KINDS,
    ODD_TILE,
    ODDS,
    SERIES,
    SINGLES,
    SIZE,
    SPLIT,
    GroupFacts,
    group_facts,
    is_complete,
    is_standard,
    ready_tiles,
)

KNITTED_SIZES = (14, 11)
"""Concealed tile counts of a complete knitted-straight hand: no exposed meld, or one. Every other special shape
needs 14, so no special shape fits any other size."""

_ORPHANS_OF = itemgetter(*THIRTEEN_ORPHANS)
_PATTERNS_OF = tuple(itemgetter(*pattern) for pattern in KNITTED_PATTERNS)


def seven_pairs(counts: Sequence[int], quads: bool) -> tuple[int, ...] | None:
    """The seven pair tiles (a quad twice when ``quads``), or None."""
    if counts.count(0) < len(counts) - 7:
        return None
    pairs: list[int] = []
    for tile, n in enumerate(counts):
        if n:
            if n & 1 or (n > 2 and not quads):
                return None
            pairs.extend([tile] * (n >> 1))
    return tuple(pairs) if len(pairs) == 7 else None


def thirteen_orphans(counts: Sequence[int]) -> int | None:
    """The doubled tile of a 十三幺 hand, or None."""
    held = _ORPHANS_OF(counts)
    if 0 in held or max(held) > 2 or sum(held) != 14 or sum(counts) != 14:
        return None
    return THIRTEEN_ORPHANS[held.index(2)]


def honors_knitted(counts: Sequence[int]) -> tuple[int, ...] | None:
    """The 14 distinct tiles of a 全不靠 hand (one knitted pattern's tiles + honors), or None."""
    if counts.count(1) != 14 or sum(counts) != 14:
        return None
    honors = sum(counts[27:34])
    if any(sum(pattern_of(counts)) + honors == 14 for pattern_of in _PATTERNS_OF):
        return tuple(tile for tile, n in enumerate(counts) if n)
    return None


def _full_series(counts: Sequence[int], base: int) -> bool:
    """Whether the suit starting at tile ``base`` holds one of its knitted series 147, 258 or 369."""
    return bool(
        (counts[base] and counts[base + 3] and counts[base + 6])
        or (counts[base + 1] and counts[base + 4] and counts[base + 7])
        or (counts[base + 2] and counts[base + 5] and counts[base + 8])
    )


def knitted_remainders(counts: Sequence[int]) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """(pattern, counts without it) for each knitted pattern the hand holds."""
    if not (_full_series(counts, 0) and _full_series(counts, 9) and _full_series(counts, 18)):
        return
    for pattern, pattern_of in zip(KNITTED_PATTERNS, _PATTERNS_OF, strict=True):
        if 0 not in pattern_of(counts):
            rest = list(counts)
            for tile in pattern:
                rest[tile] -= 1
            yield pattern, rest


def special_win(counts: Sequence[int], size: int, rules: ShapeRules) -> bool:
    """Whether a hand of ``size`` concealed tiles is complete in a special shape ``rules`` allow.

    The kinds held pick the candidates: seven pairs hold at most 7 kinds; thirteen orphans 13 with all 7 honors;
    honors-and-knitted 14 with at least 5 honors; a knitted straight at least 9 suited kinds.
    """
    if size not in KNITTED_SIZES:
        return False
    kinds = len(counts) - counts.count(0)
    if size == 14 and kinds <= 7:
        return rules.seven_pairs and seven_pairs(counts, rules.seven_pairs_quad_as_two_pairs) is not None
    honor_kinds = 7 - counts[27:34].count(0)
    if size == 14 and kinds >= 13 and honor_kinds >= 5:
        if rules.thirteen_orphans and honor_kinds == 7 and thirteen_orphans(counts) is not None:
            return True
        if rules.honors_knitted and honors_knitted(counts) is not None:
            return True
    if rules.knitted_straight and kinds - honor_kinds >= 9:
        return any(is_standard(rest, rules) for _, rest in knitted_remainders(counts))
    return False


def special_waits(
    counts: Sequence[int], size: int, rules: ShapeRules, groups: tuple[GroupFacts, ...]
) -> AbstractSet[int]:
    """Tiles, held at most three times, completing a hand of ``size`` (13 or 10) concealed tiles to a special
    shape; ``groups``: the facts of its suits and honors (``hand_facts``).

    The singles held pick the candidates, one tile short of complete: seven pairs hold at most one; thirteen
    orphans at least 11 (and 6 honor kinds), honors-and-knitted 13 (and 4 honor kinds); a knitted straight (8 or
    9 distinct knitted tiles) at least two, and two suits holding a whole knitted series.
    """
    if size != 13 and not (size == 10 and rules.knitted_straight):
        return _NONE
    m, p, s, z = groups
    singles = m[SINGLES] + p[SINGLES] + s[SINGLES] + z[SINGLES]
    if singles <= 1:
        if size == 13 and rules.seven_pairs:
            return _seven_pairs_wait(counts, groups, singles, rules.seven_pairs_quad_as_two_pairs)
        return _NONE
    waits: AbstractSet[int] = _NONE
    if singles >= 11 and z[KINDS] >= 4:  # then size == 13
        if rules.thirteen_orphans and z[KINDS] >= 6:
            waits = waits.union(_orphan_waits(counts))
        if rules.honors_knitted and singles == 13:
            waits = waits.union(_honors_knitted_waits(counts, groups))
    if rules.knitted_straight and (m[SERIES] > 0) + (p[SERIES] > 0) + (s[SERIES] > 0) >= 2:
        waits = waits.union(_knitted_straight_waits(counts, groups, rules))
    return waits


_NONE: AbstractSet[int] = frozenset()


def _seven_pairs_wait(
    counts: Sequence[int], groups: tuple[GroupFacts, ...], singles: int, quads: bool
) -> AbstractSet[int]:
    """The wait of 13 tiles on seven pairs: the one kind held an odd number of times, in at most 7 kinds (with
    ``quads``; without, a single beside six pairs)."""
    m, p, s, z = groups
    kinds = m[KINDS] + p[KINDS] + s[KINDS] + z[KINDS]
    if m[ODDS] + p[ODDS] + s[ODDS] + z[ODDS] != 1 or kinds > 7 or not (quads or (kinds == 7 and singles == 1)):
        return _NONE
    tile = max(m[ODD_TILE], p[ODD_TILE], s[ODD_TILE], z[ODD_TILE])
    return {tile} if counts[tile] <= 3 else _NONE


def _orphan_waits(counts: Sequence[int]) -> list[int]:
    """Of a hand of 13 tiles."""
    held = _ORPHANS_OF(counts)
    if sum(held) != 13 or max(held) > 2 or held.count(2) > 1:  # the hand holds 13 tiles
        return []
    if 2 not in held:
        return list(THIRTEEN_ORPHANS)
    return [tile for tile, n in zip(THIRTEEN_ORPHANS, held, strict=True) if not n]


def _honors_knitted_waits(counts: Sequence[int], groups: tuple[GroupFacts, ...]) -> set[int]:
    """Of 13 distinct tiles: ready when every suited tile lies in one knitted pattern (it lacks 13 - honors of
    that pattern's nine); the wait is every tile of the pattern and the honors not held."""
    m, p, s, z = groups
    waits: set[int] = set()
    for (a, b, c), tiles in zip(KNITTED_STARTS, _KNITTED_WITH_HONORS, strict=True):
        if 9 - m[SPLIT][a][0] - p[SPLIT][b][0] - s[SPLIT][c][0] + z[SIZE] == 13:
            waits.update(tile for tile in tiles if not counts[tile])
    return waits


_KNITTED_WITH_HONORS = tuple((*pattern, *HONORS) for pattern in KNITTED_PATTERNS)


def _knitted_straight_waits(counts: Sequence[int], groups: tuple[GroupFacts, ...], rules: ShapeRules) -> set[int]:
    """Per pattern, the rest of the hand comes from the suits' series splits: with all nine knitted tiles held
    the rest must be ready, with one lacking (the wait) complete."""
    m, p, s, z = groups
    m_facts, p_facts, s_facts, _ = group_facts(rules.pair_ranks)
    waits: set[int] = set()
    for (a, b, c), pattern in zip(KNITTED_STARTS, KNITTED_PATTERNS, strict=True):
        (m_missing, m_rest), (p_missing, p_rest), (s_missing, s_rest) = m[SPLIT][a], p[SPLIT][b], s[SPLIT][c]
        missing = m_missing + p_missing + s_missing
        if missing > 1:
            continue
        rest = m_facts[m_rest], p_facts[p_rest], s_facts[s_rest], z
        if not missing:
            waits.update(tile for tile in ready_tiles(*rest) if counts[tile] <= 3)
        elif is_complete(*rest):
            waits.add(next(tile for tile in pattern if not counts[tile]))
    return waits
