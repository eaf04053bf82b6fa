"""``basic`` keeps one verdict per (winner, dealer, discarder) and one for every no-win (issue 30): each answer is
still the one a fresh ruleset gives for that hand and those seats, under every payment option."""

from __future__ import annotations

import itertools

import pytest

from engine.notation import parse_hand
from engine.rulesets.base import WinContext
from engine.rulesets.basic import BasicRuleset

WIN = parse_hand("123m456p789s11z23m4m")
NO_WIN = parse_hand("123m456p789s12z23m4m")


@pytest.mark.parametrize(
    "options", [{}, {"base_scheme": "1-2-3", "payment_scheme": "半陪"}, {"payment_scheme": "不陪"}]
)
def test_kept_verdicts_are_a_fresh_rulesets(options: dict) -> None:
    kept = BasicRuleset(options)
    seen = set()
    for winner, dealer, discarder in itertools.product(range(4), range(4), (None, 0, 1, 2, 3)):
        if discarder == winner:
            continue
        ctx = WinContext(winner=winner, dealer=dealer, discarder=discarder)
        for hand in (WIN, NO_WIN, WIN):
            answer = kept.evaluate(hand, ctx)
            assert answer == BasicRuleset(options).evaluate(hand, ctx), (winner, dealer, discarder)
            seen.add(tuple(sorted(answer.to_dict()["payments"].items())))
    assert len(seen) > 4  # the seats change the answer: one kept verdict cannot serve them all
