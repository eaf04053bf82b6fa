"""The queries every ruleset answers the same way unless it says otherwise (engine.rulesets.queries), checked
against the general rules' definitions and worked examples (fan.md §1)."""

from __future__ import annotations

import io
import json

import pytest

from controller.cli import main
from engine.errors import MjtableError
from engine.rulesets import registry
from engine.rulesets.base import MultipleWinners
from engine.rulesets.basic import BasicRuleset
from engine.settle import answer as settle_answer
from engine.settle.answer import settle_object


def ask(query: str, situation: dict, **fields) -> dict:
    return settle_object({"rules": "basic", "query": query, "situation": situation, **fields})


@pytest.mark.parametrize(
    ("total", "seat"), [(5, 0), (9, 0), (2, 1), (6, 1), (10, 1), (3, 2), (7, 2), (11, 2), (4, 3), (8, 3), (12, 3)]
)
def test_dice_seat_counts_from_the_thrower_in_play_order(total, seat):
    """fan.md §1.1: 5/9 → thrower, 2/6/10 → 下家, 3/7/11 → 对家, 4/8/12 → 上家 (thrower seat 2 here)."""
    dice = [1, total - 1] if total <= 7 else [6, total - 6]
    answer = ask("dice_seat", {"thrower": 2, "dice": dice})
    assert answer["seat"] == (2 + seat) % 4
    assert answer["hu"] is None and answer["payments"] is None


def test_wall_break_one_throw_worked_examples():
    """fan.md §1.2 method 2: (2,6) → 上家's wall, 2 stacks; (3,3) → 下家's wall, 3 stacks."""
    first = ask("wall_break", {"dealer": 0, "dice": [2, 6]})
    assert (first["start_wall_of_seat"], first["count"]) == (3, 2)
    assert first["break"] == {"wall_of_seat": 3, "stack_index": 2}
    assert first["first_take"] == {"wall_of_seat": 3, "stack_index": 3}
    second = ask("wall_break", {"dealer": 0, "dice": [3, 3]})
    assert (second["start_wall_of_seat"], second["count"]) == (1, 3)


def test_wall_break_two_throws_spills_onto_the_next_wall():
    """fan.md §1.2 method 1: A=9, B=12 → dealer's own wall, 21 stacks = 17 + 4 on the 上家's wall (136 tiles),
    18 + 3 with 144."""
    options = {"break_method": "two_throws"}
    answer = ask("wall_break", {"dealer": 1, "dice": [4, 5], "dice2": [6, 6]}, options=options)
    assert answer["start_wall_of_seat"] == 1 and answer["count"] == 21
    assert answer["break"] == {"wall_of_seat": 0, "stack_index": 4}
    options["tile_set"] = 144
    answer = ask("wall_break", {"dealer": 1, "dice": [4, 5], "dice2": [6, 6]}, options=options)
    assert answer["break"] == {"wall_of_seat": 0, "stack_index": 3}
    seven_five = ask(
        "wall_break", {"dealer": 0, "dice": [3, 4], "dice2": [2, 3]}, options={"break_method": "two_throws"}
    )
    assert (seven_five["start_wall_of_seat"], seven_five["count"]) == (2, 12)


@pytest.mark.parametrize(
    ("options", "winners", "consecutive", "expected"),
    [
        ({}, [0], 1, (0, 2)),  # traditional: dealer wins, stays, n+1
        ({}, [2], 1, (1, 1)),  # non-dealer wins: 下家
        ({}, [], 1, (0, 2)),  # drawn: stays
        ({"drawn_dealer_passes": True}, [], 1, (1, 1)),
        ({"dealer_rotation": "competition"}, [0], 1, (1, 1)),
        ({"dealer_rotation": "max3"}, [0], 2, (0, 3)),
        ({"dealer_rotation": "max3"}, [0], 3, (1, 1)),  # BA-4: three in total
        ({"dealer_rotation": "max3"}, [], 3, (1, 1)),
        ({"dealer_rotation": "winner_deals"}, [3], 1, (3, 1)),
        ({"dealer_rotation": "winner_deals"}, [], 1, (0, 2)),  # BA-5
    ],
)
def test_next_dealer_follows_the_rotation_table(options, winners, consecutive, expected):
    """fan.md §1.5."""
    situation = {"dealer": 0, "winners": winners, "drawn": not winners, "consecutive_dealer": consecutive}
    answer = ask("next_dealer", situation, options=options)
    assert (answer["next_dealer"], answer["next_consecutive_dealer"]) == expected


def test_round_wind_advances_when_the_deal_returns_to_the_first_dealer():
    """BA-6: E → S when the deal reaches round_first_dealer; after North the 局 is over."""
    east = ask("next_dealer", {"dealer": 3, "winners": [1], "round_wind": "E", "round_first_dealer": 0})
    assert (east["next_dealer"], east["next_round_wind"], east["game_over"]) == (0, "S", False)
    north = ask("next_dealer", {"dealer": 3, "winners": [1], "round_wind": "N", "round_first_dealer": 0})
    assert north["game_over"] is True and north["next_round_wind"] is None


