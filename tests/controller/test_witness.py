"""The witness: a camera table's sights and button presses drive an observing referee (controller.people.witness)."""

import random
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.people.sights import Sight, SightKind
from controller.people.tablemodel import TableModel
from controller.people.witness import Ruling, Witness
from controller.service.inputs import Button, Press
from controller.service.players import next_action
from engine.actions import ActionKind
from engine.notation import Meld, MeldKind
from engine.referee import Phase, Referee
from engine.rulesets.registry import all_rulesets, get_ruleset
from engine.tiles import parse_tile, parse_tiles

K = ActionKind
BASIC = get_ruleset("basic")
QUIET = Sight(SightKind.QUIET)


def t(code: str) -> int:
    return parse_tile(code)


def discard(seat: int, tile: str) -> Sight:
    return Sight(SightKind.DISCARD, seat, (t(tile),))


def taken(seat: int, tile: str) -> Sight:
    return Sight(SightKind.TAKEN, seat, (t(tile),))


def row(seat: int, tiles: str) -> Sight:
    return Sight(SightKind.ROW, seat, tuple(parse_tiles(tiles)))


def claim(seat: int) -> Press:
    return Press(Button.CLAIM, seat)


def hu(seat: int) -> Press:
    return Press(Button.HU, seat)


def moves(rulings: list[Ruling]) -> list[tuple[ActionKind, int]]:
    """The accepted actions, as (kind, seat); a rejected one or a ruling without action fails the test."""
    assert all(ruling.action is not None and ruling.verdict.ok for ruling in rulings), rulings
    return [(ruling.action.kind, ruling.action.seat) for ruling in rulings]  # type: ignore[union-attr]


def observed(ruleset=BASIC) -> Witness:
    return Witness(Referee.observe(ruleset, dealer=0, dice=(3, 4)))


def test_a_discard_by_the_next_seat_means_he_drew_and_everybody_passed():
    witness = observed()
    assert moves(witness.seen(discard(0, "5m"))) == [(K.DISCARD, 0)]
    assert witness.waiting == "claims on seat 0's 5m"
    assert moves(witness.seen(discard(1, "9s"))) == [(K.DRAW, 1), (K.DISCARD, 1)]
    assert witness.referee.seats[1].discards == [t("9s")] and witness.referee.offer_seat == 1


def test_a_discard_out_of_turn_gets_the_referees_rejection():
    witness = observed()
    witness.seen(discard(0, "5m"))
    *passes, last = witness.seen(discard(3, "9s"))
    assert moves(passes) == [(K.PASS, 1), (K.PASS, 2), (K.PASS, 3)]  # the window closed: play moved on
    assert last.action is not None and not last.verdict.ok and "seat 1's turn to draw" in last.verdict.reason


def test_a_claim_press_and_the_pung_laid_in_the_row_make_a_pung():
    witness = observed()
    witness.seen(discard(0, "5m"))
    assert witness.pressed(claim(2)) == []
    assert witness.pressed(claim(2)) == []  # a second press changes nothing
    assert witness.seen(taken(0, "5m")) == []
    assert moves(witness.seen(row(2, "555m"))) == [(K.PASS, 1), (K.PUNG, 2), (K.PASS, 3)]
    referee = witness.referee
    assert referee.seats[2].melds == [Meld(MeldKind.PUNG, t("5m"), 2)] and (referee.phase, referee.turn) == (
        Phase.ACT,
        2,
    )
    assert witness.waiting is None


def test_a_pung_shown_outranks_a_chi_press_at_once():
    """Claim priority (rules-B §9.8): pung before chi, so the chi presser's row is not awaited."""
    witness = observed()
    witness.seen(discard(0, "4m"))
    witness.pressed(claim(1))
    witness.pressed(claim(2))
    witness.seen(taken(0, "4m"))
    first, *rest = witness.seen(row(2, "444m"))
    assert first.action is None and "seat 1 pressed claim but laid no meld" in first.verdict.reason
    assert moves(rest) == [(K.PASS, 1), (K.PUNG, 2), (K.PASS, 3)]
    assert witness.referee.seats[2].melds == [Meld(MeldKind.PUNG, t("4m"), 2)]


def test_a_chi_shown_waits_for_a_pung_presser_until_the_window_closes():
    witness = observed()
    witness.seen(discard(0, "4m"))
    witness.pressed(claim(2))
    witness.pressed(claim(1))
    assert witness.seen(row(1, "345m")) == []  # seat 2 may still lay a pung, which would win
    assert witness.waiting == "claims on seat 0's 4m"
    chi, refusal, *rest = witness.seen(QUIET)
    assert moves([chi, *rest]) == [(K.CHI, 1), (K.PASS, 2), (K.PASS, 3)]
    assert refusal.action is None and "seat 2 pressed claim but laid no meld" in refusal.verdict.reason
    assert witness.referee.seats[1].melds == [Meld(MeldKind.CHOW, t("3m"), 2)] and witness.referee.turn == 1


