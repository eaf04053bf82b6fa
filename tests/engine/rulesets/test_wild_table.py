"""The wild.md rulesets at the table: full simulated hands under the referee (wildcards from the flipped
indicator, claims and discards the rulesets refuse, 买马 horses, Harbin's 宝 and 换宝) and ``mjtable settle``
through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.actions import Action, ActionKind
from engine.notation import parse_hand
from engine.referee import Referee
from engine.rulesets.hubei.ruleset import third_meld_feeder
from engine.rulesets.registry import get_ruleset
from engine.simulation import simulate
from engine.tiles import NUM_KINDS

WILD_RULESETS = ("hubei-laizi", "wuhan", "jipinghu", "tuidaohu", "harbin")


@pytest.mark.parametrize("rules", WILD_RULESETS)
def test_simulated_hands_keep_every_invariant(rules):
    # simulate checks the tile balance after every action and raises on any rejected bot move.
    hands = list(simulate(get_ruleset(rules), 6, seed=11))
    for hand in hands:
        result = hand.referee.result
        assert result is not None and sum(result.payments.values()) == 0
        for record in hand.referee.wins:
            assert record.score.hu
    assert any(hand.referee.wins for hand in hands), "some hand of six is won"


@pytest.mark.parametrize("rules", ("hubei-laizi", "wuhan", "tuidaohu"))
def test_the_referee_passes_the_indicator(rules):
    # wild.md §1: the wildcard is the successor of the flipped indicator; the referee hands the indicator over.
    for hand in simulate(get_ruleset(rules), 6, seed=3):
        for record in hand.referee.wins:
            assert record.context.extra["indicator"]
            assert record.score.extra["wildcard"]


def test_harbin_bao_is_replaced_at_three_visible_copies():
    # HR-9: every replaced 宝 face is in sight three times at the end of the hand; the current one less, unless
    # the wall ran out before it could be replaced.
    replaced = 0
    for hand in simulate(get_ruleset("harbin"), 8, seed=5):
        referee = hand.referee
        indicators = referee.wall.indicators
        current = indicators[-1]

        def visible(face, referee=referee, current=current):
            return referee._visible_count(face) - (face == current)  # the current 宝 lies face down

        assert all(visible(old) >= 3 for old in indicators[:-1])
        assert referee.wall.exhausted or visible(current) < 3
        replaced += len(indicators) - 1
    assert replaced, "some 宝 of eight hands is replaced"


def test_tuidaohu_horses_and_the_ghost_discard():
    # §5.1: each seat holds its horse tiles out of play; a 鬼牌 may not be discarded.
    ruleset = get_ruleset("tuidaohu")
    for seed in range(200):
        referee = Referee.deal(ruleset, seed)
        faces = referee.wildcard_faces()
        held = [tile for tile in faces if referee.seats[referee.dealer].known[tile]]
        if held:
            break
    assert sorted(len(tiles) for tiles in referee.horses.values()) == [1, 1, 1, 1]
    assert referee.tile_balance()["horses"] == 4
    referee.check_balance()
    verdict = referee.apply(Action(ActionKind.DISCARD, referee.dealer, held[0]))
    assert not verdict.ok and "鬼牌" in verdict.reason


def test_hubei_laizi_cannot_be_claimed_at_the_table():
    # HB-10: the referee refuses a pung of a discarded 赖子.
    ruleset = get_ruleset("hubei-laizi")
    for seed in range(400):
        referee = Referee.deal(ruleset, seed)
        face = next(iter(referee.wildcard_faces()))
        dealer = referee.dealer
        claimant = next((s for s in range(4) if s != dealer and referee.seats[s].known[face] >= 2), None)
        if referee.seats[dealer].known[face] and claimant is not None:
            break
    assert referee.apply(Action(ActionKind.DISCARD, dealer, face)).ok
    verdict = referee.apply(Action(ActionKind.PUNG, claimant))
    assert not verdict.ok and "HB-10" in verdict.reason
    assert all(0 <= tile < NUM_KINDS for tile in referee.wildcard_faces())


def test_settle_through_the_command_line():
    # wild.md §2.5 worked example, §4.2 十三幺, §5.1 kong payment, §6.1 摸宝, and an unknown option.
    lines = [
        {"rules": "hubei-laizi", "options": {"base": 100}, "hand": "123m456p789s22s67m", "melds": [],
         "win_tile": "8m", "situation": {"winner": 0, "dealer": 0, "discarder": None, "indicator": "4m",
                                         "discarded_wildcards": {"0": 3}}},
        {"rules": "jipinghu", "hand": "19m19p19s1234567z", "win_tile": "1m", "situation": {"winner": 1, "dealer": 0}},
        {"rules": "tuidaohu", "query": "kong_payment", "situation": {"kong": {"seat": 0, "type": "concealed",
                                                                               "tile": "5m"}}},
        {"rules": "harbin", "hand": "456p777s99m34s", "melds": ["chi:123m:from=left"], "win_tile": "7z",
         "situation": {"winner": 1, "dealer": 0, "bao": "7z", "declared_ready": True}},
        {"rules": "wuhan", "options": {"open_mode": "both"}, "hand": "", "win_tile": None,
         "query": "next_dealer", "situation": {"dealer": 0, "winners": [1]}},
    ]  # fmt: skip
    text = "".join(json.dumps(line) + "\n" for line in lines)
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "settle"], input=text, capture_output=True, text=True, check=True
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0]["payments"] == {"0": 9600, "1": -3200, "2": -3200, "3": -3200}
    assert answers[1]["payments"] == {"0": -64, "1": 192, "2": -64, "3": -64}
    assert answers[2]["payments"] == {"0": 6, "1": -2, "2": -2, "3": -2}
    assert answers[3]["kind"] == "mobao" and answers[3]["payments"]["1"] == 9
    assert answers[4]["hu"] is False and "open_mode" in answers[4]["error"]


def test_the_third_claimed_melds_feeder_is_passed_on_and_alone_pays_a_one_colour_hand():
    # wild.md §2.6 (清一色喂三铺): who fed the third claimed meld; a chow is fed by the 上家, a pung by its supplier.
    melds = parse_hand("[123m,2][555m,2][7777m][999m,3]1m ").melds  # the concealed kong is no claimed meld
    assert third_meld_feeder(0, melds) == 1  # the 999m pung from the 下家 (relative 3) of seat 0
    assert third_meld_feeder(2, melds[:3]) is None
    assert third_meld_feeder(0, parse_hand("[555m,2][6666m,6][123m,3]7m9m1p1p ").melds) == 3  # the chow's 上家
    for rules in ("hubei-laizi", "wuhan"):
        referee = Referee.deal(get_ruleset(rules), 5)
        referee.seats[1].melds = list(parse_hand("[123p,1][555p,3][789p,2]1p2p3p4p ").melds)
        assert referee.ruleset.win_facts(referee, 1)["qys_third_meld_feeder"] == 0  # the 789p chow's 上家
    liable = [
        record
        for hand in simulate(get_ruleset("hubei-laizi"), 100, seed=2)
        for record in hand.referee.wins
        if record.score.extra.get("liable") is not None and "qys_third_meld_feeder" in record.context.extra
    ]
    fed = [record for record in liable if record.score.extra["liable"] == record.context.extra["qys_third_meld_feeder"]]
    assert any("qingyise" in record.score.extra["kinds"] for record in fed)  # a self-drawn 清一色 here
    for record in liable:
        payers = [seat for seat, amount in record.score.payments.items() if amount < 0]
        assert payers == [record.score.extra["liable"]]
