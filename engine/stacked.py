"""A hand dealt from a stacked wall: the caller names every seat's dealt tiles and the order of the draws to come.

The referee deals from a shuffled wall (``Referee.deal``); a replay of a recorded game (``engine.records.replay``)
and the tests need the deal a record or a test names instead. The wall is built so that the ordinary deal of the
ruleset's procedure gives those hands: a probe wall whose faces are its own places tells which place each dealt
tile, each later head draw, each tail draw and each bonus indicator (and the tile under it) comes from; the named
tiles go there and the rest of the set fills the other places. Each tile comes with whether it is the set's marked
copy (a red five); a marked copy left unnamed goes to a place nobody named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.procedure import NewHand, ProcedureError, Wall, WallBreak, WallLayout, break_wall, deal_marked
from engine.rulesets.base import Ruleset
from engine.tiles import Tile

Stacked = tuple[Tile, bool]
"""A tile and whether it is the marked copy of its face."""
DICE = (3, 4)
"""The throw of a stacked hand: any throw deals the same hands, as the wall is built for it."""


def _break(ruleset: Ruleset, dealer: int) -> WallBreak:
    stacks = WallLayout.for_size(ruleset.tile_set.size).stack_counts
    return break_wall(dealer, DICE, None, "one_throw", stacks_per_wall=stacks)


def _wall(
    ruleset: Ruleset, faces: Sequence[Tile], dealer: int, marked: Sequence[int] = (), reserved: int | None = None
) -> Wall:
    layout = WallLayout.for_size(ruleset.tile_set.size)
    reserved = ruleset.reserved_tiles if reserved is None else reserved
    return Wall.build(faces, _break(ruleset, dealer), layout, reserved, marked=marked)


def stacked_hand(
    ruleset: Ruleset,
    hands: Mapping[int, Sequence[Stacked]],
    dealer: int = 0,
    *,
    draws: Sequence[Stacked] = (),
    replacements: Sequence[Stacked] = (),
    indicators: Sequence[Stacked] = (),
    under: Sequence[Stacked] = (),
    reserved: int | None = None,
) -> NewHand:
    """The hand whose deal gives ``hands`` (seat → tiles; the dealer's 14, fewer where the rest may be anything),
    whose next head draws are ``draws`` and tail draws ``replacements``, and whose bonus indicators and the tiles
    under them (``Ruleset.bonus_indicators``) are ``indicators`` and ``under``; ``reserved`` tiles are left unplayed
    at a drawn game instead of the ruleset's (``Ruleset.reserved_tiles``), where the wall ran out sooner. Raises
    ``ProcedureError`` when the tiles named are more than the set holds."""
    size = ruleset.tile_set.size
    probe = _wall(ruleset, list(range(size)), dealer)  # faces = places, to learn which place goes where
    dealt_places, _ = deal_marked(probe, dealer)
    draw_places = [probe.draw() for _ in draws]
    tail_places = [probe.draw_replacement() for _ in replacements]
    state, bonus = probe.state, ruleset.bonus_indicators
    stacks = [state.stack_from_tail(bonus.first_stack + k) for k in range(len(indicators))] if bonus else []
    placed = [
        *((places, hands.get(seat, ())) for seat, places in enumerate(dealt_places)),
        (draw_places, draws),
        (tail_places, replacements),
        ([state.faces[stack[0]] for stack in stacks], indicators),
        ([state.faces[stack[1]] for stack in stacks], under),
    ]
    faces: list[Tile | None] = [None] * size
    marked: list[int] = []
    for places, tiles in placed:
        for place, (tile, mark) in zip(places, tiles, strict=False):
            faces[place] = tile  # type: ignore[index]
            if mark and ruleset.tile_set.marked:
                marked.append(place)  # type: ignore[arg-type]
    wall = _wall(ruleset, _filled(ruleset, faces, marked), dealer, marked, reserved)
    dealt, dealt_marks = deal_marked(wall, dealer)
    flowers: list[list[Tile]] = [[] for _ in dealt]
    return NewHand(dealer, DICE, None, _break(ruleset, dealer), dealt, flowers, None, wall, dealt_marks)


def _filled(ruleset: Ruleset, faces: list[Tile | None], marked: list[int]) -> list[Tile]:
    """``faces`` with the places nobody named filled from the rest of the set, and ``marked`` completed with a
    place for each marked copy nobody named."""
    rest = ruleset.tile_set.tiles()
    for tile in faces:
        if tile is None:
            continue
        if tile not in rest:
            raise ProcedureError(f"stacked wall: more {ruleset.tile_code(tile)} than the set holds")
        rest.remove(tile)
    marks = [faces[place] for place in marked]
    if len(set(marks)) != len(marks) or not set(marks) <= set(ruleset.tile_set.marked):
        raise ProcedureError(f"stacked wall: marked copies {ruleset.format_tiles(sorted(marks))} are not the set's")  # type: ignore[arg-type]
    named = {place for place, tile in enumerate(faces) if tile is not None}
    filler = iter(rest)
    full = [tile if tile is not None else next(filler) for tile in faces]
    for kind in ruleset.tile_set.marked - set(marks):
        marked.append(next(place for place in range(len(full)) if full[place] == kind and place not in named))
    return full
