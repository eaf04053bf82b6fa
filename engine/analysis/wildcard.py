"""Wildcards (赖子/鬼牌): jokers that may stand for any of the 34 faces, a fifth copy included (wild.md W-1).

Standard shape, q_algorithm style: for each group, the fewest sets that cover all its natural tiles when
jokers fill the gaps, with no pair and with a pair of each rank (memoised per group key). A group that works
with m sets also works with more (jokers make a whole set anywhere), so a hand of 14-3k tiles with ``wilds``
jokers is complete when the groups' minimums, one of them paired with an allowed pair, add up to at most
4-k sets; the jokers then fill exactly what is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from operator import itemgetter

from engine.analysis.fast import is_win, waits
from engine.analysis.shapes import (
    DEFAULT_SHAPES,
    GROUPS,
    KNITTED_PATTERNS,
    THIRTEEN_ORPHANS,
    ShapeRules,
    pair_flags,
)
from engine.analysis.special import KNITTED_SIZES
from engine.errors import TileCountError
from engine.tiles import NUM_KINDS

INF = 99
Summary = tuple[int, tuple[int, ...]]
"""(fewest sets without a pair, fewest sets with a pair of each rank), INF when impossible."""

_SUMMARIES: dict[tuple[tuple[int, ...], bool], Summary] = {}
_ORPHANS_OF = itemgetter(*THIRTEEN_ORPHANS)
_PATTERNS_OF = tuple(itemgetter(*pattern) for pattern in KNITTED_PATTERNS)


@cache
def _choices(chow_limit: int, pair_room: bool, carried: int, held: int) -> tuple[tuple[int, int, int], ...]:
    """What one rank can start so that its natural tiles are all covered: (chows, new sets, pair).

    Only the fewest pungs that finish the covering are tried, and no more chows than the most natural tiles
    they could cover: anything beyond is a set of jokers alone, which fits anywhere later.
    """
    found = []
    for new_chows in range(chow_limit + 1):
        for new_pair in (0, 1) if pair_room else (0,):
            uncovered = held - carried - new_chows - 2 * new_pair
            pungs = max(0, -(-uncovered // 3))
            if new_chows + pungs <= 4:
                found.append((new_chows, new_chows + pungs, new_pair))
    return tuple(found)


def group_summary(key: tuple[int, ...], chows: bool) -> Summary:
    """Fewest sets covering every natural tile of one group, jokers filling the rest."""
    found = _SUMMARIES.get((key, chows))
    if found is not None:
        return found
    size = len(key)
    states = {(0, 0, -1): 0}  # (chows started one rank back, two ranks back, pair rank or -1) -> fewest sets
    for r in range(size):
        following: dict[tuple[int, int, int], int] = {}
        chow_limit = max(key[r : r + 3]) if chows and r <= size - 3 else 0
        for (back1, back2, pair), sets in states.items():
            for new_chows, new_sets, new_pair in _choices(chow_limit, pair < 0, back1 + back2, key[r]):
                count = sets + new_sets
                state = (new_chows, back1, r if new_pair else pair)
                if count <= 4 and count < following.get(state, INF):
                    following[state] = count
        states = following
    pair_sets = [INF] * size
    no_pair = INF
    for (_, _, pair), sets in states.items():
        if pair < 0:
            no_pair = min(no_pair, sets)
        else:
            pair_sets[pair] = min(pair_sets[pair], sets)
    found = _SUMMARIES[(key, chows)] = (no_pair, tuple(pair_sets))
    return found


def _standard_fits(summaries: Sequence[Summary], sets: int, rules: ShapeRules) -> bool:
    """Whether the groups' summaries fit ``sets`` sets and one pair of an allowed tile."""
    flags = pair_flags(rules.pair_ranks)
    base = summaries[0][0] + summaries[1][0] + summaries[2][0] + summaries[3][0]
    return any(
        base - alone + _paired(pair_sets, allowed) <= sets
        for (alone, pair_sets), allowed in zip(summaries, flags, strict=True)
    )


@cache
def _paired(pair_sets: tuple[int, ...], allowed: tuple[bool, ...]) -> int:
    """Fewest sets of a group that also holds the pair, over the allowed pair ranks."""
    return min((sets for sets, ok in zip(pair_sets, allowed, strict=True) if ok), default=INF)


def _summaries(counts: Sequence[int]) -> list[Summary]:
    return [group_summary(tuple(counts[base : base + size]), chows) for base, size, chows in GROUPS]


