"""``changsha``: 长沙麻将 (108.md §3, rules-A §14; decisions CS-1..CS-13).

108 tiles, chi from the 上家, several winners on one discard. A 小胡 needs a 2-5-8 pair and pays 1 (discard) or 2
from each other player (self-draw); each 大胡 pays 6. The opening wins (四喜, 板板胡, 六六顺, 缺一色) are shown on
the dealt hand and paid like 小胡 self-draws; the hand goes on. After a win two birds (扎鸟) are turned up from the
live wall; each payment between a winner and a payer doubles once per bird on either of them. The winner deals
next (the discarder after several winners); a drawn hand pays nothing and the dealer stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from engine.errors import RulesetError
from engine.match import MultiWinDealer, Rotation, RotationPolicy
from engine.notation import Hand
from engine.rulesets.base import (
    STAKE,
    FanEntry,
    KongType,
    OptionSpec,
    Score,
    WinContext,
    boolean_option,
)
from engine.rulesets.changsha import hands
from engine.rulesets.changsha.opening import OPENING_POINTS, opening_kinds
from engine.rulesets.contract import read_seat, read_tile, require
from engine.rulesets.queries import nobody_pays_dealer_stays, per_seat
from engine.rulesets.suited108 import TILE_SET, Suited108Ruleset, hand_counts, readings, robbed_kong_type
from engine.rulesets.verdicts import rejected, won
from engine.settlement import Amount, Payments, collect, no_payments
from engine.tiles import Tile, rank_of, to_counts

SMALL_POINTS = {True: 2, False: 1}
"""CS-4 小胡: 2 from each other player on a self-draw, 1 from the discarder."""
BIG_POINTS = 6
"""CS-4: per 大胡."""


def bird_seat(tile: Tile, dealer: int) -> int:
    """CS-7: a bird counts from the dealer as the dice do (rules-B §2.2): 1/5/9 the dealer, 2/6 his 下家, 3/7 对家,
    4/8 上家."""
    return (dealer + rank_of(tile) - 1) % 4


class ChangshaRuleset(Suited108Ruleset):
    id = "changsha"
    description = (
        "长沙麻将 (108.md §3) — 108 tiles, 2-5-8 pair for 小胡, 大胡 ×6, 起手胡 (四喜/板板胡/六六顺/缺一色), 扎鸟"
    )
    option_specs = (
        OptionSpec("base", 1, None, "base stake; CS-4 points are multiples of it", types=(int, float), span=STAKE),
        OptionSpec("bird_count", 2, None, "CS-7: tiles turned up as birds after a win", types=(int,), span=(0, 10)),
        boolean_option("dealer_premium", False, "CS-10 庄闲: +1 on every payment the dealer makes or receives"),
    )

    @property
    def bird_count(self) -> int:
        """Live-wall tiles turned up after a win (扎鸟)."""
        return self.options["bird_count"]

    @cached_property
    def rotation(self) -> RotationPolicy:
        """CS-11: the winner deals; after several winners the discarder; after a draw the dealer stays."""
        return RotationPolicy(Rotation.WINNER_DEALS, multi_win_dealer=MultiWinDealer.DISCARDER)

    # --- a win ------------------------------------------------------------------------------------------

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        found = readings(hand)
        counts = hand_counts(hand)
        facts = {"winner": ctx.winner, "discarder": ctx.discarder}
        # A refused declaration pays nothing: all-zero payments (README "Output").
        refusal = {"total": 0, "meets_minimum": True, "payments": no_payments(), "extra": facts}
        robbed = robbed_kong_type(ctx)
        if robbed is not None and robbed is not KongType.ADDED:
            return rejected(f"a {robbed.value} kong cannot be robbed: only an added kong (CS-8)", **refusal)
        big = hands.big_hands(found, counts, hand, ctx)
        shaped = bool(found) or any(name == hands.ALL_258 for name, _ in big)
        if not shaped:
            return rejected("not a winning shape: neither 4 sets + pair, seven pairs nor 将将胡", **refusal)
        count = sum(n for _, n in big)
        if not count and not hands.small_win(found):
            return rejected("a 小胡 needs a 2, 5 or 8 pair (将, CS-3)", **refusal)
        value = BIG_POINTS * count if count else SMALL_POINTS[ctx.self_drawn]
        birds = self._birds(ctx)
        payers = [seat for seat in range(4) if seat != ctx.winner] if ctx.self_drawn else [ctx.discarder]
        payments = collect(ctx.winner, {payer: self._amount(value, ctx, payer, birds) for payer in payers})  # type: ignore[misc]
        kinds = [name for name, _ in big] or [hands.SMALL]
        entries = [
            FanEntry(name.split(" ")[0], name.split(" ")[0], name.split(" ", 1)[1], BIG_POINTS, n) for name, n in big
        ]
        return won(
            value,
            entries,
            payments,
            {
                **facts,
                "kinds": kinds,
                "big_hands": count,
                "hand_value": value * self.options["base"],
                "next_dealer": ctx.winner,
            },
        )

    def _birds(self, ctx: WinContext) -> list[int]:
        """Seats the birds point at (CS-7)."""
        tiles = ctx.extra.get("birds", [])
        if not isinstance(tiles, list):
            raise RulesetError(f"situation field 'birds': expected a list of tiles, found {tiles!r}")
        return [
            bird_seat(read_tile(tile, f"birds[{index}]", self.tile_set), ctx.dealer) for index, tile in enumerate(tiles)
        ]

    def _amount(self, value: int, ctx: WinContext, payer: int, birds: Sequence[int]) -> Amount:
        """What one payer pays: the points (+1 庄闲 where the dealer is involved) × base, doubled per bird on the
        winner or on the payer."""
        premium = 1 if self.options["dealer_premium"] and ctx.dealer in (ctx.winner, payer) else 0
        doublings = sum(1 for seat in birds if seat in (ctx.winner, payer))
        return (value + premium) * self.options["base"] * 2**doublings

    # --- opening wins -----------------------------------------------------------------------------------

    def opening_payments(self, concealed: Sequence[Tile], seat: int) -> tuple[list[str], Payments]:
        """CS-6: the opening kinds of one dealt hand and their payments (2 per kind from each other player)."""
        kinds = opening_kinds(to_counts(concealed))
        each = OPENING_POINTS * len(kinds) * self.options["base"]
        payments = collect(seat, {other: each for other in range(4) if other != seat}) if kinds else no_payments()
        return kinds, payments

    def opening_win(self, tiles: Sequence[Tile], seat: int, dealer: int) -> Payments | None:
        """A player's opening wins (CS-6), shown before the dealer's first discard."""
        kinds, payments = self.opening_payments(tiles, seat)
        return payments if kinds else None

    # --- settle queries ---------------------------------------------------------------------------------

    def answer_opening_win(self, request: Any) -> dict[str, Any]:
        situation = request.situation
        winner = read_seat(require(situation, "winner"), "winner")
        dealer = read_seat(require(situation, "dealer"), "dealer")
        tiles = self.read_tiles(request.hand, "hand")
        expected = 14 if winner == dealer else 13
        if len(tiles) != expected or request.melds:
            raise RulesetError(f"field 'hand': a dealt hand of seat {winner} holds {expected} tiles and no melds")
        TILE_SET.check(tiles, "hand")
        kinds, payments = self.opening_payments(tiles, winner)
        return {"hu": bool(kinds), "kinds": kinds, "payments": per_seat(payments)}

    def answer_drawn_settlement(self, request: Any) -> dict[str, Any]:
        """CS-13: no payments; the dealer stays (CS-11)."""
        return nobody_pays_dealer_stays(request.situation)

    def answer_multi_win(self, request: Any) -> dict[str, Any]:
        answer = super().answer_multi_win(request)
        answer["next_dealer"] = request.situation.get("discarder")
        return answer
