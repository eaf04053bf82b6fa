"""Wildcards (赖子/鬼牌): jokers that may stand for any of the 34 faces, a fifth copy included (wild.md W-1).

Standard shape, q_algorithm style: for each group, the fewest sets that cover all its natural tiles when
jokers fill the gaps, with no pair and with a pair of each rank (memoised per group key). A group that works
with m sets also works with more (jokers make a whole set anywhere), so a hand of 14-3k tiles with ``wilds``
jokers is complete when the groups' minimums, one of them paired with an allowed pair, add up to at most
4-k sets; the jokers then fill exactly what is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

from engine.analysis.fast import is_win
from engine.analysis.shapes import DEFAULT_SHAPES, GROUPS, HONORS, KNITTED_PATTERNS, THIRTEEN_ORPHANS, ShapeRules
from engine.analysis.special import KNITTED_SIZES
from engine.errors import TileCountError
from engine.tiles import NUM_KINDS

INF = 99
Summary = tuple[int, tuple[int, ...]]
"""(fewest sets without a pair, fewest sets with a pair of each rank), INF when impossible."""

_SUMMARIES: dict[tuple[tuple[int, ...], bool], Summary] = {}
_ORPHAN_SET = frozenset(THIRTEEN_ORPHANS)
_KNITTED_CANDIDATES = tuple(frozenset(pattern + HONORS) for pattern in KNITTED_PATTERNS)


def group_summary(key: tuple[int, ...], chows: bool) -> Summary:
    """Fewest sets covering every natural tile of one group, jokers filling the rest."""
    found = _SUMMARIES.get((key, chows))
    if found is not None:
        return found
    size = len(key)
    states = {(0, 0, -1): 0}  # (chows started one rank back, two ranks back, pair rank or -1) -> fewest sets
    for r in range(size):
        held = key[r]
        following: dict[tuple[int, int, int], int] = {}
        for (back1, back2, pair), sets in states.items():
            carried = back1 + back2
            for new_chows in range(5 - sets if chows and r <= size - 3 else 1):
                for pungs in range(3):
                    count = sets + new_chows + pungs
                    if count > 4:
                        break
                    covered = carried + new_chows + 3 * pungs
                    for new_pair in (0, 1) if pair < 0 else (0,):
                        if covered + 2 * new_pair >= held:
                            state = (new_chows, back1, r if new_pair else pair)
                            if count < following.get(state, INF):
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
    no_pair = [summary[0] for summary in summaries]
    base = sum(no_pair)
    for (start, _, _), summary, alone in zip(GROUPS, summaries, no_pair, strict=True):
        paired = min(
            (sets_ for r, sets_ in enumerate(summary[1]) if rules.pair_allowed(start + r)),
            default=INF,
        )
        if base - alone + paired <= sets:
            return True
    return False


def _summaries(counts: Sequence[int]) -> list[Summary]:
    return [group_summary(tuple(counts[base : base + size]), chows) for base, size, chows in GROUPS]


def _standard_wild(counts: Sequence[int], size: int, rules: ShapeRules) -> bool:
    return _standard_fits(_summaries(counts), (size - 2) // 3, rules)


def _special_wild(counts: Sequence[int], wilds: int, size: int, rules: ShapeRules) -> bool:
    if size == 14:
        if rules.seven_pairs:
            odd = sum(n & 1 for n in counts)
            if odd <= wilds and (rules.seven_pairs_quad_as_two_pairs or max(counts) <= 2):
                return True
        if rules.thirteen_orphans:
            held = [counts[tile] for tile in THIRTEEN_ORPHANS]
            if sum(held) == sum(counts) and max(held) <= 2 and held.count(2) <= 1:
                return True
        if rules.honors_knitted and max(counts) <= 1:
            tiles = frozenset(tile for tile, n in enumerate(counts) if n)
            if any(tiles <= candidates for candidates in _KNITTED_CANDIDATES):
                return True
    if rules.knitted_straight and size in KNITTED_SIZES:
        for pattern in KNITTED_PATTERNS:
            missing = sum(1 for tile in pattern if not counts[tile])
            if missing <= wilds:
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
    size = sum(counts) + wilds
    if size % 3 != 1 or size > 13:
        raise TileCountError(f"waits need 13-3k tiles with the jokers, not {size}")
    found: set[int] = set()
    if rules.standard:
        summaries = _summaries(counts)
        for index, (base, group_size, chows) in enumerate(GROUPS):
            key = list(counts[base : base + group_size])
            for r in range(group_size):
                key[r] += 1
                trial = list(summaries)
                trial[index] = group_summary(tuple(key), chows)
                key[r] -= 1
                if _standard_fits(trial, (size - 1) // 3, rules):
                    found.add(base + r)
    if size == 13 or size + 1 in KNITTED_SIZES:
        with_tile = list(counts)
        for tile in range(NUM_KINDS):
            if tile not in found:
                with_tile[tile] += 1
                if _special_wild(with_tile, wilds, size + 1, rules):
                    found.add(tile)
                with_tile[tile] -= 1
    return sorted(tile for tile in found if counts[tile] <= 3)


def wild_assignments(counts: Sequence[int], wilds: int, rules: ShapeRules = DEFAULT_SHAPES) -> list[tuple[int, ...]]:
    """Every distinct sorted multiset of faces the jokers can stand for that makes the hand a win (for 硬胡/软胡
    and for picking the best-paying reading)."""
    if not is_win_wild(counts, wilds, rules):
        return []
    with_faces = list(counts)
    found = []
    for faces in combinations_with_replacement(range(NUM_KINDS), wilds):
        for tile in faces:
            with_faces[tile] += 1
        if is_win(with_faces, rules):
            found.append(faces)
        for tile in faces:
            with_faces[tile] -= 1
    return found
