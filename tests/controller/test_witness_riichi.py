"""Riichi at a camera table, through the witness: the dora indicators read where they lie in the dead wall (wall
sights), the ura dora laid out by a ready winner, the ready declaration as a held press and a sideways discard, the
hands shown at an exhaustive draw for the tenpai payments; bot hands shown by the table model end as they did."""

from __future__ import annotations

from dataclasses import replace

import pytest

from controller.people.lookout import _sight
from controller.people.sights import Sight, SightKind
from controller.people.witness import Witness
from controller.service.inputs import Button, Press
from engine.actions import ActionKind
from engine.referee import Phase, Referee
from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tile, parse_tiles
from tests.controller.test_witness import agree, bot_hand, played_both_ways, witnessed
from vision.kinds import RED_FIVES as RED_FIVES_FACES

RIICHI = get_ruleset("riichi")


RED_FIVES = get_ruleset("riichi", {"red_fives": True})


@pytest.mark.parametrize("seed", range(8))
def test_red_fives_seen_on_discards_melds_and_hands_laid_down_score_as_the_bots_did(seed):
    """The table shows each marked copy as a red five where it lies (``Sight.marked``): a discard, a meld's tile, a
    hand laid down, a wall face; the witness tells the referee, whose wins count them (赤ドラ) as the bots' did."""
    full, seen, rulings = played_both_ways(RED_FIVES, seed, quiet_between=seed % 2 == 1)
    agree(full, seen, rulings)


def _red_fives(referee: Referee) -> list[int]:
    return [
        fan["count"] * fan["points"]
        for win in referee.wins
        for fan in win.score.to_dict()["fans"]
        if fan["id"] == "aka_dora"
    ]


def test_without_the_marks_the_red_fives_are_not_counted():
    """Seeds 0-7 hold wins with red fives in the hand, in a meld and on the discard won; without the marks the
    camera gives, the witness's referee counts none of them."""
    counted = unmarked = 0
    for seed in range(8):
        full, steps = bot_hand(RED_FIVES, seed)
        happenings = [happening for _, shown in steps for happening in shown]
        plain = [replace(h, marked=frozenset()) if isinstance(h, Sight) else h for h in happenings]
        counted += sum(_red_fives(full))
        unmarked += sum(_red_fives(witnessed(RED_FIVES, full, plain)[0].referee))
    assert counted >= 4 and unmarked == 0


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
    assert witness.quiet_settles, "every face read: held for their seats until the quiet window"
    agree(full, witness.referee, rulings + witness.seen(Sight(SightKind.QUIET)))
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
    agree(full, witness.referee, rulings + witness.seen(Sight(SightKind.QUIET)))


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


def test_a_red_five_sight_is_journaled_with_its_mark_and_a_bad_mark_is_named():
    row = Sight(SightKind.ROW, 1, tuple(parse_tiles("55m456p")), marked=frozenset({1}))
    assert row.to_dict()["marked"] == [1] and Sight.from_dict(row.to_dict()) == row
    assert Sight.from_dict({"sight": "row", "seat": 1, "tiles": "55m"}).marked == frozenset()
    for marked, error in (
        (3, "a list of tile positions"),
        ([0, 0], "distinct positions 0-1"),
        ([2], "distinct positions 0-1"),
    ):
        with pytest.raises(ValueError, match=f"sight.marked: expected {error}"):
            Sight.from_dict({"sight": "row", "seat": 1, "tiles": "55m", "marked": marked})


def test_the_lookout_splits_a_read_red_five_into_its_five_and_the_mark():
    """The table's reader reads a marked copy as its red face (``controller.people.reader``); a sight holds the
    five, marked where the best reading was the red one, and one ranked reading per tile."""
    red, five, six = RED_FIVES_FACES[0], parse_tile("5m"), parse_tile("6m")
    sight = _sight(SightKind.DISCARD, 0, [((red, 0.7), (five, 0.2), (six, 0.1))])
    assert sight.tiles == (five,) and sight.marked == frozenset({0})
    assert sight.choices == (((five, 0.7), (six, 0.1)),)
    plain = _sight(SightKind.ROW, 0, [((five, 0.6), (red, 0.3)), ((six, 0.9),)])
    assert plain.tiles == (five, six) and plain.marked == frozenset()
