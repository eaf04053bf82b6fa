import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, ActionKind
from engine.notation import Meld, MeldKind
from engine.referee import Phase, Referee
from engine.rulesets.registry import get_ruleset
from engine.simulation import simulate
from engine.tiles import parse_tile
from tests.engine.stacked import stacked

K = ActionKind
BASIC = get_ruleset("basic")


def t(code: str) -> int:
    return parse_tile(code)


def act(referee: Referee, kind: ActionKind, seat: int, tile: str | None = None, **extra) -> None:
    verdict = referee.apply(Action(kind, seat, None if tile is None else t(tile), **extra))
    assert verdict.ok, verdict.reason


def rejected(referee: Referee, kind: ActionKind, seat: int, tile: str | None = None, **extra) -> str:
    before = referee.to_dict()
    verdict = referee.apply(Action(kind, seat, None if tile is None else t(tile), **extra))
    assert not verdict.ok
    assert referee.to_dict() == before, "an illegal action changed the state"
    return verdict.reason


# Dealer 0 holds 14; the others 13. Seat 1 can chow 3m-4m-5m on a 4m, seat 2 can pung 9p, seat 3 waits on 9p.
HANDS = {
    0: "4m9p1234567z1s2s3s4s",
    1: "35m12345678p6s7s8s",
    2: "99p11m22m33m44m5s6s7s",
    3: "11s22s33s44s55s66s9p",
}


def test_turn_order_draw_discard_and_wrong_seats():
    referee = stacked(BASIC, HANDS, draws="8s8s")
    assert "seat 0's turn" in rejected(referee, K.DISCARD, 1, "3m")
    assert "holds no 9s" in rejected(referee, K.DISCARD, 0, "9s")
    act(referee, K.DISCARD, 0, "1z")
    assert referee.phase is Phase.CLAIMS
    assert "answers of seats" in rejected(referee, K.DRAW, 2)
    act(referee, K.DRAW, 1)  # nobody answered: the next seat drawing means all passed
    assert referee.turn == 1 and referee.seats[1].known[t("8s")] == 2 and referee.last_drawn == t("8s")
    assert "seat 1's turn to act" in rejected(referee, K.DRAW, 1)


def test_chi_only_from_the_previous_player_and_priority_pung_over_chi():
    referee = stacked(BASIC, HANDS)
    act(referee, K.DISCARD, 0, "9p")
    assert "only from the 上家" in rejected(referee, K.CHI, 3, "7p")
    assert "no chow from 9p" in rejected(referee, K.CHI, 1, "9p")
    act(referee, K.CHI, 1, "7p")
    act(referee, K.PUNG, 2)
    act(referee, K.PASS, 3)
    # The pung by the 对家 wins over the chow and skips seat 1.
    assert referee.phase is Phase.ACT and referee.turn == 2
    assert referee.seats[2].melds == [Meld(MeldKind.PUNG, t("9p"), 2)]
    assert referee.seats[0].discards == []
    assert "no self-draw" in rejected(referee, K.HU, 2)
    act(referee, K.DISCARD, 2, "5s")
    act(referee, K.DRAW, 3)
    referee.check_balance()


def test_chow_claim_records_the_claimed_tile():
    referee = stacked(BASIC, HANDS)
    act(referee, K.DISCARD, 0, "4m")
    act(referee, K.CHI, 1, "3m")
    act(referee, K.PASS, 2)
    act(referee, K.PASS, 3)
    assert referee.seats[1].melds == [Meld(MeldKind.CHOW, t("3m"), 2)]
    assert referee.turn == 1 and referee.phase is Phase.ACT


def test_a_win_beats_a_pung_and_ends_the_hand_with_payments():
    referee = stacked(BASIC, HANDS)
    act(referee, K.DISCARD, 0, "9p")
    act(referee, K.PUNG, 2)
    act(referee, K.PASS, 1)
    act(referee, K.HU, 3)  # seven pairs on 9p
    assert referee.phase is Phase.OVER
    result = referee.result
    assert result is not None and result.winners == (3,)
    # basic 1-2-4, 全陪: the dealer (seat 0) discarded to a non-dealer: dealer pays 2, the others 1 each.
    assert result.payments == {0: -2, 1: -1, 2: -1, 3: 4}
    assert "the hand is over" in rejected(referee, K.DRAW, 1)