def test_next_dealer_refuses_a_drawn_hand_with_winners():
    with pytest.raises(MjtableError, match="'winners' and 'drawn'"):
        ask("next_dealer", {"dealer": 0, "winners": [1], "drawn": True})


def test_claim_priority_hu_beats_pung_beats_chi_and_ties_go_to_the_nearest_seat():
    claims = [{"seat": 1, "type": "chi"}, {"seat": 3, "type": "pon"}]
    assert ask("claim_priority", {"discarder": 0, "claims": claims})["granted"] == [3]
    claims = [{"seat": 3, "type": "hu"}, {"seat": 2, "type": "hu"}, {"seat": 1, "type": "pon"}]
    answer = ask("claim_priority", {"discarder": 0, "claims": claims})
    assert (answer["granted"], answer["granted_type"]) == ([2], "hu")  # one winner: the nearest after seat 0


class AllWin(BasicRuleset):
    """The general rules with 一炮多响, to exercise the default ``multi_win``."""

    @property
    def multiple_winners(self) -> MultipleWinners:
        return MultipleWinners.ALL


def test_several_winners_each_settle_and_the_payments_add_up(monkeypatch):
    monkeypatch.setitem(registry._RULESETS, "basic", AllWin)
    monkeypatch.setattr(settle_answer, "_built", {})  # the rulesets built before, kept by settle_object
    situation = {
        "winner": 1,
        "dealer": 0,
        "discarder": 0,
        "other_winners": [{"seat": 3, "hand": "123m456p789s1122z", "melds": []}],
    }
    answer = settle_object(
        {"rules": "basic", "query": "multi_win", "hand": "234m456p789s1122z", "win_tile": "1z", "situation": situation}
    )
    # fan.md §1.3/1.4 全陪 1-2-4, each win on its own: the dealer discards (dealer involved: 2), the two others
    # pay 1 each, the other winner included; the sums add up.
    assert answer["per_winner"]["1"]["payments"] == {"0": -2, "1": 4, "2": -1, "3": -1}
    assert answer["per_winner"]["3"]["payments"] == {"0": -2, "1": -1, "2": -1, "3": 4}
    assert answer["payments"] == {"0": -4, "1": 3, "2": -2, "3": 3}
    assert answer["hu"] is True


def test_a_single_winner_ruleset_refuses_multi_win():
    with pytest.raises(MjtableError, match="only one player wins"):
        ask("multi_win", {"winner": 1, "dealer": 0, "discarder": 0, "other_winners": []})
    assert "multi_win" not in BasicRuleset.queries() and "multi_win" in AllWin.queries()


def test_an_unknown_query_names_the_queries_the_ruleset_answers():
    with pytest.raises(MjtableError) as caught:
        ask("tai_zhuang", {"dealer": 0})
    assert "'tai_zhuang'" in str(caught.value) and "wall_break" in str(caught.value)


def test_the_cli_answers_every_line_in_order_and_errors_carry_hu_false():
    lines = [
        json.dumps(
            {"rules": "basic", "hand": "123m456p789s1122z", "win_tile": "1z", "situation": {"winner": 1, "dealer": 0}}
        ),
        "not json",
        "",
        "[" * 100_000,  # json's RecursionError, not a traceback
        json.dumps(
            {"rules": "basic", "hand": "123m456p789s1122z", "win_tile": "3z", "situation": {"winner": 1, "dealer": 0}}
        ),
    ]
    out = io.StringIO()
    assert main(["settle"], io.StringIO("\n".join(lines) + "\n"), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 5
    assert answers[0]["hu"] is True and answers[0]["payments"] == {"0": -4, "1": 8, "2": -2, "3": -2}
    assert answers[1] == {"hu": False, "error": "line 2: request: not JSON (Expecting value at character 0)"}
    assert answers[2]["hu"] is False and "line 3: empty line" in answers[2]["error"]
    assert answers[3] == {"hu": False, "error": "line 4: request: not JSON (nested too deeply)"}
    assert answers[4]["hu"] is False and answers[4]["payments"] == {"0": 0, "1": 0, "2": 0, "3": 0}


def test_a_ruleset_is_built_once_per_options_and_one_is_not_true(monkeypatch):
    """``settle_object`` keeps the rulesets it built: a second request with the same options meets the same one,
    and an option written 1 is refused though ``true`` was accepted before (the kept key holds the type)."""
    monkeypatch.setattr(settle_answer, "_built", {})
    request = {"rules": "riichi", "options": {"kiriage": True}, "query": "next_dealer", "situation": {"dealer": 0}}
    settle_object(request)
    settle_object(request)
    assert len(settle_answer._built) == 1
    with pytest.raises(MjtableError, match="kiriage"):
        settle_object({**request, "options": {"kiriage": 1}})
