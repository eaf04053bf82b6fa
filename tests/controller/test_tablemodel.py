"""The table model: what each action shows to the camera and the buttons (the procedure in its module doc)."""

from collections import Counter

import pytest

from controller.people.sights import Sight, SightKind
from controller.people.tablemodel import TableModel
from controller.service.inputs import Button, Press
from controller.service.players import next_action
from engine.actions import Action, ActionKind
from engine.referee import Phase, Referee
from engine.rulesets.registry import get_ruleset
from engine.tiles import is_flower, parse_tile, parse_tiles
from tests.engine.stacked import stacked

K = ActionKind
BASIC = get_ruleset("basic")
# As tests/engine/test_referee.py: seat 1 can chow 3m-4m-5m on a 4m, seat 2 can pung 9p, seat 3 waits on 9p.
HANDS = {
    0: "4m9p1234567z1s2s3s4s",
    1: "35m12345678p6s7s8s",
    2: "99p11m22m33m44m5s6s7s",
    3: "11s22s33s44s55s66s9p",
}


def t(code: str) -> int:
    return parse_tile(code)


def row(seat: int, codes: str) -> Sight:
    return Sight(SightKind.ROW, seat, tuple(parse_tiles(codes)))


def play(model: TableModel, referee: Referee, kind: ActionKind, seat: int, tile: str | None = None) -> list:
    verdict, shown = model.play(referee, Action(kind, seat, None if tile is None else t(tile)))
    assert verdict.ok, verdict.reason
    return shown


def test_a_pung_beats_a_chow_both_press_and_only_the_pung_is_laid():
    model, referee = TableModel(), stacked(BASIC, HANDS)
    assert play(model, referee, K.DISCARD, 0, "9p") == [Sight(SightKind.DISCARD, 0, (t("9p"),))]
    assert play(model, referee, K.CHI, 1, "7p") == [Press(Button.CLAIM, 1)]
    assert play(model, referee, K.PUNG, 2) == [Press(Button.CLAIM, 2)]
    assert play(model, referee, K.PASS, 3) == [Sight(SightKind.TAKEN, 0, (t("9p"),)), row(2, "999p")]
    assert play(model, referee, K.DISCARD, 2, "5s") == [Sight(SightKind.DISCARD, 2, (t("5s"),))]
    assert play(model, referee, K.DRAW, 3) == []
    assert model.rows == [[], [], parse_tiles("999p"), []]


def test_a_win_on_a_discard_lays_the_hand_down_with_the_won_tile_last():
    model, referee = TableModel(), stacked(BASIC, HANDS)
    play(model, referee, K.DISCARD, 0, "9p")
    assert play(model, referee, K.PASS, 1) == []
    assert play(model, referee, K.PASS, 2) == []
    assert play(model, referee, K.HU, 3) == [
        Press(Button.HU, 3),
        Sight(SightKind.TAKEN, 0, (t("9p"),)),
        row(3, "9p112233445566s9p"),
    ]


def test_an_illegal_action_shows_nothing():
    model, referee = TableModel(), stacked(BASIC, HANDS)
    verdict, shown = model.play(referee, Action(K.DISCARD, 1, t("3m")))
    assert not verdict.ok and shown == []


def test_concealed_kong_then_self_drawn_win_shows_the_kong_and_the_drawn_tile_last():
    model = TableModel()
    referee = stacked(BASIC, {0: "1111m234m567m89p55s", 1: "123p456p789p1z2z3z4z"}, replacements="7p")
    assert play(model, referee, K.CONCEALED_KONG, 0, "1m") == [row(0, "1111m")]
    assert play(model, referee, K.HU, 0) == [Press(Button.HU, 0), row(0, "234567m89p55s7p1111m")]


def test_void_declarations_are_one_two_or_three_presses():
    model, referee = TableModel(), Referee.deal(get_ruleset("sichuan"), 3)
    assert play(model, referee, K.DECLARE_VOID, 1, "5p") == [Press(Button.CLAIM, 1)] * 2
    assert play(model, referee, K.DECLARE_VOID, 2, "1s") == [Press(Button.CLAIM, 2)] * 3


@pytest.mark.parametrize(
    ("rules", "options"),
    [("basic", {}), ("basic", {"tile_set": 144}), ("mcr", {}), ("sichuan", {}), ("guizhou", {})],
)
def test_every_row_holds_exactly_the_seats_melds_and_the_zones_their_flowers(rules, options):
    """Whatever the bots play, a seat still in the hand shows exactly its melds in its row (an added kong on offer
    shows its fourth tile); a winner's row adds his whole hand, and so does every row at a drawn end. Every flower
    set aside is put into its seat's discard zone, the dealt ones before play."""
    ruleset = get_ruleset(rules, options)
    for seed in range(3):
        model, referee = TableModel(), Referee.deal(ruleset, seed)
        zoned = [[] for _ in range(4)]
        shown = model.show_deal(referee)
        while referee.phase is not Phase.OVER:
            for sight in shown:
                if isinstance(sight, Sight) and sight.kind is SightKind.DISCARD and is_flower(sight.tiles[0]):
                    zoned[sight.seat].append(sight.tiles[0])
            assert zoned == [state.flowers for state in referee.seats], seed
            verdict, shown = model.play(referee, next_action(referee, seed))
            for seat, state in enumerate(referee.seats):
                exposed = Counter(tile for meld in state.melds for tile in meld.tiles)
                if referee.phase is Phase.ROB and seat == referee.offer_seat:
                    exposed[referee.offer] += 1
                won = any(record.seat == seat for record in referee.wins)
                if won or "drawn game" in verdict.events:
                    exposed += Counter(state.concealed_tiles())
                if won and referee.ruleset.hand_continues_after_win:
                    assert seat in referee.players_out or referee.phase is Phase.OVER
                assert Counter(model.rows[seat]) == exposed, (seed, seat)


def test_a_false_win_is_laid_down_and_picked_up_again():
    """MCR's 8-fan minimum: seat 1's 5-fan hand on the 9p is a false win (诈和), fined, and play goes on."""
    mcr = get_ruleset("mcr")
    model, referee = TableModel(), stacked(mcr, {0: "9p1z2z3z4z5z6z7z1m1s2s3s4s5s", 1: "123m456m78p234s55s"})
    play(model, referee, K.DISCARD, 0, "9p")
    assert play(model, referee, K.HU, 1) == [Press(Button.HU, 1), row(1, "123456m78p23455s"), row(1, "")]
    assert referee.penalties and model.rows[1] == []
