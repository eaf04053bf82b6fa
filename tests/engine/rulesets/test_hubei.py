"""``hubei-laizi`` against wild.md §1-2, worked by hand from its tables (every case names its section).

Unless a case says otherwise the indicator is 东 (1z), so the 赖子 is 南 (2z) and hands without 2z are 硬 (W-4);
the dealer is seat 0 and 底分 is 1. share(P) = 底分 × M × 2^(W + L(P)) (§2.5).
"""

from __future__ import annotations

import re

import pytest

from engine.actions import Action, ActionKind
from engine.errors import MjtableError
from engine.referee import Referee
from engine.rulesets.registry import get_ruleset
from engine.tiles import NUM_KINDS, parse_tile
from tests.engine.rulesets.regional import ask, paid

PIHU = "123m456p789s22s67m"
"""4 sets + the 2-5-8 pair 22s, waiting on 5m / 8m."""


def hubei(hand: str, win: str, melds: tuple[str, ...] = (), **situation):
    situation.setdefault("indicator", "1z")
    situation.setdefault("dealer", 0)
    return ask("hubei-laizi", hand, win, melds, **situation)


def test_worked_example_soft_4800():
    # §2.5 (S002:25-27): 底分 100, the dealer self-draws a 屁和 after discarding three 赖子 and holds the fourth:
    # W = self-draw 1 + 3 discarded 赖子 = 4 → 1,600 from each, 4,800 in all.
    answer = ask(
        "hubei-laizi", PIHU, "5m", options={"base": 100}, winner=0, dealer=0, indicator="4m",
        discarded_wildcards={"0": 3},
    )  # fmt: skip
    assert answer["hu"] is True and answer["hard"] is False and answer["kind"] == "pihu"
    assert paid(answer) == (4800, -1600, -1600, -1600)
    assert answer["doublings"] == {"1": 4, "2": 4, "3": 4}


def test_worked_example_hard_9600():
    # §2.5: the same with no 赖子 left (硬牌): W = 5 → 3,200 each, 9,600.
    answer = ask(
        "hubei-laizi", PIHU, "8m", options={"base": 100}, winner=0, dealer=0, indicator="4m",
        discarded_wildcards={"0": 3},
    )  # fmt: skip
    assert answer["hard"] is True
    assert paid(answer) == (9600, -3200, -3200, -3200)


def test_pihu_on_a_discard_discarder_doubles():
    # §2.5: W = 硬 1; the discarder adds 1 (放炮) → 4, the two others 2.
    answer = hubei(PIHU, "8m", winner=1, discarder=2)
    assert paid(answer) == (-2, 8, -4, -2)
    assert answer["hand_value"] == 1 and answer["kinds"] == []


def test_pihu_needs_a_258_pair():
    # §2.4: the only pair 33s is no 2-5-8 and the hand is no 大和: not a win, only the verdict.
    answer = hubei("123m456p789s33s67m", "8m", winner=1, discarder=2)
    assert answer["hu"] is False and answer["payments"] is None


def test_false_win_pays_the_big_amount():
    # HB-14: a declared false win pays each other player 5 × 底分, no doublings.
    answer = hubei("123m456p789s33s67m", "8m", winner=1, discarder=2, declared=True)
    assert answer["hu"] is False
    assert paid(answer) == (5, -15, 5, 5)
    assert answer["breakdown"]["false_win_penalty"] == {"0": 5, "1": -15, "2": 5, "3": 5}


def test_two_laizi_bar_an_open_pihu():
    # HB-4: an opened 屁和 with two 赖子 (5m 5m read as 5m 6m beside 7m) is no win.
    answer = hubei("456p789s22s5m5m", "7m", ("chi:123p:from=left",), winner=1, discarder=0, indicator="4m")
    assert answer["hu"] is False


def test_menqianqing_allows_two_laizi():
    # §2.4 门前清 (S002:30, HB-5): concealed and self-drawn, scored as 屁和 (M 1) with any number of 赖子;
    # W = self-draw 1 (soft) → 2 from each.
    answer = hubei("123p456p789s22s5m5m", "7m", winner=1, indicator="4m")
    assert answer["hu"] is True and answer["menqianqing"] is True and answer["kind"] == "pihu"
    assert paid(answer) == (-2, 6, -2, -2)


def test_qingyise_is_a_big_win():
    # §2.4 清一色, M 5: W = 硬 1; discarder 5 × 4, the others 5 × 2.
    answer = hubei("111m234m567m789m9m", "9m", winner=1, discarder=2)
    assert answer["kind"] == "dahu" and answer["kinds"] == ["qingyise"] and answer["hand_value"] == 5
    assert paid(answer) == (-10, 40, -20, -10)


