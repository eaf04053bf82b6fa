"""独听 (the hand could win on one tile only) and which of 边张 / 嵌张 / 单钓 it scores.

Waits are counted on the tiles alone: a wait on a tile whose four copies are already used still counts as a
wait ("formal" multi-wait: no 独听; PyMahjongGB 1.4.0 and MIL's online rules). The ruleset option
``exhausted_waits=False`` drops waits on tiles the winner's own hand already holds four times.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.analysis import MCR_SHAPES
from engine.analysis.standard import standard_waits
from engine.rulesets.mcr.codes import Code
from engine.rulesets.mcr.fans import CLOSED_WAIT, EDGE_WAIT, SINGLE_WAIT
from engine.rulesets.mcr.packs import CHOW, PAIR, Pack
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


def waiting_form_fan(concealed: Sequence[Pack], win_tile: Code) -> int | None:
    """On a unique wait: 边张 if the winning tile is at an end of a concealed chow, else 嵌张 if it is a chow's
    middle, else 单钓 if it is the pair (one fan only, in that order of preference)."""
    edge = closed = single = False
    for pack in concealed:
        if pack.kind == CHOW:
            if pack.tile == win_tile:
                closed = True
            elif pack.tile + 1 == win_tile or pack.tile - 1 == win_tile:
                edge = True
        elif pack.kind == PAIR and pack.tile == win_tile:
            single = True
    if edge:
        return EDGE_WAIT
    if closed:
        return CLOSED_WAIT
    return SINGLE_WAIT if single else None
