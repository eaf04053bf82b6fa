"""The dead wall on the shared referee: 14 tiles never drawn but as kan replacements, the dora indicators on it
(``BonusIndicators``: a concealed kan's turned at once, an open or added kan's after its maker's discard), at most
four kans, and red fives as the set's marked copies."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.procedure import ProcedureError
from engine.referee import Referee
from engine.tiles import parse_tile
from tests.engine.rulesets.riichi.at_table import K, act, next_turn, passes, refused, riichi, tsumogiri, yaku
from tests.engine.stacked import stacked

JUNK = "2468m1379p2468s6z"
"""Thirteen tiles far from any wait."""


def faces(referee: Referee) -> str:
    return referee.ruleset.format_tiles(tile for tile in referee.bonus_indicators() if tile is not None)


def test_the_deal_leaves_69_live_tiles_and_turns_the_first_indicator_on_the_third_stack_from_the_end() -> None:
    """136 tiles, 53 dealt (the dealer's fourteenth included), the 14 of the dead wall never drawn."""
    referee = Referee.deal(riichi(), 7)
    assert referee.wall.live_remaining == 136 - 53 - 14
    state = referee.wall.state
    top, under = state.stack_from_tail(3)
    assert referee.bonus_indicators() == [state.faces[top]]
    assert referee.bonus_indicators(under=True) == [state.faces[under]]
    assert top not in {removal.index for removal in state.removed}, "the indicator stays in the wall, face up"


def test_a_concealed_kan_turns_its_indicator_at_once_and_draws_from_the_dead_wall() -> None:
    referee = stacked(riichi(), {0: "1111m" + JUNK[:-4] + "5z"}, replacements="7z", indicators="1z2z")
    live = referee.wall.live_remaining
    act(referee, K.CONCEALED_KONG, 0, "1m")
    assert faces(referee) == "12z"
    assert referee.last_drawn == parse_tile("7z") and referee.wall.live_remaining == live - 1


def test_an_open_kan_turns_its_indicator_with_its_makers_discard_and_a_ron_on_it_counts_it() -> None:
    """Seat 1 kans the dealer's 7z; the second indicator 5p (dora 6p) is turned when seat 1 discards the 3s, and
    seat 2's ron on that 3s counts it: two dora for its 66p."""
    hands = {0: "7z" + JUNK, 1: "777z147m258p369s4z", 2: "123m456m789m66p45s"}
    referee = stacked(riichi(), hands, replacements="3s", indicators="1z5p")
    act(referee, K.DISCARD, 0, "7z")
    act(referee, K.KONG, 1)
    passes(referee)
    assert referee.turn == 1 and faces(referee) == "1z", "not turned before its maker's discard"
    act(referee, K.DISCARD, 1, "3s")
    assert faces(referee) == "1z5p"
    act(referee, K.HU, 2)
    passes(referee)
    assert yaku(referee, 2)["dora"] == 2


def test_an_added_kan_turns_its_indicator_with_its_makers_discard() -> None:
    hands = {0: "7z" + JUNK, 1: "77z147m258p369s14z"}
    referee = stacked(riichi(), hands, draws="5z5z5z7z", replacements="3z", indicators="1z5p")
    act(referee, K.DISCARD, 0, "7z")
    act(referee, K.PUNG, 1)
    passes(referee)
    act(referee, K.DISCARD, 1, "1z")
    tsumogiri(referee, 3)
    next_turn(referee)  # seat 1 draws the fourth 7z
    act(referee, K.ADDED_KONG, 1, "7z")
    passes(referee)  # nobody robs it
    assert faces(referee) == "1z"
    act(referee, K.DISCARD, 1, "3z")
    assert faces(referee) == "1z5p"


def test_four_kans_by_one_player_go_on_and_a_fifth_is_refused() -> None:
    """The dealer makes four concealed kans (five indicators face up, the four replacements from the dead wall's
    last two stacks); the hand goes on (四開槓 needs two players), and no kan is left for seat 1's 777z."""
    hands = {0: "1111m2222m3333m45p", 1: "777z258p369p478s4z"}
    referee = stacked(riichi(), hands, draws="5z5z6z9s", replacements="9s9s9s7z")
    for tile in ("1m", "2m", "3m"):
        act(referee, K.CONCEALED_KONG, 0, tile)
    act(referee, K.DISCARD, 0, "4p")
    tsumogiri(referee, 3)
    next_turn(referee)
    act(referee, K.CONCEALED_KONG, 0, "9s")
    assert len(referee.bonus_indicators()) == 5 and len(referee.kongs) == 4
    act(referee, K.DISCARD, 0, "7z")
    assert "has its 4 kongs already" in refused(referee, K.KONG, 1)
    act(referee, K.PUNG, 1)
    passes(referee)
    assert referee.turn == 1 and referee.result is None


def test_a_red_five_stays_in_the_hand_while_a_plain_one_is_left_and_counts_in_the_win() -> None:
    referee = stacked(riichi(red_fives=True), {0: "123m789s11z0p555p34s"}, draws="5z5z5z2s")
    act(referee, K.DISCARD, 0, "5p")
    assert referee.seats[0].marked == {parse_tile("5p"): 1} and not referee.offer_marked
    tsumogiri(referee, 3)
    next_turn(referee)
    act(referee, K.HU, 0)
    assert yaku(referee, 0)["aka_dora"] == 1


def test_a_red_five_discarded_counts_for_the_player_winning_on_it() -> None:
    referee = stacked(riichi(red_fives=True), {0: "0p" + JUNK, 1: "123m456m789m5p111z"})
    act(referee, K.DISCARD, 0, "5p")
    assert referee.offer_marked
    act(referee, K.HU, 1)
    passes(referee)
    assert yaku(referee, 1)["aka_dora"] == 1 and referee.seats[1].marked == {parse_tile("5p"): 1}


def test_a_discard_names_the_red_five_when_the_seat_holds_a_plain_one_too() -> None:
    referee = stacked(riichi(red_fives=True), {0: "0p5p" + JUNK[:-2], 1: "123m456m789m111z5p"})
    assert referee.apply(Action(K.DISCARD, 0, parse_tile("5p"), marked=True)).ok
    assert referee.offer_marked and not referee.seats[0].marked
    act(referee, K.HU, 1)
    passes(referee)
    assert yaku(referee, 1)["aka_dora"] == 1


def test_a_marked_action_reads_back_from_its_json() -> None:
    action = Action(K.DISCARD, 0, parse_tile("5p"), marked=True)
    assert action.to_dict() == {"kind": "discard", "seat": 0, "tile": "5p", "marked": True}
    assert Action.from_dict(action.to_dict()) == action
    assert "marked" not in Action(K.DISCARD, 0, parse_tile("5p")).to_dict()


def test_a_stacked_wall_names_a_set_with_no_place_for_its_red_five() -> None:
    with pytest.raises(ProcedureError, match="every 5p is named plain"):
        stacked(riichi(red_fives=True), {0: "5555p2468m1379p"})
