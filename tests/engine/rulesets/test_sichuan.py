"""``sichuan`` against 108.md §1 (成都 / 血战到底). Every expected amount is worked by hand from the decision sheet:
``multiplier = 2^min(fan, 4)``, base 1; a discard win is paid by the discarder alone (SC-6), a self-draw by every
player still in, ``multiplier + 1`` each (SC-7 自摸加底). Seat 0 deals unless a case says otherwise."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import RulesetError
from engine.notation import Hand
from engine.rulesets.base import WinContext
from engine.rulesets.registry import get_ruleset
from engine.tiles import suit_of
from tests.engine.rulesets.support108 import seats, settle, winning_hands

SICHUAN = get_ruleset("sichuan")


def ask(hand: str, win: str | None, situation: dict, melds=(), query: str = "score", **options) -> dict:
    return settle("sichuan", hand, win, {"dealer": 0, **situation}, melds, query, **options)


def discard(winner: int, discarder: int, void: str = "s", **more) -> dict:
    return {"winner": winner, "discarder": discarder, "void_suit": void, **more}


def self_draw(winner: int, void: str = "s", **more) -> dict:
    return {"winner": winner, "discarder": None, "void_suit": void, **more}


# --- SC-4 fan table, SC-5 multiplier, SC-6 discard win ----------------------------------------------------


def test_plain_win_on_a_discard_is_paid_by_the_discarder_alone():
    """SC-4 平胡 0番 → ×1; SC-6 only the discarder pays (S3 点炮时点炮的一个人负责)."""
    answer = ask("123456789m234p5p", "5p", discard(1, 2))
    assert answer["hu"] is True
    assert [kind.split()[0] for kind in answer["kinds"]] == ["平胡"]
    assert (answer["fan"], answer["roots"], answer["multiplier"]) == (0, 0, 1)
    assert answer["payments"] == seats(0, 1, -1, 0)


def test_a_pung_with_its_fourth_tile_in_a_chow_is_a_root():
    """SC-4 根: 111m + 123m hold all four 1m → +1番 on 平胡 → ×2."""
    answer = ask("111123m456789p5p", "5p", discard(3, 1))
    assert (answer["fan"], answer["roots"], answer["multiplier"]) == (1, 1, 2)
    assert answer["payments"] == seats(0, -2, 0, 2)


@pytest.mark.parametrize(
    ("hand", "win", "melds", "kind", "fan"),
    [
        # SC-4 七对 2番 (S8: 暗七对 = 4 units)
        ("1122m334455p667p", "7p", [], "七对", 2),
        # 龙七对: the first four-of-a-kind is in the name, no root on top
        ("111122m3344p556p", "6p", [], "龙七对", 3),
        # 对对胡: a melded pung, three concealed pungs and the pair
        ("222m333444p5p", "5p", ["pon:111m:from=left"], "对对胡", 1),
        # 金钩钓: four melded pungs, the single completed into the pair
        (
            "5p",
            "5p",
            ["pon:111m:from=left", "pon:222m:from=right", "pon:333p:from=left", "pon:444p:from=opposite"],
            "金钩钓",
            2,
        ),
        # 将对: all pungs of 2, 5, 8
        ("222p5p", "5p", ["pon:222m:from=left", "pon:555m:from=left", "pon:888p:from=left"], "将对", 3),
        # 带幺九: every set and the pair hold a 1 or a 9
        ("1123789m123p", "1m", ["pon:999p:from=right"], "带幺九", 2),
        # 清一色 2番
        ("1234567891235m", "5m", [], "清一色", 2),
        # 清对 = 清一色 + 对对胡
        ("1113335557779m", "9m", [], "清对", 3),
        # 清七对 = 清一色 + 七对
        ("1122334455667m", "7m", [], "清七对", 4),
    ],
)
def test_base_kinds_of_the_fan_table(hand, win, melds, kind, fan):
    """SC-4 base kinds, each won on seat 2's discard by seat 1; SC-5 ×2^min(fan, 4)."""
    answer = ask(hand, win, discard(1, 2), melds)
    assert answer["hu"] is True
    assert [name.split()[0] for name in answer["kinds"]] == [kind]
    assert answer["fan"] == fan and answer["roots"] == 0
    assert answer["payments"] == seats(0, 2**fan, -(2**fan), 0)