def test_presses_that_claim_nothing_are_ruled_out():
    witness = observed()
    [ruling] = witness.pressed(claim(2))
    assert ruling.action is None and "no tile is on offer" in ruling.verdict.reason
    [ruling] = witness.pressed(hu(3))
    assert ruling.action is None and "not his turn" in ruling.verdict.reason
    witness.seen(discard(0, "5m"))
    witness.pressed(claim(3))
    [ruling] = witness.seen(row(3, "1234p"))
    assert ruling.action is None and "no meld with the 5m" in ruling.verdict.reason
    assert witness.referee.phase is Phase.CLAIMS and witness.referee.responses == {}


SEVEN_PAIRS = "11m22m33m44p55p66s7z"  # waits on 7z


def test_a_hu_press_with_the_discard_taken_is_a_win_on_that_discard():
    witness = observed()
    witness.seen(discard(0, "7z"))
    witness.pressed(hu(1))
    assert witness.seen(taken(0, "7z")) == []
    assert moves(witness.seen(row(1, SEVEN_PAIRS + "7z"))) == [(K.HU, 1), (K.PASS, 2), (K.PASS, 3)]
    referee = witness.referee
    assert referee.result is not None and referee.result.winners == (1,)
    assert referee.wins[0].context.discarder == 0 and referee.wins[0].hand.win_tile == t("7z")
    [late] = witness.pressed(claim(2))
    assert late.action is None and "the hand is over" in late.verdict.reason


def test_a_hu_press_by_the_next_seat_without_the_discard_taken_is_a_self_drawn_win():
    """The 7z laid last beside the (empty) old row is the tile he drew; the discarded 7z stays in its zone."""
    witness = observed()
    witness.seen(discard(0, "7z"))
    witness.pressed(hu(1))
    assert moves(witness.seen(row(1, SEVEN_PAIRS + "7z"))) == [(K.DRAW, 1), (K.HU, 1)]
    win = witness.referee.wins[0]
    assert win.context.discarder is None and win.hand.win_tile == t("7z") and win.hand.situation.self_drawn


def test_a_concealed_kong_in_turn_and_a_fourth_tile_beside_a_pung():
    witness = observed()
    witness.seen(discard(0, "1z"))
    assert moves(witness.seen(row(1, "1111m"))) == [(K.DRAW, 1), (K.CONCEALED_KONG, 1)]
    assert witness.referee.seats[1].melds == [Meld(MeldKind.KONG, t("1m"))]
    witness.seen(discard(1, "5p"))
    witness.pressed(claim(3))
    witness.seen(taken(1, "5p"))
    assert moves(witness.seen(row(3, "555p"))) == [(K.PASS, 2), (K.PUNG, 3), (K.PASS, 0)]
    for seat, tile in ((3, "2z"), (0, "3z"), (1, "4z"), (2, "5z")):
        witness.seen(discard(seat, tile))
    assert moves(witness.seen(row(3, "5555p"))) == [(K.DRAW, 3), (K.ADDED_KONG, 3)]
    assert witness.referee.phase is Phase.ROB and witness.waiting == "claims on seat 3's 5p"
    assert moves(witness.seen(QUIET)) == [(K.PASS, 0), (K.PASS, 1), (K.PASS, 2)]
    assert witness.referee.seats[3].melds == [Meld(MeldKind.KONG, t("5p"), 6)]  # from the 对家, added


def test_flowers_put_into_the_discard_zone_are_set_aside_in_the_opening_out_of_turn_and_later_in_turn():
    witness = observed(get_ruleset("basic", {"tile_set": 144}))
    assert moves(witness.seen(discard(2, "3f"))) == [(K.FLOWER, 2)]
    witness.seen(discard(0, "1m"))
    assert moves(witness.seen(discard(1, "5f"))) == [(K.DRAW, 1), (K.FLOWER, 1)]
    assert witness.referee.seats[2].flowers == [t("3f")] and witness.referee.seats[1].flowers == [t("5f")]
    [ruling] = witness.seen(row(1, "6f"))  # a flower laid in the row instead is no move, and the player is told
    assert ruling.action is None and "a flower goes into the discard zone" in ruling.verdict.reason


