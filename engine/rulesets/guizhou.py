"""``guizhou``: 捉鸡川麻将 as the Guiyang online game scores it in 豆 (108.md §2, rules-A §11, decisions GZ-1..GZ-12).

108 tiles, no chi, no void requirement. The hand's 番 (10 for 平胡 up to 100 for 青龙背) is what each payer owes:
the other three on a self-draw, the discarder on a discard, the robbed player three times over on a 抢杠. A 平胡 wins
on a discard only if the winner made a 豆 in this hand (有豆), except on a 热炮 or a 抢杠. Every player's 豆 are
paid at the settlement of a won hand (闷豆 20 and 转弯豆 10 from each other player, 点豆 10 from the supplier);
the 豆 of a 热炮 is void and its maker pays the winner 60 / 30 / 10 on top. Several players may win on one
discard; the winner deals next. A drawn hand pays nothing (GZ-11). Chickens (鸡) are not scored (GZ-12).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from engine.match import MultiWinDealer, Rotation, RotationPolicy
from engine.notation import Hand, MeldKind
from engine.rulesets.base import DrawContext, FanEntry, KongType, OptionSpec, Score, WinContext, boolean_option
from engine.rulesets.contract import Kong, read_kongs, read_seat, require
from engine.rulesets.queries import per_seat
from engine.rulesets.suited108 import (
    TILE_SET,
    Reading,
    Suited108Ruleset,
    four_of_a_kinds,
    hand_counts,
    just_made_kong,
    readings,
    robbed_kong_type,
    settle_together,
    suits_held,
)
from engine.rulesets.verdicts import rejected, won
from engine.settlement import Payments, collect, combine, no_payments

PLAIN = ("平胡 plain win", 10)
ALL_PUNGS = ("大对子 all pungs", 30)
SEVEN_PAIRS = ("七对 seven pairs", 40)
DRAGON_PAIRS = ("龙七对 dragon seven pairs", 50)
FLUSH = ("清一色 full flush", 50)
PURE_PUNGS = ("清大对 pure all pungs", 80)
PURE_PAIRS = ("清七对 pure seven pairs", 90)
"""GZ-3a: 清一色 50 + 七对 40 by the additive pattern of the table; the source omits it."""
PURE_DRAGON = ("青龙背 pure dragon seven pairs", 100)
KONG_WIN = ("杠上胡 win on a kong", 10)
"""Self-draw on the replacement tile after any 豆 (+10)."""

DOU_EACH = {KongType.CONCEALED: 20, KongType.ADDED: 10}
"""GZ-6: 闷豆 and 转弯豆 are paid by each other player."""
DOU_SUPPLIED = 10
"""GZ-6: 点豆 is paid by the player who supplied the tile."""
RE_PAO = {KongType.CONCEALED: 60, KongType.ADDED: 30, KongType.EXPOSED: 10}
"""GZ-7: what the maker of a 热炮's 豆 pays the winner on top of the hand."""


def hand_kind(reading: Reading, counts: Sequence[int]) -> tuple[str, int]:
    """The GZ-3 hand of one reading: the name and its 番."""
    pure = len(suits_held(counts)) == 1
    if reading.form == "seven_pairs":
        dragon = four_of_a_kinds(counts) > 0  # two such kinds are still one 龙七对: no root concept
        if pure:
            return PURE_DRAGON if dragon else PURE_PAIRS
        return DRAGON_PAIRS if dragon else SEVEN_PAIRS
    if reading.all_pungs:
        return PURE_PUNGS if pure else ALL_PUNGS
    return FLUSH if pure else PLAIN


def dou_payments(kongs: Sequence[Kong]) -> Payments:
    """GZ-6: the settlement of every 豆 that stands, winner's or not."""
    parts = []
    for kong in kongs:
        amount = DOU_SUPPLIED if kong.type is KongType.EXPOSED else DOU_EACH[kong.type]
        parts.append(collect(kong.seat, dict.fromkeys(kong.payers(), amount)))
    return combine(*parts)


