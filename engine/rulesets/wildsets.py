"""Sets with wildcards where ``engine.analysis`` has no fast path: tiles that form complete sets with no pair
(Hangzhou 爆头: the standing tiles but one 财神 are all sets), and 4 pungs + pair (Nanchang 大7对).

A wildcard may stand for any face (fan.md NC-2, HZ-1). Hands are at most 14 tiles, so a memoised search is
fast enough; the sets never cross a suit and chows are ranks 1-9 of one suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.tiles import NUM_KINDS, is_suited, rank_of


def sets_only(counts: Sequence[int], wilds: int, *, pungs_only: bool = False) -> bool:
    """Whether the natural ``counts`` and ``wilds`` wildcards split exactly into sets (no pair)."""
    return _sets(tuple(counts[:NUM_KINDS]), wilds, pungs_only)


def standard_with_wilds(counts: Sequence[int], wilds: int, *, pungs_only: bool = False) -> bool:
    """Whether the tiles form sets + one pair; the pair is two wilds, a wild and a natural, or two naturals."""
    natural = list(counts[:NUM_KINDS])
    if wilds >= 2 and sets_only(natural, wilds - 2, pungs_only=pungs_only):
        return True
    for tile in range(NUM_KINDS):
        held = natural[tile]
        for used in (1, 2):
            if held < used or wilds < 2 - used:
                continue
            natural[tile] -= used
            found = sets_only(natural, wilds - (2 - used), pungs_only=pungs_only)
            natural[tile] += used
            if found:
                return True
    return False


@lru_cache(maxsize=65536)
def _sets(counts: tuple[int, ...], wilds: int, pungs_only: bool) -> bool:
    first = next((tile for tile, n in enumerate(counts) if n), None)
    if first is None:
        return wilds % 3 == 0
    work = list(counts)
    for used in range(min(3, counts[first]), 0, -1):  # a pung of ``first``: naturals + wilds
        if 3 - used <= wilds:
            work[first] -= used
            if _sets(tuple(work), wilds - (3 - used), pungs_only):
                return True
            work[first] += used
    if pungs_only or not is_suited(first):
        return False
    rank = rank_of(first)
    # ``first`` is the lowest natural tile, so lower places of its chow are wilds.
    for low_rank in range(max(1, rank - 2), min(rank, 7) + 1):
        low = first - (rank - low_rank)
        needed, taken = 0, []
        for tile in (low, low + 1, low + 2):
            if tile >= first and work[tile]:
                work[tile] -= 1
                taken.append(tile)
            else:
                needed += 1
        if first in taken and needed <= wilds and _sets(tuple(work), wilds - needed, pungs_only):
            return True
        for tile in taken:
            work[tile] += 1
    return False
