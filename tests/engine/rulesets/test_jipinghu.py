"""``jipinghu`` against wild.md §4 (JP-1..JP-9 and the QQ example of S003:103), worked by hand.

Payment 2^F × 底分 (JP-4): the discarder alone on a discard win, each of the three on a self-draw; F = min(3, Σ).
The dealer is seat 0 and the round wind East unless a case says otherwise.
"""

from __future__ import annotations

import pytest

from engine.actions import Action, ActionKind
from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tile
from tests.engine.rulesets.regional import ask, paid
from tests.engine.stacked import stacked

PINGHU = "123m456m789m123p5p"
"""Four chows waiting on the pair 5p (平胡 1, JP-1)."""


def jp(hand: str, win: str, melds: tuple[str, ...] = (), options=None, **situation):
    situation.setdefault("dealer", 0)
    return ask("jipinghu", hand, win, melds, options=options, **situation)


def test_pinghu_on_a_discard():
    # JP-1 平胡 1 → 2^1 from the discarder alone (JP-4).
    answer = jp(PINGHU, "5p", winner=1, discarder=0)
    assert answer["kind"] == "pinghu" and answer["capped_fan"] == 1
    assert paid(answer) == (-2, 2, 0, 0)


def test_chicken_self_draw():
    # JP-1 鸡胡 0 fan + 自摸 1 → 2 from each.
    answer = jp("123m456m789m111p5p", "5p", winner=1)
    assert answer["kind"] == "jihu" and answer["kinds"] == ["zimo"]
    assert paid(answer) == (-2, 6, -2, -2)


def test_cap_at_three():
    # JP-2: 清一色 7 + 自摸 1 = 8 → capped at 3 → 8 each.
    answer = jp("111m234m567m789m9m", "9m", winner=1)
    assert answer["kind"] == "qingyise" and answer["capped_fan"] == 3 and answer["capped"] is True
    assert paid(answer) == (-8, 24, -8, -8)


def test_thirteen_orphans_breaks_the_cap_and_adds_nothing():
    # JP-3: 十三幺 = special_hand_fan 6 (×64), no 自摸 added.
    answer = jp("19m19p19s1234567z", "1m", winner=1)
    assert answer["special"] is True and answer["capped_fan"] == 6 and answer["kinds"] == ["shisanyao"]
    assert paid(answer) == (-64, 192, -64, -64)
    assert jp("19m19p19s1234567z", "1m", options={"special_hand_fan": 5}, winner=1)["capped_fan"] == 5


def test_missed_win_blocks_only_that_face_on_a_discard():
    # JP-5: 漏胡 blocks the passed face on a discard; a self-draw is never blocked.
    blocked = jp(PINGHU, "5p", winner=1, discarder=0, missed_win_tiles=["5p"])
    assert blocked["hu"] is False and blocked["payments"] is None
    assert jp(PINGHU, "5p", winner=1, missed_win_tiles=["5p"])["hu"] is True


def test_seat_and_round_wind_pung():
    # JP-1/JP-6: the dealer's seat wind is East; in the East round a pung of East is worth 2 → 4 from the discarder.
    answer = jp("111z123m456m789p5s", "5s", winner=0, discarder=2, round_wind="E")
    assert answer["kinds"] == ["round-wind-pung", "seat-wind-pung"]
    assert paid(answer) == (4, 0, -4, 0)


def test_two_dragon_pungs():
    # JP-1: one fan per dragon pung; 2 → 4 from the discarder (one 箭刻 entry per pung).
    answer = jp("555z666z123m456p9s", "9s", winner=3, discarder=1)
    assert answer["capped_fan"] == 2 and [fan["name_zh"] for fan in answer["fans"]] == ["箭刻", "箭刻"]
    assert paid(answer) == (0, -4, 0, 4)


def test_several_winners_are_paid_separately():
    # JP-9: seat 1's 平胡 (2) and seat 2's chicken hand (2^0 = 1) are both paid by the discarder 0.
    answer = ask(
        "jipinghu", PINGHU, "5p", query="multi_win", winner=1, dealer=0, discarder=0,
        other_winners=[{"seat": 2, "hand": "111m456m789m123p5p", "melds": []}],
    )  # fmt: skip
    assert paid(answer) == (-3, 2, 1, 0)
    assert answer["per_winner"]["1"]["capped_fan"] == 1 and answer["per_winner"]["2"]["capped_fan"] == 0


