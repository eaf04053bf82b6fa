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
from dataclasses import replace
from functools import lru_cache

from engine.procedure import (
    NewHand,
    ProcedureError,
    Source,
    Wall,
    WallBreak,
    WallLayout,
    WallState,
    break_wall,
    deal_marked,
    draw_replacement,
)
from engine.procedure.wall import take
from engine.rulesets.base import Ruleset
from engine.tiles import Tile

Stacked = tuple[Tile, bool]
"""A tile and whether it is the marked copy of its face."""
DICE = (3, 4)
"""The throw of a stacked hand: any throw deals the same hands, as the wall is built for it."""


def _break(size: int, dealer: int) -> WallBreak:
    stacks = WallLayout.for_size(size).stack_counts
    return break_wall(dealer, DICE, None, "one_throw", stacks_per_wall=stacks)


@lru_cache(maxsize=16)
def _probe(size: int, reserved: int, dealer: int) -> tuple[tuple[tuple[int, ...], ...], WallState]:
    """The places each seat is dealt from, and the wall once dealt: a wall whose faces are its own places, dealt
    (the same for every hand of a size, reserve and dealer, so dealt once)."""
    layout = WallLayout.for_size(size)
    probe = Wall.build(list(range(size)), _break(size, dealer), layout, reserved)
    places, _ = deal_marked(probe, dealer)
    return tuple(tuple(seat) for seat in places), probe.state  # type: ignore[arg-type]


def _wall(
    ruleset: Ruleset, faces: Sequence[Tile], dealer: int, marked: Sequence[int] = (), reserved: int | None = None
) -> Wall:
    layout = WallLayout.for_size(ruleset.tile_set.size)
    reserved = ruleset.reserved_tiles if reserved is None else reserved
    return Wall.build(faces, _break(len(faces), dealer), layout, reserved, marked=marked)


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
    dealt_places, dealt = _probe(size, ruleset.reserved_tiles, dealer)
    heads = dealt.standing()[: len(draws)]  # the head draws in order, taken at once (a wall step checks the state)
    state = take(dealt, heads, Source.HEAD)[0]
    tail_places = []
    for _ in replacements:
        state, place = draw_replacement(state)
        tail_places.append(place)
    draw_places, bonus = [dealt.faces[index] for index in heads], ruleset.bonus_indicators
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
    full = _filled(ruleset, faces, marked)
    wall = _wall(ruleset, full, dealer, marked, reserved)
    wall.state = replace(wall.state, removed=dealt.removed)  # dealt as the probe was: the same places
    hands_dealt: list[list[Tile | None]] = [[full[place] for place in places] for places in dealt_places]  # type: ignore[index]
    marks = [[full[place] for place in places if place in marked] for places in dealt_places]  # type: ignore[index]
    flowers: list[list[Tile]] = [[] for _ in hands_dealt]
    return NewHand(dealer, DICE, None, _break(size, dealer), hands_dealt, flowers, None, wall, marks)


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
        free = [place for place in range(len(full)) if full[place] == kind and place not in named]
        if not free:
            raise ProcedureError(f"stacked wall: every {ruleset.tile_code(kind)} is named plain; the set marks one")
        marked.append(free[0])
    return full