def test_haohua_qiduizi_is_worth_ten():
    # §2.4 豪华 (HB-6): seven pairs with four 6s not declared as a kong, M 10 (qiduizi also qualifies).
    answer = hubei("1122m3344p55s666s", "6s", winner=1, discarder=3)
    assert answer["hand_value"] == 10 and answer["kinds"] == ["haohua-qiduizi", "qiduizi"]
    assert paid(answer) == (-20, 80, -20, -40)


def test_haohua_made_by_a_laizi():
    # W-1: a 赖子 may be the fourth copy: 666s + 赖子 (2z) reads as four 6s.
    answer = hubei("1122m3344p55s666s", "2z", winner=1)
    assert "haohua-qiduizi" in answer["kinds"] and answer["hard"] is False


def test_jiangyise_needs_no_shape():
    # §2.4 将一色: all 14 tiles 2/5/8 in no particular shape.
    answer = hubei("2258m2258p22558s", "8s", winner=2, discarder=0)
    assert answer["kinds"] == ["jiangyise"]
    assert paid(answer) == (-20, -10, 40, -10)


def test_fengyise_needs_no_shape():
    # §2.4 风一色 (the 赖子 is 2m under a 1m indicator).
    answer = hubei("1234567z1234z55z", "6z", winner=2, discarder=0, indicator="1m")
    assert answer["kinds"] == ["fengyise"]


def test_quanqiuren_discarder_pays_for_all_three():
    # §2.4 全求人 + §2.6 包三家 (HB-11): W = 硬 1 + 倒铺 1 = 2; shares 40 (discarder) + 20 + 20, all paid by
    # the discarder of the pair tile.
    melds = ("pon:111m:from=left", "pon:999p:from=right", "chi:345s:from=left", "pon:777s:from=opposite")
    answer = hubei("5m", "5m", melds, winner=0, discarder=3)
    assert answer["kinds"] == ["quanqiuren"] and answer["liable"] == 3
    assert paid(answer) == (80, 0, 0, -80)


def test_third_meld_feeder_pays_a_self_drawn_qingyise():
    # §2.6 清一色喂三铺: W = self-draw 1 + 硬 1 + 倒铺 1 = 3 → 40 a share; the feeder pays the three.
    melds = ("pon:111m:from=left", "chi:234m:from=left", "pon:999m:from=right")
    answer = hubei("5678m", "8m", melds, winner=1, qys_third_meld_feeder=2)
    assert answer["liable"] == 2
    assert paid(answer) == (0, 120, -120, 0)


def test_payer_items_double_each_share():
    # §2.5: L(0) = 倒铺 1; L(2) = discarder 1 + one discarded 赖子; L(3) = two kongs. W = 硬 1.
    answer = hubei(
        PIHU, "8m", winner=1, discarder=2, open_melds={"0": True}, discarded_wildcards={"2": 1},
        kong_count={"3": 2},
    )  # fmt: skip
    assert answer["doublings"] == {"0": 2, "2": 3, "3": 3}
    assert paid(answer) == (-4, 20, -8, -8)


def test_a_discarded_laizi_cannot_be_won_on():
    # HB-10: the 5m is the 赖子 (indicator 4m): its discard is no ordinary discard.
    answer = hubei(PIHU, "5m", winner=1, discarder=2, indicator="4m")
    assert answer["hu"] is False and "HB-10" in answer["reason"]


def test_winner_entries_must_agree_with_his_melds():
    # §2.8: the winner's open_melds entry contradicts his concealed hand.
    with pytest.raises(MjtableError, match="open_melds"):
        hubei(PIHU, "8m", winner=1, discarder=2, open_melds={"1": True})


def test_tai_zhuang_and_du_tai_zhuang():
    # §2.7 HB-12: the dealer pays each one 底分; HB-13: 4 × 底分 per payer.
    assert paid(ask("hubei-laizi", query="tai_zhuang", options={"base": 100}, dealer=2)) == (100, 100, -300, 100)
    assert paid(ask("hubei-laizi", query="du_tai_zhuang", dealer=0, holder=0)) == (12, -4, -4, -4)
    assert paid(ask("hubei-laizi", query="du_tai_zhuang", dealer=0, holder=3)) == (-4, 0, 0, 4)


@pytest.mark.parametrize(
    ("claim", "hand", "allowed"),
    [
        ({"seat": 1, "type": "chi", "tile": "3m", "from": 0, "using": ["1m", "2m"]}, "", True),
        ({"seat": 1, "type": "chi", "tile": "3m", "from": 2, "using": ["1m", "2m"]}, "", False),  # §2.3 上家 only
        ({"seat": 1, "type": "pon", "tile": "2z", "from": 3, "using": ["2z", "2z"]}, "", False),  # HB-10
        ({"seat": 1, "type": "chi", "tile": "3m", "from": 0, "using": ["1m", "2z"]}, "", False),  # W-3
        ({"seat": 1, "type": "pon", "tile": "3m", "from": 2, "using": ["3m", "3m"]}, "", True),
        ({"seat": 1, "type": "chi", "tile": "3m", "from": 0, "using": ["1m", "2m"]}, "12m2z2z", False),  # HB-4
    ],
)
def test_claim_allowed(claim, hand, allowed):
    answer = ask("hubei-laizi", hand, query="claim_allowed", claim=claim, indicator="1z")
    assert answer["claim_allowed"] is allowed and answer["hu"] is None


