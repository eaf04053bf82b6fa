"""``hubei-laizi``: Hubei 赖子 (wild.md §2, S002:1-59). 136 tiles; the successor of the indicator flipped after
the deal is the 赖子 (four copies, W-1); 屁和 needs a 2-5-8 pair and at most one 赖子 unless 门前清; the 大和
kinds pay 5, 豪华七对 10; everyone pays, each share doubled once per item of the rolling doubling (滚翻, §2.5);
包三家 (§2.6); 抬庄 / 独抬庄 (§2.7); a false win pays each other player the 大和 amount (诈和, HB-14).

At the table the referee passes the indicator and each seat's discarded 赖子, 倒铺 and kongs (``win_facts``),
refuses claims on a 赖子 and chi with two (``claim_refusal``) and pays 独抬庄 on the dealt hands and 抬庄 on the
first four discards; a four completed in the first go-around is answered by ``mjtable settle`` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine.analysis import ShapeRules
from engine.errors import RulesetError
from engine.notation import Hand, Meld, MeldKind
from engine.rulesets.base import (
    STAKE,
    IndicatorPosition,
    OptionSpec,
    Ruleset,
    Score,
    WildcardRule,
    WildcardSource,
    WinContext,
    boolean_option,
)
from engine.rulesets.contract import Claim, boolean, read_seat, require, seat_map
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.hubei.hands import ONE_COLOUR, HubeiHand, hand_value, read_hand
from engine.rulesets.queries import nobody_pays_dealer_stays, per_seat
from engine.rulesets.verdicts import rejected, won
from engine.rulesets.wildcommon import (
    MeldFacts,
    agreeing,
    claim_answer,
    faces_text,
    meld_facts,
    split_wild,
    wild_quick_win,
    wildcard_faces,
)
from engine.settlement import Payments, collect
from engine.tiles import NUM_KINDS, Tile, parse_tiles

if TYPE_CHECKING:
    from engine.referee import Referee
    from engine.settle import SettleRequest

_SHAPES = ShapeRules(standard=True, seven_pairs=True, thirteen_orphans=False, honors_knitted=False)
"""The plain shapes the bots try before asking for a verdict; the wildcard readings are the evaluation's."""
FALSE_WIN_VALUE = 5
"""HB-14: the false winner pays each other player the 大和 amount, without doublings."""
TAI_ZHUANG = 1
"""HB-12: 抬庄 = one 底分 from the dealer to each of the three."""
DU_TAI_ZHUANG = 4
"""HB-13: 独抬庄 = 4 × 底分 per payer ("按 4 张牌"; a guess, the text gives no number)."""


