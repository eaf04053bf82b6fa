"""``wuhan`` against wild.md §3 (WH-1..WH-7), worked by hand: Hubei's rules with Wuhan's overrides.

Unless a case says otherwise the indicator is 东 (1z), so the 赖子 is 南 (2z); the dealer is seat 0, 底分 1,
open_mode 开口翻. W = self-draw + 硬 + open(winner) + kongs(winner); L(P) = discarder + open(P) + kongs(P).
"""

from __future__ import annotations

import pytest

from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tile
from tests.engine.rulesets.regional import ask, paid

OPENED = ("chi:123p:from=left",)


def wuhan(hand: str, win: str, melds: tuple[str, ...] = (), options=None, **situation):
    situation.setdefault("indicator", "1z")
    situation.setdefault("dealer", 0)
    return ask("wuhan", hand, win, melds, options=options, **situation)


def test_successor_skips_red_dragon():
    # WH-2: 北 → 发, a flipped 中 → 发, 发 → 白, 白 → 东; suits as Hubei.
    rule = get_ruleset("wuhan").wildcards
    for indicator, wildcard in (("4z", "6z"), ("7z", "6z"), ("6z", "5z"), ("5z", "1z"), ("9p", "1p"), ("1z", "2z")):
        assert rule.wildcards(parse_tile(indicator)) == {parse_tile(wildcard)}


def test_opened_pihu_kaikou():
    # WH-4/WH-5: opened 屁和, W = 硬 1 + 开口 1 = 2; L(discarder) = 1 → 8, the others 4.
    answer = wuhan("456p789s22s67m", "8m", OPENED, winner=1, discarder=0)
    assert answer["hu"] is True and answer["kind"] == "pihu"
    assert paid(answer) == (-8, 16, -4, -4)
    assert "menqianqing" not in answer


def test_unopened_pihu_is_no_win():
    # WH-4: no 门前清 exemption: a concealed 屁和 (even self-drawn, no 赖子) does not win.
    answer = wuhan("123p456p789s22s67m", "8m", winner=1)
    assert answer["hu"] is False and "WH-4" in answer["reason"]


def test_koukou_counts_every_open_meld():
    # WH-5: two open melds: 口口翻 W = 1 + 2 = 3 (16 / 8 / 8); 开口翻 W = 1 + 1 = 2 (8 / 4 / 4).
    melds = ("chi:123p:from=left", "pon:999s:from=right")
    koukou = wuhan("456p22s67m", "8m", melds, options={"open_mode": "koukou"}, winner=1, discarder=0)
    kaikou = wuhan("456p22s67m", "8m", melds, winner=1, discarder=0)
    assert paid(koukou) == (-16, 32, -8, -8)
    assert paid(kaikou) == (-8, 16, -4, -4)


def test_kong_weights_for_a_payer():
    # WH-6: payer 2 has a concealed kong (2), discarded one 红中 (1) and one 赖子 (2) → L(2) = 5; W = 2.
    answer = wuhan(
        "456p789s22s67m", "8m", OPENED, winner=1, discarder=0, concealed_kong_count={"2": 1},
        discarded_red_dragons={"2": 1}, discarded_wildcards={"2": 1},
    )  # fmt: skip
    assert answer["doublings"] == {"0": 3, "2": 7, "3": 2}
    assert paid(answer) == (-8, 140, -128, -4)


def test_winner_concealed_kong_weighs_two():
    # WH-6: W = 硬 1 + 开口 1 + concealed kong 2 = 4; L(0) = 1 → 32, the others 16.
    answer = wuhan("456p22s67m", "8m", ("kan:9999s:concealed", *OPENED), winner=1, discarder=0)
    assert paid(answer) == (-32, 64, -16, -16)


def test_red_dragon_in_hand_cannot_win():
    # WH-3: 红中 is not playable.
    answer = wuhan("123m456p789s22s77z", "7z", winner=1)
    assert answer["hu"] is False and "WH-3" in answer["reason"]


def test_unopened_big_win_wins():
    # WH-4: an unopened hand wins with a 大和: 清一色, W = 硬 1 → 20 / 10 / 10.
    answer = wuhan("111m234m567m789m9m", "9m", winner=1, discarder=2)
    assert answer["kinds"] == ["qingyise"]
    assert paid(answer) == (-10, 40, -20, -10)


def test_two_laizi_still_bar_pihu():
    # WH-4: the ≥ 2-wildcard ban of HB-4 stays (indicator 4m → 赖子 5m).
    answer = wuhan("456p789s22s5m5m", "7m", OPENED, winner=1, discarder=0, indicator="4m")
    assert answer["hu"] is False


def test_false_win_as_hubei():
    # WH-7 / HB-14: 诈和 pays each other player 5 × 底分.
    answer = wuhan("123p456p789s22s67m", "8m", winner=1, declared=True)
    assert paid(answer) == (5, -15, 5, 5)


@pytest.mark.parametrize(
    ("claim", "allowed"),
    [
        ({"seat": 1, "type": "pon", "tile": "7z", "from": 3, "using": ["7z", "7z"]}, False),  # WH-3
        ({"seat": 1, "type": "pon", "tile": "2z", "from": 3, "using": ["2z", "2z"]}, False),  # HB-10
        ({"seat": 1, "type": "pon", "tile": "3z", "from": 3, "using": ["3z", "3z"]}, True),
    ],
)
def test_claim_allowed(claim, allowed):
    assert ask("wuhan", query="claim_allowed", claim=claim, indicator="1z")["claim_allowed"] is allowed
