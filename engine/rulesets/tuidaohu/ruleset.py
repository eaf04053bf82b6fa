"""``tuidaohu``: Guangdong 推倒胡 with 鬼牌 and 买马 (wild.md §5, S003:59-61). 136 tiles, pon and kong but no chi;
the successor of the first wall tile, flipped before the deal, is the 鬼牌 (TD-1): it stands for anything, is
never discarded and never used in a pon or kong (TD-8). A share is Σ 番型 × 翻倍 × 底分 (自摸 ×2, 硬胡 ×2);
the discarder pays one share, each of the three on a self-draw, the robbed player three (TD-2). 鸡胡 wins only
by self-draw or robbing a kong. Horses repeat the fate of the seat they point at (TD-5); kongs are paid at once
(3 from the discarder of a 点杠, 1 each for 补杠, 2 each for 暗杠) and stand whatever happens (TD-7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine.analysis import ShapeRules
from engine.errors import RulesetError
from engine.notation import Hand
from engine.rulesets.base import (
    STAKE,
    DrawContext,
    FanEntry,
    IndicatorPosition,
    KongType,
    MultipleWinners,
    OptionSpec,
    Ruleset,
    Score,
    WildcardRule,
    WildcardSource,
    WinContext,
)
from engine.rulesets.contract import Claim, Kong, boolean, read_kongs, read_seat, read_tile, read_tiles, require
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.queries import per_seat
from engine.rulesets.tuidaohu.fans import FANXING, SHAPES, SITUATIONAL, best_kinds, situation_kinds, value
from engine.rulesets.tuidaohu.horses import Transfer, hand_payments, horse_payments, horse_targets
from engine.rulesets.verdicts import rejected
from engine.rulesets.wildcommon import claim_answer, faces_text, split_wild, wild_quick_win, wildcard_faces
from engine.settlement import Payments, collect, combine, no_payments
from engine.tiles import Tile, tile_code

if TYPE_CHECKING:
    from engine.referee import Referee
    from engine.settle import SettleRequest

KONG_MONEY = {KongType.EXPOSED: 3, KongType.ADDED: 1, KongType.CONCEALED: 2}
"""§5.1 杠牌直接输赢: 点杠 3 from the discarder; 补杠 1 and 暗杠 2 from each other player."""


@dataclass(frozen=True)
class TuidaohuScore(Score):
    """A scored win with what several wins on one discard are settled from together (TD-6)."""

    transfers: tuple[Transfer, ...] = ()
    horses: Mapping[int, tuple[Tile, ...]] | None = None
    kongs: Payments | None = None
    discarder: int | None = None


def kong_money(kong: Kong, base: float) -> Payments:
    """What a kong is paid at once (§5.1)."""
    return collect(kong.seat, dict.fromkeys(kong.payers(), KONG_MONEY[kong.type] * base))


class TuidaohuRuleset(Ruleset):
    id = "tuidaohu"
    description = "广东推倒胡 — Guangdong push-down: no chi, 鬼牌 = indicator + 1, 番型 sum × 自摸 × 硬胡, 买马"
    option_specs = (OptionSpec("base", 1, None, "底分", types=(int, float), span=STAKE),)

    @cached_property
    def shape_rules(self) -> ShapeRules:
        return SHAPES

    @property
    def allows_chi(self) -> bool:
        return False

    @property
    def multiple_winners(self) -> MultipleWinners:
        return MultipleWinners.ALL

    @cached_property
    def wildcards(self) -> WildcardRule:
        return WildcardRule(WildcardSource.SUCCESSOR, indicator=IndicatorPosition.FIRST_WALL_TILE)

    @property
    def horse_tiles(self) -> int:
        """Each player buys one horse at the table (the text allows 1-2; the settle answer takes any number)."""
        return 1

    # --- the hand -----------------------------------------------------------------------------------------

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        concealed_counts(hand, self.tile_set)
        faces = wildcard_faces(self.wildcards, ctx.extra, self.tile_set)
        facts = {"wildcard": faces_text(faces), "winner": ctx.winner}
        # A refused declaration states no settlement (payments None) and no kind.
        refusal = {"total": 0, "meets_minimum": True, "extra": {"kind": None, **facts}}
        if not ctx.self_drawn and hand.win_tile in faces:
            return rejected("a 鬼牌 is never discarded nor put in a kong, so it cannot be won on (TD-8)", **refusal)
        split = split_wild(hand, faces)
        hard_refusal = {**refusal, "extra": {"kind": None, **facts, "hard": split.hard}}
        moment = situation_kinds(ctx, boolean(ctx.extra, "discarder_after_kong"))
        kinds = best_kinds(split.natural, split.wilds, hand.melds, moment)
        if kinds is None:
            return rejected("not a winning shape: 4 sets + pair, 七对 or 十三幺 (§5.1)", **hard_refusal)
        chicken = not (set(kinds) - SITUATIONAL - {"jihu"})
        if chicken and not ctx.self_drawn and not ctx.robbing_kong:
            return rejected("鸡胡 wins only by self-draw or robbing a kong (§5.1, TD-3)", **hard_refusal)
        share = value(set(kinds)) * (2 if ctx.self_drawn else 1) * (2 if split.hard else 1)
        amount = share * self.options["base"]
        if ctx.self_drawn:
            transfers = tuple((seat, ctx.winner, amount) for seat in range(4) if seat != ctx.winner)
        else:
            transfers = ((ctx.discarder, ctx.winner, amount * (3 if ctx.robbing_kong else 1)),)  # type: ignore[assignment]
        horses = self._horses(ctx.extra)
        kongs = self._kong_payments(ctx)
        hand_part = hand_payments(transfers)
        with_horses = combine(hand_part, horse_payments(transfers, horses, ctx.winner))
        payments = combine(with_horses, kongs)
        extra = {
            **facts,
            "kind": "+".join(kinds),
            "hand_value": share,
            "kinds": kinds,
            "hard": split.hard,
            "breakdown": {
                "hand": per_seat(hand_part),
                "hand_and_horses": per_seat(with_horses),
                "kongs": per_seat(kongs),
            },
            "horse_targets": {str(owner): seats for owner, seats in horse_targets(horses, ctx.winner).items()},
        }
        entries = tuple(FanEntry(kind, FANXING[kind][0], kind, FANXING[kind][1]) for kind in kinds)
        gain = payments[ctx.winner]
        return TuidaohuScore(
            hu=True,
            shape_ok=True,
            total=gain,
            total_without_flowers=gain,
            meets_minimum=True,
            fans=entries,
            payments=payments,
            extra=extra,
            transfers=transfers,
            horses=horses,
            kongs=kongs,
            discarder=ctx.discarder,
        )

    def _horses(self, extra: Mapping[str, Any]) -> dict[int, tuple[Tile, ...]]:
        value = extra.get("horses", {})
        if not isinstance(value, Mapping):
            raise RulesetError(f'situation field \'horses\': expected an object keyed "0"-"3", found {value!r}')
        horses = {}
        for owner, tiles in value.items():
            seat = read_seat(int(owner) if owner in ("0", "1", "2", "3") else owner, "horses")
            horses[seat] = tuple(read_tiles(tiles, f"horses.{owner}", self.tile_set))
        return horses

    def _kong_payments(self, ctx: WinContext) -> Payments:
        """The earlier kongs of the hand, paid at once; the kong robbed by this win pays nothing (TD-7)."""
        robbed = (
            Kong.read(ctx.extra["kong"], "kong", self.tile_set) if ctx.robbing_kong and "kong" in ctx.extra else None
        )
        kongs = [kong for kong in read_kongs(ctx.extra, self.tile_set) if not kong.same_declaration(robbed)]
        return combine(no_payments(), *(kong_money(kong, self.options["base"]) for kong in kongs))

    def settle_wins(self, scores: Sequence[Score]) -> Payments:
        """TD-6: each winner is paid by the discarder on his own; horses count from the discarder and repeat
        the transfers of all winners; the kongs are paid once."""
        wins = [score for score in scores if isinstance(score, TuidaohuScore)]
        if len(wins) <= 1:
            return super().settle_wins(scores)
        transfers = [transfer for score in wins for transfer in score.transfers]
        origin = wins[0].discarder
        assert origin is not None
        return combine(
            hand_payments(transfers), horse_payments(transfers, wins[0].horses or {}, origin), wins[0].kongs or {}
        )

    # --- the referee ----------------------------------------------------------------------------------------

    def win_facts(self, referee: Referee, seat: int) -> dict[str, Any]:
        """The horses bought at the deal (``Referee.horses``) for the settlement, once their faces are known (a
        table that sees only backs reads them at the win: ``Referee.faces_up``)."""
        horses = getattr(referee, "horses", None) or {}
        if any(tile is None for tiles in horses.values() for tile in tiles):
            return {}
        return {"horses": {str(owner): [tile_code(tile) for tile in tiles] for owner, tiles in horses.items()}}

    def claim_refusal(self, referee: Referee, seat: int, kind: str, tile: Tile, using: tuple[Tile, ...]) -> str | None:
        return self.claim_reason(referee.wildcard_faces(), kind, tile, using)

    def discard_refusal(self, referee: Referee, seat: int, tile: Tile) -> str | None:
        return "a 鬼牌 may not be discarded (§5.1)" if tile in referee.wildcard_faces() else None

    def quick_win(self, referee: Referee, seat: int, counts: list[int], offered: Tile | None) -> bool:
        return wild_quick_win(referee.wildcard_faces(), counts, offered, SHAPES)

    def settle_draw(self, ctx: DrawContext) -> Payments:
        """A drawn hand pays nothing, but the kongs made in it stand (TD-7)."""
        base = self.options["base"]
        return combine(no_payments(), *(kong_money(kong, base) for kong in read_kongs(ctx.extra, self.tile_set)))

    @staticmethod
    def claim_reason(faces: frozenset[Tile], kind: str, tile: Tile, using: tuple[Tile, ...]) -> str | None:
        if kind == "chi":
            return "推倒胡 has no chi (§5.1)"
        if kind in ("concealed_kan", "added_kan") and tile in faces:
            return "a 鬼牌 cannot be used in a kong (TD-8)"
        if tile in faces:
            return "a 鬼牌 is never discarded, so it cannot be claimed (§5.1)"
        if kind != "hu" and any(other in faces for other in using):
            return "a 鬼牌 cannot be used in a pon or kong (TD-8)"
        return None

    # --- settle queries -------------------------------------------------------------------------------------

    def answer_kong_payment(self, request: SettleRequest) -> dict[str, Any]:
        kong = Kong.read(require(request.situation, "kong"), "kong", self.tile_set)
        return {"hu": None, "payments": per_seat(kong_money(kong, self.options["base"]))}

    def answer_discard_allowed(self, request: SettleRequest) -> dict[str, Any]:
        situation = request.situation
        faces = wildcard_faces(self.wildcards, situation, self.tile_set)
        read_seat(require(situation, "discarder"), "discarder")
        tile = read_tile(require(situation, "discard_tile"), "discard_tile", self.tile_set)
        answer: dict[str, Any] = {"hu": None, "payments": None, "discard_allowed": tile not in faces}
        if tile in faces:
            answer["reason"] = "a 鬼牌 may not be discarded (§5.1)"
        return answer

    def answer_claim_allowed(self, request: SettleRequest) -> dict[str, Any]:
        situation = request.situation
        claim = Claim.read(require(situation, "claim"), self.tile_set)
        faces = wildcard_faces(self.wildcards, situation, self.tile_set)
        reason = self.claim_reason(faces, claim.type, claim.tile, claim.using)
        return claim_answer(reason or claim.shape_reason())

    def answer_drawn_settlement(self, request: SettleRequest) -> dict[str, Any]:
        """No hand payments; the kongs of the hand stand (TD-7); the dealer deals again."""
        situation = request.situation
        dealer = read_seat(require(situation, "dealer"), "dealer")
        kongs = [kong_money(kong, self.options["base"]) for kong in read_kongs(situation, self.tile_set)]
        return {"hu": None, "payments": per_seat(combine(no_payments(), *kongs)), "next_dealer": dealer}

    def answer_multi_win(self, request: SettleRequest) -> dict[str, Any]:
        answer = super().answer_multi_win(request)
        answer["per_winner"] = {
            seat: {"hu": score["hu"], "hand_value": score.get("hand_value")}
            for seat, score in answer["per_winner"].items()
        }
        return answer