def test_seven_pairs_is_no_win():
    # JP-1: 七对 is not a winning hand.
    assert jp("1122m3344p5566s7z", "7z", winner=1, discarder=0)["hu"] is False


def test_robbing_a_kong():
    # JP-7: 平胡 1 + 抢杠 1 = 2; the robbed player pays as the discarder.
    answer = jp(PINGHU, "5p", winner=1, discarder=3, robbing_kong=True)
    assert "qianggang" in answer["kinds"]
    assert paid(answer) == (0, 4, 0, -4)


def test_qq_coins_example():
    # §4.1 (S003:103): N 600, X 4, A 250, self-draw: +7,200 / −2,400 each before the fee, 250 kept from everyone.
    # X = 4 is 2 番: 平胡 1 + 自摸 1.
    answer = jp(PINGHU, "5p", options={"qq": {"room_coefficient": 600, "fee": 250}}, winner=1)
    assert answer["qq_coins_gross"] == {"0": -2400, "1": 7200, "2": -2400, "3": -2400}
    assert answer["qq_coins_net"] == {"0": -2650, "1": 6950, "2": -2650, "3": -2650}


@pytest.mark.parametrize(
    ("claim", "allowed"),
    [
        ({"seat": 1, "type": "chi", "tile": "3m", "from": 0, "using": ["1m", "2m"]}, True),
        ({"seat": 1, "type": "chi", "tile": "3m", "from": 3, "using": ["1m", "2m"]}, False),
        ({"seat": 1, "type": "pon", "tile": "3m", "from": 3, "using": ["3m", "3m"]}, True),
    ],
)
def test_chi_only_from_the_previous_player(claim, allowed):
    # §4.1: only the discarder's 下家 may chi; pon from anyone.
    assert ask("jipinghu", query="claim_allowed", claim=claim)["claim_allowed"] is allowed


def test_pon_beats_chi_and_dealer_rotation():
    # §4.1: 碰 beats 吃; the dealer stays when he is among several winners, else his 下家 deals.
    claims = [{"seat": 1, "type": "chi"}, {"seat": 3, "type": "pon"}]
    assert ask("jipinghu", query="claim_priority", discarder=0, claims=claims)["granted"] == [3]
    assert ask("jipinghu", query="next_dealer", dealer=2, winners=[2, 3], discarder=1)["next_dealer"] == 2
    assert ask("jipinghu", query="next_dealer", dealer=2, winners=[0])["next_dealer"] == 3
    assert paid(ask("jipinghu", query="drawn_settlement", dealer=2, drawn=True)) == (0, 0, 0, 0)


def test_missed_win_at_the_table():
    # JP-5 at the table: seat 2 passes the dealer's 5p it could win on; the 5p seat 1 discards next is no win
    # for him, and his next draw lifts the block.
    hands = {0: "5p111z222z333z444z5z", 1: "5p666z777z119s455s", 2: "123m456m789m123p5p"}
    referee = stacked(get_ruleset("jipinghu"), hands, draws="9s1z")
    five = parse_tile("5p")
    assert referee.apply(Action(ActionKind.DISCARD, 0, five)).ok
    for seat in (1, 2, 3):
        assert referee.apply(Action(ActionKind.PASS, seat)).ok
    assert referee.missed_wins == {2: {five}}
    assert referee.apply(Action(ActionKind.DRAW, 1)).ok
    assert referee.apply(Action(ActionKind.DISCARD, 1, five)).ok
    verdict = referee.apply(Action(ActionKind.HU, 2))
    assert not verdict.ok and "漏胡" in verdict.reason
    for seat in (2, 3, 0):
        assert referee.apply(Action(ActionKind.PASS, seat)).ok
    assert referee.apply(Action(ActionKind.DRAW, 2)).ok
    assert referee.missed_wins == {}
