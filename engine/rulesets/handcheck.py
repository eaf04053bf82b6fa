"""Checks that a declared hand can exist before any ruleset scores it (DESIGN: clear errors, never half-applied)."""

from __future__ import annotations

from operator import sub

from engine.errors import TileCountError
from engine.native import NATIVE
from engine.notation import Hand
from engine.tiles import FLOWERS, NUM_KINDS, NUM_TILE_IDS, is_flower, tile_code, to_counts
from engine.tilesets import TileSet

HAND_SIZE = 13
"""Standing tiles + 3 × melds before the winning tile (a kong is one set)."""


def _kinds_used(hand: Hand, counts: list[int]) -> list[int] | None:
    """Copies of each playing kind in the concealed tiles (``counts``) and the melds; None when the hand names
    flower tiles or a meld holds a tile that is no playing kind (the general check counts those)."""
    if isinstance(hand.flowers, tuple):
        return None
    if not hand.melds:
        return counts
    used = counts.copy()
    for meld in hand.melds:
        for tile in meld.tiles:
            if tile >= NUM_KINDS:
                return None
            used[tile] += 1
    return used


def concealed_counts(hand: Hand, tile_set: TileSet) -> list[int]:
    """Count vector of the concealed tiles incl. the winning tile, after checking the hand against ``tile_set``.

    Raises ``TileCountError`` naming the problem: no winning tile, a flower among the playing tiles, a wrong
    number of tiles, a tile outside the set or more copies than the set holds (melds, standing tiles, winning
    tile and declared flowers together). The compiled core answers for a hand that passes every check against a set of
    four of each kind; any other is checked here."""
    if NATIVE is not None and tile_set.four_of_each_kind:
        counts = NATIVE.concealed_counts(hand, tile_set.flower_count)
        if counts is not None:
            return counts
    return concealed_counts_pure(hand, tile_set)


def concealed_counts_pure(hand: Hand, tile_set: TileSet) -> list[int]:
    """``concealed_counts`` in Python alone: every hand the compiled core declines, and its differential test."""
    if hand.win_tile is None:
        raise TileCountError("hand: no winning tile; a declared win ends with the winning tile")
    concealed = [*hand.standing, hand.win_tile]
    if max(concealed) >= FLOWERS[0]:
        flower = next(tile for tile in concealed if is_flower(tile))
        raise TileCountError(f"hand: flower {tile_code(flower)} among the playing tiles; flowers are set aside")
    size = len(hand.standing) + 3 * len(hand.melds)
    if size != HAND_SIZE:
        raise TileCountError(
            f"hand: {len(hand.standing)} standing tiles + 3 × {len(hand.melds)} melds = {size}; "
            f"expected {HAND_SIZE} before the winning tile"
        )
    counts = to_counts(concealed)
    used = _kinds_used(hand, counts) if tile_set.four_of_each_kind else None
    if used is None:
        flowers = list(hand.flowers) if isinstance(hand.flowers, tuple) else []
        everything = hand.all_tiles() + flowers
        # One pass over a count vector decides the common case; the set's own check names the offending tile.
        used = [0] * NUM_TILE_IDS
        for tile in everything:
            used[tile] += 1
        if max(map(sub, used, tile_set.copies)) > 0:
            tile_set.check(everything, where="hand")
    elif max(used) > 4:  # every playing kind is in the set four times: the counts decide, the check names the tile
        tile_set.check(hand.all_tiles(), where="hand")
    if hand.flower_count > tile_set.flower_count:
        raise TileCountError(
            f"hand: {hand.flower_count} flowers, the {tile_set.name}-tile set has {tile_set.flower_count}"
        )
    return counts