class GuizhouRuleset(Suited108Ruleset):
    id = "guizhou"
    description = "贵州 捉鸡 / 贵阳豆 (108.md §2) — 108 tiles, no chi, 番 10-100, 豆 (闷豆/转弯豆/点豆), 热炮, 抢杠"
    option_specs = (
        OptionSpec(
            "chickens",
            False,
            (False,),
            "GZ-12 chickens 鸡: reserved; the sources define no values, so only false is accepted",
        ),
        boolean_option("drawn_dou", False, "GZ-11 alternative: the 豆 are still paid at a drawn hand (off: void)"),
    )

    @property
    def allows_chi(self) -> bool:
        return False  # GZ-1

    @cached_property
    def rotation(self) -> RotationPolicy:
        """GZ-10: 胡牌者接庄; with several winners the first after the discarder; after a draw the dealer stays."""
        return RotationPolicy(Rotation.WINNER_DEALS, multi_win_dealer=MultiWinDealer.FIRST_AFTER_DISCARDER)

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        found = readings(hand)
        facts = {"winner": ctx.winner, "discarder": ctx.discarder}
        # A refused declaration pays nothing: all-zero payments (README "Output").
        refusal = {"total": 0, "meets_minimum": True, "payments": no_payments(), "extra": facts}
        if not found:
            return rejected("not a winning shape: neither 4 sets + pair nor seven pairs", **refusal)
        robbed = robbed_kong_type(ctx)
        if robbed is not None and robbed is not KongType.ADDED:
            return rejected(f"a {robbed.value} kong cannot be robbed: only a 转弯豆 (GZ-8)", **refusal)
        counts = hand_counts(hand)
        name, value = max((hand_kind(reading, counts) for reading in found), key=lambda kind: kind[1])
        kongs = read_kongs(ctx.extra, self.tile_set)
        hot = just_made_kong(ctx)
        own_dou = any(kong.seat == ctx.winner for kong in kongs) or any(m.kind is MeldKind.KONG for m in hand.melds)
        if (name, value) == PLAIN and not ctx.self_drawn and not (hot or robbed or own_dou):
            return rejected("a 平胡 wins on a discard only with a 豆 of one's own (有豆, GZ-4)", **refusal)
        named = [(name, value)]
        if ctx.after_kong and ctx.self_drawn:
            named.append(KONG_WIN)
            value += KONG_WIN[1]
        kinds = [kind for kind, _ in named]
        if ctx.self_drawn:
            hand_part = collect(ctx.winner, {seat: value for seat in range(4) if seat != ctx.winner})
        else:
            hand_part = collect(ctx.winner, {ctx.discarder: value * (3 if robbed else 1)})  # type: ignore[dict-item]
        re_pao = collect(ctx.winner, {ctx.discarder: RE_PAO[hot.type]}) if hot else no_payments()  # type: ignore[dict-item]
        standing = [kong for kong in kongs if kong != hot and not (robbed and _is_robbed(kong, ctx))]
        dou = dou_payments(standing)
        payments = combine(hand_part, re_pao, dou)
        entries = [FanEntry(kind.split(" ")[0], kind.split(" ")[0], kind.split(" ", 1)[1], fan) for kind, fan in named]
        return won(
            value,
            entries,
            payments,
            {
                **facts,
                "kinds": kinds,
                "hand_value": value,
                "next_dealer": ctx.winner,
                "breakdown": {"hand": per_seat(hand_part), "re_pao": per_seat(re_pao), "dou": per_seat(dou)},
            },
        )

    def settle_wins(self, scores: Sequence[Score]) -> Payments:
        """GZ-9: the discarder pays each winner's hand; the 豆 are settled once and the 热炮 transfer goes to
        the first winner after the discarder."""
        return settle_together(scores, own=("hand",), once=("re_pao", "dou"))

    # --- settle queries ---------------------------------------------------------------------------------

    def answer_multi_win(self, request: Any) -> dict[str, Any]:
        answer = super().answer_multi_win(request)
        discarder = request.situation.get("discarder")
        winners = [int(seat) for seat, score in answer["per_winner"].items() if score["hu"]]
        if winners and isinstance(discarder, int):
            answer["next_dealer"] = min(winners, key=lambda seat: (seat - discarder) % 4)
        return answer

    def settle_draw(self, ctx: DrawContext) -> Payments | None:
        """GZ-11: nobody pays and every 豆 is void; under ``drawn_dou`` the hand's 豆 (``kongs``) are paid."""
        return dou_payments(read_kongs(ctx.extra, self.tile_set)) if self.options["drawn_dou"] else no_payments()

    def answer_drawn_settlement(self, request: Any) -> dict[str, Any]:
        """GZ-11 (or its ``drawn_dou`` alternative); the dealer deals again."""
        situation = request.situation
        ctx = DrawContext(read_seat(require(situation, "dealer"), "dealer"), extra=situation)
        return {"hu": None, "payments": per_seat(self.settle_draw(ctx)), "next_dealer": ctx.dealer}


def _is_robbed(kong: Kong, ctx: WinContext) -> bool:
    """Whether ``kong`` is the 转弯豆 being robbed (it does not stand, GZ-8)."""
    robbed = ctx.extra.get("kong")
    return isinstance(robbed, Mapping) and kong == Kong.read(robbed, "kong", TILE_SET)
