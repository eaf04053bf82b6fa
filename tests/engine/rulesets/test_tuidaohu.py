"""``tuidaohu`` against wild.md §5 (S003:59-61, TD-1..TD-10), worked by hand.

Unless a case says otherwise the indicator is 东 (1z), so the 鬼牌 is 南 (2z) and hands without 2z are 硬胡;
one share = Σ 番型 × 翻倍 (自摸 ×2, 硬胡 ×2) × 底分 1.
"""

from __future__ import annotations

import pytest

from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tile
from tests.engine.rulesets.regional import ask, paid

CHICKEN = "123m456m789m111p5p"
"""A hand with no 番型 (鸡胡), waiting on 5p."""
PONGS = "111m999p555s777z8s"
"""碰碰胡 waiting on 8s (one dragon pung: no 三元)."""


def td(hand: str, win: str, melds: tuple[str, ...] = (), **situation):
    situation.setdefault("indicator", "1z")
    situation.setdefault("dealer", 0)
    return ask("tuidaohu", hand, win, melds, **situation)


def test_successor():
    # TD-1: number + 1, 9 → 1, honours 东南西北中发白 → 东.
    rule = get_ruleset("tuidaohu").wildcards
    for indicator, wildcard in (("9s", "1s"), ("5z", "1z"), ("4z", "7z"), ("2m", "3m")):
        assert rule.wildcards(parse_tile(indicator)) == {parse_tile(wildcard)}


def test_chicken_hand_only_by_self_draw():
    # §5.1: 鸡胡 wins only by self-draw or robbing a kong; self-drawn hard: 2 × 2 × 2 = 8 from each.
    assert td(CHICKEN, "5p", winner=1, discarder=0)["hu"] is False
    answer = td(CHICKEN, "5p", winner=1)
    assert answer["kinds"] == ["jihu"] and answer["hand_value"] == 8 and answer["hard"] is True
    assert paid(answer) == (-8, 24, -8, -8)


def test_soft_chicken_self_draw():
    # W-4: a 鬼牌 (2z) in the hand: no 硬胡 doubling, 2 × 2 = 4 from each.
    answer = td("123m456m789m111p2z", "5p", winner=1)
    assert answer["hard"] is False and answer["hand_value"] == 4
    assert paid(answer) == (-4, 12, -4, -4)


def test_all_pungs_on_a_discard():
    # §5.1 碰碰胡 8 × 硬 2 = 16 from the discarder alone (TD-2).
    answer = td(PONGS, "8s", winner=2, discarder=3)
    assert answer["kinds"] == ["pengpenghu"] and answer["kind"] == "pengpenghu"
    assert paid(answer) == (0, 0, 16, -16)


def test_pure_seven_pairs_takes_the_best_reading():
    # W-2 / TD-3: 1122334455667m+7m reads as 清一色 standard (16) or 清一色 + 七对 (32): 32 × 硬 2 = 64.
    answer = td("1122334455667m", "7m", winner=1, discarder=3)
    assert answer["kinds"] == ["qidui", "qingyise"] and answer["hand_value"] == 64


def test_luxury_seven_pairs_replaces_seven_pairs():
    # TD-4: 豪华七对 32, not counted again as 七对; × 硬 2 = 64.
    answer = td("1111m2233p4455s6z", "6z", winner=1, discarder=3)
    assert answer["kinds"] == ["haohua-qidui"] and answer["hand_value"] == 64


def test_mixed_terminals_exclude_all_pungs():
    # TD-4: 混幺九 32 (no 碰碰胡) × 硬 2 = 64.
    answer = td("111m999p111s777z9s", "9s", winner=1, discarder=2)
    assert answer["kinds"] == ["hunyaojiu"]
    assert paid(answer) == (0, 64, -64, 0)


