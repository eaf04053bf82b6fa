"""Whole riichi matches played by bots under the shared referee (``mjtable simulate --rules riichi``)."""

from __future__ import annotations

import io
import json
from itertools import pairwise

import pytest

from controller.cli import main
from engine.referee import Referee
from engine.rulesets.registry import get_ruleset
from engine.simulation import simulate

START = 25000


def _matches(hands: int, seed: int, options: dict | None = None) -> list[list[dict]]:
    """The hands of each match, split where one ends (``final_standings``)."""
    matches: list[list[dict]] = [[]]
    for hand in simulate(get_ruleset("riichi", options), hands, seed):
        matches[-1].append(hand.to_dict())
        if "final_standings" in matches[-1][-1]:
            matches.append([])
    return [match for match in matches if match]


@pytest.fixture(scope="module")
def hanchan() -> list[list[dict]]:
    """Thirty hands of hanchan with uma and oka, played once for the module."""
    return _matches(30, 5, {"uma": "10-20", "oka": 5000})


def test_a_hanchan_runs_from_east_1_to_its_end_and_ranks_the_players(hanchan: list[list[dict]]) -> None:
    """rules-A §13: 半荘 = East 1-4 + South 1-4; it ends in South 4 (or later hands of it: 連荘) unless a player
    goes below zero; the points add up to 4 × 25,000 once the sticks left are handed out; the standings rank the
    players and apply uma and oka."""
    finished = [match for match in hanchan if "final_standings" in match[-1]]
    assert finished, "thirty hands must complete at least one hanchan"
    for match in finished:
        first, last = match[0], match[-1]
        assert (first["round_wind"], first["honba"]) == ("E", 0)
        assert sum(last["scores"]) == 4 * START and last["on_table"] == 0
        busted = min(last["scores"]) < 0
        assert busted or (last["round_wind"] == "S" and len(match) >= 8), [hand["round_wind"] for hand in match]
        standings = last["final_standings"]
        assert [place["score"] for place in standings] == sorted(last["scores"], reverse=True)
        uma = (20000, 10000, -10000, -20000)
        for place, row in enumerate(standings):
            assert row["result"] == row["score"] - 30000 + uma[place] + (20000 if place == 0 else 0)


def test_dealer_repeats_count_honba(hanchan: list[list[dict]]) -> None:
    """連荘: the hand after a dealer win keeps the dealer and adds a 本場 (rules-A §13)."""
    seen = 0
    for match in hanchan:
        for hand, following in pairwise(match):
            if hand["dealer"] in hand["winners"]:
                seen += 1
                assert following["dealer"] == hand["dealer"] and following["honba"] == hand["honba"] + 1
    assert seen, "no dealer win in thirty hands: the test checks nothing"


def test_every_win_scores_a_yaku_and_every_hand_balances() -> None:
    """The wins go through the riichi scorer (at least one yaku); the points and the sticks on the table always
    add up (``simulate`` checks them, and the tiles after every action)."""
    for hand in simulate(get_ruleset("riichi", {"red_fives": True}), 12, 3):
        referee: Referee = hand.referee
        for record in referee.wins:
            assert record.score.hu and record.score.extra["yaku"]
        assert sum(hand.after.scores) + hand.after.pot == 4 * START


def test_tonpuusen_ends_after_the_east_round() -> None:
    for match in _matches(12, 2, {"length": "tonpuusen"}):
        assert all(hand["round_wind"] == "E" for hand in match)


def test_cli_simulate_riichi_prints_every_hand_and_a_summary() -> None:
    out = io.StringIO()
    assert main(["simulate", "--rules", "riichi", "--hands", "5", "--seed", "4"], stdout=out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    summary = lines[-1]["summary"]
    assert summary["hands"] == 5 and summary["won"] + summary["drawn"] == 5
    again = io.StringIO()
    main(["simulate", "--rules", "riichi", "--hands", "5", "--seed", "4"], stdout=again)
    assert again.getvalue() == out.getvalue(), "the same seed gives the same output"
    for hand in lines[:-1]:
        assert sum(hand["scores"]) + hand["on_table"] == 4 * START
