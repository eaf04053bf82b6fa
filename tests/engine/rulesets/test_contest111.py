"""The 111-chip contest (fan.md §4): the listed fans, the 5-fan minimum, the dealer and win-mode doublings, who
pays (CT-7), the penalties of rules 2 and 10 (CT-8), payments summing to zero, simulated hands."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rulesets.registry import get_ruleset
from engine.simulation import simulate
from tests.engine.rulesets.regional import ask, fans_of, paid

C = "contest111"
PURE = ("1112345678999m", "5m")
"""清一色 30 and nothing else listed."""
PLAIN = ("123m456m789p234p5z", "5z")
"""No listed fan."""


def test_discard_win_is_paid_by_the_discarder_alone():
    """CT-7: only the discarder pays F = 30 (no dealer involved, no doubling)."""
    answer = ask(C, *PURE, winner=1, dealer=0, discarder=2)
    assert fans_of(answer) == Counter({("清一色", 30): 1})
    assert paid(answer) == (0, 30, -30, 0) and answer["win_multiplier"] == 1


def test_dealer_discarding_pays_double():
    """Rule 7: the dealer pays double: 30 × 2."""
    assert paid(ask(C, *PURE, winner=1, dealer=0, discarder=0)) == (-60, 60, 0, 0)


def test_self_draw_doubles_and_the_dealer_doubles_again():
    """Rules 7-8: a non-dealer's self-draw: each 闲 30 × 2, the dealer 30 × 2 × 2; a dealer's self-draw ×4."""
    assert paid(ask(C, *PURE, winner=1, dealer=0)) == (-120, 240, -60, -60)
    assert paid(ask(C, *PURE, winner=0, dealer=0)) == (360, -120, -120, -120)


def test_win_mode_doublings_do_not_stack():
    """CT-6: 杠上花 is one ×2 like any self-draw; 抢杠 (the konger pays) and 海底捞月 on a discard ×2 too."""
    assert paid(ask(C, *PURE, winner=1, dealer=0, after_kong=True)) == (-120, 240, -60, -60)
    kong = {"seat": 3, "type": "added", "tile": "5m"}
    robbed = ask(C, *PURE, winner=1, dealer=0, discarder=3, robbing_kong=True, kong=kong)
    assert paid(robbed) == (0, 60, 0, -60) and robbed["win_multiplier"] == 2
    assert paid(ask(C, *PURE, winner=1, dealer=0, discarder=2, last_tile=True)) == (0, 60, -60, 0)


def test_big_four_winds_with_all_honors_adds_up_without_small_four_winds():
    """CT-2, CT-3: 大四喜 40 + 全字 40 = 80; no 小四喜 on top."""
    answer = ask(C, "111z222z333z444z5z", "5z", winner=1, dealer=0, discarder=2)
    assert fans_of(answer) == Counter({("大四喜", 40): 1, ("全字", 40): 1}) and answer["total"] == 80


def test_small_four_winds_is_30():
    """§4: 小四喜 = three wind pungs + a wind pair."""
    answer = ask(C, "111z222z333z123m4z", "4z", winner=1, dealer=0, discarder=2)
    assert fans_of(answer) == Counter({("小四喜", 30): 1})


def test_big_three_dragons_and_thirteen_orphans():
    """§4: 大三元 30; 十三么 40."""
    assert fans_of(ask(C, "555z666z777z123m9m", "9m", winner=1, dealer=0, discarder=2)) == Counter({("大三元", 30): 1})
    assert fans_of(ask(C, "19m19p19s1234567z", "1m", winner=1, dealer=0, discarder=2)) == Counter({("十三么", 40): 1})


def test_big_seven_pairs_needs_four_identical_tiles():
    """§4: 大七对 = seven pairs containing four identical tiles (30); plain seven pairs lists nothing."""
    big = ask(C, "1111m2233p4455s6z", "6z", winner=1, dealer=0, discarder=2)
    assert fans_of(big) == Counter({("大七对", 30): 1})
    plain = ask(C, "1122m2233p4455s6z", "6z", winner=1, dealer=0, discarder=2)
    assert plain["hu"] is False and plain["penalty"] == "below_minimum"


def test_heavenly_and_earthly_wins_are_40():
    """§4: 天胡 (dealer complete after the 跳牌, a self-draw: dealer ×2, self-draw ×2) and 地胡 (a win on the
    dealer's first discard: the dealer pays double)."""
    heaven = ask(C, *PLAIN, winner=0, dealer=0, first_turn=True)
    assert fans_of(heaven) == Counter({("天胡", 40): 1}) and paid(heaven) == (480, -160, -160, -160)
    earth = ask(C, *PLAIN, winner=2, dealer=0, discarder=0, first_turn=True)
    assert fans_of(earth) == Counter({("地胡", 40): 1}) and paid(earth) == (-80, 0, 80, 0)


def test_below_minimum_and_false_win_cost_10_to_each_other_player():
    """Rules 2 and 10: fewer than 5 fans, or no winning hand: the declarer pays 10 to each of the others."""
    below = ask(C, *PLAIN, winner=1, dealer=0, discarder=2)
    assert below["hu"] is False and below["penalty"] == "below_minimum" and paid(below) == (10, -30, 10, 10)
    false = ask(C, *PLAIN[:1], "4z", winner=1, dealer=0, discarder=2)
    assert false["hu"] is False and false["penalty"] == "false_win" and paid(false) == (10, -30, 10, 10)


def test_false_claimant_pays_the_genuine_win_in_the_discarders_place():
    """Rule 10, CT-8: seat 1 (earlier from discarder 0) claims falsely, seat 2 wins 30: seat 1 pays the 30 and
    10 to each of the three others; the discarder pays nothing."""
    answer = ask(C, *PURE, winner=2, dealer=3, discarder=0, false_claimant=1)
    assert paid(answer) == (10, -60, 40, 10)


def test_referee_penalises_a_false_declaration():
    assert get_ruleset(C).false_win_payments(2) == {0: 10, 1: 10, 2: -30, 3: 10}


@settings(deadline=None)  # the first call builds lookup tables
@given(winner=st.integers(0, 3), dealer=st.integers(0, 3), offset=st.integers(0, 3), flags=st.integers(0, 3))
def test_payments_sum_to_zero(winner, dealer, offset, flags):
    discarder = None if offset == 0 else (winner + offset) % 4
    answer = ask(
        C, *PURE, winner=winner, dealer=dealer, discarder=discarder, after_kong=bool(flags & 1) and discarder is None
    )
    assert sum(paid(answer)) == 0
    doubled = discarder is None
    assert answer["payments"][str(winner)] == 30 * (2 if doubled else 1) * (
        sum(2 if dealer in (winner, payer) else 1 for payer in range(4) if payer != winner)
        if discarder is None
        else (2 if dealer in (winner, discarder) else 1)
    )


def test_simulated_hands_keep_the_invariants():
    assert len(list(simulate(get_ruleset(C), 5, seed=2))) == 5
