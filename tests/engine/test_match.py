"""Dealer rotation, round wind and the match record: fan.md §1.5 row by row, BA-4..BA-6, rules-B §2.5-2.6."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import IllegalAction, RulesetError
from engine.match import (
    DealState,
    HandResult,
    Match,
    MultiWinDealer,
    Rotation,
    RotationPolicy,
    Win,
    next_deal,
)

TRADITIONAL = RotationPolicy()
DRAWN_PASSES = RotationPolicy(drawn_dealer_passes=True)
COMPETITION = RotationPolicy(Rotation.COMPETITION)
MAX3 = RotationPolicy(max_consecutive=3)
WINNER_DEALS = RotationPolicy(Rotation.WINNER_DEALS)

DEALER = 1
"""Dealer of the hands below; his 下家 is seat 2."""
ZERO = {0: 0, 1: 0, 2: 0, 3: 0}
DEALER_WINS = HandResult.win(DEALER, {0: -1, 1: 3, 2: -1, 3: -1})
OTHER_WINS = HandResult.win(3, {0: 0, 1: -1, 2: 0, 3: 1}, discarder=1)
DRAWN = HandResult.draw()


def after(policy, result, consecutive=1, dealer=DEALER):
    state = next_deal(policy, DealState(dealer, first_dealer=0, consecutive_dealer=consecutive), result)
    return state.dealer, state.consecutive_dealer


# fan.md §1.5: (policy, n, result) -> (next dealer, next n)
ROTATION_TABLE = [
    # traditional: dealer wins → stays n+1; non-dealer wins → 下家, 1; drawn → stays n+1
    (TRADITIONAL, 1, DEALER_WINS, (1, 2)),
    (TRADITIONAL, 4, DEALER_WINS, (1, 5)),
    (TRADITIONAL, 2, OTHER_WINS, (2, 1)),
    (TRADITIONAL, 2, DRAWN, (1, 3)),
    # traditional + drawn_dealer_passes: stays / 下家 / 下家
    (DRAWN_PASSES, 1, DEALER_WINS, (1, 2)),
    (DRAWN_PASSES, 1, OTHER_WINS, (2, 1)),
    (DRAWN_PASSES, 2, DRAWN, (2, 1)),
    # competition: 下家 whatever happens
    (COMPETITION, 1, DEALER_WINS, (2, 1)),
    (COMPETITION, 1, OTHER_WINS, (2, 1)),
    (COMPETITION, 1, DRAWN, (2, 1)),
    # max3: stays unless n = 3 / 下家 / stays unless n = 3
    (MAX3, 1, DEALER_WINS, (1, 2)),
    (MAX3, 2, DEALER_WINS, (1, 3)),
    (MAX3, 3, DEALER_WINS, (2, 1)),
    (MAX3, 1, OTHER_WINS, (2, 1)),
    (MAX3, 2, DRAWN, (1, 3)),
    (MAX3, 3, DRAWN, (2, 1)),
    # winner_deals: winner (= dealer) / the winner / dealer stays (BA-5)
    (WINNER_DEALS, 1, DEALER_WINS, (1, 2)),
    (WINNER_DEALS, 2, OTHER_WINS, (3, 1)),
    (WINNER_DEALS, 1, DRAWN, (1, 2)),
]


@pytest.mark.parametrize(("policy", "n", "result", "expected"), ROTATION_TABLE)
def test_rotation_table(policy, n, result, expected):
    assert after(policy, result, n) == expected


def test_max3_counts_the_first_hand_and_draws():  # BA-4
    deal = DealState(DEALER, first_dealer=0)
    for result in (DEALER_WINS, DRAWN):
        deal = next_deal(MAX3, deal, result)
        assert deal.dealer == DEALER
    deal = next_deal(MAX3, deal, DEALER_WINS)  # his third hand in a row, first included
    assert (deal.dealer, deal.consecutive_dealer) == (2, 1)


def test_traditional_dealer_among_several_winners_stays():
    both = HandResult((Win((DEALER, 0), discarder=3),), {0: 1, 1: 1, 2: 0, 3: -2})
    assert after(TRADITIONAL, both) == (1, 2)


@pytest.mark.parametrize(
    ("multi", "expected"), [(MultiWinDealer.FIRST_AFTER_DISCARDER, 3), (MultiWinDealer.DISCARDER, 2)]
)
def test_winner_deals_after_several_winners_on_one_discard(multi, expected):
    # discarder 2; winners 0 and 3: in turn order after 2 comes 3 first, then 0.
    result = HandResult((Win((0, 3), discarder=2),), {0: 1, 1: 0, 2: -2, 3: 1})
    assert result.winners == (3, 0)
    policy = RotationPolicy(Rotation.WINNER_DEALS, multi_win_dealer=multi)
    assert after(policy, result)[0] == expected


def test_winner_deals_goes_to_the_first_win_of_a_continued_hand():
    # 血战: seat 2 wins first, then seat 0.
    result = HandResult((Win((2,), discarder=1), Win((0,))), {0: 2, 1: -2, 2: 1, 3: -1})
    assert after(WINNER_DEALS, result)[0] == 2


def test_max_consecutive_under_winner_deals():
    harbin = RotationPolicy(Rotation.WINNER_DEALS, max_consecutive=9)
    assert after(harbin, DEALER_WINS, consecutive=8) == (1, 9)
    assert after(harbin, DEALER_WINS, consecutive=9) == (2, 1)


# --- round wind (BA-6) ---------------------------------------------------------------------------------------


def play(policy, results, first_dealer=0):
    match = Match.start(policy, first_dealer)
    states = []
    for result in results:
        match = match.record_hand(result)
        states.append((match.deal.dealer, match.deal.round_wind, match.game_over))
    return match, states


def non_dealer_win(dealer):
    winner = (dealer + 2) % 4
    return HandResult.win(winner, {**ZERO, winner: 1, dealer: -1}, discarder=dealer)


def test_competition_full_game_sixteen_hands():
    match = Match.start(COMPETITION, 0)
    for hand in range(16):
        assert match.deal.dealer == hand % 4
        assert match.deal.round_wind == hand // 4
        assert not match.game_over
        match = match.record_hand(DRAWN)
    assert match.game_over
    assert match.hands_played == 16
    with pytest.raises(IllegalAction):
        match.record_hand(DRAWN)


def test_traditional_round_advances_only_when_the_deal_returns_to_the_first_dealer():
    match = Match.start(TRADITIONAL, 2)
    # The first dealer (2) holds the deal through a win and a draw: still East round.
    match = match.record_hand(HandResult.win(2, {0: -1, 1: -1, 2: 3, 3: -1}))
    match = match.record_hand(DRAWN)
    assert (match.deal.dealer, match.deal.consecutive_dealer, match.deal.round_wind) == (2, 3, 0)
    expected_dealers = [3, 0, 1, 2]
    for dealer in expected_dealers:
        match = match.record_hand(non_dealer_win(match.deal.dealer))
        assert match.deal.dealer == dealer
    assert match.deal.round_wind == 1  # back to seat 2: South round
    assert match.deal.consecutive_dealer == 1


def test_traditional_full_game_ends_after_north():
    match = Match.start(TRADITIONAL, 0)
    winds = []
    while not match.game_over:
        winds.append(match.deal.round_wind)
        match = match.record_hand(non_dealer_win(match.deal.dealer))
    assert winds == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    assert match.to_dict()["game_over"] is True


def test_winner_deals_counts_no_rounds():
    match = Match.start(WINNER_DEALS, 0)
    for _ in range(20):
        match = match.record_hand(non_dealer_win(match.deal.dealer))
    assert match.deal.round_wind == 0 and not match.game_over


def test_loss_limit_ends_a_winner_deals_match():
    match = Match.start(WINNER_DEALS, 0, loss_limit=2)
    match = match.record_hand(HandResult.win(2, {0: -2, 1: 0, 2: 2, 3: 0}, discarder=0))
    assert not match.game_over  # losses of exactly the limit do not pass it
    match = match.record_hand(HandResult.win(1, {0: -1, 1: 1, 2: 0, 3: 0}, discarder=0))
    assert match.scores == (-3, 1, 2, 0)
    assert match.game_over


# --- seat wind, scores, serialisation --------------------------------------------------------------------------


def test_seat_wind_follows_the_dealer():
    match = Match.start(TRADITIONAL, 2)
    assert [match.seat_wind(seat) for seat in range(4)] == [2, 3, 0, 1]


def test_scores_accumulate_exactly():
    match = Match.start(TRADITIONAL, 0)
    match = match.record_hand(HandResult.win(1, {0: -1, 1: 2.5, 2: -1, 3: -0.5}, discarder=2))
    match = match.record_hand(HandResult.win(3, {0: -0.5, 1: -1, 2: -0.5, 3: 2}, discarder=1))
    assert match.scores == (-1.5, 1.5, -1.5, 1.5)


def test_match_round_trips_through_json_shape():
    match = Match.start(MAX3, 3, loss_limit=50)
    match = match.record_hand(HandResult.win(3, {0: -1, 1: -1, 2: -1, 3: 3}))
    assert Match.from_dict(match.to_dict()) == match
    result = HandResult((Win((0, 3), discarder=2),), {0: 1, 1: 0, 2: -2, 3: 1})
    assert HandResult.from_dict(result.to_dict()) == result


def test_from_winners_reads_the_settle_next_dealer_query():
    together = HandResult.from_winners([0, 3], discarder=2)
    assert together.wins == (Win((0, 3), 2),) and together.winners == (3, 0)
    one_after_another = HandResult.from_winners([2, 0])
    assert one_after_another.wins == (Win((2,)), Win((0,)))
    assert HandResult.from_winners([]).drawn
    assert after(WINNER_DEALS, one_after_another)[0] == 2


def test_hand_result_rejects_unbalanced_payments():
    with pytest.raises(RulesetError, match="sum to 0"):
        HandResult.win(1, {0: -1, 1: 2, 2: 0, 3: 0})


def test_hand_result_rejects_a_winner_who_discarded():
    with pytest.raises(RulesetError, match="discarder"):
        HandResult.win(1, ZERO, discarder=1)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 8)), max_size=30))
def test_scores_always_sum_to_zero(hands):
    match = Match.start(TRADITIONAL, 0)
    for winner, loser, amount in hands:
        if match.game_over:
            break
        result = DRAWN if winner == loser else HandResult.win(winner, {**ZERO, winner: amount, loser: -amount}, loser)
        match = match.record_hand(result)
    assert sum(match.scores) == 0
