"""責任払い at the table: the referee names the liable seat of a win (``hooks.liable_seat``), so a 大三元 whose last
dragon pung was fed by a discard is paid as Tenhou pays it (``pao-tsumo.mjlog`` hand 4 replays so)."""

from __future__ import annotations

from engine.referee import Referee
from tests.engine.rulesets.riichi.at_table import K, act, next_turn, passes, riichi, tsumogiri, yaku
from tests.engine.stacked import stacked

DEALER = "567z2468m1379p246s"
"""Seat 0 deals and feeds seat 1 the three dragons."""
DRAGONS = "55z66z77z123m456p9s"
"""Seat 1 pungs them and waits on 9s alone."""


def daisangen(**options: bool) -> Referee:
    """Seat 1 pungs 5z, 6z and 7z off seat 0's discards and draws its 9s."""
    referee = stacked(riichi(**options), {0: DEALER, 1: DRAGONS}, draws="1s1s1s1s8s8s8s8s3s9s")
    for dragon, spare in (("5z", "4p"), ("6z", "5p"), ("7z", "6p")):
        if dragon != "5z":
            tsumogiri(referee, 2)
            next_turn(referee)
        act(referee, K.DISCARD, 0, dragon)
        act(referee, K.PUNG, 1)
        passes(referee)
        act(referee, K.DISCARD, 1, spare)
    tsumogiri(referee, 3)
    next_turn(referee)
    act(referee, K.HU, 1)
    return referee


def test_the_seat_that_fed_the_last_dragon_pays_a_self_drawn_daisangen_alone() -> None:
    referee = daisangen()
    assert "daisangen" in yaku(referee, 1)
    assert referee.result is not None and referee.result.payments == {0: -32000, 1: 32000, 2: 0, 3: 0}


def test_without_the_option_pao_everyone_pays() -> None:
    referee = daisangen(pao=False)
    assert referee.result is not None and referee.result.payments == {0: -16000, 1: 32000, 2: -8000, 3: -8000}