def test_a_quiet_window_after_the_last_discard_ends_the_hand_drawn():
    """Rules-B §9.10 荒庄: the live wall is empty and nobody claims the last discard."""
    witness = observed()
    referee, seat, count = witness.referee, 0, 0
    while referee.wall.live_remaining or referee.phase is not Phase.CLAIMS:
        moves(witness.seen(Sight(SightKind.DISCARD, seat, (count % 34,))))  # at most 3 copies of any face
        seat, count = (seat + 1) % 4, count + 1
    assert referee.result is None and witness.waiting is not None
    answering = referee.answering_seats()
    assert moves(witness.seen(QUIET)) == [(K.PASS, seat) for seat in answering]
    assert referee.result is not None and referee.result.drawn and witness.waiting is None


def test_sichuan_void_suits_are_declared_by_counted_presses():
    """108.md SC-2 定缺, by this project's button convention: 1 press m, 2 p, 3 s."""
    witness = observed(get_ruleset("sichuan"))
    for seat, presses in ((0, 1), (1, 2), (2, 3), (3, 4)):
        for _ in range(presses):
            assert witness.pressed(claim(seat)) == []
    *declared, refusal = witness.seen(QUIET)
    assert moves(declared) == [(K.DECLARE_VOID, 0), (K.DECLARE_VOID, 1), (K.DECLARE_VOID, 2)]
    assert refusal.action is None and "seat 3 pressed 4 times" in refusal.verdict.reason
    assert (
        witness.referee.void_suits == {0: "m", 1: "p", 2: "s"} and witness.waiting == "void declarations of seats [3]"
    )
    [again] = witness.pressed(claim(0))
    assert again.action is None and "already declared m void" in again.verdict.reason
    for _ in range(3):
        witness.pressed(claim(3))
    assert moves(witness.seen(discard(0, "1p"))) == [(K.DECLARE_VOID, 3), (K.DISCARD, 0)]


# --- the property: a hand the bots play, shown by the table model, is refereed to the same end ----------------


def bot_hand(ruleset, seed: int) -> tuple[Referee, list[tuple[Phase, list]]]:
    """A full-information hand the bots play (dealer ``seed % 4``): what the table model shows at the deal and at
    each action, with the phase the hand is in after it."""
    full, model = Referee.deal(ruleset, seed, seed % 4), TableModel()
    steps = [(full.phase, model.show_deal(full))]
    while full.phase is not Phase.OVER:
        verdict, happenings = model.play(full, next_action(full, seed))
        assert verdict.ok, verdict.reason
        steps.append((full.phase, happenings))
    return full, steps


def witnessed(ruleset, full: Referee, happenings: list) -> tuple[Witness, list[Ruling]]:
    """``happenings`` fed to a witness over an observing referee of the same dealer and dice."""
    witness = Witness(Referee.observe(ruleset, full.dealer, full.dice, full.dice2))  # type: ignore[arg-type]
    rulings = []
    for happening in happenings:
        rulings += witness.seen(happening) if isinstance(happening, Sight) else witness.pressed(happening)
        witness.referee.check_balance()
    return witness, rulings


def played_both_ways(ruleset, seed: int, quiet_between: bool) -> tuple[Referee, Referee, list[Ruling]]:
    """A bot hand fed to a witness, with quiet windows when the full hand is over and, optionally, at random moments
    when nobody could still press (the hand in a turn, not answering an offer)."""
    full, steps = bot_hand(ruleset, seed)
    moments, happenings = random.Random(seed), []
    for phase, shown in steps:
        happenings += shown
        if quiet_between and phase in (Phase.ACT, Phase.DRAW) and moments.random() < 0.3:
            happenings.append(QUIET)
    witness, rulings = witnessed(ruleset, full, happenings)
    for _ in range(4):
        if witness.waiting is not None:
            rulings += witness.seen(QUIET)
    return full, witness.referee, rulings


def agree(full: Referee, seen: Referee, rulings: list[Ruling]) -> None:
    rejected = [ruling for ruling in rulings if ruling.action is not None and not ruling.verdict.ok]
    assert rejected == []
    assert full.result is not None and seen.result is not None
    assert seen.result.to_dict() == full.result.to_dict()  # winners, drawn or not, payments
    assert [win.score.to_dict() for win in seen.wins] == [win.score.to_dict() for win in full.wins]


PLAYABLE = [
    pytest.param("basic", {}, id="basic"),
    pytest.param("basic", {"tile_set": 144}, id="basic144"),
    *(pytest.param(cls.id, {}, id=cls.id) for cls in all_rulesets() if cls.id != "basic"),
]


