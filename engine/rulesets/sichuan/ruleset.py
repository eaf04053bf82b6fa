"""``sichuan``: Chengdu 成都麻将 played as 血战到底 (108.md §1, decisions SC-1..SC-17).

108 tiles, no chi, 定缺 (a hand still holding its declared void suit cannot win), the 成都计番 fan table with 根 on a
doubling scale ``2^min(fan, cap)``, 自摸加底, the discarder alone pays a discard win, 刮风下雨 kong money paid at
once and handed on by 呼叫转移 on a 杠上炮, robbing an added kong only, 血战到底 (winners leave; the hand goes on
until three have won or the wall is empty), 查花猪 / 查大叫 / 退税 at a drawn hand, and the first winner deals next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from engine.errors import MissingSituation, RulesetError
from engine.match import MultiWinDealer, Rotation, RotationPolicy
from engine.notation import Hand
from engine.rulesets.base import (
    STAKE,
    DrawContext,
    FanEntry,
    KongType,
    OptionSpec,
    Score,
    WinContext,
    boolean_option,
)
from engine.rulesets.contract import Kong, boolean, contract_seats, read_kongs, read_seat, read_suit, require
from engine.rulesets.queries import per_seat
from engine.rulesets.sichuan import fans
from engine.rulesets.sichuan.drawn import StillIn, settle_drawn
from engine.rulesets.suited108 import (
    TILE_SET,
    Suited108Ruleset,
    hand_counts,
    just_made_kong,
    readings,
    robbed_kong_type,
    settle_together,
    suits_held,
    tile_counts,
)
from engine.rulesets.verdicts import rejected, won
from engine.settle.melds import read_melds
from engine.settlement import Amount, Payments, collect, combine, no_payments
from engine.tiles import TERMINALS as TERMINAL_TILES
from engine.tiles import suit_of

DEFAULT_CAP = 4
"""SC-5: 4番 (×16). With no cap (``cap_fan: null``) 天胡 / 地胡 and the 花猪 fine still use it."""

_KONG_MONEY = {KongType.EXPOSED: 2, KongType.ADDED: 1, KongType.CONCEALED: 2}
"""SC-10 刮风下雨, × base: 直杠 2 from the discarder; 补杠 1 and 暗杠 2 from each player still in."""


class SichuanRuleset(Suited108Ruleset):
    id = "sichuan"
    description = "四川 成都 血战到底 (108.md §1) — 108 tiles, 定缺, 成都计番 with 根, 刮风下雨, 查花猪/查大叫"
    option_specs = (
        OptionSpec(
            "cap_fan",
            DEFAULT_CAP,
            None,
            "SC-5 fan cap (multiplier 2^min(fan, cap)); null = no cap",
            types=(int, type(None)),
            span=(0, 20),
        ),
        OptionSpec("base", 1, None, "base stake; every amount is a multiple of it", types=(int, float), span=STAKE),
        OptionSpec(
            "void_rule",
            "declared",
            ("declared", "any_two_suits"),
            "SC-2: a win must lack the declared void suit; any_two_suits: any hand lacking a suit wins",
        ),
        OptionSpec(
            "self_draw",
            "add_base",
            ("add_base", "add_fan"),
            "SC-7 自摸加底 (each payer adds one base); add_fan: a self-draw adds 1番 instead",
        ),
        OptionSpec(
            "kong_bloom_payer",
            "all",
            ("all", "kong_supplier"),
            "SC-8: a 杠上开花 is paid by every player still in; kong_supplier: after a 直杠 (点杠花) it is paid as a "
            "discard by the player who supplied the kong's tile",
        ),
        boolean_option("menqing", False, "SC-4 option 门清: +1番 for a hand with no melds but concealed kongs"),
        boolean_option("zhongzhang", False, "SC-4 option 中张 (断幺九): +1番 for a hand without any 1 or 9"),
    )

    # --- table facts ------------------------------------------------------------------------------------

    @property
    def allows_chi(self) -> bool:
        return False  # SC-1

    @property
    def hand_continues_after_win(self) -> bool:
        return True  # SC-12 血战到底

    @property
    def declares_void_suit(self) -> bool:
        return True  # SC-2 定缺

    @property
    def must_win_last_tiles(self) -> int:
        return 4  # SC-13 最后四张能胡必须胡 (S6)

    @cached_property
    def rotation(self) -> RotationPolicy:
        """SC-15: the hand's first winner deals; after a multiple win the discarder; after a draw the dealer."""
        return RotationPolicy(Rotation.WINNER_DEALS, multi_win_dealer=MultiWinDealer.DISCARDER)

    # --- amounts ----------------------------------------------------------------------------------------

    @property
    def _base(self) -> Amount:
        return self.options["base"]

    @property
    def _top(self) -> int:
        cap = self.options["cap_fan"]
        return DEFAULT_CAP if cap is None else cap

    def multiplier(self, fan: int) -> int:
        """SC-5: ``2^min(fan, cap)``."""
        cap = self.options["cap_fan"]
        return 2 ** (fan if cap is None else min(fan, cap))

    def kong_money(self, kong: Kong, players_out: Sequence[int] = ()) -> Payments:
        """SC-10 刮风下雨, paid when the kong is declared; players who have won neither pay nor collect."""
        return collect(kong.seat, dict.fromkeys(kong.payers(players_out), _KONG_MONEY[kong.type] * self._base))

    def kong_payments(self, kong: Mapping[str, Any], players_out: Sequence[int] = ()) -> Payments | None:
        """The referee's hook: the kong money of a kong just made."""
        return self.kong_money(Kong.read(kong, "kong", self.tile_set), players_out)

    # --- a win ------------------------------------------------------------------------------------------

    def void_problem(self, counts: Sequence[int], void_suit: str | None) -> str | None:
        """Why tiles holding these suits cannot win (SC-2), or ``None``."""
        held = suits_held(counts)
        if self.options["void_rule"] == "any_two_suits":
            return "the hand holds all three suits (缺门 needed)" if len(held) == 3 else None
        if void_suit is None:
            raise MissingSituation("void_suit", "the suit the winner declared void (定缺)")
        return f"the hand still holds the declared void suit {void_suit} (定缺)" if void_suit in held else None

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        found = readings(hand)
        counts = hand_counts(hand)
        void_suit = read_suit(ctx.extra["void_suit"], "void_suit") if "void_suit" in ctx.extra else None
        facts = {"winner": ctx.winner, "discarder": ctx.discarder}
        # A refused declaration pays nothing: all-zero payments (README "Output").
        refusal = {"total": 0, "meets_minimum": True, "payments": no_payments(), "extra": facts}
        if not found:
            return rejected("not a winning shape: neither 4 sets + pair nor seven pairs", **refusal)
        problem = self.void_problem(counts, void_suit)
        if problem is not None:
            return rejected(problem, **refusal)
        robbed = robbed_kong_type(ctx)
        if robbed is not None and robbed is not KongType.ADDED:
            return rejected(f"a {robbed.value} kong cannot be robbed: only an added kong (SC-9)", **refusal)
        kinds, fan, roots = self._fan(hand, found, counts, ctx)
        multiplier = self.multiplier(fan)
        win = self._win_payments(ctx, multiplier)
        kong = just_made_kong(ctx)
        transfer = collect(ctx.winner, {ctx.discarder: sum(kong.paid_by.values())}) if kong else no_payments()  # type: ignore[dict-item]
        payments = combine(win, transfer)
        entries = [FanEntry(kind.name_zh, kind.name_zh, kind.name.split(" ", 1)[1], kind.fan) for kind in kinds]
        if roots:
            entries.append(FanEntry("根", "根", "root", 1, roots))
        wall = ctx.extra.get("wall_remaining")
        first = ctx.extra.get("first_win_of_hand")
        return won(
            fan,
            entries,
            payments,
            {
                **facts,
                "kinds": [kind.name for kind in kinds],
                "fan": fan,
                "roots": roots,
                "multiplier": multiplier,
                "must_hu": type(wall) is int and wall <= 3,
                "hand_over": len(ctx.players_out) + 1 >= 3,
                "next_dealer": ctx.winner if first is True else None,
                "breakdown": {"win": per_seat(win), "call_transfer": per_seat(transfer)},
            },
        )

    def _fan(
        self, hand: Hand, found: list[Any], counts: list[int], ctx: WinContext
    ) -> tuple[list[fans.Kind], int, int]:
        """Named kinds, total fan (uncapped) and roots. 天胡 / 地胡 are paid at the cap and named alone."""
        if ctx.first_turn and ctx.self_drawn:
            return [fans.HEAVENLY if ctx.winner == ctx.dealer else fans.EARTHLY], self._top, 0
        own = fans.hand_fan(found, counts, len(hand.melds))
        situational = [
            kind
            for kind, applies in (
                (fans.KONG_BLOOM, ctx.after_kong and ctx.self_drawn),
                (fans.KONG_DISCARD, bool(ctx.extra.get("discarder_after_kong")) and not ctx.self_drawn),
                (fans.ROBBING, ctx.robbing_kong),
                (fans.LAST_TILE, ctx.last_tile and ctx.self_drawn),
                (fans.SELF_DRAW, ctx.self_drawn and self.options["self_draw"] == "add_fan"),
                (fans.CONCEALED, self.options["menqing"] and all(meld.is_concealed_kong for meld in hand.melds)),
                (fans.NO_TERMINALS, self.options["zhongzhang"] and not any(counts[t] for t in TERMINAL_TILES)),
            )
            if applies
        ]
        return [own.base, *situational], own.fan + len(situational), own.roots

    def _win_payments(self, ctx: WinContext, multiplier: int) -> Payments:
        """SC-6/7/9: the discarder (or robbed konger) pays ``base × multiplier``; on a self-draw every player
        still in pays that, plus one base under 自摸加底."""
        amount = self._base * multiplier
        if not ctx.self_drawn:
            return collect(ctx.winner, {ctx.discarder: amount})  # type: ignore[dict-item]
        supplier = self._kong_bloom_supplier(ctx)
        if supplier is not None:
            return collect(ctx.winner, {supplier: amount})
        bonus = self._base if self.options["self_draw"] == "add_base" else 0
        return collect(ctx.winner, {payer: amount + bonus for payer in ctx.payers})

    def _kong_bloom_supplier(self, ctx: WinContext) -> int | None:
        """Under ``kong_bloom_payer = kong_supplier``: who supplied the tile of the 直杠 a 杠上开花 was drawn after
        (the winner's last kong in ``situation.kongs``); ``None`` = paid as an ordinary self-draw."""
        if self.options["kong_bloom_payer"] != "kong_supplier" or not ctx.after_kong:
            return None
        mine = [kong for kong in read_kongs(ctx.extra, self.tile_set) if kong.seat == ctx.winner]
        if not mine or mine[-1].type is not KongType.EXPOSED or mine[-1].supplier in ctx.players_out:
            return None
        return mine[-1].supplier

    def settle_wins(self, scores: Sequence[Score]) -> Payments:
        """一炮多响: each winner is paid his win; the 呼叫转移 goes to the first winner after the discarder (SC-11)."""
        return settle_together(scores, own=("win",), once=("call_transfer",))

    def hand_fan_as_discard(self, hand: Hand, void_suit: str | None) -> int | None:
        """查大叫's maxfan of one completed hand: base kind + 根 as a discard win; ``None`` if it is no win."""
        found = readings(hand)
        counts = hand_counts(hand)
        if not found or self.void_problem(counts, void_suit) is not None:
            return None
        return fans.hand_fan(found, counts, len(hand.melds)).fan

    # --- a drawn hand -----------------------------------------------------------------------------------

    def is_huazhu(self, player: StillIn) -> bool:
        held = suits_held(tile_counts(player.melds, player.concealed))
        return len(held) == 3 or (self.options["void_rule"] == "declared" and player.void_suit in held)

    def drawn(self, players: Sequence[StillIn], kongs: Sequence[Kong]) -> Any:
        return settle_drawn(
            players,
            kongs,
            is_huazhu=self.is_huazhu,
            win_fan=lambda hand, player: self.hand_fan_as_discard(hand, player.void_suit),
            value=lambda fan: self._base * self.multiplier(fan),
            huazhu_value=self._base * 2**self._top,
        )

    def settle_draw(self, ctx: DrawContext) -> Payments | None:
        """SC-14 from the seats and kongs the referee describes (``seats``, ``kongs`` as in the contract)."""
        if "seats" not in ctx.extra:
            return None  # a table that cannot see the hands: 查叫 is settled by hand (``drawn_settlement``)
        return self.drawn(self._still_in(ctx.extra["seats"]), read_kongs(ctx.extra, self.tile_set)).payments

    def _still_in(self, seats: Any) -> list[StillIn]:
        if not isinstance(seats, Mapping) or sorted(seats) != ["0", "1", "2", "3"]:
            raise RulesetError('situation field \'seats\': expected an object keyed "0"-"3"')
        players = []
        for key in sorted(seats):
            where = f"seats.{key}"
            entry = seats[key]
            if not isinstance(entry, Mapping) or entry.get("status") not in ("won", "in"):
                raise RulesetError(f'situation field {where!r}: expected {{"status": "won"}} or status "in"')
            if entry["status"] == "won":
                continue
            concealed = tuple(self.read_tiles(_text(entry.get("hand", ""), f"{where}.hand"), f"{where}.hand"))
            melds = read_melds(
                entry.get("melds", []), lambda text, at=where: self.read_tiles(text, at), f"{where}.melds"
            )
            if len(concealed) + 3 * len(melds) != 13:
                raise RulesetError(f"situation field {where!r}: expected 13 tiles (hand + 3 × melds) at the draw")
            TILE_SET.check([*concealed, *(tile for meld in melds for tile in meld.tiles)], where)
            void = entry.get("void_suit")
            players.append(StillIn(int(key), melds, concealed, None if void is None else read_suit(void, where)))
        return players

    # --- settle queries ---------------------------------------------------------------------------------

    def answer_multi_win(self, request: Any) -> dict[str, Any]:
        answer = super().answer_multi_win(request)
        situation = request.situation
        out = situation.get("players_out", [])
        winners = sum(1 for score in answer["per_winner"].values() if score["hu"])
        answer["hand_over"] = len(out) + winners >= 3 if isinstance(out, list) else False
        answer["next_dealer"] = situation.get("discarder") if situation.get("first_win_of_hand") is True else None
        return answer

    def answer_kong_payment(self, request: Any) -> dict[str, Any]:
        """SC-10: the money paid at once for ``situation.kong``; a kong of the konger's void suit is not allowed
        (void-suit tiles may not be claimed, SC-2) and pays nothing."""
        situation = request.situation
        kong = Kong.read(require(situation, "kong"), "kong", self.tile_set)
        out = list(contract_seats(situation.get("players_out", []), "players_out"))
        if kong.seat in out:
            raise RulesetError("situation field 'players_out': the konger has already won and left the hand")
        void = situation.get("void_suit")
        if void is not None and suit_of(kong.tile) == read_suit(void, "void_suit"):
            return {"hu": None, "payments": per_seat(no_payments()), "kong_allowed": False}
        return {"hu": None, "payments": per_seat(self.kong_money(kong, out)), "kong_allowed": True}

    def answer_drawn_settlement(self, request: Any) -> dict[str, Any]:
        situation = request.situation
        if not boolean(situation, "drawn", True):
            raise RulesetError("situation field 'drawn': a drawn settlement is asked with drawn: true")
        dealer = read_seat(require(situation, "dealer"), "dealer")
        first = situation.get("first_winner")
        result = self.drawn(self._still_in(require(situation, "seats")), read_kongs(situation, self.tile_set))
        return {
            "hu": None,
            "payments": per_seat(result.payments),
            "next_dealer": dealer if first is None else read_seat(first, "first_winner"),
            "huazhu": {str(seat): value for seat, value in result.huazhu.items()},
            "ready": {str(seat): value for seat, value in result.ready.items()},
            "max_fan": {str(seat): value for seat, value in result.max_fan.items()},
            "breakdown": {name: per_seat(part) for name, part in result.breakdown.items()},
        }


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RulesetError(f"situation field {where!r}: expected a tile string, found {value!r}")
    return value
