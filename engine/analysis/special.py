"""The special shapes (rules-B §3.2, §6) on count vectors: recognition, readings and waits.

Seven pairs, thirteen orphans and honors-and-knitted need 14 concealed tiles. The knitted straight (组合龙)
takes its nine knitted tiles out and leaves a standard remainder: 1 set + pair, or a pair alone beside one
exposed meld.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.analysis.shapes import HONORS, KNITTED_PATTERNS, THIRTEEN_ORPHANS, ShapeRules
from engine.analysis.standard import is_standard, standard_waits

_ORPHAN_SET = frozenset(THIRTEEN_ORPHANS)
_KNITTED_CANDIDATES = tuple(frozenset(pattern + HONORS) for pattern in KNITTED_PATTERNS)
KNITTED_SIZES = (14, 11)
"""Concealed tile counts of a complete knitted-straight hand: no exposed meld, or one."""


def seven_pairs(counts: Sequence[int], quads: bool) -> tuple[int, ...] | None:
    """The seven pair tiles (a quad twice when ``quads``), or None."""
    pairs: list[int] = []
    for tile, n in enumerate(counts):
        if n & 1 or (n > 2 and not quads):
            return None
        pairs.extend([tile] * (n >> 1))
    return tuple(pairs) if len(pairs) == 7 else None


def thirteen_orphans(counts: Sequence[int]) -> int | None:
    """The doubled tile of a 十三幺 hand, or None."""
    doubled = None
    for tile, n in enumerate(counts):
        if tile in _ORPHAN_SET:
            if n == 2 and doubled is None:
                doubled = tile
            elif n != 1:
                return None
        elif n:
            return None
    return doubled


def honors_knitted(counts: Sequence[int]) -> tuple[int, ...] | None:
    """The 14 distinct tiles of a 全不靠 hand (one knitted pattern's tiles + honors), or None."""
    tiles = [tile for tile, n in enumerate(counts) if n]
    if len(tiles) != 14 or any(counts[tile] != 1 for tile in tiles):
        return None
    held = frozenset(tiles)
    return tuple(tiles) if any(held <= candidates for candidates in _KNITTED_CANDIDATES) else None


def knitted_remainders(counts: Sequence[int]) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """(pattern, counts without it) for each knitted pattern the hand holds."""
    for pattern in KNITTED_PATTERNS:
        if all(counts[tile] for tile in pattern):
            rest = list(counts)
            for tile in pattern:
                rest[tile] -= 1
            yield pattern, rest


def special_win(counts: Sequence[int], size: int, rules: ShapeRules) -> bool:
    """Whether a hand of ``size`` concealed tiles is complete in a special shape ``rules`` allow."""
    if size == 14:
        if rules.seven_pairs and seven_pairs(counts, rules.seven_pairs_quad_as_two_pairs) is not None:
            return True
        if rules.thirteen_orphans and thirteen_orphans(counts) is not None:
            return True
        if rules.honors_knitted and honors_knitted(counts) is not None:
            return True
    if rules.knitted_straight and size in KNITTED_SIZES:
        return any(is_standard(rest, rules) for _, rest in knitted_remainders(counts))
    return False


def special_waits(counts: Sequence[int], size: int, rules: ShapeRules) -> set[int]:
    """Tiles completing a hand of ``size`` (13 or 10) concealed tiles to a special shape (no copy limit)."""
    waits: set[int] = set()
    if size == 13:
        if rules.seven_pairs:
            odd = [tile for tile, n in enumerate(counts) if n & 1]
            if len(odd) == 1 and (rules.seven_pairs_quad_as_two_pairs or counts[odd[0]] == 1):
                with_tile = list(counts)
                with_tile[odd[0]] += 1
                if seven_pairs(with_tile, rules.seven_pairs_quad_as_two_pairs) is not None:
                    waits.add(odd[0])
        if rules.thirteen_orphans:
            waits.update(_orphan_waits(counts))
        if rules.honors_knitted:
            waits.update(_honors_knitted_waits(counts))
    if rules.knitted_straight and size + 1 in KNITTED_SIZES:
        waits.update(_knitted_straight_waits(counts, rules))
    return waits


def _orphan_waits(counts: Sequence[int]) -> list[int]:
    if any(n for tile, n in enumerate(counts) if tile not in _ORPHAN_SET):
        return []
    held = [counts[tile] for tile in THIRTEEN_ORPHANS]
    if max(held) > 2 or held.count(2) > 1:
        return []
    if held.count(2) == 0:
        return list(THIRTEEN_ORPHANS)
    return [tile for tile in THIRTEEN_ORPHANS if counts[tile] == 0]


def _honors_knitted_waits(counts: Sequence[int]) -> list[int]:
    tiles = frozenset(tile for tile, n in enumerate(counts) if n)
    if len(tiles) != 13 or any(counts[tile] != 1 for tile in tiles):
        return []
    return sorted(set().union(*(candidates - tiles for candidates in _KNITTED_CANDIDATES if tiles <= candidates)))


def _knitted_straight_waits(counts: Sequence[int], rules: ShapeRules) -> set[int]:
    waits: set[int] = set()
    for pattern in KNITTED_PATTERNS:
        missing = [tile for tile in pattern if not counts[tile]]
        if len(missing) > 1:
            continue
        rest = list(counts)
        for tile in pattern:
            rest[tile] -= tile not in missing
        if not missing:
            waits.update(standard_waits(rest, rules))
        elif is_standard(rest, rules):
            waits.add(missing[0])
    return waits
