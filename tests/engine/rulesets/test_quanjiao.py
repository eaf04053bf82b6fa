"""全椒打番 (fan.md §2): hand-worked cases from the specification, the source's worked numbers (S001:31), payments
that always sum to zero, and full simulated hands."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import MjtableError
from engine.rulesets.registry import get_ruleset
from engine.simulation import simulate
from tests.engine.rulesets.regional import ask, fans_of, paid

Q = "quanjiao"
TWO_FANS = ("123m456m789p234p5z", "5z")
"""不下 1 + 软缺 1, a pair wait (no 平胡): the smallest winning hand."""
THREE_FANS = ("123m123m789p234p5z", "5z")
"""不下 + 一般高 + 软缺."""
FIVE_FANS = ("123m345m678m555z9m", "9m")
"""不下 1 + 中发白坎 1 + 草一色 3."""


def test_source_dealer_streak_6_16_46():
    """§2.4 worked example (D = 4): 1st deal 2 fans → each pays 6; 2nd deal 2 fans → 16 in total; 3rd deal
    self-drawn 3 fans → 46 in total (QJ-19: running totals; per hand 6, 10, 30)."""
    first = ask(Q, *TWO_FANS, winner=0, dealer=0, discarder=2, dice_unit=4, consecutive_dealer=1)
    assert paid(first) == (18, -6, -6, -6) and first["streak_total_per_payer"] == 6
    second = ask(
        Q, *TWO_FANS, winner=0, dealer=0, discarder=2, dice_unit=4, consecutive_dealer=2, streak_total_before=6
    )
    assert paid(second) == (30, -10, -10, -10) and second["streak_total_per_payer"] == 16
    third = ask(Q, *THREE_FANS, winner=0, dealer=0, dice_unit=4, consecutive_dealer=3, streak_total_before=16)
    assert third["total"] == 3
    assert paid(third) == (90, -30, -30, -30) and third["streak_total_per_payer"] == 46


def test_source_non_dealer_win_9_5_5():
    """§2.4: the 下家 wins 5 fans → the dealer pays 5 + 4×1 = 9, 对家 and 上家 5 each (QJ-18: all three pay);
    the dealer's streak ends (QJ-19)."""
    answer = ask(Q, *FIVE_FANS, winner=1, dealer=0, discarder=2, dice_unit=4, consecutive_dealer=1)
    assert answer["total"] == 5
    assert fans_of(answer) == Counter({("不下", 1): 1, ("中发白坎", 1): 1, ("草一色", 3): 1})
    assert paid(answer) == (-9, 19, -5, -5)
    assert answer["streak_total_per_payer"] == 0


def test_one_fan_is_no_win_even_self_drawn():
    """§2.3: 一番不能胡也不能自摸 — a 1-fan hand (不下 only) is rejected, self-drawn too; no payment (QJ-15)."""
    for discarder in (2, None):
        answer = ask(Q, "123m456p789s234s5z", "5z", winner=1, dealer=0, discarder=discarder, dice_unit=4)
        assert answer["hu"] is False and answer["total"] == 1
        assert paid(answer) == (0, 0, 0, 0)


def test_pinghu_needs_a_two_sided_wait():
    """§2.2 item 1: 67s waiting on 5s/8s is two-sided (平胡 + 不下 = 2); 68s on 7s is a closed wait (丫子)."""
    two_sided = ask(Q, "234m567m345p67s99s", "8s", winner=1, dealer=0, discarder=2, dice_unit=4)
    assert fans_of(two_sided) == Counter({("平胡", 1): 1, ("不下", 1): 1})
    assert paid(two_sided) == (-6, 10, -2, -2)  # dealer 2 + 4, the others 2
    closed = ask(Q, "234m567m345p68s99s", "7s", winner=1, dealer=0, discarder=2, dice_unit=4)
    assert closed["hu"] is False


def test_seat_and_round_wind_pung_is_one_item_of_2():
    """QJ-8: a pung that is both seat wind and round wind scores 门圈风 2 instead of 门风 + 圈风."""
    answer = ask(Q, "111z234m567m789m5p", "5p", winner=0, dealer=0, discarder=1, round_wind="E", dice_unit=0)
    fans = fans_of(answer)
    assert fans[("门圈风", 2)] == 1 and ("门风", 1) not in fans and ("圈风", 1) not in fans


