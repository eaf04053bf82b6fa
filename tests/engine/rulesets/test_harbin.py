"""``harbin`` against wild.md §6 (S004:405-447, HR-1..HR-11), worked by hand from the text's payment tables.

Player A (seat 1) wins; B = seat 0 discards unless a case says otherwise; the dealer is seat 0. The base hand is
opened by a chi of 123m, has two suits and a 9, a pung (777s) and chows, and waits on 2s / 5s.
"""

from __future__ import annotations

import pytest

from tests.engine.rulesets.regional import ask, paid

OPEN = ("chi:123m:from=left",)
HAND = "456p777s99m34s"
"""Waits on 2s and 5s (no 卡当)."""
KADANG = "456p777s99m35s"
"""Waits on 4s only, the middle of 345s: 卡当 (HR-3)."""


def hb(hand: str, win: str, melds: tuple[str, ...] = OPEN, **situation):
    situation.setdefault("dealer", 0)
    situation.setdefault("declared_ready", True)
    return ask("harbin", hand, win, melds, **situation)


def test_discard_win_everyone_ready_and_open():
    # §6.1 table: discard A +3 (B ready, C and D open): 平胡 1 from each of the three.
    answer = hb(HAND, "5s", winner=1, discarder=0)
    assert answer["kind"] == "pinghu" and answer["hand_value"] == 1 and answer["kadang"] is False
    assert paid(answer) == (-1, 3, -1, -1)


@pytest.mark.parametrize(("standing", "expected"), [({"2": False}, 5), ({"2": False, "3": False}, 7)])
def test_standing_losers_pay_three(standing, expected):
    # §6.1: A +5 / +7 when one / two non-discarders never opened (站立 pays 3).
    answer = hb(HAND, "5s", winner=1, discarder=0, open_melds=standing)
    assert answer["payments"]["1"] == expected


def test_discarder_not_ready_pays_for_all():
    # §6.1 出冲: B pays 3 and the others' shares: +5 = 3 + 1 + 1, all from B.
    answer = hb(HAND, "5s", winner=1, discarder=0, ready={"0": False})
    assert paid(answer) == (-5, 5, 0, 0)


def test_hr8_one_standing_loser_with_chuchong():
    # HR-8: C open (1), D standing (3), B 出冲 (3): A +7, all from B.
    answer = hb(HAND, "5s", winner=1, discarder=0, ready={"0": False}, open_melds={"3": False})
    assert paid(answer) == (-7, 7, 0, 0)


@pytest.mark.parametrize(
    ("standing", "expected"),
    [({}, 6), ({"2": False}, 7), ({"2": False, "3": False}, 8), ({"0": False, "2": False, "3": False}, 9)],
)
def test_self_draw_table(standing, expected):
    # §6.1: self-draw A +6 / +7 / +8 / +9 with 0-3 standing losers (2 each, a 站立 loser 3: HR-5).
    answer = hb(HAND, "5s", winner=1, open_melds=standing)
    assert answer["kind"] == "zimo" and answer["payments"]["1"] == expected


def test_self_drawn_bao_is_mobao():
    # §6.1 摸宝 (HR-1, HR-6): the 宝 7z self-drawn by a ready player completes the hand: 3 each, A +9.
    answer = hb(HAND, "7z", winner=1, bao="7z")
    assert answer["kind"] == "mobao"
    assert paid(answer) == (-3, 9, -3, -3)


def test_bao_zhong_bao():
    # §6.1 宝中宝 (HR-4): a 卡当 wait whose tile is the 宝: 12 each, A +36, no further 卡当 doubling.
    answer = hb(KADANG, "4s", winner=1, bao="4s")
    assert answer["kind"] == "baozhongbao" and answer["hand_value"] == 12 and answer["kadang"] is True
    assert paid(answer) == (-12, 36, -12, -12)


def test_kadang_doubles():
    # §6.1 卡当 doubles all amounts: 平胡 1 × 2 from each.
    answer = hb(KADANG, "4s", winner=1, discarder=0)
    assert answer["kadang"] is True
    assert paid(answer) == (-2, 6, -2, -2)


def test_kadang_examples_of_the_text():
    # §6.1: 7889 waiting on 8 is 卡当; 67789 (waiting on 5 and 8) is not.
    melds = ("chi:123m:from=left", "pon:555p:from=right")
    assert hb("999s7889p", "8p", melds, winner=1, discarder=0)["kadang"] is True
    assert hb("99s67789p", "8p", melds, winner=1, discarder=0)["kadang"] is False


@pytest.mark.parametrize(
    ("hand", "win", "melds", "extra"),
    [
        ("123m456p777s99m34s", "5s", (), {}),  # never opened (S004:427)
        ("456m777m99m34m", "5m", OPEN, {}),  # one suit only (S004:417)
        ("456p789s99m34s", "5s", OPEN, {}),  # no pung (S004:415)
        (HAND, "5s", OPEN, {"declared_ready": False}),  # not ready (S004:425)
    ],
)
def test_conditions(hand, win, melds, extra):
    assert hb(hand, win, melds, winner=1, discarder=0, **extra)["hu"] is False


def test_no_terminal_with_an_open_hand():
    # S004:419: a 1, 9 or 红中 somewhere: 234m chi, 456p, 777s, 88p, 34s has none.
    assert hb("456p777s88p34s", "5s", ("chi:234m:from=left",), winner=1, discarder=0)["hu"] is False


def test_heavenly_hand_is_forbidden():
    # S004:431: 天胡 is not allowed.
    assert hb(HAND, "5s", winner=0, first_turn=True)["hu"] is False


def test_robbing_a_kong_is_paid_as_self_draw():
    # HR-7: 抢杠 counts as 自摸, paid by all three.
    answer = hb(HAND, "5s", winner=1, discarder=3, robbing_kong=True)
    assert answer["kind"] == "zimo"
    assert paid(answer) == (-2, 6, -2, -2)


def test_bao_change_at_three_visible_copies():
    # HR-9: three visible copies of the 宝 face replace it.
    assert ask("harbin", query="bao_change", bao="5s", visible_bao_copies=3)["bao_change"] is True
    assert ask("harbin", query="bao_change", bao="5s", visible_bao_copies=2)["bao_change"] is False


def test_claim_priority():
    # HR-10: 胡 > 杠 > 吃听 > 碰 > 吃.
    def granted(*claims):
        return ask("harbin", query="claim_priority", discarder=0, claims=list(claims))["granted"]

    assert granted({"seat": 2, "type": "pon"}, {"seat": 1, "type": "chi", "ready": True}) == [1]
    assert granted({"seat": 2, "type": "pon"}, {"seat": 1, "type": "chi"}) == [2]
    assert granted({"seat": 3, "type": "kan"}, {"seat": 1, "type": "chi_ready"}) == [3]
    assert granted({"seat": 3, "type": "kan"}, {"seat": 2, "type": "hu"}) == [2]


def test_winner_deals():
    # §6.1: the dealer stays on his win or a drawn hand, otherwise the winner deals.
    assert ask("harbin", query="next_dealer", dealer=0, winners=[2])["next_dealer"] == 2
    assert ask("harbin", query="next_dealer", dealer=0, winners=[0])["next_dealer"] == 0
    assert ask("harbin", query="drawn_settlement", dealer=3, drawn=True)["next_dealer"] == 3


def test_standing_applies_to_non_discarders_only():
    # §6.1: "a non-discarder who never opened (站立) pays 3"; the ready discarder pays his 1 either way.
    answer = hb(HAND, "5s", winner=1, discarder=0, open_melds={"0": False})
    assert paid(answer) == (-1, 3, -1, -1)
