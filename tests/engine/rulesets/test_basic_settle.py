"""``basic`` through ``mjtable settle``: the general options checked against the definitions of fan.md §1 (base
schemes §1.3, payment schemes §1.4, rotation §1.5, both wall-break methods §1.2) and the answer fields of §1.6."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cli import main
from engine.rulesets.registry import get_ruleset
from engine.simulation import simulate
from tests.engine.rulesets.regional import ask, paid

B = "basic"
WIN = ("123m456p789s1122z", "1z")


@pytest.mark.parametrize(
    ("scheme", "discard_plain", "self_plain", "discard_dealer", "self_dealer"),
    [("1-2-4", 1, 2, 2, 4), ("1-2-3", 1, 2, 2, 3), ("1-2", 1, 2, 1, 2)],
)
def test_base_schemes_per_payer(scheme, discard_plain, self_plain, discard_dealer, self_dealer):
    """§1.3 table, one column at a time, with 不陪 so that only the payer in question pays on a discard."""
    options = {"base_scheme": scheme, "payment_scheme": "不陪"}
    assert paid(ask(B, *WIN, options=options, winner=1, dealer=0, discarder=2))[2] == -discard_plain
    assert paid(ask(B, *WIN, options=options, winner=1, dealer=0, discarder=0))[0] == -discard_dealer
    self_drawn = paid(ask(B, *WIN, options=options, winner=1, dealer=0))
    assert (self_drawn[2], self_drawn[0]) == (-self_plain, -self_dealer)


def test_payment_schemes_full_half_none():
    """§1.4: 全陪 each non-discarder pays his discarder amount (the dealer 2); 半陪 half of it (BA-1: exact);
    不陪 the discarder alone. Winner 1, dealer 0, discarder 2, scheme 1-2-4."""
    full = ask(B, *WIN, options={"payment_scheme": "全陪"}, winner=1, dealer=0, discarder=2)
    assert paid(full) == (-2, 4, -1, -1) and full["total"] == 4
    half = ask(B, *WIN, options={"payment_scheme": "半陪"}, winner=1, dealer=0, discarder=2)
    assert paid(half) == (-1, 2.5, -1, -0.5)
    none = ask(B, *WIN, options={"payment_scheme": "不陪"}, winner=1, dealer=0, discarder=2)
    assert paid(none) == (0, 1, -1, 0) and none["fans"] == []


def test_robbed_kong_is_the_kongers_discard():
    """BA-2: 抢杠 is settled as a discard win with the kong's owner as discarder."""
    kong = {"seat": 3, "type": "added", "tile": "1z"}
    answer = ask(
        B, *WIN, options={"payment_scheme": "不陪"}, winner=1, dealer=0, discarder=3, robbing_kong=True, kong=kong
    )
    assert paid(answer) == (0, 1, 0, -1)


def test_one_throw_with_144_tiles_counts_the_smaller_die():
    """§1.2 method 2 on 18 stacks: (5, 6) → sum 11 → 对家's wall, 5 stacks."""
    answer = ask(B, query="wall_break", options={"tile_set": 144}, dealer=1, dice=[5, 6])
    assert (answer["start_wall_of_seat"], answer["count"]) == (3, 5)
    assert answer["first_take"] == {"wall_of_seat": 3, "stack_index": 6}


def test_two_throws_count_ending_on_the_last_stack_takes_from_the_next_wall():
    """§1.2: a count ending on stack N makes the cut at the end of the adjacent wall: A = 5 (dealer's wall),
    B = 12 → 17 stacks on 17-stack walls: break at stack 17, taking from stack 1 of the 上家's wall."""
    answer = ask(B, query="wall_break", options={"break_method": "two_throws"}, dealer=2, dice=[1, 4], dice2=[6, 6])
    assert answer["break"] == {"wall_of_seat": 2, "stack_index": 17}
    assert answer["first_take"] == {"wall_of_seat": 1, "stack_index": 1}


def test_max3_counts_drawn_hands_and_competition_always_passes():
    """BA-4 and §1.5: max3 after a drawn third hand passes; competition passes even when the dealer wins."""
    assert (
        ask(B, query="next_dealer", options={"dealer_rotation": "max3"}, dealer=1, drawn=True, consecutive_dealer=3)[
            "next_dealer"
        ]
        == 2
    )
    competition = ask(B, query="next_dealer", options={"dealer_rotation": "competition"}, dealer=3, winners=[3])
    assert competition["next_dealer"] == 0 and competition["next_consecutive_dealer"] == 1


def test_winner_deals_counts_no_rounds():
    """BA-6 does not apply to winner_deals: the round wind stays and the 局 never ends by rounds."""
    answer = ask(
        B,
        query="next_dealer",
        options={"dealer_rotation": "winner_deals"},
        dealer=3,
        winners=[1],
        round_wind="N",
        round_first_dealer=0,
    )
    assert (answer["next_dealer"], answer["game_over"]) == (1, False)


@settings(deadline=None)  # the first call builds lookup tables
@given(
    winner=st.integers(0, 3),
    dealer=st.integers(0, 3),
    offset=st.integers(0, 3),
    scheme=st.sampled_from(["1-2-4", "1-2-3", "1-2"]),
    payment=st.sampled_from(["全陪", "半陪", "不陪"]),
)
def test_settle_payments_sum_to_zero_and_total_is_the_winners_gain(winner, dealer, offset, scheme, payment):
    discarder = None if offset == 0 else (winner + offset) % 4
    options = {"base_scheme": scheme, "payment_scheme": payment}
    answer = ask(B, *WIN, options=options, winner=winner, dealer=dealer, discarder=discarder)
    assert sum(paid(answer)) == 0 and answer["total"] == answer["payments"][str(winner)]


def test_cli_settle_lines_for_several_rulesets():
    """A batch through `mjtable settle`: basic, Quanjiao (the source's 9/5/5), Nanchang 德国, an unknown option."""
    lines = [
        {"rules": B, "hand": WIN[0], "win_tile": WIN[1], "situation": {"winner": 1, "dealer": 0}},
        {
            "rules": "quanjiao",
            "hand": "123m345m678m555z9m",
            "win_tile": "9m",
            "situation": {"winner": 1, "dealer": 0, "discarder": 2, "dice_unit": 4},
        },
        {"rules": "nanchang", "hand": "123m456m789m123p5s", "win_tile": "5s", "situation": {"winner": 1, "dealer": 0}},
        {"rules": "quanjiao", "options": {"base_scheme": "1-2"}, "hand": "", "situation": {}},
    ]
    out = io.StringIO()
    assert main(["settle"], io.StringIO("".join(json.dumps(line) + "\n" for line in lines)), out) == 0
    basic, quanjiao, nanchang, error = (json.loads(line) for line in out.getvalue().splitlines())
    assert basic["payments"] == {"0": -4, "1": 8, "2": -2, "3": -2}
    assert quanjiao["payments"] == {"0": -9, "1": 19, "2": -5, "3": -5}
    assert nanchang["payments"] == {"0": -13, "1": 31, "2": -9, "3": -9}
    assert error["hu"] is False and "base_scheme" in error["error"]


@pytest.mark.parametrize(
    "options", [{"payment_scheme": "半陪", "dealer_rotation": "max3"}, {"break_method": "two_throws", "tile_set": 144}]
)
def test_simulated_hands_with_options(options):
    hands = list(simulate(get_ruleset(B, options), 8, seed=9))
    assert all(sum(hand.referee.result.payments.values()) == 0 for hand in hands)
