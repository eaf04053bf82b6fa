"""``changsha`` against 108.md §3 (rules-A §14). Amounts worked by hand: CS-4 小胡 1 from the discarder or 2 from
each other player, 6 per 大胡; CS-7 each payment × 2^(birds on the winner + birds on the payer), a bird counting
from the dealer (1/5/9 dealer, 2/6 下家, 3/7 对家, 4/8 上家); CS-6 2 per opening kind from each other player.
Seat 0 deals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rulesets.base import WinContext
from engine.rulesets.registry import get_ruleset
from engine.tiles import format_tiles
from tests.engine.rulesets.support108 import seats, settle, winning_hands

CHANGSHA = get_ruleset("changsha")
SMALL = "123456789m234p5p"  # + 5p: 55p is a 2-5-8 pair → 小胡


def ask(hand: str, win: str | None, situation: dict, melds=(), query: str = "score", **options) -> dict:
    return settle("changsha", hand, win, {"dealer": 0, **situation}, melds, query, **options)


def names(answer: dict) -> list[str]:
    return sorted(kind.split()[0] for kind in answer["kinds"])


def test_small_win_on_a_discard_and_by_self_draw():
    """CS-3/CS-4 小胡: 1 from the discarder; 2 from each other player on a self-draw (the 1-2 scheme)."""
    answer = ask(SMALL, "5p", {"winner": 1, "discarder": 2})
    assert answer["hu"] is True and names(answer) == ["小胡"]
    assert (answer["big_hands"], answer["hand_value"]) == (0, 1)
    assert answer["payments"] == seats(0, 1, -1, 0)
    assert ask(SMALL, "5p", {"winner": 1, "discarder": None})["payments"] == seats(-2, 6, -2, -2)


def test_small_win_needs_a_2_5_8_pair():
    """CS-3: 44p is no 将."""
    refused = ask("123456789m234p4p", "4p", {"winner": 1, "discarder": 2})
    assert refused["hu"] is False and refused["payments"] == seats(0, 0, 0, 0)


@pytest.mark.parametrize(
    ("hand", "win", "melds", "kinds", "count"),
    [
        ("111222m333p444p9p", "9p", [], ["碰碰胡"], 1),  # any pair once a 大胡 holds
        ("2258m2258p22558s", "8s", [], ["将将胡"], 1),  # every tile 2, 5 or 8, no shape at all
        ("1122334455667m", "7m", [], ["七小对", "清一色"], 2),
        ("111122m3344p556p", "6p", [], ["豪华七小对"], 2),  # a four-of-a-kind: counts 2
        (
            "7m",
            "7m",
            ["chi:123m:from=left", "chi:456m:from=left", "chi:789p:from=left", "pon:333s:from=right"],
            ["全求人"],
            1,
        ),
    ],
)
def test_big_hands_pay_six_each(hand, win, melds, kinds, count):
    """CS-5 大胡, won on seat 2's discard: 6 × the number of 大胡."""
    answer = ask(hand, win, {"winner": 1, "discarder": 2}, melds)
    assert answer["hu"] is True and names(answer) == sorted(kinds)
    assert answer["big_hands"] == count and answer["hand_value"] == 6 * count
    assert answer["payments"] == seats(0, 6 * count, -6 * count, 0)


def test_situational_big_hands():
    """CS-5: 杠上开花 (self-draw, 6 from each), 海底炮 (6 from the discarder), 天胡 (the dealer's dealt hand)."""
    bloom = ask(SMALL, "5p", {"winner": 1, "discarder": None, "after_kong": True})
    assert names(bloom) == ["杠上开花"] and bloom["payments"] == seats(-6, 18, -6, -6)
    last = ask(SMALL, "5p", {"winner": 1, "discarder": 2, "last_tile": True})
    assert names(last) == ["海底炮"] and last["payments"] == seats(0, 6, -6, 0)
    heaven = ask(SMALL, "5p", {"winner": 0, "discarder": None, "first_turn": True})
    assert names(heaven) == ["天胡"] and heaven["payments"] == seats(18, -6, -6, -6)
    earth = ask(SMALL, "5p", {"winner": 2, "discarder": 0, "first_turn": True})
    assert names(earth) == ["地胡"] and earth["payments"] == seats(-6, 0, 6, 0)