def test_three_dragons_adds_the_three_dragon_pungs():
    """QJ-13: 三渣元 = 12 + three 中发白坎 = 15; with 不下 and 草一色 the hand is 19."""
    answer = ask(Q, "555z666z777z123m9m", "9m", winner=1, dealer=0, discarder=2, dice_unit=4)
    assert fans_of(answer) == Counter({("三渣元", 12): 1, ("中发白坎", 1): 3, ("不下", 1): 1, ("草一色", 3): 1})
    assert answer["total"] == 19


def test_all_terminal_pungs_score_quanyao_and_all_pungs():
    """QJ-10, QJ-13: 全腰 12 + 对对胡 3, with 不下 and 软缺 → 17."""
    answer = ask(Q, "111m999m111p999p1z", "1z", winner=1, dealer=0, discarder=2, dice_unit=4)
    assert fans_of(answer) == Counter({("全腰", 12): 1, ("对对胡", 3): 1, ("不下", 1): 1, ("软缺", 1): 1})


def test_all_honors_replaces_quanyao_and_adds_wind_items():
    """QJ-12: 全字全腰 24 replaces 全腰; 三季风 12 added on top; seat S: 门风 南, round E: 圈风 东, 白 坎."""
    answer = ask(Q, "111z222z333z555z4z", "4z", winner=1, dealer=0, discarder=2, round_wind="E", dice_unit=4)
    assert fans_of(answer) == Counter(
        {("全字全腰", 24): 1, ("三季风", 12): 1, ("对对胡", 3): 1, ("不下", 1): 1, ("门风", 1): 1, ("圈风", 1): 1}
        | {("中发白坎", 1): 1}
    )
    assert answer["total"] == 43


def test_four_claimed_sets_won_on_a_discard_is_quanqiuren():
    """§2.2 item 16: four claimed sets and a discard win → 全求人 3 (+ 对对胡 3, 硬缺 2); self-drawn it is not."""
    melds = ("pon:222m:from=left", "pon:888m:from=right", "pon:333p:from=opposite", "pon:777p:from=left")
    discard = ask(Q, "5m", "5m", melds, winner=1, dealer=0, discarder=3, dice_unit=4)
    assert fans_of(discard) == Counter({("全求人", 3): 1, ("对对胡", 3): 1, ("硬缺", 2): 1})
    drawn = ask(Q, "5m", "5m", melds, winner=1, dealer=0, dice_unit=4)
    assert ("全求人", 3) not in fans_of(drawn) and drawn["total"] == 5


def test_two_concealed_kongs_are_two_siyu_and_still_buxia():
    """QJ-7: 四玉 1 per tile kind (two kongs = 2); 开暗杠算不下 (§2.2 item 2)."""
    melds = ("kan:4444m:concealed", "kan:6666p:concealed")
    answer = ask(Q, "123m789m9m", "9m", melds, winner=1, dealer=0, discarder=2, dice_unit=4)
    fans = fans_of(answer)
    assert fans[("四玉", 1)] == 2 and fans[("不下", 1)] == 1


def test_baobuda_values_by_seat_and_the_dealt_win():
    """§2.2 item 22: declared by the dealer 12, by his 下家 14, by 对家/上家 12; the dealer complete on his
    dealt 14 tiles 24 with no declaration (QJ-11), a self-draw (QJ-16: ×2)."""
    hand = ("123m456p789s234s5z", "5z")  # 不下 1 + 报不打
    for winner, value in ((0, 12), (1, 14), (2, 12), (3, 12)):
        answer = ask(Q, *hand, winner=winner, dealer=0, discarder=(winner + 1) % 4, dice_unit=0, baobuda=True)
        assert fans_of(answer)[("报不打", value)] == 1
    dealt = ask(Q, *hand, winner=0, dealer=0, first_turn=True, dice_unit=0)
    assert fans_of(dealt) == Counter({("报不打", 24): 1, ("不下", 1): 1})
    assert paid(dealt) == (150, -50, -50, -50)


