"""The ``basic`` ruleset against fan.md §1 (tables §1.3-1.5, decisions BA-1..BA-5) and rules-B §3.

Expected payments are worked by hand from the tables: per payer, the base of §1.3 with "dealer involved" judged
for that payer, and the §1.4 share (discarder 1; others 1 全陪, ½ 半陪, 0 不陪; self-draw: all three in full).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import RulesetError, TileCountError
from engine.match import Rotation
from engine.notation import parse_hand
from engine.rulesets.base import BreakMethod, DrawContext, WinContext
from engine.rulesets.basic import BasicRuleset
from engine.rulesets.registry import get_ruleset

WINNING = parse_hand("123456789m123p55p")
"""4 chows + pair, won on 5p."""
NOT_WINNING = parse_hand("123456789m123p56p")


def ctx(winner, dealer, discarder=None, **more):
    return WinContext(winner=winner, dealer=dealer, discarder=discarder, **more)


# Cases (dealer is seat 0 throughout):
#   A  non-dealer 1 wins on non-dealer 2's discard (the dealer is a non-discarding loser)
#   B  the dealer wins on seat 2's discard
#   C  non-dealer 1 wins on the dealer's discard
#   E  the dealer self-draws
#   F  non-dealer 1 self-draws
CASES = {"A": (1, 2), "B": (0, 2), "C": (1, 0), "E": (0, None), "F": (1, None)}

# (base scheme, payment scheme, case) -> payments of seats 0..3
TABLE = {
    # 1-2-4: discard 1 / dealer 2, self-draw 2 / dealer 4
    ("1-2-4", "全陪", "A"): (-2, 4, -1, -1),
    ("1-2-4", "半陪", "A"): (-1, 2.5, -1, -0.5),
    ("1-2-4", "不陪", "A"): (0, 1, -1, 0),
    ("1-2-4", "全陪", "B"): (6, -2, -2, -2),
    ("1-2-4", "半陪", "B"): (4, -1, -2, -1),
    ("1-2-4", "不陪", "B"): (2, 0, -2, 0),
    ("1-2-4", "全陪", "C"): (-2, 4, -1, -1),
    ("1-2-4", "半陪", "C"): (-2, 3, -0.5, -0.5),
    ("1-2-4", "不陪", "C"): (-2, 2, 0, 0),
    # 1-2-3: discard 1 / dealer 2, self-draw 2 / dealer 3
    ("1-2-3", "全陪", "A"): (-2, 4, -1, -1),
    ("1-2-3", "半陪", "A"): (-1, 2.5, -1, -0.5),
    ("1-2-3", "不陪", "A"): (0, 1, -1, 0),
    ("1-2-3", "全陪", "B"): (6, -2, -2, -2),
    ("1-2-3", "半陪", "B"): (4, -1, -2, -1),
    ("1-2-3", "不陪", "B"): (2, 0, -2, 0),
    ("1-2-3", "全陪", "C"): (-2, 4, -1, -1),
    ("1-2-3", "半陪", "C"): (-2, 3, -0.5, -0.5),
    ("1-2-3", "不陪", "C"): (-2, 2, 0, 0),
    # 1-2: discard 1, self-draw 2, whoever deals
    ("1-2", "全陪", "A"): (-1, 3, -1, -1),
    ("1-2", "半陪", "A"): (-0.5, 2, -1, -0.5),
    ("1-2", "不陪", "A"): (0, 1, -1, 0),
    ("1-2", "全陪", "B"): (3, -1, -1, -1),
    ("1-2", "半陪", "B"): (2, -0.5, -1, -0.5),
    ("1-2", "不陪", "B"): (1, 0, -1, 0),
    ("1-2", "全陪", "C"): (-1, 3, -1, -1),
    ("1-2", "半陪", "C"): (-1, 2, -0.5, -0.5),
    ("1-2", "不陪", "C"): (-1, 1, 0, 0),
}
# A self-draw is paid by all three in every payment scheme.
SELF_DRAW = {
    ("1-2-4", "E"): (12, -4, -4, -4),
    ("1-2-4", "F"): (-4, 8, -2, -2),
    ("1-2-3", "E"): (9, -3, -3, -3),
    ("1-2-3", "F"): (-3, 7, -2, -2),
    ("1-2", "E"): (6, -2, -2, -2),
    ("1-2", "F"): (-2, 6, -2, -2),
}
for (_base, _case), _row in SELF_DRAW.items():
    for _payment in ("全陪", "半陪", "不陪"):
        TABLE[(_base, _payment, _case)] = _row


@pytest.mark.parametrize(("base", "payment", "case"), sorted(TABLE))
def test_settlement_table(base, payment, case):
    winner, discarder = CASES[case]
    ruleset = BasicRuleset({"base_scheme": base, "payment_scheme": payment})
    score = ruleset.evaluate(WINNING, ctx(winner, 0, discarder))
    expected = dict(enumerate(TABLE[(base, payment, case)]))
    assert score.hu
    assert score.payments == expected
    assert score.total == expected[winner]
    assert score.fans == ()


def test_to_dict_is_the_cli_shape():
    score = BasicRuleset().evaluate(WINNING, ctx(1, 0, 2))
    data = score.to_dict()
    assert data["hu"] is True
    assert data["total"] == 4
    assert data["fans"] == []
    assert data["payments"] == {"0": -2, "1": 4, "2": -1, "3": -1}


def test_half_amounts_are_exact():  # BA-1
    score = BasicRuleset({"payment_scheme": "half"}).evaluate(WINNING, ctx(1, 0, 2))
    assert score.payments[3] == -0.5


def test_robbing_kong_is_a_discard_by_the_konger():  # BA-2
    robbed = BasicRuleset().evaluate(WINNING, ctx(1, 0, 3, robbing_kong=True))
    assert robbed.payments == {0: -2, 1: 4, 2: -1, 3: -1}
    only = BasicRuleset({"payment_scheme": "不陪"}).evaluate(WINNING, ctx(1, 0, 3, robbing_kong=True))
    assert only.payments == {0: 0, 1: 1, 2: 0, 3: -1}


def test_robbing_kong_without_the_konger_is_an_error():
    with pytest.raises(RulesetError, match="konger"):
        ctx(1, 0, None, robbing_kong=True)


def test_heavenly_win_is_a_self_draw():  # S000:159
    score = BasicRuleset().evaluate(WINNING, ctx(0, 0, None, first_turn=True))
    assert score.payments == {0: 12, 1: -4, 2: -4, 3: -4}


def test_drawn_hand_pays_nothing():  # fan.md §1.4, BA-3
    assert BasicRuleset().settle_draw(DrawContext(dealer=2)) == {0: 0, 1: 0, 2: 0, 3: 0}


def test_not_a_winning_shape_is_rejected_and_pays_nothing():
    score = BasicRuleset().evaluate(NOT_WINNING, ctx(1, 0, 2))
    assert not score.hu and not score.shape_ok
    assert score.payments == {0: 0, 1: 0, 2: 0, 3: 0}
    assert "七对" in score.reason
    assert "七对" not in BasicRuleset({"seven_pairs": False}).evaluate(NOT_WINNING, ctx(1, 0, 2)).reason


@given(
    winner=st.integers(0, 3),
    dealer=st.integers(0, 3),
    discarder=st.one_of(st.none(), st.integers(0, 3)),
    base=st.sampled_from(["1-2-4", "1-2-3", "1-2"]),
    payment=st.sampled_from(["全陪", "半陪", "不陪"]),
)
def test_payments_sum_to_zero(winner, dealer, discarder, base, payment):
    if discarder == winner:
        discarder = None
    score = BasicRuleset({"base_scheme": base, "payment_scheme": payment}).evaluate(
        WINNING, ctx(winner, dealer, discarder)
    )
    assert sum(score.payments.values()) == 0
    assert score.total == score.payments[winner] > 0


# --- shapes (rules-B §3.2) -----------------------------------------------------------------------------------

SEVEN_PAIRS = parse_hand("11559p3377s1122z9p")
SEVEN_PAIRS_QUAD = parse_hand("1111m5599p3377s11z")
THIRTEEN_ORPHANS = parse_hand("19m19p19s1234567z1m")
HONORS_KNITTED = parse_hand("147m258p36s123456z")


@pytest.mark.parametrize(
    ("hand", "option"),
    [
        (SEVEN_PAIRS, "seven_pairs"),
        (SEVEN_PAIRS_QUAD, "seven_pairs"),
        (SEVEN_PAIRS_QUAD, "seven_pairs_quad"),
        (THIRTEEN_ORPHANS, "thirteen_orphans"),
        (HONORS_KNITTED, "honors_knitted"),
    ],
)
def test_special_shape_wins_by_default_and_not_when_switched_off(hand, option):
    assert BasicRuleset().evaluate(hand, ctx(1, 0, 2)).hu
    assert not BasicRuleset({option: False}).evaluate(hand, ctx(1, 0, 2)).hu


def test_seven_pairs_without_quads_still_wins_with_quad_off():
    assert BasicRuleset({"seven_pairs_quad": False}).evaluate(SEVEN_PAIRS, ctx(1, 0, 2)).hu


def test_melds_count_as_sets():
    hand = parse_hand("[123m,1][7777p][999s,2]45m55p3m")
    assert BasicRuleset().evaluate(hand, ctx(1, 0, 2)).hu


# --- hand checks ---------------------------------------------------------------------------------------------


def test_five_copies_name_the_tile():
    with pytest.raises(TileCountError, match="5 copies of 1m"):
        BasicRuleset().evaluate(parse_hand("[111m,1]1m234p567p999s1m"), ctx(1, 0, 2))


def test_a_tile_outside_the_set_is_named():
    hand = parse_hand("123456789m123p55p|EE0000|a")
    with pytest.raises(TileCountError, match="1f"):
        BasicRuleset().evaluate(hand, ctx(1, 0, 2))
    assert BasicRuleset({"tile_set": 144}).evaluate(hand, ctx(1, 0, 2)).hu


def test_flower_count_above_the_set_is_an_error():
    with pytest.raises(TileCountError, match="flowers"):
        BasicRuleset().evaluate(parse_hand("123456789m123p55p|EE0000|2"), ctx(1, 0, 2))


@pytest.mark.parametrize("text", ["123456789m12p55p", "[123m,1]123456789m12p55p"])
def test_wrong_tile_total_is_a_clear_error(text):
    with pytest.raises(TileCountError, match="expected 13 before the winning tile"):
        BasicRuleset().evaluate(parse_hand(text), ctx(1, 0, 2))


def test_a_waiting_hand_has_no_winning_tile():
    with pytest.raises(TileCountError, match="no winning tile"):
        BasicRuleset().evaluate(parse_hand("123456789m123p5p "), ctx(1, 0, 2))


# --- options -------------------------------------------------------------------------------------------------


def test_defaults():
    ruleset = get_ruleset("basic")
    assert ruleset.options == {
        "base_scheme": "1-2-4",
        "payment_scheme": "全陪",
        "dealer_rotation": "traditional",
        "drawn_dealer_passes": False,
        "break_method": "one_throw",
        "tile_set": 136,
        "seven_pairs": True,
        "seven_pairs_quad": True,
        "thirteen_orphans": True,
        "honors_knitted": True,
    }
    assert ruleset.tile_set.size == 136 and not ruleset.flowers
    assert ruleset.break_method is BreakMethod.ONE_THROW
    assert ruleset.allows_chi and ruleset.chi_only_from_left and ruleset.robbing_kong


@pytest.mark.parametrize(("alias", "value"), [("full", "全陪"), ("half", "半陪"), ("none", "不陪")])
def test_payment_scheme_ascii_aliases(alias, value):
    assert BasicRuleset({"payment_scheme": alias}).options["payment_scheme"] == value


def test_144_tiles_have_flowers():
    ruleset = BasicRuleset({"tile_set": "144"})
    assert ruleset.options["tile_set"] == 144
    assert ruleset.tile_set.size == 144 and ruleset.flowers


def test_two_throws():
    assert BasicRuleset({"break_method": "two_throws"}).break_method is BreakMethod.TWO_THROWS


@pytest.mark.parametrize(
    ("option", "rotation", "drawn_passes", "max_consecutive"),
    [
        ({}, Rotation.TRADITIONAL, False, None),
        ({"drawn_dealer_passes": True}, Rotation.TRADITIONAL, True, None),
        ({"dealer_rotation": "competition"}, Rotation.COMPETITION, False, None),
        ({"dealer_rotation": "max3"}, Rotation.TRADITIONAL, False, 3),
        ({"dealer_rotation": "winner_deals"}, Rotation.WINNER_DEALS, False, None),
    ],
)
def test_rotation_options(option, rotation, drawn_passes, max_consecutive):
    policy = BasicRuleset(option).rotation
    assert (policy.rotation, policy.drawn_dealer_passes, policy.max_consecutive) == (
        rotation,
        drawn_passes,
        max_consecutive,
    )


def test_unknown_option_is_named():
    with pytest.raises(RulesetError, match=r"unknown option 'cap'.*base_scheme"):
        BasicRuleset({"cap": 3})


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("base_scheme", "1-4", "'1-2-4', '1-2-3', '1-2'"),
        ("payment_scheme", "all", "'全陪', '半陪', '不陪'"),
        ("dealer_rotation", "max4", "'traditional', 'competition', 'max3', 'winner_deals'"),
        ("break_method", "three_throws", "'one_throw', 'two_throws'"),
        ("tile_set", 108, "136, 144"),
        ("seven_pairs", 1, "False, True"),
        ("drawn_dealer_passes", "yes", "False, True"),
    ],
)
def test_bad_option_values_name_key_and_allowed_values(key, value, allowed):
    with pytest.raises(RulesetError) as info:
        BasicRuleset({key: value})
    message = str(info.value)
    assert repr(key) in message and repr(value) in message and allowed in message
