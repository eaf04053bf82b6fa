"""Payments at an exhaustive draw (流局): tenpai payments and 流し満貫.

Tenpai payments (ノーテン罰符): 3,000 points in all, paid by the players not ready to those ready: one ready
takes 1,000 from each other player, two take 1,500 each from the two others, three take 1,000 each from the
last; nobody or everybody ready pays nothing. Nagashi mangan (an option, on as on Tenhou) replaces them: each
such player is paid a mangan as if self-drawn (the oracle's rule: 30 fu 5 han, a self-draw split).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.rulesets.riichi.points import MANGAN, hand_payments
from engine.settlement import Payments, collect, combine, no_payments

TENPAI_POOL = 3000


def tenpai_payments(tenpai: Iterable[int]) -> Payments:
    ready = sorted(set(tenpai))
    if len(ready) in (0, 4):
        return no_payments()
    gain = TENPAI_POOL // len(ready)
    loss = TENPAI_POOL // (4 - len(ready))
    return {seat: gain if seat in ready else -loss for seat in range(4)}


def nagashi_payments(seats: Iterable[int], dealer: int) -> Payments:
    return combine(*(collect(seat, hand_payments(MANGAN, seat, dealer, None)) for seat in sorted(set(seats))))


def draw_payments(tenpai: Iterable[int], nagashi: Iterable[int], dealer: int) -> Payments:
    """An exhaustive draw: 流し満貫 where a seat made it, else tenpai payments."""
    nagashi = list(nagashi)
    return nagashi_payments(nagashi, dealer) if nagashi else tenpai_payments(tenpai)