@pytest.mark.parametrize(("rules", "options"), PLAYABLE)
@pytest.mark.parametrize("quiet_between", [False, True])
def test_the_witness_referees_a_bot_hand_to_the_same_end(rules, options, quiet_between):
    ruleset = get_ruleset(rules, options)
    for seed in range(4):
        agree(*played_both_ways(ruleset, seed, quiet_between))


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "options"), PLAYABLE)
def test_the_witness_referees_many_bot_hands_to_the_same_end(rules, options):
    ruleset = get_ruleset(rules, options)
    for seed in range(4, 60):
        agree(*played_both_ways(ruleset, seed, seed % 2 == 1))


def test_a_drawn_sichuan_hand_is_settled_on_the_hands_laid_down_on_the_last_discard():
    """108.md SC-14 查花猪: seat 0 declared m void and still holds 1m, so he pays base × 2^cap = 16 to each player
    still in who is no 花猪; the other three hands are not ready (no 查大叫) and nobody made a kong (no 退税)."""
    witness = observed(get_ruleset("sichuan"))
    for seat, presses in ((0, 1), (1, 2), (2, 3), (3, 1)):  # void suits m, p, s, m
        for _ in range(presses):
            witness.pressed(claim(seat))
    witness.seen(QUIET)
    hands = {
        0: "1m124578p124578s",
        1: "1245789m124578s",
        2: "124578m1245789p",
        3: "124578p1245789s",
    }
    rest = [tile for tile in range(27) for _ in range(4)]
    for tile in parse_tiles("".join(hands.values())):
        rest.remove(tile)
    referee = witness.referee
    assert referee.wall.live_remaining == len(rest) - 1  # the dealer's first discard needs no draw
    for count, tile in enumerate(rest):
        moves(witness.seen(Sight(SightKind.DISCARD, count % 4, (tile,))))
    assert referee.wall.exhausted and referee.offer_seat == 3
    for seat in (0, 1, 2):
        assert moves(witness.seen(row(seat, hands[seat]))) == [(K.SHOW, seat)]
    assert moves(witness.seen(row(3, hands[3]))) == [(K.SHOW, 3), (K.PASS, 0), (K.PASS, 1), (K.PASS, 2)]
    assert referee.result is not None and referee.result.drawn
    assert referee.result.payments == {0: -48, 1: 16, 2: 16, 3: 16}


def test_a_hand_laid_down_before_the_last_discard_is_no_move():
    witness = observed()
    witness.seen(discard(0, "5m"))
    [ruling] = witness.seen(row(1, SEVEN_PAIRS))
    assert ruling.action is None and "no claim or hu was pressed" in ruling.verdict.reason


@pytest.mark.parametrize(("seed", "quiet_between"), [(79, False), (171, True)])
def test_a_sichuan_win_on_the_last_tile_waits_for_the_hands_left_standing(seed, quiet_between):
    """Bot hands (found by search) where a 血战 win on the last tile (seed 79: on the last discard, 171: self-drawn)
    leaves two or more players in, settled as drawn (SC-14): their hands must be shown before the win is applied."""
    full, seen, rulings = played_both_ways(get_ruleset("sichuan"), seed, quiet_between)
    assert full.wins[-1].context.last_tile and len(full.players_out) < 3
    agree(full, seen, rulings)


HAPPENINGS = st.one_of(
    st.builds(
        Sight,
        st.sampled_from([SightKind.DISCARD, SightKind.TAKEN]),
        st.integers(0, 3),
        st.tuples(st.integers(0, 41)),
    ),
    st.builds(Sight, st.just(SightKind.ROW), st.integers(0, 3), st.lists(st.integers(0, 41), max_size=18).map(tuple)),
    st.just(QUIET),
    st.builds(Press, st.sampled_from(list(Button)), st.integers(0, 3)),
)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["sichuan", "basic"]),
    st.integers(0, 3),
    st.lists(st.tuples(st.integers(0, 400), st.sampled_from(["drop", "twice", "insert"]), HAPPENINGS), max_size=8),
)
def test_whatever_the_table_shows_the_witness_rules_without_raising_and_replays_the_same(rules, seed, changes):
    """The service journals every sight and press and rebuilds a hand by feeding them again: the same input must
    give the same rulings and the same referee, and nothing a camera reports (a played hand with sights missed,
    seen twice or made up) may raise or unbalance the tiles."""
    ruleset = get_ruleset(rules, {"tile_set": 144} if rules == "basic" else {})
    full, steps = bot_hand(ruleset, seed)
    happenings = [happening for _, shown in steps for happening in shown]
    for index, change, made_up in changes:
        at = index % (len(happenings) + 1)
        if change == "insert":
            happenings.insert(at, made_up)
        elif at < len(happenings):
            happenings[at : at + 1] = [happenings[at]] * (2 if change == "twice" else 0)

    def replay() -> tuple[list[Ruling], dict]:
        witness, rulings = witnessed(ruleset, full, [*happenings, QUIET, QUIET])
        return rulings, witness.referee.to_dict()

    assert replay() == replay()