def test_the_cap_and_the_option_without_cap():
    """SC-5: 清龙七对 is 5番 → capped at 4 (×16); with ``cap_fan: null`` it pays ×32."""
    capped = ask("1111223344556m", "6m", discard(1, 2))
    assert [name.split()[0] for name in capped["kinds"]] == ["清龙七对"]
    assert (capped["fan"], capped["multiplier"]) == (5, 16)
    assert capped["payments"] == seats(0, 16, -16, 0)
    uncapped = ask("1111223344556m", "6m", discard(1, 2), cap_fan=None)
    assert uncapped["multiplier"] == 32 and uncapped["payments"] == seats(0, 32, -32, 0)


def test_a_kong_is_a_root_and_the_base_is_a_multiple():
    """SC-4: a declared kong is a 根; options.base scales every amount (2 × 2^1)."""
    answer = ask("123456m789p5p", "5p", discard(1, 2), ["kan:9999m:concealed"], base=2)
    assert (answer["fan"], answer["roots"]) == (1, 1)
    assert answer["payments"] == seats(0, 4, -4, 0)


# --- SC-7 self-draw, SC-12 血战, situational kinds -----------------------------------------------------------


def test_self_draw_adds_a_base_for_every_player_still_in():
    """SC-7 自摸加底: 平胡 ×1, each other player pays 1 + 1."""
    assert ask("123456789m234p5p", "5p", self_draw(1))["payments"] == seats(-2, 6, -2, -2)


def test_players_who_have_won_neither_pay_nor_collect():
    """SC-12: seat 3 already won; the self-draw is paid by seats 0 and 2 only."""
    answer = ask("123456789m234p5p", "5p", self_draw(1, players_out=[3]))
    assert answer["payments"] == seats(-2, 4, -2, 0)
    assert answer["hand_over"] is False
    final = ask("123456789m234p5p", "5p", self_draw(1, players_out=[3, 2]))
    assert final["payments"] == seats(-2, 2, 0, 0) and final["hand_over"] is True


def test_self_draw_option_adds_a_fan_instead():
    """SC-7 option add_fan (Panzhihua S9): 平胡 self-draw = 1番 → 2 from each, no base on top."""
    answer = ask("123456789m234p5p", "5p", self_draw(1), self_draw="add_fan")
    assert answer["fan"] == 1 and answer["payments"] == seats(-2, 6, -2, -2)


def test_win_on_a_kong_replacement_and_on_the_last_tile():
    """SC-4 situational +1 each: 杠上开花 and 海底捞月 on one 平胡 self-draw → 2番 ×4, each pays 4 + 1 (SC-8)."""
    answer = ask("123456789m234p5p", "5p", self_draw(2, after_kong=True, last_tile=True))
    assert sorted(name.split()[0] for name in answer["kinds"]) == ["平胡", "杠上开花", "海底捞月"]
    assert answer["payments"] == seats(-5, -5, 15, -5)


def test_kong_discard_hands_the_kong_money_to_the_winner():
    """SC-11 呼叫转移: seat 2 made a 暗杠 (2 from each of 0, 1, 3 = 6), drew and discarded the winning tile.
    平胡 + 杠上炮 = 1番 → ×2, plus the 6 collected: seat 2 pays 8."""
    kong = {"seat": 2, "type": "concealed", "tile": "9s", "just_made": True, "paid_by": {"0": 2, "1": 2, "3": 2}}
    answer = ask("123456789m234p5p", "5p", discard(1, 2, discarder_after_kong=True, kongs=[kong]))
    assert "杠上炮" in [name.split()[0] for name in answer["kinds"]]
    assert answer["payments"] == seats(0, 8, -8, 0)
    assert answer["breakdown"]["call_transfer"] == seats(0, 6, -6, 0)


