"""The public fast paths for natural hands (no wildcards): hu check, every decomposition, waits."""

from __future__ import annotations

from collections.abc import Sequence

from engine.analysis.shapes import DEFAULT_SHAPES, Decomposition, ShapeRules
from engine.analysis.special import (
    KNITTED_SIZES,
    honors_knitted,
    knitted_remainders,
    seven_pairs,
    special_waits,
    special_win,
    thirteen_orphans,
)
from engine.analysis.standard import (
    CAPPED_FILL,
    KINDS,
    NOT_NEAR,
    SINGLES,
    SIZE,
    WEIGHT,
    group_facts,
    is_standard,
    ready_tiles,
    standard_splits,
)
from engine.errors import TileCountError
from engine.native import NATIVE


def is_win(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> bool:
    """Whether the concealed tiles (14-3k of them) complete a winning shape; any other size is no win. The compiled
    core answers for 34 counts of at most 14 tiles."""
    won = NATIVE and NATIVE.is_win(counts, rules.native_code)
    return is_win_pure(counts, rules) if won is None else won


def is_win_pure(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> bool:
    """``is_win`` in Python alone: what the compiled core declines, and its differential test."""
    size = sum(counts)
    if size % 3 != 2:
        return False
    if rules.standard and is_standard(counts, rules):
        return True
    return special_win(counts, size, rules)


def decompositions(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> list[Decomposition]:
    """Every distinct reading of a winning hand (empty when it is no win); scorers pick the best."""
    size = sum(counts)
    if size % 3 != 2:
        return []
    found: list[Decomposition] = []
    if rules.standard:
        found.extend(Decomposition("standard", sets, pair) for sets, pair in standard_splits(counts, rules))
    if size == 14:
        pairs = seven_pairs(counts, rules.seven_pairs_quad_as_two_pairs) if rules.seven_pairs else None
        if pairs is not None:
            found.append(Decomposition("seven_pairs", (), None, pairs=pairs))
        doubled = thirteen_orphans(counts) if rules.thirteen_orphans else None
        if doubled is not None:
            found.append(Decomposition("thirteen_orphans", (), doubled))
        knitted = honors_knitted(counts) if rules.honors_knitted else None
        if knitted is not None:
            found.append(Decomposition("honors_knitted", (), None, knitted=knitted))
    if rules.knitted_straight and size in KNITTED_SIZES:
        for pattern, rest in knitted_remainders(counts):
            found.extend(
                Decomposition("knitted_straight", sets, pair, knitted=pattern)
                for sets, pair in standard_splits(rest, rules)
            )
    return found


def waits(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> list[int]:
    """Tiles (ascending) that complete a hand of 13-3k concealed tiles; a tile held four times is no wait. The
    compiled core answers for a hand of at most four copies of each tile."""
    found = NATIVE and NATIVE.waits(counts, rules.native_code)
    return waits_pure(counts, rules) if found is None else found


def waits_pure(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> list[int]:
    """``waits`` in Python alone: what the compiled core declines, and its differential test.

    The honors are looked up first: sets + pair and the knitted straight need them complete or one tile short,
    seven pairs hold at most one single, thirteen orphans and honors-and-knitted at least four honor kinds; most
    hands fail all of these and are done.
    """
    m_facts, p_facts, s_facts, z_facts = group_facts(rules.pair_ranks)
    z = z_facts[tuple(counts[27:34])]
    if z[WEIGHT] == NOT_NEAR and z[SINGLES] >= 2 and z[KINDS] <= 3:
        _check_waiting_size(sum(counts))
        return []
    m, p, s = m_facts[tuple(counts[0:9])], p_facts[tuple(counts[9:18])], s_facts[tuple(counts[18:27])]
    size = m[SIZE] + p[SIZE] + s[SIZE] + z[SIZE]
    _check_waiting_size(size)
    found = ready_tiles(m, p, s, z, CAPPED_FILL) if rules.standard else ()
    extra = special_waits(counts, size, rules, (m, p, s, z))
    return sorted(extra.union(found)) if extra else list(found)


def _check_waiting_size(size: int) -> None:
    if size % 3 != 1 or size > 13:
        raise TileCountError(f"waits need a hand of 13-3k concealed tiles, not {size}")