def test_a_false_win_is_rejected_and_changes_nothing():
    referee = stacked(BASIC, HANDS)
    act(referee, K.DISCARD, 0, "9p")
    assert "not one" in rejected(referee, K.HU, 1)


def test_several_winners_first_in_turn_order_after_the_discarder():
    hands = dict(HANDS)
    hands[1] = "11p22p33p44p55p66p7z"  # waits on 7z by seven pairs
    hands[3] = "11s22s33s44s55s66s7z"
    referee = stacked(BASIC, hands)
    act(referee, K.DISCARD, 0, "7z")
    act(referee, K.HU, 3)
    act(referee, K.HU, 1)
    act(referee, K.PASS, 2)
    assert referee.result is not None and referee.result.winners == (1,)


def test_concealed_kong_draws_from_the_tail_and_allows_a_kong_self_draw():
    hands = {0: "1111m234m567m89p55s", 1: "123p456p789p1z2z3z4z"}
    referee = stacked(BASIC, hands, replacements="7p")
    live_before = referee.wall.live_remaining
    act(referee, K.CONCEALED_KONG, 0, "1m")
    assert referee.wall.live_remaining == live_before - 1
    assert referee.seats[0].melds == [Meld(MeldKind.KONG, t("1m"))]
    act(referee, K.HU, 0)
    assert referee.wins[0].context.after_kong and referee.wins[0].hand.win_tile == t("7p")


KONG_HANDS = {
    0: "5p1z2z3z4z1m2m3m4m5m6m7m8m9m",
    1: "55p1s2s3s4s5s6s7s8s9s1p2p",
    3: "11m22m33m44m55m66m1s",
}


def added_kong_on_offer(seat2: str, replacements: str = "") -> Referee:
    """Seat 1 pungs the dealer's 5p, draws the fourth 5p three turns later and declares an added kong."""
    referee = stacked(BASIC, {**KONG_HANDS, 2: seat2}, draws="5z6z7z5p", replacements=replacements)
    act(referee, K.DISCARD, 0, "5p")
    act(referee, K.PUNG, 1)
    act(referee, K.PASS, 2)
    act(referee, K.PASS, 3)
    assert referee.seats[1].melds == [Meld(MeldKind.PUNG, t("5p"), 1)]
    act(referee, K.DISCARD, 1, "1s")
    for seat, tile in ((2, "5z"), (3, "6z"), (0, "7z")):
        act(referee, K.DRAW, seat)
        act(referee, K.DISCARD, seat, tile)
    act(referee, K.DRAW, 1)
    act(referee, K.ADDED_KONG, 1, "5p")
    assert referee.phase is Phase.ROB
    referee.check_balance()
    return referee


def test_added_kong_can_be_robbed_and_is_settled_as_the_kongers_discard():
    referee = added_kong_on_offer("46p777p888p999p11z")  # seat 2 waits on 5p
    assert "robbed by a win" in rejected(referee, K.PUNG, 2)
    act(referee, K.HU, 2)
    act(referee, K.PASS, 3)
    act(referee, K.PASS, 0)
    win = referee.wins[0]
    assert win.context.robbing_kong and win.context.discarder == 1 and win.hand.situation.kong_related
    # BA-2, 全陪 1-2-4: the dealer pays 2 (dealer involved), seats 1 and 3 pay 1 each.
    assert referee.result is not None and referee.result.payments == {0: -2, 1: -1, 2: 4, 3: -1}
    assert referee.seats[1].melds == [Meld(MeldKind.PUNG, t("5p"), 1)]
    referee.check_balance()


def test_unrobbed_added_kong_completes_with_a_replacement():
    referee = added_kong_on_offer("13p777p888p999p11z", replacements="3p")
    assert "not one" in rejected(referee, K.HU, 2)
    for seat in (2, 3, 0):
        act(referee, K.PASS, seat)
    assert referee.seats[1].melds == [Meld(MeldKind.KONG, t("5p"), 5)]
    assert referee.phase is Phase.ACT and referee.turn == 1 and referee.last_drawn == t("3p")
    referee.check_balance()