def test_sights_and_presses_naming_no_seat_or_several_discards_are_ruled_out():
    witness = observed()
    for made_up in (Sight(SightKind.ROW, -1, (t("1m"),)), discard(4, "1m"), Sight(SightKind.DISCARD, 0, ())):
        [ruling] = witness.seen(made_up)
        assert ruling.action is None and not ruling.verdict.ok
    [ruling] = witness.pressed(claim(7))
    assert ruling.action is None and "expected a seat 0-3" in ruling.verdict.reason
    assert witness.referee.history == []


def test_a_hu_press_on_an_added_kong_robs_it():
    """Rules-B 抢杠胡: seat 2 waits on 5p and robs seat 1's added kong; the robbed tile leaves the konger's row."""
    witness = observed()
    witness.seen(discard(0, "5p"))
    witness.pressed(claim(1))
    witness.seen(taken(0, "5p"))
    witness.seen(row(1, "555p"))
    for seat, tile in ((1, "1s"), (2, "5z"), (3, "6z"), (0, "7z")):
        witness.seen(discard(seat, tile))
    assert moves(witness.seen(row(1, "5555p"))) == [(K.DRAW, 1), (K.ADDED_KONG, 1)]
    assert witness.pressed(hu(2)) == []
    assert witness.seen(row(1, "555p")) == []
    assert moves(witness.seen(row(2, "46p777p888p999p11z5p"))) == [(K.HU, 2), (K.PASS, 3), (K.PASS, 0)]
    win = witness.referee.wins[0]
    assert win.context.robbing_kong and win.context.discarder == 1 and win.hand.win_tile == t("5p")
    assert witness.referee.seats[1].melds == [Meld(MeldKind.PUNG, t("5p"), 1)]  # the pung stands, from the 上家


def test_a_false_win_laid_down_is_fined_and_play_goes_on():
    """MCR (and the table model's procedure): a hand laid down on a hu press that is no win under the 8-fan minimum
    is fined 10 to each other player, counts as a pass, and is picked up again."""
    witness = observed(get_ruleset("mcr"))
    witness.seen(discard(0, "9p"))
    witness.pressed(hu(1))
    false_win, *passes = witness.seen(row(1, "123456m78p23455s"))
    assert moves([false_win, *passes]) == [(K.HU, 1), (K.PASS, 2), (K.PASS, 3)]
    assert "false win" in false_win.verdict.events[0]
    assert witness.referee.penalties == [{0: 10, 1: -30, 2: 10, 3: 10}]
    assert witness.seen(row(1, "")) == []
    assert moves(witness.seen(discard(1, "9p"))) == [(K.DRAW, 1), (K.DISCARD, 1)]


# --- misreads healed (issue 17) ---------------------------------------------------------------------------------


def unsure_discard(seat: int, *ranked: tuple[str, float]) -> Sight:
    """A discard the camera read with ranked choices, best first."""
    choices = (tuple((t(code), p) for code, p in ranked),)
    return Sight(SightKind.DISCARD, seat, (t(ranked[0][0]),), choices)


def read_row(seat: int, tiles: str, **other: tuple[tuple[str, float], ...]) -> Sight:
    """A row whose tiles were read sure, but at the positions of ``other`` (``p3=(("2m", .6), ("1m", .3))``)."""
    parsed = tuple(parse_tiles(tiles))
    choices = []
    for at, tile in enumerate(parsed):
        ranked = other.get(f"p{at}")
        choices.append(tuple((t(code), p) for code, p in ranked) if ranked else ((tile, 0.99),))
    return Sight(SightKind.ROW, seat, tuple(ranked[0][0] for ranked in choices), tuple(choices))


def test_a_discard_that_would_be_a_fifth_copy_is_read_as_its_next_choice():
    witness = observed()
    for seat, tile in ((0, "5m"), (1, "5m"), (2, "5m"), (3, "5m")):
        moves(witness.seen(discard(seat, tile)))
    note, *rest = witness.seen(unsure_discard(0, ("5m", 0.55), ("6m", 0.4), ("3m", 0.05)))
    assert note.verdict.ok and "taken as 6m" in note.verdict.events[0]
    assert moves(rest)[-1] == (K.DISCARD, 0) and witness.referee.seats[0].discards[-1] == t("6m")


