"""独听 (the hand could win on one tile only) and which of 边张 / 嵌张 / 单钓 it scores.

Waits are counted on the tiles alone: a wait on a tile whose four copies are already used still counts as a
wait ("formal" multi-wait: no 独听; PyMahjongGB 1.4.0 and MIL's online rules). The ruleset option
``exhausted_waits=False`` drops waits on tiles the winner's own hand already holds four times.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.analysis.suit_tables import Memo, suit_bits
from engine.rulesets.mcr.codes import Code
from engine.rulesets.mcr.fans import CLOSED_WAIT, EDGE_WAIT, SINGLE_WAIT
from engine.tiles import Tile


def seven_pairs_wait(counts: Sequence[int]) -> Tile | None:
    """The wait of 13 tiles one tile short of seven pairs (a quad is two pairs), else None."""
    pairs = 0
    single = None
    for tile, n in enumerate(counts):
        if n:
            pairs += (n >> 1) if n != 3 else 1
            if n & 1 and single is None:
                single = tile
    return single if pairs == 6 else None


Group = tuple[int, int, dict[tuple[int, ...], int], Memo[tuple[int, ...], int]]
"""(first id, size, complete patterns, key → bitmask of the ranks that complete it) of a suit or the honors."""

_GROUP_STARTS = ((0, 9), (9, 9), (18, 9), (27, 7))


def _fills(table: dict[tuple[int, ...], int]) -> Memo[tuple[int, ...], int]:
    def fill(key: tuple[int, ...]) -> int:
        found = 0
        probe = list(key)
        for rank, n in enumerate(key):
            probe[rank] = n + 1
            if tuple(probe) in table:
                found |= 1 << rank
            probe[rank] = n
        return found

    return Memo(fill)


@cache
def wait_tables() -> tuple[Group, ...]:
    """Per ``engine.tiles`` id, its group: built on first use, or by ``scorer.prime_tables`` at start-up (loading
    the complete keys takes ~20 ms, which a process's first scored hand would otherwise pay)."""
    groups = []
    for start, size in _GROUP_STARTS:
        table = suit_bits(size == 9)
        groups += [(start, size, table, _fills(table))] * size
    return tuple(groups)


def unique_wait(rest: list[int], win: Tile, skip: int = 0) -> bool:
    """Whether the concealed tiles without the winning tile (``rest``, which ``win`` completes to sets + pair)
    wait on ``win`` alone, counting the seven-pairs wait of 13 tiles too; tiles in the ``skip`` bitmask (by id)
    are not counted as waits.

    Only two groups can take a tile: the winning tile's own, and, when that group is complete with a pair
    without it, the group that held the pair (a 对倒 wait). So at most two groups are looked at, each in a
    table of the tiles completing its key (filled as keys are met): no wait list is built."""
    groups = wait_tables()
    start, size, table, fills = groups[win]
    key = tuple(rest[start : start + size])
    if fills[key] & ~(1 << (win - start)) & ~(skip >> start):
        return False
    if sum(key) % 3 == 2 and key in table:
        for other, other_size in _GROUP_STARTS:
            group = tuple(rest[other : other + other_size])
            if other != start and sum(group) % 3 == 2 and groups[other][3][group] & ~(skip >> other):
                return False
    if sum(rest) == 13:
        tile = seven_pairs_wait(rest)
        if tile is not None and tile != win and not skip >> tile & 1:
            return False
    return True


def waiting_form_fan(chows: Sequence[Code], pair: Code, win_tile: Code) -> int | None:
    """On a unique wait: 边张 if the winning tile is at an end of a concealed chow (given by its middle), else
    嵌张 if it is a chow's middle, else 单钓 if it is the pair (one fan only, in that order of preference)."""
    closed = False
    for mid in chows:
        if mid == win_tile:
            closed = True
        elif mid + 1 == win_tile or mid - 1 == win_tile:
            return EDGE_WAIT
    if closed:
        return CLOSED_WAIT
    return SINGLE_WAIT if pair == win_tile else None
