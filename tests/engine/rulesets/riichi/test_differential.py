"""The riichi scorer against the PyPI ``mahjong`` 2.1.0 scorer (validated by its authors on Tenhou hands) on
fresh random hands: verdict, han, fu and every seat's payment must agree (issue 11).

The oracle runs with the case's options (open tanyao, red fives, double yakuman, counted yakuman, kiriage,
renhou), so the rule choices that differ from its own defaults (it defaults to no open tanyao and to double
yakuman) are compared under one setting. No disagreement remains; the rule choices the oracle cannot express
(kan dora timing, abortive draws, furiten, multiple ron, the match) are table rules outside a hand's score and
are tested by hand. The default run draws a few thousand hands, ``-m slow`` 20,000 more (about half a minute:
CI runs it); ``python bench/bench_riichi.py --agreement 100000`` draws the issue's 100,000 with this same code.
"""

from __future__ import annotations

import pytest

from tests.engine.rulesets.riichi.oracle import disagreements

QUICK_HANDS = 2000
SLOW_HANDS = 20_000


def test_random_hands_agree_with_the_oracle() -> None:
    found, wins = disagreements(20261129, QUICK_HANDS)
    assert not found, f"{len(found)} of {QUICK_HANDS} disagree, first: {found[0]}"
    assert wins > QUICK_HANDS // 2, "the generator must mostly deal hands with a yaku, or the test checks little"


@pytest.mark.slow
def test_twenty_thousand_more_random_hands_agree_with_the_oracle() -> None:
    found, _ = disagreements(11, SLOW_HANDS)
    assert not found, f"{len(found)} of {SLOW_HANDS} disagree, first: {found[0]}"