def test_mixed_terminals_from_melds_are_still_all_pungs():
    # §5.1 混幺九 with declared pungs: 111m and 999p ponged, 111s 77z 7z standing; 32 × 硬 2 = 64, no 碰碰胡.
    answer = td("111s777z9s", "9s", ("pon:111m:from=left", "pon:999p:from=right"), winner=1, discarder=2)
    assert answer["kinds"] == ["hunyaojiu"] and answer["hand_value"] == 64


def test_seven_pairs_of_terminals_and_honours_are_not_mixed_terminals():
    # §5.1 (S003:61): 混幺九 "不计碰碰胡" is a hand of pungs and a pair, so 11m 99m 11p 99p 11s 99s 11z is 七对
    # only: 16 × 硬 2 = 32 from the discarder (not 混幺九 + 七对 = 48 × 2 = 96).
    answer = td("11m99m11p99p11s99s1z", "1z", winner=1, discarder=2)
    assert answer["kinds"] == ["qidui"] and answer["hand_value"] == 32
    assert paid(answer) == (0, 32, -32, 0)


def test_luxury_seven_pairs_of_terminals_are_not_pure_terminals():
    # §5.1: 清幺九 is "全部由1、9序数牌组成的碰碰胡": 1111m 99m 11p 99p 11s 9s+9s as seven pairs is 豪华七对 32 alone;
    # × 硬 2 = 64 (not 清幺九 + 豪华七对 = 96 × 2).
    answer = td("1111m99m11p99p11s9s", "9s", winner=1, discarder=2)
    assert answer["kinds"] == ["haohua-qidui"] and answer["hand_value"] == 64


def test_thirteen_orphans_is_not_also_mixed_terminals():
    # §5.1: 十三幺 88 is its own shape, not a hand of pungs: not 混幺九 as well. Indicator 3s (鬼牌 4s), so the
    # 南 in the hand is natural and the hand hard: 88 × 2 = 176 from the discarder (not (88 + 32) × 2 = 240).
    answer = td("19m19p19s1234567z", "1m", winner=1, discarder=2, indicator="3s")
    assert answer["kinds"] == ["shisanyao"] and answer["hard"] is True and answer["hand_value"] == 176
    assert paid(answer) == (0, 176, -176, 0)


def test_pure_terminal_pungs_exclude_all_pungs_and_mixed_terminals():
    # §5.1 清幺九 64 (no 碰碰胡, 混幺九): 111m 999m 111p 999s 1s+1s; × 硬 2 = 128.
    answer = td("111m999m111p999s1s", "1s", winner=1, discarder=2)
    assert answer["kinds"] == ["qingyaojiu"] and answer["hand_value"] == 128


def test_wildcard_reading_makes_big_three_dragons():
    # W-1/W-2: 555z 666z 77z 222m 88m + 鬼牌 (2z) reads as 中 for 大三元 (88), with 混一色 (8) and 碰碰胡 (8):
    # 104 × self-draw 2 (soft) = 208 from each.
    # (Read as 8m instead it gives 小三元 48 + 16 only.)
    answer = td("555z666z77z222m88m", "2z", winner=1)
    assert answer["kinds"] == ["dasanyuan", "hunyise", "pengpenghu"] and answer["hard"] is False
    assert paid(answer) == (-208, 624, -208, -208)


def test_horses_follow_the_seat_they_point_at():
    # TD-5: the chicken self-draw pays 8 from each; owner 0's horse 1m points at the winner 1 and collects 8
    # from seats 2 and 3 (his own payment cancels); owner 2's horse 2m points at seat 2 (a loser) and pays the
    # winner 8 more.
    answer = td(CHICKEN, "5p", winner=1, horses={"0": ["1m"], "2": ["2m"]})
    assert answer["horse_targets"] == {"0": [1], "2": [2]}
    assert paid(answer) == (8, 32, -24, -16)
    assert answer["breakdown"]["hand"] == {"0": -8, "1": 24, "2": -8, "3": -8}