def test_successor_cycle():
    # §1 table: n → n+1, 9 → 1, 东南西北中发白 → 东 (HB-2); 两头赖子 both neighbours (S002:59).
    rule = get_ruleset("hubei-laizi").wildcards
    for indicator, wildcard in (("3m", "4m"), ("9p", "1p"), ("4z", "7z"), ("7z", "6z"), ("6z", "5z"), ("5z", "1z")):
        assert rule.wildcards(parse_tile(indicator)) == {parse_tile(wildcard)}
    two_sided = get_ruleset("hubei-laizi", {"two_sided_laizi": True}).wildcards
    assert two_sided.wildcards(parse_tile("3s")) == {parse_tile("2s"), parse_tile("4s")}


def test_gangshangkaihua_is_a_big_win_and_a_self_draw():
    # §2.4 杠上开花 (M 5) and HB-21 (a self-draw); W = 1 + 硬 1 + the winner's kong 1 = 3 → 40 each.
    answer = hubei("456p789s22s67m", "8m", ("kan:1111p:concealed",), winner=1, after_kong=True)
    assert answer["kinds"] == ["gangshangkaihua"]
    assert paid(answer) == (-40, 120, -40, -40)


def test_rotation_and_drawn_hand():
    # HB-17 / HB-18: the dealer keeps the deal on his win and on a drawn hand, else his 下家 deals.
    assert ask("hubei-laizi", query="next_dealer", dealer=1, winners=[3])["next_dealer"] == 2
    assert ask("hubei-laizi", query="next_dealer", dealer=1, winners=[1])["next_dealer"] == 1
    drawn = ask("hubei-laizi", query="drawn_settlement", dealer=1, drawn=True)
    assert drawn["next_dealer"] == 1 and paid(drawn) == (0, 0, 0, 0)


def test_du_tai_zhuang_is_paid_on_the_dealt_hands():
    # §2.7 HB-13 at the table: the dealer's four 9p → +12; seat 2's four 1z → the dealer pays him 4.
    ruleset = get_ruleset("hubei-laizi")
    plain = [
        parse_tile(code) for code in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p")
    ]
    dealer_quad = [parse_tile("9p")] * 4 + plain[:10]
    assert ruleset.opening_settlement([plain, dealer_quad, plain, plain], 1) == {0: -4, 1: 12, 2: -4, 3: -4}
    other_quad = [parse_tile("1z")] * 4 + plain[:9]
    assert ruleset.opening_settlement([plain + plain[:1], plain, other_quad, plain], 0) == {0: -4, 1: 0, 2: 4, 3: 0}
    assert ruleset.opening_settlement([plain + plain[:1], plain, plain, plain], 0) is None


def test_tai_zhuang_is_paid_at_the_table():
    # §2.7 HB-12 at the table: the dealer's first discard followed by the same tile from 下家, 对家 and 上家.
    ruleset = get_ruleset("hubei-laizi")
    for seed in range(500):
        referee = Referee.deal(ruleset, seed)
        wild = referee.wildcard_faces()
        shared = [
            tile
            for tile in range(NUM_KINDS)
            if tile not in wild and all(referee.seats[seat].known[tile] for seat in range(4))
        ]
        if shared:
            break
    tile, dealer = shared[0], referee.dealer
    before = list(referee.settlements)
    for k in range(4):
        seat = (dealer + k) % 4
        if k:
            assert referee.apply(Action(ActionKind.DRAW, seat)).ok
        assert referee.apply(Action(ActionKind.DISCARD, seat, tile)).ok
    paid_now = referee.settlements[len(before) :]
    assert paid_now == [{seat: (-3 if seat == dealer else 1) for seat in range(4)}]


@pytest.mark.parametrize("count", [5, 10**18, -1])
def test_a_per_seat_count_outside_0_to_4_is_refused_by_name(count):
    # issue 16: an unbounded count fed 2**n doublings (10**18 took 17 s and 1.5 GB, then MemoryError)
    expected = f"situation field 'discarded_wildcards.0': expected a whole number 0-4, found {count}"
    with pytest.raises(MjtableError, match=re.escape(expected)):
        ask("hubei-laizi", PIHU, "5m", winner=0, dealer=0, indicator="4m", discarded_wildcards={"0": count})
