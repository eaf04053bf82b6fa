"""独听 (the hand could win on one tile only) and which of 边张 / 嵌张 / 单钓 it scores.

Waits are counted on the tiles alone: a wait on a tile whose four copies are already used still counts as a
wait ("formal" multi-wait: no 独听; PyMahjongGB 1.4.0 and MIL's online rules). The ruleset option
``exhausted_waits=False`` drops waits on tiles the winner's own hand already holds four times.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.analysis import MCR_SHAPES
from engine.analysis.standard import standard_waits
from engine.analysis.suit_tables import group_table
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


def wait_tiles(counts: Sequence[int], seven_pairs: bool) -> set[Tile]:
    """Every tile completing the concealed tiles (13 - 3k, winning tile removed) to sets + pair, or seven pairs."""
    found = set(standard_waits(counts, MCR_SHAPES))
    if seven_pairs and sum(counts) == 13:
        tile = seven_pairs_wait(counts)
        if tile is not None:
            found.add(tile)
    return found


@cache
def _groups() -> tuple[tuple[int, int, dict[tuple[int, ...], int]], ...]:
    """Per ``engine.tiles`` id: (first id, size, complete patterns) of its group (built on first use)."""
    by_group = [(start, size, group_table(size == 9)[0]) for start, size in _GROUP_STARTS]
    return tuple(group for group in by_group for _ in range(group[1]))


_GROUP_STARTS = ((0, 9), (9, 9), (18, 9), (27, 7))


def _completes(key: list[int], start: int, table: dict[tuple[int, ...], int], but: int, skip: int) -> bool:
    """Whether a tile of the group other than ``but`` (and not in the ``skip`` bitmask) makes ``key`` complete."""
    for r, n in enumerate(key):
        tile = start + r
        if tile == but or skip >> tile & 1:
            continue
        key[r] = n + 1
        found = tuple(key) in table
        key[r] = n
        if found:
            return True
    return False


def unique_wait(rest: list[int], win: Tile, skip: int = 0) -> bool:
    """Whether the concealed tiles without the winning tile (``rest``, which ``win`` completes to sets + pair)
    wait on ``win`` alone, counting the seven-pairs wait of 13 tiles too; tiles in the ``skip`` bitmask (by id)
    are not counted as waits.

    Only two groups can take a tile: the winning tile's own, and, when that group is complete with a pair
    without it, the group that held the pair (a 对倒 wait). So at most two groups are probed, tile by tile,
    and the first other wait ends the search: no wait list is built."""
    groups = _groups()
    start, size, table = groups[win]
    key = rest[start : start + size]
    if _completes(key, start, table, win, skip):
        return False
    if sum(key) % 3 == 2 and tuple(key) in table:
        for other, other_size in _GROUP_STARTS:
            group = rest[other : other + other_size]
            if other != start and sum(group) % 3 == 2 and _completes(group, other, groups[other][2], -1, skip):
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
