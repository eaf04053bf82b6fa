"""杭州 (fan.md §6): 财神 wildcards (HZ-1), self-drawn wins only (HZ-2), 爆头 (HZ-3), 财飘 (HZ-4), 杠开 (HZ-5),
simulated hands."""

from __future__ import annotations

from collections import Counter

from engine.rulesets.registry import get_ruleset
from engine.simulation import simulate
from tests.engine.rulesets.regional import ask, fans_of

Z = "hangzhou"
SETS_AND_CAISHEN = "123m456m789p234p5z"
"""Four complete sets and one 白 (the 财神): any drawn tile pairs with it."""


def test_plain_self_draw_has_no_item_and_total_1():
    """§6: a plain self-drawn win: no item, total 1, no settlement stated."""
    answer = ask(Z, "123m456m789p234p5s", "5s", winner=1, dealer=0)
    assert answer == {"hu": True, "payments": None, "total": 1, "fans": []}


def test_discard_win_is_rejected():
    """HZ-2: wins are self-drawn only."""
    answer = ask(Z, "123m456m789p234p5s", "5s", winner=1, dealer=0, discarder=2)
    assert answer["hu"] is False


def test_baotou_any_drawn_tile_pairs_with_the_lone_caishen():
    """HZ-3: 爆头 ×2 — the 13 standing tiles are four sets and a lone 财神; the drawn 9s pairs with it."""
    answer = ask(Z, SETS_AND_CAISHEN, "9s", winner=1, dealer=0, wildcards=["5z"])
    assert fans_of(answer) == Counter({("爆头", 2): 1}) and answer["total"] == 2


def test_caipiao_replaces_baotou():
    """HZ-4: after discarding a 财神 last turn while in the 爆头 position: 财飘 ×4 instead of 爆头."""
    answer = ask(Z, SETS_AND_CAISHEN, "9s", winner=1, dealer=0, wildcards=["5z"], wildcard_discarded_last_turn=True)
    assert fans_of(answer) == Counter({("财飘", 4): 1}) and answer["total"] == 4


def test_gangkai_multiplies_with_baotou():
    """HZ-5: 杠开 ×2 on the kong replacement, multiplied with 爆头: total 4."""
    answer = ask(Z, SETS_AND_CAISHEN, "9s", winner=1, dealer=0, wildcards=["5z"], after_kong=True)
    assert fans_of(answer) == Counter({("爆头", 2): 1, ("杠开", 2): 1}) and answer["total"] == 4
    plain = ask(Z, "123m456m789p234p5s", "5s", winner=1, dealer=0, after_kong=True)
    assert fans_of(plain) == Counter({("杠开", 2): 1}) and plain["total"] == 2


def test_caishen_stands_for_a_missing_tile_without_baotou():
    """HZ-1: the 白 completes 12m as 3m; the standing tiles are not sets + a lone 财神, so no 爆头."""
    answer = ask(Z, "12m456m789p234p5s5z", "5s", winner=1, dealer=0, wildcards=["5z"])
    assert answer["hu"] is True and answer["fans"] == [] and answer["total"] == 1
    assert ask(Z, "12m456m789p234p5s5z", "5s", winner=1, dealer=0)["hu"] is False  # no 财神: no win


def test_simulated_hands_are_all_self_drawn():
    for hand in simulate(get_ruleset(Z), 10, seed=6):
        for record in hand.referee.wins:
            assert record.context.self_drawn