class HubeiRuleset(Ruleset):
    id = "hubei-laizi"
    description = "湖北赖子 — Hubei 赖子: successor wildcard, 2-5-8 屁和, 大和 ×5, rolling doubling per payer (滚翻)"
    option_specs: tuple[OptionSpec, ...] = (
        OptionSpec("base", 1, None, "底分 (the source's worked example uses 100)", types=(int, float), span=STAKE),
        boolean_option("two_sided_laizi", False, "两头赖子: both neighbours of the indicator are wild (S002:59)"),
    )

    # --- table facts --------------------------------------------------------------------------------------

    @cached_property
    def shape_rules(self) -> ShapeRules:
        return _SHAPES

    @cached_property
    def wildcards(self) -> WildcardRule:
        offsets = (-1, 1) if self.options.get("two_sided_laizi") else (1,)
        return WildcardRule(WildcardSource.SUCCESSOR, indicator=IndicatorPosition.NEXT_DRAW, offsets=offsets)

    # --- the hand -----------------------------------------------------------------------------------------

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        concealed_counts(hand, self.tile_set)
        faces = wildcard_faces(self.wildcards, ctx.extra, self.tile_set)
        facts = {"wildcard": faces_text(faces), "winner": ctx.winner}
        if not ctx.self_drawn and hand.win_tile in faces and not ctx.robbing_kong:
            return self._no_win("a discarded 赖子 cannot be claimed, not even to win (HB-10)", ctx, facts)
        reason = self.barred(hand, ctx)
        if reason is not None:
            return self._no_win(reason, ctx, facts)
        split = split_wild(hand, faces)
        melds = meld_facts(hand.melds)
        read = read_hand(hand, split, melds, ctx)
        menqianqing = not melds.open and ctx.self_drawn
        small = read.pihu_shape and (split.wilds <= 1 or (menqianqing and self.concealed_exemption))
        if not read.kinds and not (small and self.small_win_allowed(melds)):
            return self._no_win(self.small_reason(read, split.wilds), ctx, {**facts, "hard": split.hard})
        value = hand_value(read.kinds)
        exponents = self.doublings(ctx, melds, split.hard)
        base = self.options["base"]
        shares = {payer: base * value * 2**exponent for payer, exponent in exponents.items()}
        liable = self.liable(read, ctx)
        if liable is not None:
            shares = {liable: sum(shares.values())}
        payments = collect(ctx.winner, shares)
        extra = {
            **facts,
            "kind": "dahu" if read.kinds else "pihu",
            "hand_value": value,
            "kinds": list(read.kinds),
            "hard": split.hard,
            "doublings": {str(seat): exponent for seat, exponent in exponents.items()},
            "liable": liable,
            **self.flags(menqianqing),
        }
        return won(payments[ctx.winner], payments=payments, extra=extra)

    # Hooks Wuhan overrides (wild.md §3) -------------------------------------------------------------------

    concealed_exemption = True
    """门前清 lets 屁和 win with any number of 赖子 (S002:30); Wuhan has no such exemption (WH-4)."""

    def barred(self, hand: Hand, ctx: WinContext) -> str | None:
        """A reason the hand cannot win whatever its shape (Wuhan: a 红中 in the hand)."""
        return None

    def small_win_allowed(self, melds: MeldFacts) -> bool:
        """Whether 屁和 may win with these melds (Wuhan: only opened, WH-4)."""
        return True

    def small_reason(self, read: HubeiHand, wilds: int) -> str:
        if not read.pihu_shape:
            return "no 大和 and no 屁和: 4 sets + a 2-5-8 pair is needed (S002:21)"
        return f"屁和 with {wilds} 赖子 and not 门前清: at most one 赖子 (HB-4)"

    def flags(self, menqianqing: bool) -> dict[str, Any]:
        return {"menqianqing": menqianqing}

    def seat_items(self, extra: Mapping[str, Any]) -> dict[int, int]:
        """Each payer's own doublings L(P) without the discarder's (§2.5): 赖子 discarded, 倒铺, kongs declared."""
        wild = seat_map(extra, "discarded_wildcards", int, 0)
        opened = seat_map(extra, "open_melds", bool, False)
        kongs = seat_map(extra, "kong_count", int, 0)
        return {seat: wild[seat] + int(opened[seat]) + kongs[seat] for seat in range(4)}

    def winner_items(self, extra: Mapping[str, Any], winner: int, melds: MeldFacts) -> int:
        """The winner's own doublings: 赖子 he discarded, and 倒铺 and kongs as his melds show them (the
        situation's entries must agree, §2.8)."""
        agreeing(extra, "open_melds", winner, melds.open)
        agreeing(extra, "kong_count", winner, melds.kongs)
        return seat_map(extra, "discarded_wildcards", int, 0)[winner] + int(melds.open) + melds.kongs

    # --- payments -----------------------------------------------------------------------------------------

    def doublings(self, ctx: WinContext, melds: MeldFacts, hard: bool) -> dict[int, int]:
        """W + L(P) for each payer P: W = self-draw + 硬 + the winner's own items, L(P) = discarder + P's items."""
        winner = int(ctx.self_drawn) + int(hard) + self.winner_items(ctx.extra, ctx.winner, melds)
        items = self.seat_items(ctx.extra)
        return {payer: winner + int(payer == ctx.discarder) + items[payer] for payer in range(4) if payer != ctx.winner}

    def liable(self, read: HubeiHand, ctx: WinContext) -> int | None:
        """包三家 (§2.6): the feeder of a one-colour hand's third meld, or the discarder of a 全求人's pair tile."""
        feeder = ctx.extra.get("qys_third_meld_feeder")
        if feeder is not None and any(kind in read.kinds for kind in ONE_COLOUR):
            if read_seat(feeder, "qys_third_meld_feeder") == ctx.winner:
                raise RulesetError("situation field 'qys_third_meld_feeder': the winner cannot feed himself")
            return feeder
        if "quanqiuren" in read.kinds:
            return ctx.discarder
        return None

    def _no_win(self, reason: str, ctx: WinContext, facts: dict[str, Any]) -> Score:
        """A hand that is no win: 诈和 (HB-14) when it was actually declared, else only the verdict."""
        if not boolean(ctx.extra, "declared"):
            return rejected(reason, total=0, meets_minimum=True, extra={"kind": None, **facts})
        penalty = self.false_win_payments(ctx.winner)
        return rejected(
            reason,
            total=0,
            meets_minimum=True,
            payments=penalty,
            extra={"kind": None, **facts, "breakdown": {"false_win_penalty": per_seat(penalty)}},
        )

    def false_win_payments(self, declarer: int) -> Payments:
        amount = FALSE_WIN_VALUE * self.options["base"]
        return collect(declarer, {seat: -amount for seat in range(4) if seat != declarer})

    # --- the referee ----------------------------------------------------------------------------------------

    def win_facts(self, referee: Referee, seat: int) -> dict[str, Any]:
        """The per-seat items of the rolling doubling as the table shows them: 赖子 in each river (a discarded
        赖子 is never claimed, HB-10), opened melds, kongs."""
        faces = referee.wildcard_faces()
        rivers = {str(s): sum(tile in faces for tile in state.discards) for s, state in enumerate(referee.seats)}
        melds = {str(s): meld_facts(state.melds) for s, state in enumerate(referee.seats)}
        return {
            "discarded_wildcards": rivers,
            "open_melds": {s: facts.open for s, facts in melds.items()},
            "kong_count": {s: facts.kongs for s, facts in melds.items()},
            "declared": True,
        } | feeder_fact(referee, seat)

    def claim_refusal(self, referee: Referee, seat: int, kind: str, tile: Tile, using: tuple[Tile, ...]) -> str | None:
        faces = referee.wildcard_faces()
        held = sum(referee.seats[seat].known[face] for face in faces)
        return self.claim_reason(faces, kind, tile, using, held)

    def claim_reason(
        self, faces: frozenset[Tile], kind: str, tile: Tile, using: tuple[Tile, ...], held: int
    ) -> str | None:
        """HB-10: a discarded 赖子 is never claimed; W-3: no 赖子 inside a claimed meld; HB-4: no chi while
        holding two or more 赖子. A player's own kongs are no claims."""
        if kind in ("concealed_kan", "added_kan"):
            return None
        if tile in faces:
            return "a discarded 赖子 cannot be claimed (HB-10)"
        if kind != "hu" and any(other in faces for other in using):
            return "a 赖子 cannot be used in a claimed meld (W-3)"
        if kind == "chi" and held >= 2:
            return f"a player holding {held} 赖子 may not chi (HB-4)"
        return None

    def quick_win(self, referee: Referee, seat: int, counts: list[int], offered: Tile | None) -> bool:
        return wild_quick_win(referee.wildcard_faces(), counts, offered, _SHAPES)

    # --- settle queries -------------------------------------------------------------------------------------

    def answer_claim_allowed(self, request: SettleRequest) -> dict[str, Any]:
        """Is the claim legal: its shape, chi only from the 上家, and the 赖子 rules (the claimant's ``hand``,
        when given, counts his 赖子 for HB-4)."""
        situation = request.situation
        claim = Claim.read(require(situation, "claim"), self.tile_set)
        faces = wildcard_faces(self.wildcards, situation, self.tile_set)
        hand = [tile for tile in parse_tiles(request.hand) if tile < NUM_KINDS] if request.hand else []
        held = sum(tile in faces for tile in hand)
        return claim_answer(claim.shape_reason() or self.claim_reason(faces, claim.type, claim.tile, claim.using, held))

    def answer_tai_zhuang(self, request: SettleRequest) -> dict[str, Any]:
        """抬庄 (HB-12): the dealer pays each of the three one 底分."""
        dealer = read_seat(require(request.situation, "dealer"), "dealer")
        return {"hu": None, "payments": per_seat(self.tai_zhuang(dealer))}

    def tai_zhuang(self, dealer: int) -> Payments:
        amount = TAI_ZHUANG * self.options["base"]
        return collect(dealer, {s: -amount for s in range(4) if s != dealer})

    def discard_settlement(self, referee: Referee, seat: int, tile: Tile) -> Payments | None:
        """抬庄 at the table: the first four discards of the hand, unclaimed, are the dealer's and then the same
        tile from his 下家, 对家 and 上家."""
        if referee.discards_made != 4 or referee.claims_made:
            return None
        if all(referee.seats[(referee.dealer + k) % 4].discards == [tile] for k in range(4)):
            return self.tai_zhuang(referee.dealer)
        return None

    def answer_du_tai_zhuang(self, request: SettleRequest) -> dict[str, Any]:
        """独抬庄 (HB-13): four alike in the dealer's dealt hand → each pays him 4 × 底分; in another player's
        → the dealer pays that player 4 × 底分."""
        dealer = read_seat(require(request.situation, "dealer"), "dealer")
        holder = read_seat(require(request.situation, "holder"), "holder")
        return {"hu": None, "payments": per_seat(self.du_tai_zhuang(dealer, holder))}

    def du_tai_zhuang(self, dealer: int, holder: int) -> Payments:
        amount = DU_TAI_ZHUANG * self.options["base"]
        if holder == dealer:
            return collect(dealer, {s: amount for s in range(4) if s != dealer})
        return collect(holder, {dealer: amount})

    def opening_win(self, tiles: Sequence[Tile], seat: int, dealer: int) -> Payments | None:
        """独抬庄 at the table: a dealt hand holding four identical tiles is paid at once (the text's other case,
        four completed by a draw in the first go-around, is left to ``mjtable settle``)."""
        if not any(tiles.count(tile) == 4 for tile in set(tiles)):
            return None
        return self.du_tai_zhuang(dealer, seat)

    def answer_drawn_settlement(self, request: SettleRequest) -> dict[str, Any]:
        """黄牌 (HB-18): nobody pays; the dealer deals again (HB-17)."""
        return nobody_pays_dealer_stays(request.situation)


def feeder_fact(referee: Referee, seat: int) -> dict[str, int]:
    """The situation key of 清一色喂三铺 for a win at the table, where the seat has a third claimed meld."""
    feeder = third_meld_feeder(seat, referee.seats[seat].melds)
    return {} if feeder is None else {"qys_third_meld_feeder": feeder}


def third_meld_feeder(seat: int, melds: Sequence[Meld]) -> int | None:
    """清一色喂三铺 (§2.6): the seat that fed ``seat``'s third claimed meld (a chow by its 上家, a pung or kong, or
    the pung an added kong grew from, by its supplier), ``None`` before the third; whether the hand is one colour is
    the ruleset's to judge at the win (``liable``), so every win passes it on, as a settle request may."""
    claimed = [meld for meld in melds if meld.offer is not None]
    if len(claimed) < 3:
        return None
    third = claimed[2]
    relative = 1 if third.kind is MeldKind.CHOW else third.supplier
    assert relative is not None  # a claimed pung or kong names its supplier
    return (seat - relative) % 4