def test_robbing_an_added_kong_only():
    """SC-9: the robbed player pays alone with +1番 for 抢杠胡; a concealed kong cannot be robbed."""
    added = {"seat": 3, "type": "added", "tile": "5p"}
    answer = ask("123456789m234p5p", "5p", discard(1, 3, robbing_kong=True, kong=added))
    assert answer["hu"] is True and answer["fan"] == 1
    assert answer["payments"] == seats(0, 2, 0, -2)
    concealed = {"seat": 3, "type": "concealed", "tile": "5p"}
    refused = ask("123456789m234p5p", "5p", discard(1, 3, robbing_kong=True, kong=concealed))
    assert refused["hu"] is False and refused["payments"] == seats(0, 0, 0, 0)


def test_heavenly_win_is_paid_at_the_cap():
    """SC-4 天胡: the dealer complete on his dealt tiles → cap (4番, ×16); self-draw pays 16 + 1 each."""
    answer = ask("123456789m234p5p", "5p", self_draw(0, first_turn=True))
    assert [name.split()[0] for name in answer["kinds"]] == ["天胡"]
    assert answer["payments"] == seats(51, -17, -17, -17)
    earthly = ask("123456789m234p5p", "5p", self_draw(2, first_turn=True))
    assert [name.split()[0] for name in earthly["kinds"]] == ["地胡"] and earthly["multiplier"] == 16


def test_last_four_tiles_must_be_won():
    """SC-13: with 3 or fewer live tiles left a player who can win may not pass (must_hu)."""
    assert ask("123456789m234p5p", "5p", discard(1, 2, wall_remaining=3))["must_hu"] is True
    assert ask("123456789m234p5p", "5p", discard(1, 2, wall_remaining=4))["must_hu"] is False


# --- SC-2 定缺 ------------------------------------------------------------------------------------------------


def test_a_hand_holding_its_void_suit_cannot_win():
    """SC-2: the winner declared m void but holds 万 → no win, nothing paid; declared s void → a win."""
    refused = ask("123456789m234p5p", "5p", discard(1, 2, void="m"))
    assert refused["hu"] is False and refused["payments"] == seats(0, 0, 0, 0)
    assert ask("123456789m234p5p", "5p", discard(1, 2, void="s"))["hu"] is True


def test_any_two_suits_option():
    """SC-2 option any_two_suits: a two-suit hand wins whatever suit was declared; three suits never win."""
    assert ask("123456789m234p5p", "5p", discard(1, 2, void="m"), void_rule="any_two_suits")["hu"] is True
    three = ask("123456789m234s5p", "5p", discard(1, 2, void="m"), void_rule="any_two_suits")
    assert three["hu"] is False


@given(winning_hands())
def test_a_hand_holding_the_declared_void_suit_never_wins(hand: Hand):
    """SC-2 as a property: any complete hand, declared void in a suit it holds, is refused and pays nothing."""
    held = sorted({suit_of(tile) for tile in hand.all_tiles()})
    for void in held:
        score = SICHUAN.evaluate(hand, WinContext(winner=1, dealer=0, discarder=2, extra={"void_suit": void}))
        assert not score.hu and set(score.payments.values()) == {0}
    for void in sorted(set("mps") - set(held)):
        assert SICHUAN.evaluate(hand, WinContext(winner=1, dealer=0, extra={"void_suit": void})).hu


@given(
    winning_hands(max_suits=2), st.sampled_from([None, 0, 2, 3]), st.booleans(), st.lists(st.sampled_from([0, 2, 3]))
)
def test_payments_always_sum_to_zero_and_the_winner_takes_what_the_others_lose(hand, discarder, kong, out):
    """SC-6/7/12: whatever the situation, the winner's gain is exactly the others' losses."""
    out = sorted(set(out) - {discarder})[:2]
    void = next(suit for suit in "mps" if suit not in {suit_of(tile) for tile in hand.all_tiles()})
    ctx = WinContext(
        winner=1,
        dealer=0,
        discarder=discarder,
        after_kong=kong and discarder is None,
        players_out=tuple(out),
        extra={"void_suit": void},
    )
    score = SICHUAN.evaluate(hand, ctx)
    assert score.hu
    assert sum(score.payments.values()) == 0
    assert score.payments[1] == -sum(amount for seat, amount in score.payments.items() if seat != 1) > 0
    assert all(score.payments[seat] == 0 for seat in out)


