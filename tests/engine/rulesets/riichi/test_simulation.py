"""Full hanchan played by bots at the riichi table (issue 11: ``mjtable simulate --rules riichi``)."""

from __future__ import annotations

import io
import json
from itertools import pairwise

import pytest

from controller.cli import main
from engine.rulesets.registry import get_ruleset
from engine.rulesets.riichi.simulation import simulate_riichi

START = 25000


def _matches(hands: int, seed: int, options: dict | None = None) -> list[list[dict]]:
    matches: list[list[dict]] = [[]]
    for hand in simulate_riichi(get_ruleset("riichi", options), hands, seed):
        data = hand.to_dict()
        if data["match"] == len(matches):
            matches.append([])
        matches[-1].append(data)
    return matches


@pytest.fixture(scope="module")
def hanchan() -> list[list[dict]]:
    """Thirty hands of hanchan (the first finished after a dozen or so hands), played once for the module."""
    return _matches(30, 5)


def test_a_hanchan_runs_from_east_1_to_its_end_and_ranks_the_players(hanchan: list[list[dict]]) -> None:
    """rules-A §13: 半荘 = East 1-4 + South 1-4; it ends in South 4 (or later hands of it: 連荘) unless a player
    goes below zero; the points always add up to 4 × 25,000 once the sticks left are handed out."""
    finished = [match for match in hanchan if match[-1].get("final_ranking")]
    assert finished, "sixty hands must complete at least one hanchan"
    for match in finished:
        names = [hand["name"] for hand in match]
        assert names[0] == "東1局 0本場"
        last = match[-1]
        assert sum(last["scores"]) == 4 * START
        busted = min(last["scores"]) < 0
        assert busted or names[-1].startswith("南4局"), names
        ranking = last["final_ranking"]
        assert [last["scores"][seat] for seat in ranking] == sorted(last["scores"], reverse=True)


def test_dealer_repeats_count_honba(hanchan: list[list[dict]]) -> None:
    """連荘: the next hand after a dealer win keeps the hand number and adds a 本場 (rules-A §13)."""
    seen = 0
    for match in hanchan:
        for hand, following in pairwise(match):
            if hand["dealer"] in hand["winners"]:
                seen += 1
                assert following["name"].split()[0] == hand["name"].split()[0]
                assert int(following["name"].split()[1][0]) == int(hand["name"].split()[1][0]) + 1
    assert seen, "no dealer win in thirty hands: the test checks nothing"


def test_tonpuusen_ends_after_the_east_round() -> None:
    for match in _matches(12, 2, {"length": "tonpuusen"}):
        assert all(hand["name"].startswith("東") for hand in match)


def test_cli_simulate_riichi_prints_every_hand_and_a_summary() -> None:
    out = io.StringIO()
    assert main(["simulate", "--rules", "riichi", "--hands", "5", "--seed", "4"], stdout=out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    summary = lines[-1]["summary"]
    assert summary["hands"] == 5 and summary["won"] + summary["drawn"] == 5
    for hand in lines[:-1]:
        assert sum(hand["scores"]) + 1000 * hand["riichi_sticks"] == 4 * START
        for win in hand["wins"]:
            assert win["han"] >= 1 and win["yaku"]
