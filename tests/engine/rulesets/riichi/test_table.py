"""The riichi table (one hand's state and turn order) and properties of the scorer over random hands."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine.rulesets.base import WinContext
from engine.rulesets.registry import get_ruleset
from engine.rulesets.riichi import RiichiRuleset
from engine.rulesets.riichi.bots import RiichiBot
from engine.rulesets.riichi.play import play_hand
from engine.rulesets.riichi.situation import MAX_INDICATORS
from engine.rulesets.riichi.table import RED_IDS, RiichiTable
from tests.engine.rulesets.riichi.oracle import random_case, situation_of

LIVE_AFTER_DEAL = 136 - 4 * 13 - 14
"""70 draws: 136 tiles, 13 dealt to each player, the 14-tile dead wall never drawn (王牌)."""


def table(seed: int, **options: object) -> RiichiTable:
    return RiichiTable(get_ruleset("riichi", options), random.Random(seed), 0, 0, 0, 0, [25000] * 4)


def test_the_deal_leaves_70_live_tiles_and_one_indicator() -> None:
    hand = table(1)
    assert [len(player.concealed) for player in hand.players] == [13] * 4
    assert hand.wall.live_remaining == LIVE_AFTER_DEAL
    assert len(hand.indicators()) == 1 and len(hand.indicators(ura=True)) == 1


def test_a_kan_turns_a_new_indicator_and_shortens_the_live_wall() -> None:
    """A replacement tile comes from the dead wall, which the live wall tops up: one draw fewer per kan. A
    concealed kan's indicator is turned at once, an open kan's with its maker's discard."""
    hand = table(2)
    before = hand.indicators()
    hand.draw_replacement()
    hand.turn_kan_indicator(concealed=True)
    assert hand.wall.live_remaining == LIVE_AFTER_DEAL - 1
    assert hand.indicators()[0] == before[0] and len(hand.indicators()) == 2
    hand.turn_kan_indicator(concealed=False)
    assert len(hand.indicators()) == 2
    hand.discard_made()
    assert len(hand.indicators()) == 3 and hand.kan_count == 2


def test_the_physical_tiles_are_the_136_with_three_red_fives() -> None:
    hand = table(3)
    assert sorted(hand.identity) == list(range(136))
    assert {tile // 4 for tile in RED_IDS} == {4, 13, 22}


def test_every_hand_ends_with_points_that_balance() -> None:
    """Six seeded hands: the payments less the riichi deposits and plus the sticks won add up to zero, every win
    holds a yaku, and an exhaustive draw lists only ready players."""
    for seed in range(6):
        hand = table(seed)
        sticks_before = hand.pot
        record = play_hand(hand, [RiichiBot(seat, random.Random(seed + seat)) for seat in range(4)])
        assert sum(record.deltas) == 1000 * (sticks_before - record.riichi_sticks)
        for win in record.wins:
            assert win["han"] >= 1 and win["yaku"]
        if record.kind == "exhaustive":
            assert record.outcome.dealer_tenpai == (0 in record.tenpai)


@given(st.integers(min_value=0, max_value=2**32))
def test_a_win_is_paid_by_the_others_and_more_dora_never_pay_less(seed: int) -> None:
    """Any random winning hand: the hand and honba sum to zero, the winner gains what the others lose, and one
    more dora indicator never lowers the han or the winner's gain."""
    case = random_case(random.Random(seed))
    ruleset = RiichiRuleset(case.options)
    situation = situation_of(case)
    score = ruleset.evaluate(case.hand, WinContext.from_dict(situation))
    if not score.hu or len(case.indicators) == MAX_INDICATORS:
        return
    payments = score.payments or {}
    winner = situation["winner"]
    assert sum(payments.values()) == 0 and payments[winner] > 0
    assert all(amount <= 0 for seat, amount in payments.items() if seat != winner)
    held = case.hand.all_tiles() + list(case.indicators) + list(case.ura)
    spare = next(tile for tile in range(34) if held.count(tile) < 4)
    situation["dora_indicators"] += f"{spare % 9 + 1}{'mpsz'[spare // 9]}"
    more = ruleset.evaluate(case.hand, WinContext.from_dict(situation))
    assert more.extra["han"] >= score.extra["han"] and (more.payments or {})[winner] >= payments[winner]
