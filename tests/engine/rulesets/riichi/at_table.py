"""Riichi hands on the shared referee, from stacked walls (``tests.engine.stacked``): the moves of a test."""

from __future__ import annotations

from typing import Any

from engine.actions import Action, ActionKind
from engine.referee import Phase, Referee
from engine.rulesets.base import Ruleset
from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tile

K = ActionKind


def riichi(**options: Any) -> Ruleset:
    return get_ruleset("riichi", options)


def act(referee: Referee, kind: ActionKind, seat: int, tile: str | None = None) -> tuple[str, ...]:
    """Apply a move that must be legal; its events."""
    verdict = referee.apply(Action(kind, seat, None if tile is None else parse_tile(tile)))
    assert verdict.ok, verdict.reason
    referee.check_balance()
    return verdict.events


def refused(referee: Referee, kind: ActionKind, seat: int, tile: str | None = None) -> str:
    """Apply a move that must be illegal and change nothing; the reason."""
    before = referee.to_dict()
    verdict = referee.apply(Action(kind, seat, None if tile is None else parse_tile(tile)))
    assert not verdict.ok, f"{kind.value} by seat {seat} was accepted"
    assert referee.to_dict() == before, "an illegal move changed the state"
    return verdict.reason


def passes(referee: Referee) -> None:
    """Every seat still to answer the tile on offer passes."""
    for seat in referee.answering_seats():
        if seat not in referee.responses:
            act(referee, K.PASS, seat)


def next_turn(referee: Referee) -> int:
    """Nobody claims the discard on offer: the next seat draws (the table's shortcut); that seat."""
    seat = referee.answering_seats()[0]
    act(referee, K.DRAW, seat)
    return seat


def tsumogiri(referee: Referee, turns: int) -> None:
    """``turns`` times: the next seat draws and discards the tile it drew, nobody claiming."""
    for _ in range(turns):
        seat = next_turn(referee)
        act(referee, K.DISCARD, seat, code(referee.last_drawn))


def to_the_end(referee: Referee) -> None:
    """Draw and discard until the live wall is empty, then the last discard is passed: an exhaustive draw."""
    while not referee.wall.exhausted:
        tsumogiri(referee, 1)
    passes(referee)
    assert referee.phase is Phase.OVER


def code(tile: int | None) -> str:
    assert tile is not None
    return get_ruleset("riichi").tile_code(tile)


def yaku(referee: Referee, seat: int) -> dict[str, int]:
    """The yaku of ``seat``'s win, by key, with their han."""
    (record,) = [record for record in referee.wins if record.seat == seat]
    return {entry["key"]: entry["han"] for entry in record.score.extra["yaku"]}
