"""``guizhou`` against 108.md §2 (rules-A §11, S2:78). Amounts worked by hand from the GZ-3 table (平胡 10 ... 青龙背
100), GZ-5 (self-draw: the other three pay; discard: the discarder; 抢杠: the robbed player three times), GZ-6 (豆:
闷豆 20 and 转弯豆 10 from each other player, 点豆 10 from the supplier) and GZ-7 (热炮: 60 / 30 / 10 on top, that
豆 void). Seat 0 deals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import RulesetError
from engine.rulesets.base import WinContext
from engine.rulesets.registry import get_ruleset
from tests.engine.rulesets.support108 import seats, settle, winning_hands

GUIZHOU = get_ruleset("guizhou")
PLAIN = "123456789m234p5p"  # + 5p: 123 456 789m 234p 55p, two suits, not all pungs → 平胡


def ask(hand: str, win: str | None, situation: dict, melds=(), query: str = "score", **options) -> dict:
    return settle("guizhou", hand, win, {"dealer": 0, **situation}, melds, query, **options)


def names(answer: dict) -> list[str]:
    return [kind.split()[0] for kind in answer["kinds"]]


def test_plain_self_draw_is_paid_by_the_other_three():
    """GZ-3 平胡 10; GZ-5 self-draw: each of the other three pays 10."""
    answer = ask(PLAIN, "5p", {"winner": 1, "discarder": None})
    assert answer["hu"] is True and names(answer) == ["平胡"] and answer["hand_value"] == 10
    assert answer["payments"] == seats(-10, 30, -10, -10)
    assert answer["next_dealer"] == 1  # GZ-10 胡牌者接庄


def test_plain_win_on_a_discard_needs_a_dou_of_ones_own():
    """GZ-4: without a 豆 a 平胡 on a discard is no win; with the winner's 闷豆 it is, and the 豆 is paid too:
    the discarder pays 10 for the hand, each other player 20 for the 闷豆."""
    refused = ask(PLAIN, "5p", {"winner": 1, "discarder": 2})
    assert refused["hu"] is False and refused["payments"] == seats(0, 0, 0, 0)
    kongs = [{"seat": 1, "type": "concealed", "tile": "9s"}]
    answer = ask("123456m789p5p", "5p", {"winner": 1, "discarder": 2, "kongs": kongs}, ["kan:9999s:concealed"])
    assert answer["hu"] is True and answer["hand_value"] == 10
    assert answer["payments"] == seats(-20, 70, -30, -20)


@pytest.mark.parametrize(
    ("hand", "win", "kind", "value"),
    [
        ("111222m333p444p5p", "5p", "大对子", 30),
        ("1122m334455p667p", "7p", "七对", 40),
        ("111122m3344p556p", "6p", "龙七对", 50),
        ("1234567891235m", "5m", "清一色", 50),
        ("1113335557779m", "9m", "清大对", 80),
        ("1122334455667m", "7m", "清七对", 90),  # GZ-3a: 清一色 50 + 七对 40
        ("1111223344556m", "6m", "青龙背", 100),
    ],
)
def test_big_hands_win_on_any_discard(hand, win, kind, value):
    """GZ-3 values, the highest reading (ALL-1); GZ-4 big hands need no 豆 on a discard."""
    answer = ask(hand, win, {"winner": 1, "discarder": 2})
    assert answer["hu"] is True and names(answer) == [kind] and answer["hand_value"] == value
    assert answer["payments"] == seats(0, value, -value, 0)


def test_win_on_a_kong_replacement_adds_ten_and_the_dou_is_paid():
    """GZ-3 杠上胡 +10: 平胡 20 from each other player, plus 20 each for the 闷豆 just made."""
    kongs = [{"seat": 1, "type": "concealed", "tile": "9s"}]
    situation = {"winner": 1, "discarder": None, "after_kong": True, "kongs": kongs}
    answer = ask("123456m789p5p", "5p", situation, ["kan:9999s:concealed"])
    assert names(answer) == ["平胡", "杠上胡"] and answer["hand_value"] == 20
    assert answer["payments"] == seats(-40, 120, -40, -40)


def test_hot_shot_after_an_added_kong():
    """GZ-7 热炮: seat 2 discards right after a 转弯豆; it is void and he pays 30 on top of the 平胡's 10 (a
    平胡 without 豆 wins on a 热炮)."""
    kongs = [{"seat": 2, "type": "added", "tile": "7s", "just_made": True}]
    answer = ask(PLAIN, "5p", {"winner": 1, "discarder": 2, "discarder_after_kong": True, "kongs": kongs})
    assert answer["hu"] is True and answer["hand_value"] == 10
    assert answer["payments"] == seats(0, 40, -40, 0)


def test_hot_shot_after_a_supplied_kong_frees_the_supplier_and_earlier_dou_still_count():
    """GZ-7: the 点豆 (supplied by seat 3) is void, so seat 3 pays nothing and seat 2 pays 10 on top; seat 2's
    earlier 闷豆 still takes 20 from each other player."""
    kongs = [
        {"seat": 2, "type": "concealed", "tile": "8s"},
        {"seat": 2, "type": "exposed", "tile": "7s", "from": 3, "just_made": True},
    ]
    answer = ask(PLAIN, "5p", {"winner": 1, "discarder": 2, "discarder_after_kong": True, "kongs": kongs})
    assert answer["payments"] == seats(-20, 0, 40, -20)
    assert answer["breakdown"]["re_pao"] == seats(0, 10, -10, 0)


def test_robbing_an_added_kong_makes_the_robbed_player_pay_for_all_three():
    """GZ-5/GZ-8 抢杠: the robbed player pays 3 × 10; a 闷豆 cannot be robbed."""
    added = {"seat": 3, "type": "added", "tile": "5p"}
    answer = ask(PLAIN, "5p", {"winner": 1, "discarder": 3, "robbing_kong": True, "kong": added})
    assert answer["hu"] is True and answer["payments"] == seats(0, 30, 0, -30)
    concealed = {"seat": 3, "type": "concealed", "tile": "5p"}
    refused = ask(PLAIN, "5p", {"winner": 1, "discarder": 3, "robbing_kong": True, "kong": concealed})
    assert refused["hu"] is False


def test_every_players_dou_is_settled_at_a_win():
    """GZ-6: seat 0's 点豆 supplied by seat 3 is paid at seat 1's self-draw (seat 3 pays 10)."""
    kongs = [{"seat": 0, "type": "exposed", "tile": "5m", "from": 3}]
    answer = ask(PLAIN, "5p", {"winner": 1, "discarder": None, "kongs": kongs})
    assert answer["payments"] == seats(0, 30, -10, -20)
    assert answer["breakdown"]["dou"] == seats(10, 0, 0, -10)


def test_two_winners_share_one_dou_settlement_and_the_first_takes_the_hot_shot():
    """GZ-9: seat 0 discards after a 闷豆 (void, 热炮 60 to seat 1, the first winner after him); seats 1 (平胡 10)
    and 3 (大对子 30) win; seat 2's earlier 转弯豆 is paid once (10 from each other player); GZ-10: seat 1 deals."""
    kongs = [
        {"seat": 2, "type": "added", "tile": "9s"},
        {"seat": 0, "type": "concealed", "tile": "8s", "just_made": True},
    ]
    situation = {
        "winner": 3,
        "discarder": 0,
        "discarder_after_kong": True,
        "kongs": kongs,
        "other_winners": [{"seat": 1, "hand": PLAIN, "melds": []}],
    }
    answer = ask("111m222m333p444p5p", "5p", situation, query="multi_win")
    assert answer["payments"] == seats(-110, 60, 30, 20)
    assert answer["next_dealer"] == 1


