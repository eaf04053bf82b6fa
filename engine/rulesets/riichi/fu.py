"""Fu (符) of one reading of a winning riichi hand.

The common table: 20 base; +10 for a closed hand won on a discard (門前加符); +2 self-draw (not for pinfu);
triplets 2/4 (simples open/concealed), 4/8 (terminals and honours), kans four times that; +2 for a pair of
dragons, the seat wind or the round wind (+4 when the wind is both: the oracle's and Tenhou's 連風牌 4 fu);
+2 for a kanchan, penchan or tanki wait; rounded up to ten. Seven pairs are a flat 25. An open hand that
would total 20 fu is raised to 30 (喰い平和 has no 20-fu form), and a closed pinfu self-draw stays 20.
Thirteen orphans count no sets: 0 fu (limit hand; the oracle reports the same).
"""

from __future__ import annotations

from engine.rulesets.riichi.reading import Reading, SetKind, Wait
from engine.rulesets.riichi.yaku import WinFacts
from engine.tiles import DRAGONS, TERMINALS

_OUTSIDE = frozenset(TERMINALS) | frozenset(range(27, 34))
_WAIT_FU = {Wait.KANCHAN: 2, Wait.PENCHAN: 2, Wait.TANKI: 2}


def reading_fu(reading: Reading, facts: WinFacts, pinfu: bool) -> int:
    if reading.form == "chiitoitsu":
        return 25
    if reading.form == "kokushi":
        return 0
    fu = _WAIT_FU.get(reading.wait, 0)
    pair = reading.pair
    if pair in DRAGONS:
        fu += 2
    fu += 2 * (pair == facts.seat_wind) + 2 * (pair == facts.round_wind)
    for group in reading.sets:
        if group.kind is SetKind.CHI:
            continue
        value = 2 * (1 + group.concealed) * (1 + (group.tile in _OUTSIDE))
        fu += value * 4 if group.kind is SetKind.KAN else value
    if facts.self_drawn and not pinfu:
        fu += 2
    if not facts.closed and fu == 0:
        fu = 2
    base = 20 if facts.self_drawn or not facts.closed else 30
    return -(-(base + fu) // 10) * 10
