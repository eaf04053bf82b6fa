"""``quanjiao``: 全椒打番 (fan.md §2, S001:5-33). 136 tiles, no chi, standard shape only, 23 fan items, a win
needs 2 fans, a self-draw doubles, and the dealer's dice/streak formula decides what each payer pays.

The payment formula (§2.4): with D = ``dice_unit`` (QJ-17: the sum of the dealer's dice) and k the dealer's
第k庄, a winning dealer collects (F + D·k)·m from each of the three others; a non-dealer winner collects
(F + D·k)·m from the dealer and F·m from each other non-dealer (QJ-18, QJ-20), m = 2 for a self-draw. The
source's a/b/c are the dealer's running totals over his streak (QJ-19): 6, 16, 46.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.analysis import ShapeRules
from engine.errors import MissingSituation
from engine.notation import Hand
from engine.rulesets.base import DrawContext, Ruleset, Score, WinContext
from engine.rulesets.contract import boolean, number, whole_number
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.nochi import NoChi
from engine.rulesets.quanjiao.fans import WinFacts, fan_total, reading_fans
from engine.rulesets.readings import STANDARD_ONLY, standard_readings
from engine.rulesets.verdicts import rejected, won
from engine.settlement import Payments, collect, no_payments

if TYPE_CHECKING:
    from engine.settle import SettleRequest

MINIMUM = 2
"""一番不能胡也不能自摸 (S001:27): a hand needs 2 fans before the self-draw doubling."""


def dice_unit(extra: Mapping[str, Any]) -> int:
    """D of the formula: ``dice_unit``, or the sum of ``dice`` when only the dice are given (QJ-17)."""
    given = whole_number(extra, "dice_unit", None)
    if given is not None:
        return given
    dice = extra.get("dice")
    if isinstance(dice, list | tuple) and len(dice) == 2 and all(type(d) is int and 1 <= d <= 6 for d in dice):
        return sum(dice)
    raise MissingSituation("dice_unit", "Quanjiao pays F + D·k with D the dealer's dice sum")


def dealer_share(ctx: WinContext, fan: int, unit: int) -> int:
    """(F + D·k)·m: what the dealer pays, or collects from each payer (§2.4); m = 2 for a self-draw."""
    return (fan + unit * ctx.consecutive_dealer) * (2 if ctx.self_drawn else 1)


def win_payments(ctx: WinContext, fan: int, unit: int) -> Payments:
    """§2.4: every other seat pays; the dealer's share (paid or collected) carries D·k (QJ-18, QJ-20)."""
    doubling = 2 if ctx.self_drawn else 1
    with_dealer = dealer_share(ctx, fan, unit)
    amounts = {
        payer: with_dealer if ctx.dealer in (ctx.winner, payer) else fan * doubling
        for payer in range(4)
        if payer != ctx.winner
    }
    return collect(ctx.winner, amounts)


class QuanjiaoRuleset(NoChi, Ruleset):
    """QJ-1: no chi — every claimed set in the text is a 碰."""

    id = "quanjiao"
    description = "全椒打番 (S001) — Quanjiao: 23 fan items, 2-fan minimum, self-draw doubles, dealer dice formula"

    @property
    def shape_rules(self) -> ShapeRules:
        return STANDARD_ONLY

    @property
    def minimum(self) -> int:
        return MINIMUM

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        concealed_counts(hand, self.tile_set)
        facts = WinFacts(ctx, whole_number(ctx.extra, "wall_remaining", None), boolean(ctx.extra, "baobuda"))
        streak_before = number(ctx.extra, "streak_total_before", 0)
        robbed = ctx.extra.get("kong")
        if ctx.robbing_kong and isinstance(robbed, dict) and robbed.get("type", "added") != "added":
            return self._rejected("only an added kong can be robbed (抢杠成, QJ-5)", 0, streak_before)
        readings = standard_readings(hand)
        if not readings:
            return self._rejected("not 4 sets + pair, the only Quanjiao shape (QJ-2)", 0, streak_before)
        fans = max((reading_fans(reading, hand, facts) for reading in readings), key=fan_total)
        total = fan_total(fans)
        if total < MINIMUM:
            return self._rejected(f"{total} fan: a win needs {MINIMUM} (一番不能胡也不能自摸)", total, streak_before)
        unit = dice_unit(ctx.extra)
        payments = win_payments(ctx, total, unit)
        # QJ-19: the streak total grows while the dealer wins and is reset when anyone else wins.
        streak = streak_before + dealer_share(ctx, total, unit) if ctx.winner == ctx.dealer else 0
        return won(total, fans, payments, {"streak_total_per_payer": _whole(streak)})

    @staticmethod
    def _rejected(reason: str, total: int, streak_before: float) -> Score:
        """QJ-15: a rejected declaration pays nothing (the text gives no penalty)."""
        extra = {"streak_total_per_payer": _whole(streak_before)}
        return rejected(reason, total=total, shape_ok=total > 0, payments=no_payments(), extra=extra)

    def answer_drawn_settlement(self, request: SettleRequest) -> dict[str, Any]:
        """QJ-21: a drawn hand pays nothing; the dealer stays and counts one more hand."""
        ctx = DrawContext.from_dict(request.situation)
        return {
            "hu": None,
            "payments": {str(seat): 0 for seat in range(4)},
            "next_dealer": ctx.dealer,
            "next_consecutive_dealer": ctx.consecutive_dealer + 1,
        }


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value