def test_the_hand_is_drawn_when_the_live_wall_runs_out():
    referee = Referee.deal(BASIC, 5, dealer=1)
    while referee.phase is not Phase.OVER:
        if referee.phase is Phase.ACT:
            drawn = referee.last_drawn
            tile = drawn if drawn is not None else referee.seats[referee.turn].concealed_tiles()[0]
            referee.apply(Action(K.DISCARD, referee.turn, tile))
        elif referee.phase is Phase.CLAIMS:
            nxt = (referee.offer_seat + 1) % 4
            if referee.wall.exhausted:
                assert "exhausted" in rejected(referee, K.DRAW, nxt)
                assert "only a win" in rejected(referee, K.PUNG, nxt)
                for k in (1, 2, 3):
                    act(referee, K.PASS, (referee.offer_seat + k) % 4)
            else:
                act(referee, K.DRAW, nxt)
        referee.check_balance()
    assert referee.result is not None and referee.result.drawn
    assert referee.result.payments == {0: 0, 1: 0, 2: 0, 3: 0}
    assert referee.wall.live_remaining == 0
    # every tile but the four standing hands ends in a river
    assert sum(len(seat.discards) for seat in referee.seats) == BASIC.tile_set.size - 4 * 13


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_exactly_the_legal_actions_are_accepted_and_rejections_change_nothing(seed, dealer):
    """A random walk through a hand: every candidate action outside ``legal_actions`` is rejected without a
    change, every one inside is accepted, and the tiles balance after every step."""
    rng = random.Random(seed)
    referee = Referee.deal(BASIC, seed, dealer)
    for _ in range(60):
        if referee.phase is Phase.OVER:
            break
        legal = referee.legal_actions()
        assert legal, "no legal action in a running hand"
        for _ in range(6):
            candidate = Action(rng.choice(list(ActionKind)), rng.randrange(4), rng.choice([None, rng.randrange(34)]))
            before = referee.to_dict()
            verdict = referee.apply(candidate)
            assert verdict.ok == (candidate in legal), (candidate, verdict)
            if not verdict.ok:
                assert referee.to_dict() == before
            else:
                referee.check_balance()
                break
        else:
            assert referee.apply(rng.choice(legal)).ok
            referee.check_balance()


def test_simulation_is_deterministic_balanced_and_settles_every_hand():
    first = [hand.to_dict() for hand in simulate(BASIC, 12, seed=3)]
    again = [hand.to_dict() for hand in simulate(BASIC, 12, seed=3)]
    other = [hand.to_dict() for hand in simulate(BASIC, 12, seed=4)]
    assert first == again
    assert first != other
    for hand in first:
        assert sum(hand["payments"].values()) == 0
        assert hand["drawn"] == (hand["winners"] == [])


@pytest.mark.parametrize("options", [{"tile_set": 144}, {"payment_scheme": "不陪", "base_scheme": "1-2"}])
def test_simulation_runs_under_options(options):
    ruleset = get_ruleset("basic", options)
    hands = list(simulate(ruleset, 6, seed=11))
    assert len(hands) == 6
    if options.get("tile_set") == 144:
        assert any(seat.flowers for hand in hands for seat in hand.referee.seats)


# --- partial information: what a table sees ---------------------------------------------------------------


def observed() -> Referee:
    return Referee.observe(BASIC, dealer=0, dice=(3, 4))


def test_observed_hand_counts_the_wall_like_a_full_one():
    full = Referee.deal(BASIC, 1, dealer=0, dice=(3, 4))
    seen = observed()
    assert seen.wall.live_remaining == full.wall.live_remaining == 136 - 53
    assert [s.size for s in seen.seats] == [14, 13, 13, 13]
    assert all(s.unknown == s.size for s in seen.seats)