def test_honour_horses_count_from_the_winner():
    # §5.1: 中 → 下家, 发 → 对家, 白 → 上家 of the winner 3.
    answer = td(CHICKEN, "5p", winner=3, horses={"1": ["7z", "6z", "5z"]})
    assert answer["horse_targets"] == {"1": [0, 1, 2]}


@pytest.mark.parametrize(
    ("kong", "expected"),
    [
        ({"seat": 1, "type": "exposed", "tile": "3m", "from": 2}, (0, 3, -3, 0)),
        ({"seat": 0, "type": "added", "tile": "3m"}, (3, -1, -1, -1)),
        ({"seat": 3, "type": "concealed", "tile": "3m"}, (-2, -2, -2, 6)),
    ],
)
def test_kong_payments(kong, expected):
    # §5.1 杠牌直接输赢: 点杠 3 from the discarder, 补杠 1 each, 暗杠 2 each.
    assert paid(ask("tuidaohu", query="kong_payment", kong=kong)) == expected


def test_robbing_pays_three_shares_and_the_robbed_kong_nothing():
    # TD-2 抢杠全包: 碰碰胡 8 + 抢杠胡 8 = 16 × 硬 2 = 32, three shares from the robbed seat 3; an earlier
    # concealed kong of seat 0 is paid (2 each), the robbed added kong nothing (TD-7).
    answer = td(
        PONGS, "8s", winner=2, discarder=3, robbing_kong=True, kong={"seat": 3, "type": "added", "tile": "8s"},
        kongs=[{"seat": 0, "type": "concealed", "tile": "4p"}],
    )  # fmt: skip
    assert answer["breakdown"]["hand"] == {"0": 0, "1": 0, "2": 96, "3": -96}
    assert answer["breakdown"]["kongs"] == {"0": 6, "1": -2, "2": -2, "3": -2}
    assert paid(answer) == (6, -2, 94, -98)


def test_several_winners_horses_from_the_discarder():
    # TD-6: seat 1 (碰碰胡, 16) and seat 2 (七对 on 7z, 16 × 硬 2 = 32) both on seat 3's discard; the horse 1m of
    # owner 0 points at the discarder 3 (a loser): owner 0 pays both winners 16 and 32.
    answer = ask(
        "tuidaohu", "111m999p555s77z88s", "7z", query="multi_win", winner=1, dealer=0, discarder=3, indicator="1z",
        horses={"0": ["1m"]},
        other_winners=[{"seat": 2, "hand": "1122m3344p5566s7z", "melds": []}],
    )  # fmt: skip
    assert answer["per_winner"]["2"]["hand_value"] == 32
    assert paid(answer) == (-48, 32, 64, -48)


def test_discard_and_claim_rules():
    # §5.1 / TD-8: a 鬼牌 is never discarded nor used in a pon or kong; there is no chi.
    assert (
        ask("tuidaohu", query="discard_allowed", indicator="1z", discarder=1, discard_tile="2z")["discard_allowed"]
        is False
    )
    assert (
        ask("tuidaohu", query="discard_allowed", indicator="1z", discarder=1, discard_tile="3z")["discard_allowed"]
        is True
    )
    pon = {"seat": 1, "type": "pon", "tile": "3z", "from": 0, "using": ["3z", "2z"]}
    chi = {"seat": 1, "type": "chi", "tile": "3m", "from": 0, "using": ["1m", "2m"]}
    assert ask("tuidaohu", query="claim_allowed", indicator="1z", claim=pon)["claim_allowed"] is False
    assert ask("tuidaohu", query="claim_allowed", indicator="1z", claim=chi)["claim_allowed"] is False


def test_drawn_hand_keeps_kong_payments():
    # TD-7: the hand pays nothing, the kongs stand; the dealer deals again.
    answer = ask(
        "tuidaohu", query="drawn_settlement", dealer=2, drawn=True,
        kongs=[{"seat": 1, "type": "exposed", "tile": "3m", "from": 0}],
    )  # fmt: skip
    assert paid(answer) == (-3, 3, 0, 0) and answer["next_dealer"] == 2
