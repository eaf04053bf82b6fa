"""Riichi at a camera table, through the witness: the dora indicators read where they lie in the dead wall (wall
sights), the ura dora laid out by a ready winner, the ready declaration as a held press and a sideways discard, the
hands shown at an exhaustive draw for the tenpai payments; bot hands shown by the table model end as they did."""

from __future__ import annotations

import pytest

from controller.people.sights import Sight, SightKind
from controller.people.witness import Witness, people_can_play
from controller.service.inputs import Button, Press
from engine.actions import ActionKind
from engine.referee import Phase, Referee
from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tile
from tests.controller.test_witness import agree, bot_hand, played_both_ways, witnessed

RIICHI = get_ruleset("riichi")


def test_people_can_play_riichi_but_not_its_red_fives_yet():
    assert people_can_play(RIICHI) is None
    assert "red fives" in (people_can_play(get_ruleset("riichi", {"red_fives": True})) or "")


@pytest.mark.parametrize("quiet_between", [False, True])
@pytest.mark.parametrize("seed", range(8))
def test_the_witness_referees_a_riichi_bot_hand_to_the_same_end(seed, quiet_between):
    agree(*played_both_ways(RIICHI, seed, quiet_between))


def _declaring_hand() -> tuple[Referee, list]:
    """Seed 1: seat 1 declares ready and wins; the happenings the table model shows."""
    full, steps = bot_hand(RIICHI, 1)
    return full, [happening for _, shown in steps for happening in shown]


def test_a_ready_declaration_is_a_held_press_and_a_sideways_discard_and_the_win_waits_for_the_ura_dora():
    full, happenings = _declaring_hand()
    declaring = next(i for i, h in enumerate(happenings) if isinstance(h, Sight) and h.sideways)
    assert happenings[declaring - 1] == Press(Button.HU, happenings[declaring].seat)
    walls = [h for h in happenings if isinstance(h, Sight) and h.kind is SightKind.WALL]
    assert len(walls) == 2 * full.bonus_turned, "the indicators and, at the ready win, the tiles under them"
    witness, rulings = witnessed(RIICHI, full, happenings[:-1])
    assert witness.referee.phase is Phase.FACES and "wall's faces" in (witness.waiting or "")
    assert not witness.quiet_settles, "a quiet window settles no face: only the camera's sights do"
    assert witness.seen(Sight(SightKind.QUIET)) == [] and witness.referee.phase is Phase.FACES
    witness.seen(happenings[-1])
    agree(full, witness.referee, rulings)
    assert any(ruling.action and ruling.action.kind is ActionKind.READY for ruling in rulings)


def test_a_sideways_discard_without_the_held_press_or_a_press_without_it_is_a_plain_discard():
    full, happenings = _declaring_hand()
    declaring = next(i for i, h in enumerate(happenings) if isinstance(h, Sight) and h.sideways)
    unpressed = happenings[: declaring - 1] + happenings[declaring:]
    _, rulings = witnessed(RIICHI, full, unpressed[:declaring])
    assert any("sideways but his button was not held" in ruling.verdict.reason for ruling in rulings)
    assert rulings[-1].action.kind is ActionKind.DISCARD  # type: ignore[union-attr]
    flat = [*happenings[:declaring], Sight(SightKind.DISCARD, happenings[declaring].seat, happenings[declaring].tiles)]
    _, rulings = witnessed(RIICHI, full, flat)
    assert rulings[-1].action.kind is ActionKind.DISCARD  # type: ignore[union-attr]


def test_a_wall_sight_before_its_place_is_turned_up_is_kept_until_it_is():
    full, happenings = _declaring_hand()
    unders = [h for h in happenings if isinstance(h, Sight) and h.kind is SightKind.WALL][1:]
    early = [happenings[0], *unders, *(h for h in happenings[1:] if h not in unders)]
    witness, rulings = witnessed(RIICHI, full, early)
    agree(full, witness.referee, rulings)


def test_wall_and_sideways_sights_round_trip_and_are_checked():
    wall = Sight(SightKind.WALL, 2, (5,), place=101)
    assert Sight.from_dict(wall.to_dict()) == wall and wall.to_dict()["place"] == 101
    sideways = Sight(SightKind.DISCARD, 1, (7,), sideways=True)
    assert Sight.from_dict(sideways.to_dict()) == sideways
    with pytest.raises(ValueError, match=r"sight\.place"):
        Sight.from_dict({"sight": "wall", "seat": 2, "tiles": "5m"})
    with pytest.raises(ValueError, match=r"sight\.sideways"):
        Sight.from_dict({"sight": "discard", "seat": 2, "tiles": "5m", "sideways": "yes"})


def _four_discarded(tile: str) -> Witness:
    """An observed riichi hand in which each seat has discarded a ``tile`` in turn."""
    witness = Witness(Referee.observe(RIICHI, dealer=0, dice=(3, 4)))
    for seat in range(4):
        rulings = witness.seen(Sight(SightKind.DISCARD, seat, (parse_tile(tile),)))
        assert rulings[-1].verdict.ok, rulings[-1].verdict.reason
    return witness


def test_a_misread_indicator_that_would_be_a_fifth_copy_is_read_as_its_next_choice_and_an_unsure_one_is_shown():
    witness = _four_discarded("9s")
    (place,) = witness.referee.faces_up()
    seat = witness.referee.wall.state.positions[place].wall_of_seat
    ranked = ((parse_tile("9s"), 0.6), (parse_tile("8s"), 0.3))
    witness.seen(Sight(SightKind.WALL, seat, (parse_tile("9s"),), (ranked,), place=place))
    assert witness.referee.bonus_indicators() == [parse_tile("8s")]
    other = _four_discarded("1m")
    unsure = ((parse_tile("4p"), 0.4), (parse_tile("5p"), 0.3))
    other.seen(Sight(SightKind.WALL, seat, (parse_tile("4p"),), (unsure,), place=place))
    assert other.referee.bonus_indicators() == [parse_tile("4p")]
    (shown,) = other.unsure
    assert shown["sight"] == "wall" and shown["seat"] == seat and shown["tiles"] == ["4p"]
    other.seen(Sight(SightKind.CORRECT, seat, (parse_tile("5p"),)))
    assert other.referee.bonus_indicators() == [parse_tile("5p")], "the seat's correction is taken"