def test_observed_play_checks_turns_claims_and_tile_counts():
    referee = observed()
    act(referee, K.DISCARD, 0, "5m")
    assert "only from the 上家" in rejected(referee, K.CHI, 2, "4m")
    act(referee, K.DRAW, 1)
    act(referee, K.DISCARD, 1, "5m")
    act(referee, K.PUNG, 3)
    act(referee, K.PASS, 0)
    act(referee, K.PASS, 2)
    assert referee.seats[3].melds == [Meld(MeldKind.PUNG, t("5m"), 2)]
    assert referee.seats[3].size == 13 - 2 + 0 and referee.seats[3].unknown == 11
    # all four 5m are now seen (one in seat 0's river, three in the pung): a fifth cannot be discarded
    assert "5 copies of 5m" in rejected(referee, K.DISCARD, 3, "5m")
    act(referee, K.DISCARD, 3, "9s")
    referee.check_balance()


def test_observed_win_needs_a_revealed_hand_that_matches_the_count():
    referee = observed()
    act(referee, K.DISCARD, 0, "7z")
    assert "must reveal" in rejected(referee, K.HU, 1)
    wrong_size = tuple(map(t, ["1m", "1m", "2m", "2m", "3m", "3m"]))
    assert "not the 13 concealed tiles" in rejected(referee, K.HU, 1, revealed=wrong_size)
    not_a_win = tuple(map(t, ["1m", "2m", "4m", "5m", "7m", "8m", "1p", "2p", "4p", "5p", "7p", "8p", "9s"]))
    assert "not one" in rejected(referee, K.HU, 1, revealed=not_a_win)
    seven_pairs = tuple(map(t, ["1m", "1m", "2m", "2m", "3m", "3m", "4p", "4p", "5p", "5p", "6s", "6s", "7z"]))
    act(referee, K.HU, 1, revealed=seven_pairs)
    act(referee, K.PASS, 2)
    act(referee, K.PASS, 3)
    assert referee.result is not None and referee.result.winners == (1,)
    assert referee.wins[0].hand.standing == seven_pairs and referee.wins[0].hand.win_tile == t("7z")


def test_observed_flowers_are_declared_in_the_opening():
    ruleset = get_ruleset("basic", {"tile_set": 144})
    referee = Referee.observe(ruleset, dealer=0, dice=(2, 2))
    live = referee.wall.live_remaining
    act(referee, K.FLOWER, 2, "3f")
    assert referee.wall.live_remaining == live - 1 and referee.seats[2].flowers == [t("3f")]
    assert "2 copies of 3f seen, the set has 1" in rejected(referee, K.FLOWER, 1, "3f")
    act(referee, K.DISCARD, 0, "1m")
    assert "seat 0's turn" not in rejected(referee, K.FLOWER, 1, "4f")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(ActionKind)), st.integers(0, 3), st.integers(0, 41)), max_size=80))
def test_observed_table_never_sees_more_copies_than_the_set_holds(moves):
    """Whatever sequence a table reports, the referee never accepts a fifth visible copy, and the counted tiles
    always add up to the set."""
    ruleset = get_ruleset("basic", {"tile_set": 144})
    referee = Referee.observe(ruleset, dealer=0, dice=(4, 5))
    for kind, seat, tile in moves:
        uses_tile = kind in (K.DISCARD, K.FLOWER, K.CONCEALED_KONG, K.ADDED_KONG, K.CHI)
        referee.apply(Action(kind, seat, tile if uses_tile else None))
        referee.check_balance()
        for face in range(42):
            assert referee._visible_count(face) <= ruleset.tile_set.copies[face]


def test_a_false_win_under_a_penalising_ruleset_is_fined_and_play_goes_on():
    mcr = get_ruleset("mcr")
    referee = stacked(mcr, {0: "9p1z2z3z4z5z6z7z1m1s2s3s4s5s", 1: "123m456m78p234s55s"})
    act(referee, K.DISCARD, 0, "9p")
    verdict = referee.apply(Action(K.HU, 1))
    assert verdict.ok and "false win" in verdict.events[0]
    # 5 fans is below the 8-fan minimum: the declarer pays 10 to each other player, and it counts as his pass.
    assert referee.penalties == [{0: 10, 1: -30, 2: 10, 3: 10}]
    assert referee.phase is Phase.CLAIMS and referee.responses[1].kind is K.PASS
    assert not referee.would_win(2)
    act(referee, K.PASS, 2)
    act(referee, K.PASS, 3)
    act(referee, K.DRAW, 1)
    assert referee.phase is Phase.ACT and referee.turn == 1