def test_a_misread_discard_is_healed_when_its_pung_is_laid():
    witness = observed()
    witness.seen(unsure_discard(0, ("6m", 0.7), ("5m", 0.25), ("9m", 0.05)))  # a 5m, read 6m
    witness.pressed(claim(2))
    witness.seen(taken(0, "6m"))
    rulings = witness.seen(row(2, "555m"))
    assert any("seat 0's discard 6m taken as 5m" in " ".join(r.verdict.events) for r in rulings)
    assert not any(ruling.conflict for ruling in rulings)
    assert witness.referee.seats[2].melds[-1].tiles == (t("5m"),) * 3
    assert witness.referee.seats[0].discards == [] and witness.referee.turn == 2  # claimed away


def test_a_misread_tile_of_a_meld_is_read_as_its_next_choice():
    witness = observed()
    witness.seen(discard(0, "5m"))
    witness.pressed(claim(2))
    witness.seen(taken(0, "5m"))
    rulings = witness.seen(read_row(2, "565m", p1=(("6m", 0.6), ("5m", 0.3), ("9m", 0.1))))
    assert not any(ruling.conflict for ruling in rulings)
    assert witness.referee.seats[2].melds[-1].tiles == (t("5m"),) * 3


def test_a_row_shown_again_keeps_the_tiles_it_showed_even_read_without_them_among_the_choices():
    witness = observed()
    witness.seen(discard(0, "5m"))
    witness.pressed(claim(2))
    witness.seen(taken(0, "5m"))
    witness.seen(row(2, "555m"))
    witness.seen(discard(2, "1z"))
    witness.seen(discard(3, "7p"))
    witness.pressed(claim(0))
    witness.seen(taken(3, "7p"))
    witness.seen(row(0, "777p"))
    witness.seen(discard(0, "9s"))
    witness.seen(discard(1, "3z"))
    witness.pressed(claim(2))
    witness.seen(taken(1, "3z"))
    # the old pung's first 5m read as 3m, 3m's choices do not hold it: the row's old tiles are known
    rulings = witness.seen(read_row(2, "355m333z", p0=(("3m", 0.9), ("8m", 0.1))))
    assert not any(ruling.conflict for ruling in rulings), rulings
    assert [meld.tiles for meld in witness.referee.seats[2].melds] == [(t("5m"),) * 3, (t("3z"),) * 3]


def test_a_misread_discard_not_among_its_choices_is_read_as_the_meld_laid_with_it():
    witness = observed()
    witness.seen(unsure_discard(0, ("6m", 0.9), ("9m", 0.1)))  # a 5m; neither choice is
    witness.pressed(claim(2))
    witness.seen(taken(0, "6m"))
    rulings = witness.seen(row(2, "555m"))
    assert not any(ruling.conflict for ruling in rulings)
    assert witness.referee.seats[2].melds[-1].tiles == (t("5m"),) * 3


def test_a_reading_nothing_heals_is_shown_doubtful_and_the_seats_correction_replays_the_hand():
    witness = observed()
    witness.seen(discard(0, "5m"))
    witness.pressed(claim(2))
    witness.seen(taken(0, "5m"))
    rulings = witness.seen(read_row(2, "565m", p1=(("6m", 0.9), ("9m", 0.1))))  # the 5m read 6m, 5m not a choice
    assert any(ruling.conflict for ruling in rulings)
    shown = {entry["seat"]: entry for entry in witness.unsure}
    assert shown[2]["doubtful"] and shown[2]["tiles"] == ["5m", "6m", "5m"] and shown[2]["n"] == 2
    assert shown[2]["unsure"] == [{"at": 1, "choices": [["6m", 0.9], ["9m", 0.1]]}]  # the least sure tile
    assert shown[0]["doubtful"] and shown[0]["tiles"] == ["5m"]  # the discard on offer may be the misread one
    rulings = witness.seen(Sight(SightKind.CORRECT, 2, tuple(parse_tiles("555m")), about=2))
    assert "seat 2 says" in rulings[0].verdict.events[0] and not any(ruling.conflict for ruling in rulings)
    assert witness.referee.seats[2].melds[-1].tiles == (t("5m"),) * 3
    assert [entry["seat"] for entry in witness.unsure if entry["doubtful"]] == [0]


def test_a_reading_healed_for_a_misread_discard_goes_back_when_its_seat_corrects_that_discard():
    """A discard misread as a fifth 5m is healed by taking another seat's earlier 5m (less sure) as its second
    choice; when the discard's seat says what it was (7p), the earlier 5m was right after all and is read so again
    (hangzhou, bench_healing hand 88: the wrong heal stood, a fifth copy refused a later pung, the hand was voided)."""
    witness = observed()
    witness.seen(unsure_discard(0, ("5m", 0.8), ("6m", 0.1), ("9m", 0.1)))
    for seat in (1, 2, 3):
        moves(witness.seen(discard(seat, "5m")))
    rulings = witness.seen(unsure_discard(0, ("5m", 0.4), ("9p", 0.02), ("1z", 0.01)))  # a 7p, misread
    assert "seat 0's discard 5m taken as 6m" in rulings[0].verdict.events[0]
    assert witness.referee.seats[0].discards == [t("6m"), t("5m")]
    rulings = witness.seen(Sight(SightKind.CORRECT, 0, (t("7p"),), about=4))
    assert "seat 0 says" in rulings[0].verdict.events[0] and not any(ruling.conflict for ruling in rulings)
    assert witness.referee.seats[0].discards == [t("5m"), t("7p")]