def _standard_wild(counts: Sequence[int], size: int, rules: ShapeRules) -> bool:
    return _standard_fits(_summaries(counts), (size - 2) // 3, rules)


def _special_wild(counts: Sequence[int], wilds: int, size: int, rules: ShapeRules) -> bool:
    """Special shapes with jokers: each natural tile must find its place, the jokers take the rest."""
    kinds = len(counts) - counts.count(0)
    if size == 14:
        if rules.seven_pairs and kinds <= 7:
            odd = counts.count(1) + counts.count(3) + counts.count(5)
            if odd <= wilds and (rules.seven_pairs_quad_as_two_pairs or max(counts) <= 2):
                return True
        if rules.thirteen_orphans:
            held = _ORPHANS_OF(counts)
            if max(held) <= 2 and held.count(2) <= 1 and sum(held) == size - wilds:
                return True
        if rules.honors_knitted and counts.count(1) == kinds == size - wilds:
            honors = sum(counts[27:34])
            if any(sum(pattern_of(counts)) + honors == kinds for pattern_of in _PATTERNS_OF):
                return True
    if rules.knitted_straight and size in KNITTED_SIZES and kinds + wilds >= 9:
        for pattern, pattern_of in zip(KNITTED_PATTERNS, _PATTERNS_OF, strict=True):
            if pattern_of(counts).count(0) <= wilds:
                rest = [n - (tile in pattern and n > 0) for tile, n in enumerate(counts)]
                if _standard_wild(rest, size - 9, rules):
                    return True
    return False


def is_win_wild(counts: Sequence[int], wilds: int, rules: ShapeRules = DEFAULT_SHAPES) -> bool:
    """Whether the natural concealed tiles and ``wilds`` jokers (14-3k tiles together) complete a shape."""
    if wilds == 0:
        return is_win(counts, rules)
    size = sum(counts) + wilds
    if size % 3 != 2 or size > 14:
        return False
    if rules.standard and _standard_wild(counts, size, rules):
        return True
    return _special_wild(counts, wilds, size, rules)


def waits_wild(counts: Sequence[int], wilds: int, rules: ShapeRules = DEFAULT_SHAPES) -> list[int]:
    """Natural tiles (ascending, held at most three times) that complete the hand with its ``wilds`` jokers."""
    if wilds == 0:
        return waits(counts, rules)
    size = sum(counts) + wilds
    if size % 3 != 1 or size > 13:
        raise TileCountError(f"waits need 13-3k tiles with the jokers, not {size}")
    found: set[int] = set()
    if rules.standard:
        found.update(_standard_wild_waits(counts, (size - 1) // 3, rules))
    if _special_possible(counts, wilds, size, rules):
        with_tile = list(counts)
        for tile in range(NUM_KINDS):
            if tile not in found:
                with_tile[tile] += 1
                if _special_wild(with_tile, wilds, size + 1, rules):
                    found.add(tile)
                with_tile[tile] -= 1
    return sorted(tile for tile in found if counts[tile] <= 3)


def _standard_wild_waits(counts: Sequence[int], sets: int, rules: ShapeRules) -> list[int]:
    """Tiles that let the groups fit ``sets`` sets and one allowed pair; only the group taking the tile changes."""
    summaries = _summaries(counts)
    flags = pair_flags(rules.pair_ranks)
    alone = [summary[0] for summary in summaries]
    paired = [_paired(summary[1], allowed) for summary, allowed in zip(summaries, flags, strict=True)]
    total = sum(alone)
    found = []
    for index, (base, group_size, chows) in enumerate(GROUPS):
        others = total - alone[index]
        others_paired = min((others - alone[g] + paired[g] for g in range(4) if g != index), default=INF)
        key = list(counts[base : base + group_size])
        for r in range(group_size):
            key[r] += 1
            no_pair, pair_sets = group_summary(tuple(key), chows)
            key[r] -= 1
            if no_pair + others_paired <= sets or _paired(pair_sets, flags[index]) + others <= sets:
                found.append(base + r)
    return found


def _special_possible(counts: Sequence[int], wilds: int, size: int, rules: ShapeRules) -> bool:
    """Whether one more tile could complete some special shape: a cheap test before trying all 34."""
    if size != 13 and size + 1 not in KNITTED_SIZES:
        return False
    if size == 13:
        if rules.seven_pairs and len(counts) - counts.count(0) <= 7:
            return True
        if rules.thirteen_orphans and sum(_ORPHANS_OF(counts)) == sum(counts):
            return True
        if rules.honors_knitted and max(counts) <= 1:
            return True
    return rules.knitted_straight and any(pattern_of(counts).count(0) <= wilds + 1 for pattern_of in _PATTERNS_OF)


def wild_assignments(
    counts: Sequence[int], wilds: int, rules: ShapeRules = DEFAULT_SHAPES, faces: Sequence[int] | None = None
) -> list[tuple[int, ...]]:
    """Every distinct sorted multiset of faces the jokers can stand for that makes the hand a win (for 硬胡/软胡
    and for picking the best-paying reading), in lexicographic order; ``faces`` (ascending) limits the faces
    tried, for a scorer that knows the other faces can add nothing.

    Faces are chosen in nondecreasing order, and a branch is followed only while the jokers left can still
    complete the hand, so the search visits little more than the answers.
    """
    if not is_win_wild(counts, wilds, rules):
        return []
    found: list[tuple[int, ...]] = []
    _extend(list(counts), wilds, 0, (), rules, tuple(range(NUM_KINDS)) if faces is None else tuple(faces), found)
    return found


def _wins_with(counts: list[int], tile: int, rules: ShapeRules) -> bool:
    counts[tile] += 1
    won = is_win(counts, rules)
    counts[tile] -= 1
    return won


def _extend(
    counts: list[int], wilds: int, lowest: int, chosen: tuple[int, ...], rules: ShapeRules, faces: tuple, found: list
) -> None:
    if not wilds:
        found.append(chosen)
        return
    if wilds == 1 and max(counts) <= 4:
        # The last joker: one wait computation instead of a hu check per face (a fifth copy is tried apart).
        ready = set(waits(counts, rules))
        for tile in faces[lowest:]:
            if tile in ready or (counts[tile] == 4 and _wins_with(counts, tile, rules)):
                found.append((*chosen, tile))
        return
    for index in range(lowest, len(faces)):
        tile = faces[index]
        counts[tile] += 1
        if is_win_wild(counts, wilds - 1, rules):
            _extend(counts, wilds - 1, index, (*chosen, tile), rules, faces, found)
        counts[tile] -= 1