def test_last_two_tiles_robbing_and_kong_replacement():
    """QJ-6: a self-draw with 1 tile left is 海底捞月, a discard is not; 抢杠成 (QJ-5, no doubling; never on a
    concealed kong) and 杠后开花 (a self-draw, ×2) are 1 each."""
    base = ("123m456m789p234p5z", "5z")  # 2 fans
    near_end = ask(Q, *base, winner=1, dealer=0, dice_unit=0, wall_remaining=1)
    assert fans_of(near_end)[("海底捞月", 1)] == 1 and paid(near_end) == (-6, 18, -6, -6)
    on_discard = ask(Q, *base, winner=1, dealer=0, discarder=2, dice_unit=0, wall_remaining=0)
    assert ("海底捞月", 1) not in fans_of(on_discard)
    kong = {"seat": 2, "type": "added", "tile": "5z"}
    robbed = ask(Q, *base, winner=1, dealer=0, discarder=2, robbing_kong=True, kong=kong, dice_unit=0)
    assert fans_of(robbed)[("抢杠成", 1)] == 1 and paid(robbed) == (-3, 9, -3, -3)  # F = 3, D = 0, no doubling
    concealed = {"seat": 2, "type": "concealed", "tile": "5z"}
    assert ask(Q, *base, winner=1, dealer=0, discarder=2, robbing_kong=True, kong=concealed, dice_unit=0)["hu"] is False
    replacement = ask(Q, *base, winner=1, dealer=0, after_kong=True, dice_unit=0)
    assert fans_of(replacement)[("杠后开花", 1)] == 1 and paid(replacement) == (-6, 18, -6, -6)


def test_no_chi_and_only_the_standard_shape():
    """QJ-1: no chi; QJ-2: seven pairs is not a Quanjiao hand."""
    assert get_ruleset(Q).allows_chi is False
    claims = [{"seat": 1, "type": "chi"}, {"seat": 3, "type": "pon"}]
    assert ask(Q, query="claim_priority", discarder=0, claims=claims)["granted"] == [3]
    assert ask(Q, "1122m3344p5566s7z", "7z", winner=1, dealer=0, discarder=2, dice_unit=4)["hu"] is False


def test_rotation_and_drawn_hand():
    """QJ-21: dealer wins → stays, k+1; non-dealer wins → 下家, k = 1; drawn → no payment, dealer stays, k+1."""
    stays = ask(Q, query="next_dealer", dealer=2, winners=[2], consecutive_dealer=3)
    assert (stays["next_dealer"], stays["next_consecutive_dealer"]) == (2, 4)
    passes = ask(Q, query="next_dealer", dealer=2, winners=[0], consecutive_dealer=3)
    assert (passes["next_dealer"], passes["next_consecutive_dealer"]) == (3, 1)
    drawn = ask(Q, query="drawn_settlement", dealer=2, drawn=True, consecutive_dealer=3)
    assert paid(drawn) == (0, 0, 0, 0) and (drawn["next_dealer"], drawn["next_consecutive_dealer"]) == (2, 4)


def test_missing_dice_unit_is_named():
    with pytest.raises(MjtableError, match="dice_unit"):
        ask(Q, *TWO_FANS, winner=0, dealer=0, discarder=1)


@settings(deadline=None)  # the first call builds lookup tables
@given(
    winner=st.integers(0, 3),
    dealer=st.integers(0, 3),
    offset=st.integers(0, 3),
    unit=st.integers(2, 12),
    k=st.integers(1, 6),
)
def test_payments_sum_to_zero(winner, dealer, offset, unit, k):
    """§2.4: whoever wins and pays, the four changes add up to zero; the dealer's side carries D·k."""
    discarder = None if offset == 0 else (winner + offset) % 4
    answer = ask(Q, *FIVE_FANS, winner=winner, dealer=dealer, discarder=discarder, dice_unit=unit, consecutive_dealer=k)
    assert sum(paid(answer)) == 0
    doubling = 2 if discarder is None else 1
    if winner != dealer:
        assert -answer["payments"][str(dealer)] == (5 + unit * k) * doubling


def test_simulated_hands_keep_the_invariants():
    """Full hands under the referee: every bot declaration is a true win (≥ 2 fans) and payments balance."""
    hands = list(simulate(get_ruleset(Q), 20, seed=3))
    wins = [hand for hand in hands if not hand.referee.result.drawn]
    assert wins
    for hand in wins:
        record = hand.referee.wins[0]
        assert record.score.total >= 2 and sum(hand.referee.result.payments.values()) == 0
