"""Red fives (riichi's marked copies) at a table that sees only backs: the table tells the referee which copy a
discard, a meld or a hand laid down shows (``Action.marked``, ``Action.revealed_marked``), and the referee counts them
as a full one does, refusing marks the set cannot hold."""

from __future__ import annotations

from engine.actions import Action
from engine.actions import ActionKind as K
from engine.referee import Referee
from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tile, parse_tiles
from tests.engine.test_referee import act, rejected

RED_FIVES = get_ruleset("riichi", {"red_fives": True})
HAND = "234m456m678s33p46p"
"""Seat 1's hand, waiting on the 5p: all simples."""


def observed() -> Referee:
    return Referee.observe(RED_FIVES, dealer=0, dice=(3, 4))


def test_a_marked_discard_from_a_hidden_hand_is_the_marked_copy_and_a_meld_keeps_it():
    referee = observed()
    act(referee, K.DISCARD, 0, "5m", marked=True)
    assert referee.offer_marked and referee.seats[0].marked_river == 1
    act(referee, K.PUNG, 2)
    act(referee, K.PASS, 1)
    act(referee, K.PASS, 3)
    assert referee.seats[2].marked_shown == 1 and referee.seats[0].marked_river == 0
    act(referee, K.DISCARD, 2, "4m", marked=True)  # the set marks no 4m: a plain copy, whatever the table said
    assert not referee.offer_marked and referee.seats[2].marked_shown == 1


def test_a_claimants_own_marked_copy_goes_into_his_meld():
    referee = observed()
    act(referee, K.DISCARD, 0, "5p")
    act(referee, K.PUNG, 2, marked=True)
    act(referee, K.PASS, 1)
    act(referee, K.PASS, 3)
    assert referee.seats[2].marked_shown == 1


def _ron(revealed_marked: str, discard_marked: bool) -> tuple[Referee, Action]:
    referee = observed()
    act(referee, K.DISCARD, 0, "5p", marked=discard_marked)
    marked = tuple(parse_tiles(revealed_marked))
    return referee, Action(K.HU, 1, revealed=tuple(parse_tiles(HAND)), revealed_marked=marked)


def test_a_win_counts_the_marked_copies_revealed_with_the_hand_and_the_discard_won():
    for revealed, discard, expected in (("5m", True, 2), ("5m", False, 1), ("", True, 1), ("", False, 0)):
        referee, win = _ron(revealed, discard)
        assert referee.apply(win).ok
        assert referee.declared[1].context.extra["red_fives"] == expected, (revealed, discard)


def test_a_revealed_hand_may_mark_only_one_copy_of_a_face_the_set_marks_and_holds():
    for marked, why in (("4m", "the set marks no copy of it"), ("5m5m", "revealed 2 marked 5m"), ("5s", "holds 0")):
        referee, win = _ron(marked, False)
        extra = {"revealed": win.revealed, "revealed_marked": win.revealed_marked}
        assert why in rejected(referee, K.HU, 1, **extra)


def test_a_marked_copy_survives_the_actions_json():
    action = Action(K.HU, 1, revealed=tuple(parse_tiles(HAND)), revealed_marked=(parse_tile("5m"),))
    assert Action.from_dict(action.to_dict()) == action
    assert "action.revealed_marked" in _error({"kind": "hu", "seat": 1, "revealed_marked": "5x"})


def _error(data: dict) -> str:
    try:
        Action.from_dict(data)
    except ValueError as error:
        return str(error)
    raise AssertionError("accepted")