def test_short_presses_of_the_seat_pick_among_its_readings():
    witness = observed()
    witness.seen(unsure_discard(0, ("6m", 0.45), ("5m", 0.4), ("9m", 0.15)))
    assert [entry["seat"] for entry in witness.unsure] == [0]  # below the confidence level: open
    assert witness.pressed(claim(0))[0].verdict.ok  # once (no tile on offer to him): the reading shown, confirmed
    assert witness.referee.seats[0].discards == [t("6m")] and witness.unsure[0]["confirmed"]
    witness.pressed(claim(0))  # twice: the second choice
    assert witness.referee.seats[0].discards == [t("5m")]
    witness.pressed(claim(0))  # three times: the third
    assert witness.referee.seats[0].discards == [t("9m")]
    assert witness.pressed(claim(1)) == [] and witness.referee.offer == t("9m")  # seat 1's press claims, as ever


def test_a_correction_with_nothing_to_correct_or_the_wrong_count_is_refused():
    witness = observed()
    (refused,) = witness.seen(Sight(SightKind.CORRECT, 1, (t("5m"),)))
    assert not refused.verdict.ok and "none of his is open" in refused.verdict.reason
    witness.seen(unsure_discard(0, ("6m", 0.45), ("5m", 0.4)))
    (refused,) = witness.seen(Sight(SightKind.CORRECT, 0, (t("5m"), t("6m"))))
    assert "2 tiles for the 1 of his discard" in refused.verdict.reason


def test_a_hand_laid_down_out_of_order_is_read_in_order():
    """People lay a hand down sorted, the winning tile last: a 7m misread 4m still makes a win (456m 789m 99m), but
    lies out of order, so the tile is read as one that puts it in order (a 7m or an 8m; only the 7m wins). A hand
    read otherwise than the camera read it is in doubt: the win is held for its winner to confirm, paid at the quiet
    window."""
    witness = observed()
    witness.seen(discard(0, "9m"))
    witness.pressed(hu(1))
    witness.seen(taken(0, "9m"))
    rulings = witness.seen(read_row(1, "5674899m123456p9m", p3=(("4m", 0.9), ("1m", 0.1))))
    assert not any(ruling.conflict for ruling in rulings), rulings
    assert "taken as 5677899m123456p9m" in rulings[0].verdict.events[0]
    assert witness.referee.result is None and "seat 1 to confirm" in (witness.waiting or "")
    assert moves(witness.seen(QUIET)) == [(K.HU, 1), (K.PASS, 2), (K.PASS, 3)]
    win = witness.referee.wins[0]
    assert sorted(win.hand.standing) == parse_tiles("5677899m123456p") and win.hand.win_tile == t("9m")


def test_a_hand_laid_down_out_of_order_that_nothing_heals_stands_and_is_shown_doubtful():
    witness = observed()
    witness.seen(discard(0, "7z"))
    witness.pressed(hu(1))
    witness.seen(taken(0, "7z"))
    rulings = witness.seen(row(1, "22m11m33m44p55p66s7z7z"))  # sure tiles, laid out of order
    assert [r.verdict.reason for r in rulings if r.conflict] == [
        "seat 1 laid down 221133m4455p66s77z out of order: a hand is laid down sorted, the winning tile last"
    ]
    assert witness.referee.result is not None and witness.referee.result.winners == (1,)  # the win stands
    assert [entry["seat"] for entry in witness.unsure if entry["doubtful"]] == [0, 1]


def test_a_discard_corrected_by_its_seat_is_the_tile_taken_read_as_the_camera_read_the_discard():
    """The take is read as the discard was (5z); the seat said the discard is a 7z: a hu on it, not a self-draw."""
    witness = observed()
    seen = unsure_discard(0, ("5z", 0.08), ("5f", 0.07), ("6f", 0.06))
    witness.seen(seen)
    witness.seen(Sight(SightKind.CORRECT, 0, (t("7z"),)))
    witness.pressed(hu(1))
    assert witness.seen(replace(seen, kind=SightKind.TAKEN)) == []
    assert moves(witness.seen(row(1, SEVEN_PAIRS + "7z"))) == [(K.HU, 1), (K.PASS, 2), (K.PASS, 3)]
    assert witness.referee.wins[0].context.discarder == 0