# --- several winners, kong money, drawn hand, next dealer -------------------------------------------------


def test_two_winners_on_one_discard_and_the_transfer_goes_to_the_first():
    """SC-12 一炮多响: seat 0 discards right after a 暗杠 (6 collected); seats 1 (平胡 + 杠上炮 ×2) and 3 (七对 +
    杠上炮 = 3番 ×8) win; the 6 go to seat 1, the first after the discarder (SC-11); SC-15 the discarder deals."""
    kong = {"seat": 0, "type": "concealed", "tile": "9s", "just_made": True, "paid_by": {"1": 2, "2": 2, "3": 2}}
    situation = {
        **discard(1, 0, discarder_after_kong=True, kongs=[kong], first_win_of_hand=True),
        "other_winners": [{"seat": 3, "hand": "1122m334455p667p", "melds": [], "void_suit": "s"}],
    }
    answer = ask("123456789m234p7p", "7p", situation, query="multi_win")
    assert answer["hu"] is True
    assert answer["payments"] == seats(-16, 8, 0, 8)
    assert answer["next_dealer"] == 0
    assert (answer["per_winner"]["1"]["fan"], answer["per_winner"]["3"]["multiplier"]) == (1, 8)
    assert answer["hand_over"] is False


@pytest.mark.parametrize(
    ("kong", "out", "expected"),
    [
        ({"seat": 1, "type": "exposed", "tile": "5m", "from": 3}, [], (0, 2, 0, -2)),  # 直杠: the discarder 2
        ({"seat": 1, "type": "added", "tile": "5m"}, [], (-1, 3, -1, -1)),  # 补杠: 1 from each player still in
        ({"seat": 1, "type": "concealed", "tile": "5m"}, [2], (-2, 4, 0, -2)),  # 暗杠: 2 each, seat 2 has won
    ],
)
def test_kong_money(kong, out, expected):
    """SC-10 刮风下雨, paid when the kong is declared; SC-12 players out neither pay nor collect."""
    answer = ask("", None, {"kong": kong, "players_out": out}, query="kong_payment")
    assert answer["payments"] == seats(*expected)


def test_drawn_hand_huazhu_dajiao_and_refund():
    """SC-14, worked: seat 3 has won. Seat 0 is a 花猪 (declared s void, holds 1s). Seat 1 is ready on 5p and 8p,
    平胡 either way (0番, ×1); every 5p is in seat 2's kong, a 死叫 that still counts (S10). Seat 2 is not ready
    and collected 6 for that 暗杠 (2 each from seats 0, 1 and 3).
    1. 花猪: seat 0 pays 16 (base × 2^cap) to each non-花猪 still in, seats 1 and 2.
    2. 查大叫: seat 2 pays the ready seat 1 his best win, ×1.
    3. 退税: seats 0 and 2 are not ready; seat 2 returns 2 to each payer (seat 3 included, though he has won)."""
    situation = {
        "drawn": True,
        "first_winner": 3,
        "seats": {
            "0": {"status": "in", "hand": "1234567m123p111s", "melds": [], "void_suit": "s"},
            "1": {"status": "in", "hand": "123456789m67p99p", "melds": [], "void_suit": "s"},
            "2": {"status": "in", "hand": "1357m123468p", "melds": ["kan:5555p:concealed"], "void_suit": "s"},
            "3": {"status": "won"},
        },
        "kongs": [{"seat": 2, "type": "concealed", "tile": "5p", "paid_by": {"0": 2, "1": 2, "3": 2}}],
    }
    answer = ask("", None, situation, query="drawn_settlement")
    assert answer["huazhu"] == {"0": True, "1": False, "2": False}
    assert answer["ready"] == {"0": False, "1": True, "2": False}
    assert answer["max_fan"] == {"1": 0}
    assert answer["breakdown"] == {
        "huazhu": seats(-32, 16, 16, 0),
        "dajiao": seats(0, 1, -1, 0),
        "tuishui": seats(2, 2, -6, 2),
    }
    assert answer["payments"] == seats(-30, 19, 9, 2)
    assert answer["next_dealer"] == 3
    assert answer["hu"] is None


