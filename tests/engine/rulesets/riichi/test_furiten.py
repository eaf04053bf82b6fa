"""振聴 on the shared referee (``MissedWins``): a player may let a win pass (見逃し), and then may not win on a
discard: on a wait among his own discards, until his next draw after letting a winning tile pass, for the rest of
the hand when he let it pass in riichi. A self-draw is always allowed."""

from __future__ import annotations

from engine.tiles import format_tiles, parse_tile, parse_tiles
from tests.engine.rulesets.riichi.at_table import K, act, next_turn, passes, refused, riichi, tsumogiri, yaku
from tests.engine.stacked import stacked

WAITING = "123m456m789m45p11z"
"""Seat 1 (south) waits on 3p-6p, a pure straight either way."""
DEALER = "2468m1379p2468s6z7z"


def table(draws: str, seat1: str = WAITING):
    return stacked(riichi(), {0: DEALER, 1: seat1}, draws=draws)


def test_a_wait_among_the_own_discards_forbids_a_discard_win_not_a_self_draw() -> None:
    referee = table("6p3p5z5z3p")
    act(referee, K.DISCARD, 0, "6z")
    next_turn(referee)  # seat 1 draws the 6p: a self-drawn win it lets pass
    act(referee, K.DISCARD, 1, "6p")
    tsumogiri(referee, 1)  # seat 2 discards a 3p
    reason = refused(referee, K.HU, 1)
    assert "振聴" in reason and "6p, which it discarded itself" in reason
    passes(referee)
    tsumogiri(referee, 2)
    next_turn(referee)
    act(referee, K.HU, 1)
    assert yaku(referee, 1)["menzen_tsumo"] == 1


def test_a_declined_win_forbids_discard_wins_until_the_next_draw() -> None:
    referee = table("7z3p6p5z5z6p")
    act(referee, K.DISCARD, 0, "6z")
    tsumogiri(referee, 2)  # seat 1 lets its 7z go, seat 2 discards a 3p
    passes(referee)  # seat 1 declines the win on the 3p (見逃し)
    assert referee.missed_wins == {1: {parse_tile("3p")}}
    tsumogiri(referee, 1)  # seat 3's 6p: seat 1 still passed a win this go-around
    assert "let 3p pass since its last draw or claim" in refused(referee, K.HU, 1)
    passes(referee)
    tsumogiri(referee, 3)  # seat 1 drew since: the block is gone; seat 2 discards the 6p
    assert referee.missed_wins == {}
    act(referee, K.HU, 1)
    passes(referee)
    assert referee.result is not None and referee.result.winners == (1,)


def test_a_win_let_pass_in_riichi_forbids_discard_wins_for_the_hand() -> None:
    referee = table("7z3p5z5z2z6p1z1z3p")
    act(referee, K.DISCARD, 0, "6z")
    next_turn(referee)
    act(referee, K.READY, 1, "7z")
    tsumogiri(referee, 1)  # seat 2 discards a 3p
    passes(referee)
    assert referee.missed_for_hand == {1}
    tsumogiri(referee, 4)  # seats 3, 0, then 1 (its draw does not lift it) and 2: the 6p
    assert "after declaring ready" in refused(referee, K.HU, 1)
    passes(referee)
    tsumogiri(referee, 2)
    next_turn(referee)
    act(referee, K.HU, 1)
    assert yaku(referee, 1)["double_riichi"] == 2, "declared with its first discard, nobody having called"


def test_a_self_drawn_win_let_pass_in_riichi_counts_too() -> None:
    referee = table("7z5z5z1z3p")
    act(referee, K.DISCARD, 0, "6z")
    next_turn(referee)
    act(referee, K.READY, 1, "7z")
    tsumogiri(referee, 3)
    next_turn(referee)  # seat 1 draws its 3p and, locked, lets it go
    act(referee, K.DISCARD, 1, "3p")
    assert referee.missed_for_hand == {1}


def test_a_tile_completing_the_shape_without_a_yaku_is_a_win_let_pass() -> None:
    """234m567m789s45p11z: 3p or 6p make the shape, but no yaku (the east pair spoils pinfu for south)."""
    referee = table("7z3p", seat1="234m567m789s45p11z")
    act(referee, K.DISCARD, 0, "6z")
    tsumogiri(referee, 2)
    assert "no yaku" in refused(referee, K.HU, 1)
    passes(referee)
    assert referee.missed_wins == {1: {parse_tile("3p")}}


def test_a_draw_refused_on_the_empty_wall_notes_no_pass() -> None:
    """Seat 1 lets the last live tile, a 3p, go; seat 2, waiting on it, may not close it by drawing: nothing left
    to draw. The refused draw changes nothing, the passes it would have noted included."""
    spare = [tile for tile in range(34) for _ in range(4)]
    for tile in parse_tiles(DEALER + WAITING + "3p"):
        spare.remove(tile)
    draws = format_tiles([*spare[:68], parse_tile("3p")])
    referee = stacked(riichi(), {0: DEALER, 2: WAITING}, draws=draws)
    act(referee, K.DISCARD, 0, "6z")
    tsumogiri(referee, 69)
    assert referee.wall.exhausted and referee.offer == parse_tile("3p")
    noted = {seat: set(faces) for seat, faces in referee.missed_wins.items()}
    assert "live wall is exhausted" in refused(referee, K.DRAW, 2)
    assert referee.missed_wins == noted