def test_the_witness_heals_the_same_way_when_its_inputs_are_fed_again():
    """Replaying the journal (a restart) reaches the same state: healing and corrections are functions of the
    inputs."""
    inputs = [
        unsure_discard(0, ("6m", 0.7), ("5m", 0.25)),
        claim(2),
        taken(0, "6m"),
        row(2, "555m"),
        unsure_discard(2, ("1z", 0.45), ("2z", 0.4)),
        Sight(SightKind.CORRECT, 2, (t("2z"),)),
        discard(3, "7p"),
    ]
    states = []
    for _ in range(2):
        witness = observed()
        for item in inputs:
            witness.seen(item) if isinstance(item, Sight) else witness.pressed(item)
        states.append(witness.referee.to_dict())
    assert states[0] == states[1] and states[0]["seats"][2]["discards"] == "2z"


# --- the sights as journaled (issue 17: ranked readings) ------------------------------------------------------


def test_a_sight_keeps_its_ranked_readings_in_the_journal_and_an_old_sight_reads_as_its_one_reading():
    sight = Sight(SightKind.DISCARD, 2, (t("6m"),), (((t("6m"), 0.6), (t("5m"), 0.3), (t("9m"), 0.1)),))
    data = sight.to_dict()
    assert data == {"sight": "discard", "seat": 2, "tiles": "6m", "choices": [[["6m", 0.6], ["5m", 0.3], ["9m", 0.1]]]}
    again = Sight.from_dict(data)
    assert again == sight and again.choices == sight.choices and again.unsure() == []
    old = Sight.from_dict({"sight": "row", "seat": 1, "tiles": "555m"})
    assert old.choices == () and old.readings(1) == ((t("5m"), 1.0),) and old.unsure() == []
    correction = Sight(SightKind.CORRECT, 1, (t("5m"),), about=7)
    assert Sight.from_dict(correction.to_dict()).about == 7


@pytest.mark.parametrize(
    ("choices", "error"),
    [
        ("6m", "expected a list of ranked readings per tile"),
        ([[["5m", 0.6]]], "the first reading is not the tile 6m"),
        ([[["6m", 1.5]]], "probability 1.5: expected a number 0-1"),
        ([[["6x", 0.5]]], "sight.choices[0]"),
        ([[]], "expected 1-5 [tile, probability] pairs"),
        ([[["6m"]]], "expected [tile, probability] pairs"),
    ],
)
def test_a_journaled_sight_with_bad_choices_is_named(choices, error):
    with pytest.raises(ValueError, match=re.escape(error)):
        Sight.from_dict({"sight": "discard", "seat": 2, "tiles": "6m", "choices": choices})


# --- the wall's faces of the wild rulesets, opening wins, 九種九牌 (issues 25 and 26) ------------------------------

WALL_FACES = [("hubei-laizi", 49), ("wuhan", 49), ("tuidaohu", 0), ("changsha", 20), ("riichi", 41)]
"""A seed each whose hand needs what a camera table shows only there: an opening win (独抬庄 seed 49, 起手胡 seed 20),
九種九牌 (riichi seed 41); and every hand its indicator, birds or horses."""


@pytest.mark.parametrize(("rules", "special"), WALL_FACES)
def test_the_witness_referees_the_wall_rulesets_to_the_same_end(rules, special):
    """The indicator read before play, birds and horses read at the win, a dealt hand laid down at the opening and
    taken up again, a first turn's whole hand laid down for 九種九牌."""
    ruleset = get_ruleset(rules)
    robbed = (22,) if rules == "changsha" else ()  # seed 22: a robbed kong's win waits for its birds
    for seed in (special, 1, 2, *robbed):
        agree(*played_both_ways(ruleset, seed, seed % 2 == 1))
    full, seen, _ = played_both_ways(ruleset, special, False)
    opening = rules in ("hubei-laizi", "wuhan", "changsha")
    assert (seen.opening_shown != frozenset()) == opening and full.result.abortive == seen.result.abortive  # type: ignore[union-attr]


def test_a_whole_hand_laid_at_the_opening_that_wins_nothing_is_refused():
    witness = Witness(Referee.observe(get_ruleset("changsha"), dealer=0, dice=(3, 4)))
    [refused] = witness.seen(row(1, "123m456p789s123m4p"))  # every suit, a 2-5-8, no four or pair of pungs
    assert refused.action is not None and refused.action.kind is K.SHOW and refused.conflict
    assert "wins nothing at the opening" in refused.verdict.reason