def test_a_kind_held_four_times_is_no_wait_at_the_draw():
    """SC-14: seat 1 waits only on 5m (a single wait) and holds all four 5m himself (a pung and one more): not
    ready, so he pays seat 2's best win. Seat 2 is ready on 1p/4p/7p, 平胡 + one 根 for his 9999p kong = 1番, ×2."""
    situation = {
        "drawn": True,
        "seats": {
            "0": {"status": "won"},
            "1": {"status": "in", "hand": "123789m5m234p", "melds": ["pon:555m:from=left"], "void_suit": "s"},
            "2": {"status": "in", "hand": "678m88m23456p", "melds": ["kan:9999p:concealed"], "void_suit": "s"},
            "3": {"status": "won"},
        },
        "kongs": [],
    }
    answer = ask("", None, situation, query="drawn_settlement")
    assert answer["ready"] == {"1": False, "2": True}
    assert answer["payments"] == seats(0, -2, 2, 0)
    assert answer["next_dealer"] == 0


@pytest.mark.parametrize(
    ("situation", "dealer"),
    [
        ({"winners": [2, 3], "discarder": 0}, 0),  # SC-15: a multiple first win → the discarder deals
        ({"winners": [3, 1]}, 3),  # 血战: wins one after another → the first winner deals
        ({"winners": [], "drawn": True}, 1),  # nobody won: the dealer deals again
    ],
)
def test_next_dealer(situation, dealer):
    answer = ask("", None, {"dealer": 1, **situation}, query="next_dealer")
    assert answer["next_dealer"] == dealer


def test_bad_inputs_answer_an_error_naming_the_field():
    """README: a line that cannot be settled answers an error and pays nothing."""
    assert "void_suit" in ask("123456789m234p5p", "5p", {"winner": 1, "discarder": 2})["error"]
    assert "not in the 108" in ask("123456789m234p5z", "5p", discard(1, 2))["error"]
    with pytest.raises(RulesetError, match="cap_fan"):
        get_ruleset("sichuan", {"cap_fan": -1})


def test_kong_bloom_after_a_supplied_kong_option():
    """SC-8: 平胡 + 根 (the 9999m kong) + 杠上开花 = 2番, ×4. By default every player still in pays 4 + 1; with
    ``kong_bloom_payer: kong_supplier`` seat 3, who supplied the kong's tile, pays 4 alone (点杠花)."""
    kongs = [{"seat": 1, "type": "exposed", "tile": "9m", "from": 3}]
    situation = self_draw(1, after_kong=True, kongs=kongs)
    melds = ["kan:9999m:from=opposite"]
    assert ask("123456m789p5p", "5p", situation, melds)["payments"] == seats(-5, 15, -5, -5)
    supplied = ask("123456m789p5p", "5p", situation, melds, kong_bloom_payer="kong_supplier")
    assert supplied["payments"] == seats(0, 4, 0, -4)


def test_concealed_hand_and_no_terminals_options():
    """SC-4 options 门清 and 中张: a concealed 平胡 without 1 or 9 gains 1番 each → ×4; off by default."""
    assert ask("234567m345678p5p", "5p", discard(1, 2))["fan"] == 0
    answer = ask("234567m345678p5p", "5p", discard(1, 2), menqing=True, zhongzhang=True)
    assert sorted(name.split()[0] for name in answer["kinds"]) == ["中张", "平胡", "门清"]
    assert answer["payments"] == seats(0, 4, -4, 0)
