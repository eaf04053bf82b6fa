"""Exact shanten: how many tiles a hand lacks to be complete, minus one (-1 complete, 0 ready).

A target is a complete hand of 14-3k tiles with at most four copies of a tile; the cost of a target is the
number of its tiles the hand does not hold. Standard targets split by group, so each group's cheapest cost for
every (sets, pair) count comes from a rank-by-rank dynamic programme (memoised per group key), and the groups
are combined. Special shapes have closed forms. Copies held in exposed melds are not known here and not counted.

A set or pair that covers no held tile costs 3 or 2 wherever it goes, and there is always a kind with room for
it (a target holds at most 14 tiles), so the programme only places blocks on held tiles and such "free" blocks
are added when the groups are combined.

Speed: each group key's profile (cost vector, copies held, orphans, knitted series) is computed once and then
looked up; cost vectors are named by small integers and the fold of two of them is memoised on the pair, so a
call on groups met before is four lookups, three fold lookups and some sums. The memos grow with the group keys
met, as the tables of ``wildcard`` do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, partial
from itertools import permutations

from engine.analysis.shapes import (
    DEFAULT_SHAPES,
    GROUPS,
    ShapeRules,
    melds_implied,
    pair_flags,
)
from engine.analysis.special import KNITTED_SIZES
from engine.analysis.suit_tables import Memo, series_split
from engine.errors import TileCountError
from engine.native import NATIVE

INF = 99
Costs = tuple[int, ...]
"""Cheapest cost per (sets, pair) at index 2 * sets + pair, sets 0-4, pair 0-1 (INF when impossible)."""


@cache
def _choices(
    chow_limit: int, pair_room: bool, carried: int, held: int, cap: int
) -> tuple[tuple[int, int, int, int], ...]:
    """What one rank can start: (chows, new sets, pair, tiles of the rank used), given the chows carried into it.

    More chows than the most tiles held on their three ranks would leave one covering nothing, and a pung or pair
    on a rank holding nothing covers nothing: those are free blocks, counted later.
    """
    return tuple(
        (new_chows, new_chows + pung, new_pair, used)
        for new_chows in range(chow_limit + 1)
        for pung in ((0, 1) if held else (0,))
        for new_pair in ((0, 1) if pair_room and held else (0,))
        if (used := carried + new_chows + 3 * pung + 2 * new_pair) <= cap and new_chows + pung <= 4
    )


def group_costs(key: tuple[int, ...], chows: bool, caps: tuple[int, ...], pairs: tuple[bool, ...]) -> Costs:
    """Cheapest completion of one group into each (sets, pair) count; ``pairs[r]``: a pair of rank r allowed."""
    return _suffix_costs(chows, caps, pairs)(0, 0, key)


_SHIFTS = {
    (new_sets, new_pair): tuple(
        (2 * sets + pair, 2 * (sets + new_sets) + pair + new_pair)
        for sets in range(5 - new_sets)
        for pair in range(2 - new_pair)
    )
    for new_sets in range(5)
    for new_pair in range(2)
}
"""(index in the costs of what follows a rank, index in the rank's costs) for the sets and pair the rank starts."""
_NOTHING = (0,) + (INF,) * 9
"""The costs of no ranks at all: nothing to complete, no set or pair possible."""


@cache
def _suffix_costs(
    chows: bool, caps: tuple[int, ...], pairs: tuple[bool, ...]
) -> Callable[[int, int, tuple[int, ...]], Costs]:
    """The rank-by-rank programme run from the last rank back: the costs of a group's ranks from r on (``tail``,
    r = size - len(tail)), given the chows started one and two ranks before r, memoised on (those chows, tail).
    Groups share their tails, so a key met for the first time mostly reuses the costs of ranks met before."""
    size = len(caps)
    found: dict[tuple[int, int, tuple[int, ...]], Costs] = {}

    def costs(back1: int, back2: int, tail: tuple[int, ...]) -> Costs:
        known = found.get((back1, back2, tail))
        if known is not None:
            return known
        if not tail:
            return _NOTHING
        r = size - len(tail)
        held = tail[0]
        chow_limit = max(tail[:3]) if chows and len(tail) >= 3 else 0
        rest = tail[1:]
        out = [INF] * 10
        for new_chows, new_sets, new_pair, used in _choices(chow_limit, pairs[r], back1 + back2, held, caps[r]):
            extra = used - held if used > held else 0
            after = costs(new_chows, back1, rest)
            for source, target in _SHIFTS[new_sets, new_pair]:
                cost = after[source]
                if cost < INF and cost + extra < out[target]:
                    out[target] = cost + extra
        value = found[back1, back2, tail] = tuple(out)
        return value

    return costs


_VECTORS: list[Costs] = []
_IDS: dict[Costs, int] = {}


def _intern(costs: Costs) -> int:
    """A small integer naming a cost vector: memos of whole vectors are keyed by these."""
    found = _IDS.get(costs)
    if found is None:
        found = _IDS[costs] = len(_VECTORS)
        _VECTORS.append(costs)
    return found


@cache
def _group_ids(chows: bool, caps: tuple[int, ...], pairs: tuple[bool, ...]) -> Memo[tuple[int, ...], int]:
    """Cost vector id of each key of a group under ``caps`` and ``pairs``, computed when first met."""
    return Memo(lambda key: _intern(group_costs(key, chows, caps, pairs)))


def _fold(ids: tuple[int, int]) -> int:
    """Cheapest costs of two groups (or sums of groups) together, up to 4 sets and one pair."""
    left, right = _VECTORS[ids[0]], _VECTORS[ids[1]]
    out = [INF] * 10
    for i, j, k in _FOLD_STEPS:
        alone = left[i] + right[j]
        if alone < out[k]:
            out[k] = alone
        paired = min(left[i] + right[j + 1], left[i + 1] + right[j])
        if paired < out[k + 1]:
            out[k + 1] = paired
    return _intern(tuple(out))


_FOLD_STEPS = [(2 * i, 2 * j, 2 * (i + j)) for i in range(5) for j in range(5 - i)]
_FOLDS = Memo(_fold)


def _with_free_blocks(request: tuple[int, int, int]) -> int:
    """Cheapest cost of exactly ``sets`` sets and a pair, filling up with free sets (3) and a free pair."""
    total_id, sets, free_pair = request
    total = _VECTORS[total_id]
    return min(min(total[2 * m + 1], total[2 * m] + free_pair) + 3 * (sets - m) for m in range(sets + 1))


_FINISHED = Memo(_with_free_blocks)
"""(total id, sets, free pair cost) -> cheapest cost."""

_FULL_CAPS = tuple((4,) * size for _, size, _ in GROUPS)


@cache
def _standard_ids(pair_ranks: frozenset[int] | None) -> tuple[tuple[Memo[tuple[int, ...], int], ...], int]:
    """The uncapped group memos under ``pair_ranks``, and the cost of a free pair (INF when no pair is allowed)."""
    flags = pair_flags(pair_ranks)
    memos = tuple(_group_ids(chows, _FULL_CAPS[g], flags[g]) for g, (_, _, chows) in enumerate(GROUPS))
    return memos, 2 if any(map(any, flags)) else INF


def standard_cost(counts: Sequence[int], sets: int, rules: ShapeRules, caps: Sequence[int] | None = None) -> int:
    """Fewest missing tiles of a target of ``sets`` sets + one allowed pair, ``caps`` copies at most per tile
    (four when None)."""
    memos, free_pair = _standard_ids(rules.pair_ranks)
    if caps is not None:
        flags = pair_flags(rules.pair_ranks)
        memos = tuple(
            _group_ids(chows, tuple(caps[base : base + size]), flags[g]) for g, (base, size, chows) in enumerate(GROUPS)
        )
    m, p, s, z = memos
    folds = _FOLDS
    total = folds[
        folds[folds[m[tuple(counts[0:9])], p[tuple(counts[9:18])]], s[tuple(counts[18:27])]], z[tuple(counts[27:34])]
    ]
    return _FINISHED[total, sets, free_pair]


_SERIES_CAPS = tuple(tuple(3 if r % 3 == series else 4 for r in range(9)) for series in range(3))
"""Copies left in a suit beside a knitted straight taking series 147, 258 or 369 of it (one of each)."""

Split = tuple[tuple[int, tuple[int, ...]], ...]
"""For each knitted series of a suit: (its tiles the suit lacks, the suit's key without one copy of each)."""

Profile = tuple[int, int, int, int, int, int, int, int, Split]
"""What shanten needs of one group's counts, memoised per key: (cost vector id, tiles, kinds held once, twice,
three times, four times, orphan kinds lacking, 1 if an orphan is held twice or more, knitted split (suits))."""

COST, SIZE, ONES, TWOS, THREES, FOURS, ORPHANS_LACKING, ORPHAN_PAIR, SPLIT = range(9)


def _profile(costs: Memo[tuple[int, ...], int], chows: bool, key: tuple[int, ...]) -> Profile:
    orphans = (key[0], key[8]) if chows else key
    split = () if not chows else tuple(series_split(key, series) for series in range(3))
    counted = (key.count(1), key.count(2), key.count(3), key.count(4), orphans.count(0), int(max(orphans) >= 2))
    return costs[key], sum(key), *counted, split


@cache
def _profiles(pair_ranks: frozenset[int] | None) -> tuple[Memo[tuple[int, ...], Profile], ...]:
    """Per group (three suits, honors), the profile of each key under ``pair_ranks``, computed when first met."""
    memos = _standard_ids(pair_ranks)[0]
    return tuple(Memo(partial(_profile, memos[g], chows)) for g, (_, _, chows) in enumerate(GROUPS))


@cache
def _rest_ids(pair_ranks: frozenset[int] | None) -> tuple[Memo[tuple[int, ...], int], ...]:
    """Cost vector ids of a suit's rest beside a knitted straight taking series 0, 1 or 2 of it."""
    pairs = pair_flags(pair_ranks)[0]
    return tuple(_group_ids(True, caps, pairs) for caps in _SERIES_CAPS)


_SERIES_ORDERS = tuple(permutations(range(3)))
"""The series each suit gives to a knitted pattern (KNITTED_PATTERNS)."""

Groups = tuple[Profile, Profile, Profile, Profile]


def seven_pairs_cost(groups: Groups, quads: bool) -> int:
    """Fewest missing tiles of seven pairs: complete pairs first, then singles, then new kinds."""
    m, p, s, z = groups
    ones = m[ONES] + p[ONES] + s[ONES] + z[ONES]
    twos = m[TWOS] + p[TWOS] + s[TWOS] + z[TWOS]
    threes = m[THREES] + p[THREES] + s[THREES] + z[THREES]
    fours = m[FOURS] + p[FOURS] + s[FOURS] + z[FOURS]
    if quads:
        held, singles = twos + threes + 2 * fours, ones + threes
    else:
        held, singles = twos + threes + fours, ones
    short = max(0, 7 - held)
    return short + max(0, short - singles)


def thirteen_orphans_cost(groups: Groups) -> int:
    m, p, s, z = groups
    lacking = m[ORPHANS_LACKING] + p[ORPHANS_LACKING] + s[ORPHANS_LACKING] + z[ORPHANS_LACKING]
    return 1 + lacking - (m[ORPHAN_PAIR] or p[ORPHAN_PAIR] or s[ORPHAN_PAIR] or z[ORPHAN_PAIR])


def honors_knitted_cost(groups: Groups) -> int:
    m, p, s, z = groups[0][SPLIT], groups[1][SPLIT], groups[2][SPLIT], groups[3]
    missing = min(m[a][0] + p[b][0] + s[c][0] for a, b, c in _SERIES_ORDERS)
    return 14 - min(14, 7 - z[ORPHANS_LACKING] + 9 - missing)


def knitted_straight_cost(groups: Groups, sets: int, rules: ShapeRules, bound: int) -> int:
    """Fewest missing tiles of a knitted straight + ``sets`` sets + pair; patterns that cannot beat ``bound``
    are skipped. The nine knitted tiles take one held copy each, and one copy of each is spoken for."""
    m, p, s = groups[0][SPLIT], groups[1][SPLIT], groups[2][SPLIT]
    z = groups[3][COST]
    rest_ids = _rest_ids(rules.pair_ranks)
    free_pair = _standard_ids(rules.pair_ranks)[1]
    folds = _FOLDS
    best = bound
    for a, b, c in _SERIES_ORDERS:
        missing = m[a][0] + p[b][0] + s[c][0]
        if missing < best:
            suits = folds[folds[rest_ids[a][m[a][1]], rest_ids[b][p[b][1]]], rest_ids[c][s[c][1]]]
            best = min(best, missing + _FINISHED[folds[suits, z], sets, free_pair])
    return best


def shanten(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> int:
    """Shanten of 13-3k or 14-3k concealed tiles: the minimum over the shapes ``rules`` allow. The compiled core
    answers for a hand of at most four copies of each tile that some allowed shape fits."""
    found = NATIVE and NATIVE.shanten(counts, rules.native_code)
    return shanten_pure(counts, rules) if found is None else found


def shanten_pure(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> int:
    """``shanten`` in Python alone, from the profiles of the three suits and the honors (four lookups): what the
    compiled core declines, and its differential test."""
    m_profiles, p_profiles, s_profiles, z_profiles = _profiles(rules.pair_ranks)
    m, p = m_profiles[tuple(counts[0:9])], p_profiles[tuple(counts[9:18])]
    s, z = s_profiles[tuple(counts[18:27])], z_profiles[tuple(counts[27:34])]
    groups = (m, p, s, z)
    size = m[SIZE] + p[SIZE] + s[SIZE] + z[SIZE]
    melds = melds_implied(size)
    best = INF
    if rules.standard:
        suits = _FOLDS[_FOLDS[m[COST], p[COST]], s[COST]]
        best = _FINISHED[_FOLDS[suits, z[COST]], 4 - melds, _standard_ids(rules.pair_ranks)[1]]
    if melds == 0:
        if rules.seven_pairs:
            best = min(best, seven_pairs_cost(groups, rules.seven_pairs_quad_as_two_pairs))
        if rules.thirteen_orphans:
            best = min(best, thirteen_orphans_cost(groups))
        if rules.honors_knitted:
            best = min(best, honors_knitted_cost(groups))
    if rules.knitted_straight and 14 - 3 * melds in KNITTED_SIZES:
        best = knitted_straight_cost(groups, 1 - melds, rules, best)
    if best >= INF:
        raise TileCountError(f"no winning shape the rules allow fits {size} concealed tiles")
    return best - 1