def test_robbing_an_added_kong_only():
    """CS-8: the robbed player pays alone, 抢杠胡 being a 大胡; a concealed kong cannot be robbed."""
    added = {"seat": 3, "type": "added", "tile": "5p"}
    answer = ask(SMALL, "5p", {"winner": 1, "discarder": 3, "robbing_kong": True, "kong": added})
    assert names(answer) == ["抢杠胡"] and answer["payments"] == seats(0, 6, 0, -6)
    concealed = {"seat": 3, "type": "concealed", "tile": "5p"}
    assert ask(SMALL, "5p", {"winner": 1, "discarder": 3, "robbing_kong": True, "kong": concealed})["hu"] is False


def test_birds_double_the_payments_of_the_seats_they_point_at():
    """CS-7: 2m → the dealer's 下家 (seat 1, the winner), 3p → 对家 (seat 2, the discarder), 1s → the dealer,
    who is not involved: the 小胡's 1 doubles twice."""
    answer = ask(SMALL, "5p", {"winner": 1, "discarder": 2, "birds": ["2m", "3p", "1s"]})
    assert answer["payments"] == seats(0, 4, -4, 0)
    assert answer["hand_value"] == 1  # before birds


def test_a_bird_on_one_payer_of_a_self_draw_doubles_only_his_payment():
    """CS-7: 5s counts 5 from the dealer → the dealer; only his 2 doubles."""
    answer = ask(SMALL, "5p", {"winner": 1, "discarder": None, "birds": ["5s"]})
    assert answer["payments"] == seats(-4, 8, -2, -2)


def test_dealer_premium_option():
    """CS-10 option 庄闲 +1: the dealer discards to seat 1's 小胡 → 1 + 1."""
    answer = ask(SMALL, "5p", {"winner": 1, "discarder": 0}, dealer_premium=True)
    assert answer["payments"] == seats(-2, 2, 0, 0)


def test_several_winners_share_the_birds_and_the_discarder_deals():
    """CS-2 / CS-7 / CS-11: seats 1 and 3 win 小胡 on seat 2's 5p; the bird 2m points at seat 1 only."""
    situation = {
        "winner": 1,
        "discarder": 2,
        "birds": ["2m"],
        "other_winners": [{"seat": 3, "hand": "123456789s234m5p", "melds": []}],
    }
    answer = ask(SMALL, "5p", situation, query="multi_win")
    assert answer["payments"] == seats(0, 2, -3, 1)
    assert answer["next_dealer"] == 2


@pytest.mark.parametrize(
    ("winner", "hand", "kinds", "payments"),
    [
        (1, "1111m3579m13579p", ["四喜", "缺一色"], (-4, 12, -4, -4)),
        (1, "1346m13469p1379s", ["板板胡"], (-2, 6, -2, -2)),
        (2, "111m333p579s2468m", ["六六顺"], (-2, -2, 6, -2)),
        (0, "11112222m34556p7s", ["四喜", "四喜", "六六顺"], (18, -6, -6, -6)),  # the dealer's 14
        (3, "123456789m234p5s", [], (0, 0, 0, 0)),
    ],
)
def test_opening_wins(winner, hand, kinds, payments):
    """CS-6: every opening kind on the dealt hand, 2 from each other player per kind; none = no claim."""
    answer = ask(hand, None, {"winner": winner}, query="opening_win")
    assert answer["hu"] is bool(kinds)
    assert names(answer) == sorted(kinds)
    assert answer["payments"] == seats(*payments)


def test_drawn_hand_pays_nothing():
    """CS-13; CS-11 the dealer stays."""
    answer = ask("", None, {"dealer": 3, "drawn": True}, query="drawn_settlement")
    assert answer["payments"] == seats(0, 0, 0, 0) and answer["next_dealer"] == 3


@given(winning_hands(), st.sampled_from([None, 0, 2, 3]), st.lists(st.integers(0, 26), max_size=2))
def test_payments_always_sum_to_zero(hand, discarder, birds):
    """CS-4/CS-7: whoever wins and wherever the birds land, the winner gets what the others pay."""
    ctx = WinContext(winner=1, dealer=0, discarder=discarder, extra={"birds": [format_tiles([t]) for t in birds]})
    score = CHANGSHA.evaluate(hand, ctx)
    assert sum(score.payments.values()) == 0
    if score.hu:
        assert score.payments[1] >= score.extra["hand_value"]
