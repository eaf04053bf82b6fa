"""Referees dealt from a stacked wall: the test names every hand and the order of the next draws."""

from __future__ import annotations

from engine.procedure import Wall, WallLayout, break_wall, deal
from engine.referee import Referee
from engine.rulesets.base import Ruleset
from engine.tiles import Tile, parse_tiles

DICE = (3, 4)


def _wall(ruleset: Ruleset, faces: list[Tile], dealer: int, dice: tuple[int, int]) -> Wall:
    layout = WallLayout.for_size(ruleset.tile_set.size)
    wall_break = break_wall(dealer, dice, None, "one_throw", stacks_per_wall=layout.stack_counts)
    return Wall.build(faces, wall_break, layout, ruleset.reserved_tiles)


def stacked(
    ruleset: Ruleset,
    hands: dict[int, str],
    draws: str = "",
    replacements: str = "",
    dealer: int = 0,
    dice: tuple[int, int] = DICE,
) -> Referee:
    """A full-information referee whose dealt hands are ``hands`` (seat → compact tiles; the dealer's 14),
    whose next live draws are ``draws`` and next tail draws ``replacements``; the rest of the set fills in."""
    size = ruleset.tile_set.size
    probe = _wall(ruleset, list(range(size)), dealer, dice)  # faces = addresses, to learn which place goes where
    dealt_places = deal(probe, dealer)
    draw_places = [probe.draw() for _ in parse_tiles(draws)]
    tail_places = [probe.draw_replacement() for _ in parse_tiles(replacements)]
    faces: list[Tile | None] = [None] * size
    for seat, places in enumerate(dealt_places):
        wanted = parse_tiles(hands.get(seat, ""))
        for place, tile in zip(places, wanted, strict=False):
            faces[place] = tile  # type: ignore[index]
    for places, text in ((draw_places, draws), (tail_places, replacements)):
        for place, tile in zip(places, parse_tiles(text), strict=True):
            faces[place] = tile  # type: ignore[index]
    rest = ruleset.tile_set.tiles()
    for tile in faces:
        if tile is not None:
            rest.remove(tile)
    filler = iter(rest)
    faces = [tile if tile is not None else next(filler) for tile in faces]
    wall = _wall(ruleset, faces, dealer, dice)  # type: ignore[arg-type]
    return Referee(ruleset, dealer, wall, deal(wall, dealer), full_information=True)
