"""南昌算子 (fan.md §3): every row of the count table in the columns the source prints, 精 wildcards, 德国,
the derived dealer-wins-on-a-discard column (NC-5), payments that sum to zero, and simulated hands."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rulesets.registry import get_ruleset
from engine.simulation import simulate
from tests.engine.rulesets.regional import ask, paid

N = "nanchang"
PINGHU_WILD = ("123m456m789m12p9s5s", "5s")
"""With 9s as 精 it stands for 3p: 平胡, not 德国 (no natural reading)."""
PINGHU_NATURAL = ("123m456m789m123p5s", "5s")
QIDUI_WILD = ("1122m3344p5566s9s", "7z")
QIDUI_NATURAL = ("1122m3344p5566s7z", "7z")
PUNGS_WILD = ("111m222p333s44z5z9m", "5z")
"""9m as 精 completes 444z: 大7对 (all pungs + pair) beats the 平胡 reading (NC-4)."""
PUNGS_NATURAL = ("111m222p333s444z5z", "5z")
LAN_WILD = ("147m258p369s9s123z", "5z")
"""Two 9s: no natural 十三烂; with 9s as 精 they fill 9s and a free honor."""
LAN_NATURAL = ("147m258p369s1234z", "5z")


def row_of(answer: dict) -> str:
    (fan,) = answer["fans"]
    assert fan["value"] is None
    return fan["name_zh"]


def test_pinghu_row_non_dealer_self_draw_2_and_4():
    """§3 table 平胡, 闲 self-draw: each 闲 2, the dealer 4."""
    answer = ask(N, *PINGHU_WILD, winner=1, dealer=0, wildcards=["9s"])
    assert row_of(answer) == "平胡" and paid(answer) == (-4, 8, -2, -2)


def test_deguo_row_non_dealer_self_draw_9_and_13():
    """§3 table 德国 (NC-3: no 精 in the hand), 闲 self-draw: each 闲 9, the dealer 13; total 31."""
    answer = ask(N, *PINGHU_NATURAL, winner=1, dealer=0)
    assert row_of(answer) == "德国" and paid(answer) == (-13, 31, -9, -9) and answer["total"] == 31


def test_wildcard_standing_for_itself_is_deguo():
    """NC-3: a 精 that can stand for itself (精还原) still makes the win 德国."""
    answer = ask(N, *PINGHU_NATURAL, winner=1, dealer=0, wildcards=["5s"])
    assert row_of(answer) == "德国"


def test_seven_pairs_with_wildcard_dealer_discards_8_and_2():
    """§3 table 小7对, 捉庄: the dealer (discarder) pays 8, each 闲 2."""
    answer = ask(N, *QIDUI_WILD, winner=1, dealer=0, discarder=0, wildcards=["9s"])
    assert row_of(answer) == "小7对" and paid(answer) == (-8, 12, -2, -2)


def test_deguo_seven_pairs_non_dealer_discards_21_16_8():
    """§3 table 德国小7对, 捉闲: the discarding 闲 21, the dealer 16, the other 闲 8."""
    answer = ask(N, *QIDUI_NATURAL, winner=2, dealer=0, discarder=1)
    assert row_of(answer) == "德国小7对" and paid(answer) == (-16, -21, 45, -8)


def test_all_pungs_with_wildcard_dealer_self_draw_16():
    """§3 table 大7对 (NC-1: all pungs + pair), dealer self-draw: each 16; NC-4 prefers it to 平胡."""
    answer = ask(N, *PUNGS_WILD, winner=0, dealer=0, wildcards=["9m"])
    assert row_of(answer) == "大7对" and paid(answer) == (48, -16, -16, -16)


def test_deguo_all_pungs_non_dealer_self_draw_21_and_37():
    """§3 table 德国大7对 (= 德国小7对 row), 闲 self-draw: each 闲 21, the dealer 37."""
    answer = ask(N, *PUNGS_NATURAL, winner=1, dealer=0)
    assert row_of(answer) == "德国大7对" and paid(answer) == (-37, 79, -21, -21)


def test_lan_with_wildcards_dealer_wins_on_discard_8_and_4():
    """烂 row, dealer wins on a 闲's discard (NC-5, M = 2): discarder 8, the other 闲 4 each."""
    answer = ask(N, *LAN_WILD, winner=0, dealer=0, discarder=2, wildcards=["9s"])
    assert row_of(answer) == "烂" and paid(answer) == (16, -4, -8, -4)


def test_deguo_thirteen_lan_dealer_discards_21_and_4():
    """§3 table 德国13烂, 捉庄: the dealer 21, each 闲 4."""
    answer = ask(N, *LAN_NATURAL, winner=1, dealer=0, discarder=0)
    assert row_of(answer) == "德国13烂" and paid(answer) == (-21, 29, -4, -4)


def test_dealer_wins_on_discard_pinghu_is_4_2_2():
    """NC-5 (rules-A A40): the dealer winning on a 闲's discard takes the 捉庄 dealer amount from the discarder
    and the 捉闲 dealer amount from each other 闲: 平胡 4 / 2 / 2 = 8."""
    answer = ask(N, *PINGHU_WILD, winner=0, dealer=0, discarder=1, wildcards=["9s"])
    assert paid(answer) == (8, -4, -2, -2)


def test_pinghu_non_dealer_discard_2_2_1():
    """§3 table 平胡, 捉闲: discarder 2, dealer 2, the other 闲 1."""
    answer = ask(N, *PINGHU_WILD, winner=3, dealer=0, discarder=1, wildcards=["9s"])
    assert paid(answer) == (-2, -2, -1, 5)


def test_thirteen_lan_needs_number_tiles_three_apart():
    """NC-1: 13烂 tiles of one suit differ by at least 3; 1m and 3m are too close."""
    assert ask(N, "137m258p369s1234z", "5z", winner=1, dealer=0)["hu"] is False


def test_wildcard_names_are_checked():
    with pytest.raises(Exception, match="wildcards"):
        ask(N, *PINGHU_WILD, winner=1, dealer=0, wildcards="9s")


@settings(deadline=None)  # the first call builds lookup tables
@given(winner=st.integers(0, 3), dealer=st.integers(0, 3), offset=st.integers(0, 3))
def test_payments_sum_to_zero_and_everyone_pays(winner, dealer, offset):
    """§3: all three others pay on every win; the changes sum to zero."""
    discarder = None if offset == 0 else (winner + offset) % 4
    answer = ask(N, *QIDUI_WILD, winner=winner, dealer=dealer, discarder=discarder, wildcards=["9s"])
    assert sum(paid(answer)) == 0
    assert all(answer["payments"][str(seat)] < 0 for seat in range(4) if seat != winner)


def test_simulated_hands_keep_the_invariants():
    hands = list(simulate(get_ruleset(N), 15, seed=5))
    assert any(not hand.referee.result.drawn for hand in hands)
