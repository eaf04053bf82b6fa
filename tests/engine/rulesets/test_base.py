"""The ruleset interface: contexts, scores, wildcards, claims, options and the registry."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from engine.errors import RulesetError
from engine.notation import parse_hand
from engine.rulesets.base import (
    ClaimKind,
    DrawContext,
    FanEntry,
    IndicatorPosition,
    MultipleWinners,
    OptionSpec,
    Score,
    WildcardRule,
    WildcardSource,
    WinContext,
)
from engine.rulesets.basic import BasicRuleset
from engine.rulesets.registry import all_rulesets, get_ruleset
from engine.rulesets.tuidaohu.ruleset import TuidaohuScore
from engine.tiles import parse_tile, parse_tiles

# --- WinContext ------------------------------------------------------------------------------------------------


def test_seat_wind_follows_the_dealer():
    # fan.md §0: E for the dealer, then S, W, N in play order.
    assert [WinContext(winner=seat, dealer=3).seat_wind for seat in (3, 0, 1, 2)] == [0, 1, 2, 3]


def test_from_dict_reads_the_settle_situation():
    ctx = WinContext.from_dict({"winner": 1, "dealer": 0, "discarder": None, "round_wind": "S", "void_suit": "m"})
    assert ctx.round_wind == 1 and ctx.self_drawn
    assert ctx.extra == {"void_suit": "m"}
    assert WinContext.from_dict(ctx.to_dict()) == ctx


def test_payers_exclude_players_already_out():
    assert WinContext(winner=1, dealer=0, players_out=(3,)).payers == (0, 2)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"winner": 4, "dealer": 0}, "'winner'"),
        ({"winner": 1, "dealer": 0, "discarder": 1}, "cannot be the discarder"),
        ({"winner": 1, "dealer": 0, "round_wind": "X"}, "'round_wind'"),
        ({"winner": 1, "dealer": 0, "consecutive_dealer": 0}, "'consecutive_dealer'"),
        ({"winner": 1, "dealer": 0, "players_out": (1,)}, "'players_out'"),
        ({"dealer": 0}, "'winner' is missing"),
        ({"winner": 1, "dealer": 0, "after_kong": "yes"}, "'after_kong'"),
        ({"winner": 1, "dealer": 0, "fourth_tile": 1}, "'fourth_tile': expected true or false, found 1"),
        ({"winner": 1, "dealer": 0, "first_turn": None, "last_tile": 0}, "'last_tile': expected true or false"),
        ({"winner": 1, "dealer": 0, "round_wind": 4}, "'round_wind': expected E, S, W, N or 0-3, found 4"),
        ({"winner": 1, "dealer": 0, "round_wind": True}, "'round_wind': expected E, S, W, N or 0-3, found True"),
        ({"winner": 1, "dealer": 0, "players_out": None}, "'players_out': expected a list of seats, found None"),
        ({"winner": 1, "dealer": 0, "players_out": {}}, "'players_out': expected a list of seats"),
        ({"winner": 1, "dealer": 0, "players_out": ""}, "'players_out': expected a list of seats"),
        ({"winner": 1, "dealer": 0, "players_out": [5]}, "'players_out': expected a seat 0-3, found 5"),
        ({"winner": 1, "dealer": 0, "discarder": 2, "players_out": [2]}, "'players_out': the winner and"),
    ],
)
def test_bad_situations_are_named(fields, message):
    with pytest.raises(RulesetError, match=message):
        WinContext.from_dict(fields)


@pytest.mark.parametrize(("given", "kept"), [([], ()), ((), ()), ([3, 2], (3, 2)), ((0,), (0,))])
def test_players_out_become_a_tuple(given, kept):
    ctx = WinContext.from_dict({"winner": 1, "dealer": 0, "round_wind": 2, "players_out": given})
    assert ctx.players_out == kept and type(ctx.players_out) is tuple and ctx.round_wind == 2


def test_draw_context_from_dict_keeps_ruleset_fields():
    ctx = DrawContext.from_dict({"dealer": 2, "round_wind": "W", "drawn": True, "first_winner": None})
    assert (ctx.dealer, ctx.round_wind, ctx.consecutive_dealer) == (2, 2, 1)
    assert ctx.extra == {"drawn": True, "first_winner": None}
    with pytest.raises(RulesetError, match="'dealer' is missing"):
        DrawContext.from_dict({})


# --- Score -------------------------------------------------------------------------------------------------------


def test_score_to_dict_lists_fans_and_extra_fields():
    score = Score(
        hu=True,
        shape_ok=True,
        total=9,
        total_without_flowers=8,
        meets_minimum=True,
        fans=(FanEntry("all_pungs", "碰碰和", "All Pungs", 6), FanEntry("flower", "花牌", "Flower", 1, count=1)),
        payments={0: -8, 1: 24, 2: -8, 3: -8},
        extra={"multiplier": 1},
    )
    data = score.to_dict()
    assert data["fans"][0] == {"id": "all_pungs", "name_zh": "碰碰和", "name_en": "All Pungs", "points": 6, "count": 1}
    assert data["payments"] == {"0": -8, "1": 24, "2": -8, "3": -8}
    assert data["multiplier"] == 1 and "reason" not in data


@pytest.mark.parametrize(
    "payments", [{0: 1, 1: 0, 2: 0, 3: 0}, {0: 0, 1: 0, 2: 0}, {0: 0, 1: 0, 2: 0, 3: 0, 4: 0}, {1: 0, 2: 0, 3: 0, 4: 0}]
)
@pytest.mark.parametrize("kind", [Score, TuidaohuScore])
def test_score_rejects_unbalanced_payments(payments, kind):
    with pytest.raises(RulesetError, match="payments must give seats 0-3 and sum to 0"):
        kind(True, True, 1, 1, True, payments=payments)


@pytest.mark.parametrize("kind", [Score, TuidaohuScore])  # Score's own __init__, and a subclass's generated one
def test_score_keeps_its_fans_as_a_tuple_and_payments_exact(kind):
    payments, extra = {0: 1.0, 1: -0.5, 2: -0.5, 3: 0}, {"multiplier": 2}
    score = kind(True, True, 1, 1, True, fans=[FanEntry("x", "x", "x", 1)], payments=payments, extra=extra)
    assert type(score.fans) is tuple and score.payments == {0: 1, 1: -0.5, 2: -0.5, 3: 0}
    assert type(score.payments[0]) is int and score.payments is not payments
    extra["multiplier"] = 3
    assert score.extra == {"multiplier": 2} and isinstance(score.extra, MappingProxyType)


# --- wildcards (wild.md §1) ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("indicator", "wild"),
    [("3m", "4m"), ("9m", "1m"), ("9s", "1s"), ("1z", "2z"), ("4z", "7z"), ("7z", "6z"), ("6z", "5z"), ("5z", "1z")],
)
def test_successor_cycle(indicator, wild):
    # 9 → 1 of the same suit; honours 东南西北中发白 → 东 (W-1 table, HB-2/TD-1).
    rule = WildcardRule(WildcardSource.SUCCESSOR, indicator=IndicatorPosition.NEXT_DRAW)
    assert rule.wildcards(parse_tile(indicator)) == {parse_tile(wild)}


@pytest.mark.parametrize(("indicator", "wild"), [("4z", "6z"), ("7z", "6z"), ("6z", "5z"), ("5z", "1z")])
def test_wuhan_cycle_skips_red(indicator, wild):
    # wild.md WH-2: 北 → 发 (中 skipped), a flipped 中 → 发.
    cycle = tuple(parse_tiles("123465z"))
    rule = WildcardRule(WildcardSource.SUCCESSOR, indicator=IndicatorPosition.NEXT_DRAW, honor_cycle=cycle)
    assert rule.wildcards(parse_tile(indicator)) == {parse_tile(wild)}


def test_indicator_positions_name_the_procedure_arguments():
    assert (IndicatorPosition.NEXT_DRAW.wall_end, IndicatorPosition.NEXT_DRAW.when) == ("head", "after_deal")
    assert IndicatorPosition.FIRST_WALL_TILE.when == "before_deal"
    assert IndicatorPosition.LAST_WALL_TILE.wall_end == "tail"


def test_two_sided_wildcards():
    rule = WildcardRule(WildcardSource.SUCCESSOR, indicator=IndicatorPosition.NEXT_DRAW, offsets=(-1, 1))
    assert rule.wildcards(parse_tile("3s")) == set(parse_tiles("24s"))
    assert rule.wildcards(parse_tile("1p")) == set(parse_tiles("29p"))


def test_fixed_and_face_wildcards():
    assert WildcardRule(WildcardSource.FIXED, fixed=(parse_tile("5z"),)).wildcards() == {parse_tile("5z")}
    bao = WildcardRule(WildcardSource.FACE, indicator=IndicatorPosition.LAST_WALL_TILE)
    assert bao.wildcards(parse_tile("7s")) == {parse_tile("7s")}
    with pytest.raises(RulesetError, match="indicator"):
        bao.wildcards()


# --- table facts ----------------------------------------------------------------------------------------------


def test_default_claim_priority_hu_then_kong_equals_pung_then_chi():
    ruleset = BasicRuleset()
    ranks = {kind: ruleset.claim_rank(kind) for kind in (ClaimKind.HU, ClaimKind.KONG, ClaimKind.PUNG, ClaimKind.CHI)}
    assert ranks == {ClaimKind.HU: 0, ClaimKind.KONG: 1, ClaimKind.PUNG: 1, ClaimKind.CHI: 2}
    with pytest.raises(RulesetError, match="chi_ready"):
        ruleset.claim_rank(ClaimKind.CHI_READY)


def test_general_defaults():
    ruleset = BasicRuleset()
    assert ruleset.multiple_winners is MultipleWinners.FIRST
    assert not ruleset.hand_continues_after_win
    assert ruleset.wildcards is None
    assert ruleset.reserved_tiles == 0
    assert ruleset.minimum == 0
    assert not ruleset.declares_void_suit and ruleset.horse_tiles == 0


def test_settle_wins_adds_independent_wins():
    ruleset = BasicRuleset({"payment_scheme": "不陪"})
    hand_a = ruleset.evaluate(_winning(), WinContext(winner=1, dealer=0, discarder=3))
    hand_b = ruleset.evaluate(_winning(), WinContext(winner=2, dealer=0, discarder=3))
    assert ruleset.settle_wins([hand_a, hand_b]) == {0: 0, 1: 1, 2: 1, 3: -2}


def _winning():
    return parse_hand("123456789m123p55p")


# --- options and registry --------------------------------------------------------------------------------------


def test_option_spec_types_without_choices():
    spec = OptionSpec("base", 1, types=(int, float))
    assert spec.normalize(2.5, "x") == 2.5
    with pytest.raises(RulesetError, match=r"'base'.*int or float"):
        spec.normalize(True, "x")


def test_registry():
    assert BasicRuleset in all_rulesets()
    assert isinstance(get_ruleset("basic", {"base_scheme": "1-2"}), BasicRuleset)
    with pytest.raises(RulesetError, match=r"unknown ruleset 'no-such-rules'.*basic"):
        get_ruleset("no-such-rules")


def test_describe_lists_every_option():
    described = BasicRuleset.describe()
    assert described["id"] == "basic"
    assert "通用" in described["description"] and "general" in described["description"]
    keys = [option["key"] for option in described["options"]]
    assert keys[:3] == ["base_scheme", "payment_scheme", "dealer_rotation"]
    assert {"tile_set", "seven_pairs", "seven_pairs_quad", "thirteen_orphans", "honors_knitted"} <= set(keys)
