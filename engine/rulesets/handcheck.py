"""Checks that a declared hand can exist before any ruleset scores it (DESIGN: clear errors, never half-applied)."""

from __future__ import annotations

from engine.errors import TileCountError
from engine.notation import Hand
from engine.tiles import is_flower, tile_code, to_counts
from engine.tilesets import TileSet

HAND_SIZE = 13
"""Standing tiles + 3 × melds before the winning tile (a kong is one set)."""


def concealed_counts(hand: Hand, tile_set: TileSet) -> list[int]:
    """Count vector of the concealed tiles incl. the winning tile, after checking the hand against ``tile_set``.

    Raises ``TileCountError`` naming the problem: no winning tile, a flower among the playing tiles, a wrong
    number of tiles, a tile outside the set or more copies than the set holds (melds, standing tiles, winning
    tile and declared flowers together)."""
    if hand.win_tile is None:
        raise TileCountError("hand: no winning tile; a declared win ends with the winning tile")
    for tile in (*hand.standing, hand.win_tile):
        if is_flower(tile):
            raise TileCountError(f"hand: flower {tile_code(tile)} among the playing tiles; flowers are set aside")
    size = len(hand.standing) + 3 * len(hand.melds)
    if size != HAND_SIZE:
        raise TileCountError(
            f"hand: {len(hand.standing)} standing tiles + 3 × {len(hand.melds)} melds = {size}; "
            f"expected {HAND_SIZE} before the winning tile"
        )
    flowers = list(hand.flowers) if isinstance(hand.flowers, tuple) else []
    tile_set.check(hand.all_tiles() + flowers, where="hand")
    available = sum(1 for tile in tile_set.kinds() if is_flower(tile))
    if hand.flower_count > available:
        raise TileCountError(f"hand: {hand.flower_count} flowers, the {tile_set.name}-tile set has {available}")
    return to_counts([*hand.standing, hand.win_tile])
