"""Referees dealt from a stacked wall: the test names every hand and the order of the next draws.

Tiles are written in the ruleset's notation (``Ruleset.read_tiles``: 十万's rank 0 is a 10). Where the tile set has
marked copies (riichi's red fives), a five written with rank 0 (``0m``) is the marked one. ``indicators`` and
``under`` stack the bonus indicators of the dead wall and the tiles under them (``BonusIndicators``), first one
first; ``facts`` go to the referee (``honba``, ``pot``, ``scores``, ``round_wind``, ...).
"""

from __future__ import annotations

from typing import Any

from engine.procedure import Wall, WallLayout, break_wall, deal_marked
from engine.referee import Referee
from engine.rulesets.base import Ruleset
from engine.tiles import Tile

DICE = (3, 4)


def _wall(
    ruleset: Ruleset, faces: list[Tile], dealer: int, dice: tuple[int, int], marked: tuple[int, ...] = ()
) -> Wall:
    layout = WallLayout.for_size(ruleset.tile_set.size)
    wall_break = break_wall(dealer, dice, None, "one_throw", stacks_per_wall=layout.stack_counts)
    return Wall.build(faces, wall_break, layout, ruleset.reserved_tiles, marked=marked)


def _read(ruleset: Ruleset, text: str) -> list[tuple[Tile, bool]]:
    """Each tile of ``text`` and whether it is written as a marked copy (rank 0 where the set marks fives)."""
    tiles = ruleset.read_tiles(text, "stacked")
    digits = [char for char in text if char.isdigit()]
    marks = ruleset.tile_set.marked
    return [(tile, bool(marks) and digit == "0") for tile, digit in zip(tiles, digits, strict=True)]


def stacked(
    ruleset: Ruleset,
    hands: dict[int, str],
    draws: str = "",
    replacements: str = "",
    dealer: int = 0,
    dice: tuple[int, int] = DICE,
    *,
    indicators: str = "",
    under: str = "",
    **facts: Any,
) -> Referee:
    """A full-information referee whose dealt hands are ``hands`` (seat → compact tiles; the dealer's 14),
    whose next live draws are ``draws`` and next tail draws ``replacements``; the rest of the set fills in."""
    size = ruleset.tile_set.size
    probe = _wall(ruleset, list(range(size)), dealer, dice)  # faces = addresses, to learn which place goes where
    dealt_places, _ = deal_marked(probe, dealer)
    draw_places = [probe.draw() for _ in _read(ruleset, draws)]
    tail_places = [probe.draw_replacement() for _ in _read(ruleset, replacements)]
    state = probe.state
    bonus = ruleset.bonus_indicators
    count = len(_read(ruleset, indicators)) if bonus else 0
    stacks = [state.stack_from_tail(bonus.first_stack + k) for k in range(count)]  # type: ignore[union-attr]
    indicator_places = [state.faces[stack[0]] for stack in stacks]
    under_places = [state.faces[stack[1]] for stack in stacks[: len(_read(ruleset, under))]]
    faces: list[Tile | None] = [None] * size
    marked: list[int] = []
    placed = [
        *((places, hands.get(seat, "")) for seat, places in enumerate(dealt_places)),
        (draw_places, draws),
        (tail_places, replacements),
        (indicator_places, indicators),
        (under_places, under),
    ]
    for places, text in placed:
        for place, (tile, mark) in zip(places, _read(ruleset, text), strict=False):
            faces[place] = tile  # type: ignore[index]
            if mark:
                marked.append(place)  # type: ignore[arg-type]
    rest = ruleset.tile_set.tiles()
    for tile in faces:
        if tile is not None:
            rest.remove(tile)
    written = {place for place, tile in enumerate(faces) if tile is not None}
    filler = iter(rest)
    faces = [tile if tile is not None else next(filler) for tile in faces]
    for kind in ruleset.tile_set.marked - {faces[place] for place in marked}:  # a copy the test left to the filler
        marked.append(next(place for place in range(size) if faces[place] == kind and place not in written))
    wall = _wall(ruleset, faces, dealer, dice, tuple(marked))  # type: ignore[arg-type]
    dealt, dealt_marks = deal_marked(wall, dealer)
    return Referee(ruleset, dealer, wall, dealt, marked=dealt_marks, full_information=True, **facts)