def test_drawn_hand_pays_nothing_and_the_dealer_stays():
    """GZ-11: every 豆 is void; under the ``drawn_dou`` alternative seat 1's 闷豆 takes 20 from each other."""
    kongs = [{"seat": 1, "type": "concealed", "tile": "9s"}]
    answer = ask("", None, {"dealer": 2, "drawn": True, "kongs": kongs}, query="drawn_settlement")
    assert answer["payments"] == seats(0, 0, 0, 0) and answer["next_dealer"] == 2
    paid = ask("", None, {"dealer": 2, "drawn": True, "kongs": kongs}, query="drawn_settlement", drawn_dou=True)
    assert paid["payments"] == seats(-20, 60, -20, -20)


def test_next_dealer_after_several_winners_is_the_first_after_the_discarder():
    """GZ-10 through the shared next_dealer query: winners 3 and 1 on seat 0's discard → seat 1."""
    assert ask("", None, {"winners": [3, 1], "discarder": 0}, query="next_dealer")["next_dealer"] == 1


def test_chickens_have_no_values():
    """GZ-12: the option is reserved; turning it on is refused with the reason."""
    with pytest.raises(RulesetError, match="chickens"):
        get_ruleset("guizhou", {"chickens": True})


@given(
    winning_hands(),
    st.sampled_from([None, 0, 2, 3]),
    st.lists(
        st.fixed_dictionaries(
            {"seat": st.integers(0, 3), "type": st.sampled_from(["concealed", "added"]), "tile": st.just("9s")}
        ),
        max_size=3,
    ),
)
def test_payments_always_sum_to_zero(hand, discarder, kongs):
    """GZ-5/6: hand, 豆 and transfers move money between seats, never create it."""
    ctx = WinContext(winner=1, dealer=0, discarder=discarder, extra={"kongs": kongs})
    score = GUIZHOU.evaluate(hand, ctx)
    assert sum(score.payments.values()) == 0
    if score.hu:
        assert score.extra["breakdown"]["hand"]["1"] == score.extra["hand_value"] * (3 if discarder is None else 1)
