"""Properties of the riichi scorer over random winning hands (``oracle.random_case``)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine.rulesets.base import WinContext
from engine.rulesets.riichi import RiichiRuleset
from engine.rulesets.riichi.situation import MAX_INDICATORS
from tests.engine.rulesets.riichi.oracle import random_case, situation_of


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
