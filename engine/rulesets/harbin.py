"""``harbin``: 哈尔滨麻将 with the 宝 (wild.md §6, rules-B §7.2, S004:405-447). 112 tiles (three suits + 4 红中);
chi from the 上家; 胡 > 杠 > 吃听 > 碰 > 吃 (HR-10); one winner per discard; the winner deals (the dealer stays on
his win or a drawn hand, at most 9 hands in a row).

A win needs an opened, ready hand with two suits, a 1, 9 or 红中, and a pung and a chow (HR-2). The 宝, the face
of the last wall tile, stands for any tile only when a ready player self-draws it (HR-1). Every other player
pays: 平胡 1, 自摸 2, 摸宝 3, 宝中宝 12; a player who never opened (站立) pays at least 3 (HR-5); 卡当 doubles
(HR-3, not 宝中宝: HR-4); a discarder who was not ready (出冲) pays 3 and the other two's shares (包付).

At the table: the 宝 is flipped from the tail after the deal and replaced at three visible copies (换宝,
``replaces_indicator``); a chi that leaves the hand waiting outranks a pung (吃听, ``claim_class``); readiness is
read from the hands (a waiting hand counts as declared ready; ``declared_ready`` absent in a settle request is
true as well). The 荒庄 rule of dealing the last four tiles for self-draws only is not played by the referee.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine.analysis import ShapeRules, is_win, waits
from engine.errors import RulesetError
from engine.match import Rotation, RotationPolicy
from engine.notation import Hand
from engine.rulesets.base import (
    STAKE,
    BreakMethod,
    ClaimKind,
    IndicatorPosition,
    OptionSpec,
    Ruleset,
    Score,
    WildcardRule,
    WildcardSource,
    WinContext,
)
from engine.rulesets.contract import boolean, read_seat, read_tile, require, seat_map
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.queries import nobody_pays_dealer_stays
from engine.rulesets.readings import standard_readings
from engine.rulesets.verdicts import rejected, won
from engine.rulesets.wildcommon import STANDARD, agreeing, meld_facts, meld_tiles
from engine.settlement import collect
from engine.tiles import NUM_KINDS, RED, Tile, is_suited, rank_of, tile_code, to_counts
from engine.tilesets import TILE_SETS, TileSet

if TYPE_CHECKING:
    from engine.referee import Referee
    from engine.settle import SettleRequest

CLAIM_PRIORITY = (
    frozenset({ClaimKind.HU}),
    frozenset({ClaimKind.KONG}),
    frozenset({ClaimKind.CHI_READY}),
    frozenset({ClaimKind.PUNG}),
    frozenset({ClaimKind.CHI}),
)
"""HR-10: 胡 > 杠 > 吃听 > 碰 > 吃, nearest to the discarder first within a kind."""
VALUES = {"pinghu": 1, "zimo": 2, "mobao": 3, "baozhongbao": 12}
"""S004:433-447: per loser, before 站立, 卡当 and 包付."""
STANDING_LEAST = 3
"""站立 and 出冲 pay at least 3 (HR-5)."""
BAO_CHANGE_AT = 3
"""HR-9: three visible copies of the 宝 face replace it."""
MAX_MELDS = 3
"""At least 4 standing tiles when ready (HR-2)."""
_CLAIM_TYPES = {"hu": ClaimKind.HU, "kan": ClaimKind.KONG, "pon": ClaimKind.PUNG, "chi": ClaimKind.CHI}


def triplet_and_chow(hand: Hand) -> list[Any]:
    """The standard readings with at least one pung or kong and one chow, melds included (S004:415)."""
    return [reading for reading in standard_readings(hand) if reading.triplets and reading.chows]


class HarbinRuleset(Ruleset):
    id = "harbin"
    description = "哈尔滨麻将 — Harbin: 112 tiles, face-down 宝 and 换宝, 吃听, opened and ready, 卡当, 宝中宝"
    option_specs = (OptionSpec("base", 1, None, "the unit of the 番 amounts", types=(int, float), span=STAKE),)

    @property
    def tile_set(self) -> TileSet:
        return TILE_SETS["112"]

    @cached_property
    def shape_rules(self) -> ShapeRules:
        return STANDARD

    @property
    def claim_priority(self) -> tuple[frozenset[ClaimKind], ...]:
        return CLAIM_PRIORITY

    @property
    def break_method(self) -> BreakMethod:
        return BreakMethod.TWO_THROWS_SECOND_SUM

    @cached_property
    def wildcards(self) -> WildcardRule:
        return WildcardRule(WildcardSource.FACE, indicator=IndicatorPosition.LAST_WALL_TILE)

    @property
    def rotation(self) -> RotationPolicy:
        """The dealer stays on his win or a drawn hand, otherwise the winner deals; at most 9 in a row."""
        return RotationPolicy(Rotation.WINNER_DEALS, max_consecutive=9)

    # --- the hand -----------------------------------------------------------------------------------------

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        concealed_counts(hand, self.tile_set)
        facts = {"winner": ctx.winner, "discarder": ctx.discarder}
        # A refused declaration states no settlement (payments None) and no kind.
        refusal = {"total": 0, "meets_minimum": True, "extra": {"kind": None, **facts}}
        melds = meld_facts(hand.melds)
        agreeing(ctx.extra, "open_melds", ctx.winner, melds.open)
        reason = self._barred(hand, ctx, melds.open)
        if reason is not None:
            return rejected(reason, **refusal)
        options = self.winning_faces(hand)
        kadang = self.kadang(hand, options)
        bao = read_tile(ctx.extra["bao"], "bao", self.tile_set) if "bao" in ctx.extra else None
        if ctx.self_drawn and hand.win_tile == bao and options:
            kind = "baozhongbao" if kadang == bao else "mobao"
        elif hand.win_tile in options:
            kind = "zimo" if ctx.self_drawn or ctx.robbing_kong else "pinghu"
        else:
            return rejected("not a Harbin win: 4 sets + pair with a pung and a chow (S004:415)", **refusal)
        value = VALUES[kind]
        shares = self._shares(ctx, kind, value, kadang is not None)
        payments = collect(ctx.winner, shares)
        extra = {**facts, "kind": kind, "hand_value": value, "kadang": kadang is not None}
        return won(payments[ctx.winner], payments=payments, extra=extra)

    def _barred(self, hand: Hand, ctx: WinContext, opened: bool) -> str | None:
        """The conditions of S004:417-431 that the ready hand decides (HR-2)."""
        declared = boolean(ctx.extra, "declared_ready", True)
        ready_tiles = [*hand.standing, *meld_tiles(hand.melds)]
        if ctx.first_turn and ctx.winner == ctx.dealer:
            return "天胡 is not allowed (S004:431)"
        if not declared:
            return "the winner has not declared ready (听)"
        if not opened:
            return "the hand was never opened (chi, pon or exposed kong; S004:427)"
        if len(hand.melds) > MAX_MELDS:
            return "a ready hand keeps at least 4 standing tiles (at most 3 melds)"
        if len({tile // 9 for tile in ready_tiles if is_suited(tile)}) < 2:
            return "the hand needs two suits (红中 is no suit; S004:417)"
        if not any(tile == RED or (is_suited(tile) and rank_of(tile) in (1, 9)) for tile in ready_tiles):
            return "the hand needs a 1, a 9 or a 红中 (S004:419)"
        return None

    def winning_faces(self, hand: Hand) -> list[Tile]:
        """The faces that complete the ready hand as a Harbin win (a pung and a chow in some reading)."""
        standing = to_counts(hand.standing)
        found = []
        for tile in waits(standing, STANDARD):
            if self.tile_set.copies[tile] and triplet_and_chow(Hand(hand.melds, hand.standing, tile)):
                found.append(tile)
        return found

    @staticmethod
    def kadang(hand: Hand, options: list[Tile]) -> Tile | None:
        """HR-3: the one winning face, a suited 2-8, the middle of a concealed chow in some reading."""
        if len(options) != 1 or not is_suited(options[0]) or rank_of(options[0]) in (1, 9):
            return None
        tile = options[0]
        for reading in triplet_and_chow(Hand(hand.melds, hand.standing, tile)):
            if any(s.kind.value == "chow" and not s.declared and s.tile == tile - 1 for s in reading.sets):
                return tile
        return None

    def _shares(self, ctx: WinContext, kind: str, value: int, kadang: bool) -> dict[int, float]:
        """What each loser pays: a non-discarder who never opened (站立) at least 3, 卡当 doubles (not 宝中宝), a
        discarder who was not ready (出冲) pays 3 and 包付 the others."""
        opened = seat_map(ctx.extra, "open_melds", bool, True)
        ready = seat_map(ctx.extra, "ready", bool, True)
        special = kind == "baozhongbao"
        base = self.options["base"]

        def owed(amount: int, standing: bool) -> float:
            if standing and not special:
                amount = max(STANDING_LEAST, amount)
            return amount * (2 if kadang and not special else 1) * base

        losers = [seat for seat in range(4) if seat != ctx.winner]
        discarder = ctx.discarder if kind == "pinghu" else None  # 抢杠 is paid as a self-draw (HR-7)
        shares = {seat: owed(value, not opened[seat] and seat != discarder) for seat in losers}
        if discarder is not None and not ready[discarder]:
            shares[discarder] = owed(STANDING_LEAST, False)
            total = sum(shares.values())
            shares = {seat: (total if seat == discarder else 0) for seat in losers}
        return shares

    # --- the referee ----------------------------------------------------------------------------------------

    def win_facts(self, referee: Referee, seat: int) -> dict[str, Any]:
        """The current 宝, who has opened, and who is ready. The table reads readiness from the hands it sees: a
        player is ready when his concealed tiles wait on a tile (a hand it does not see is taken as ready; a
        discarder's is shown for a win on his discard, ``Referee.hands_wanted``)."""
        facts: dict[str, Any] = {
            "declared_ready": True,
            "open_melds": {str(s): meld_facts(state.melds).open for s, state in enumerate(referee.seats)},
        }
        bao = referee.wall.indicators[-1]
        if bao is not None:  # a table that sees only backs knows it once turned up (``Referee.face_down_places``)
            facts["bao"] = tile_code(bao)
        seats = enumerate(referee.seats)
        facts["ready"] = {str(s): self._ready(state.known) for s, state in seats if s != seat and not state.unknown}
        return facts

    @staticmethod
    def _ready(known: list[int]) -> bool:
        counts = list(known[:NUM_KINDS])
        return sum(counts) % 3 == 1 and bool(waits(counts, STANDARD))

    def claim_class(self, referee: Referee, seat: int, kind: ClaimKind, tile: Tile, low: Tile | None) -> ClaimKind:
        """吃听: a chi after which some discard leaves the hand waiting (HR-10). A hand the table does not see is
        classed as a plain chi: at a camera table only the claim granted lays its meld (the other claimant lays
        nothing and is taken as passing), so the rank never decides there."""
        if kind is not ClaimKind.CHI or low is None or referee.seats[seat].unknown:
            return kind
        counts = list(referee.seats[seat].known[:NUM_KINDS])
        for other in (low, low + 1, low + 2):
            if other != tile:
                counts[other] -= 1
        for discard in range(NUM_KINDS):
            if counts[discard]:
                counts[discard] -= 1
                ready = bool(waits(counts, STANDARD))
                counts[discard] += 1
                if ready:
                    return ClaimKind.CHI_READY
        return kind

    @property
    def pays_on_hidden_readiness(self) -> bool:
        return True

    def replaces_indicator(self, visible_copies: int) -> bool:
        """换宝 (HR-9): three copies of the 宝 face in sight replace it."""
        return visible_copies >= BAO_CHANGE_AT

    def quick_win(self, referee: Referee, seat: int, counts: list[int], offered: Tile | None) -> bool:
        """A self-drawn 宝 completes any ready hand: try the hand without it."""
        if is_win(counts, STANDARD):
            return True
        bao = referee.wall.indicators[-1]
        if offered is not None or bao is None or not counts[bao]:
            return False
        rest = list(counts)
        rest[bao] -= 1
        return bool(waits(rest, STANDARD))

    # --- settle queries -------------------------------------------------------------------------------------

    def answer_bao_change(self, request: SettleRequest) -> dict[str, Any]:
        situation = request.situation
        read_tile(require(situation, "bao"), "bao", self.tile_set)
        visible = require(situation, "visible_bao_copies")
        if type(visible) is not int or not 0 <= visible <= 3:
            raise RulesetError(f"situation field 'visible_bao_copies': expected 0-3, found {visible!r}")
        return {"hu": None, "payments": None, "bao_change": self.replaces_indicator(visible)}

    def answer_claim_priority(self, request: SettleRequest) -> dict[str, Any]:
        """HR-10; a chi claim with ``"ready": true`` (or type ``chi_ready``) is a 吃听."""
        situation = request.situation
        discarder = read_seat(require(situation, "discarder"), "discarder")
        claims = require(situation, "claims")
        if not isinstance(claims, list) or not claims:
            raise RulesetError("situation field 'claims': expected a list of {seat, type} objects")
        ranked = []
        for index, claim in enumerate(claims):
            if not isinstance(claim, Mapping):
                raise RulesetError(f"situation field 'claims[{index}]': expected {{seat, type}}")
            kind = self._claim_kind(claim, index)
            seat = read_seat(claim.get("seat"), f"claims[{index}].seat")
            if seat == discarder:
                raise RulesetError(f"situation field 'claims[{index}]': the discarder cannot claim his own tile")
            ranked.append((self.claim_rank(kind), (seat - discarder) % 4, seat, claim["type"]))
        _, _, seat, kind_text = min(ranked)
        return {"hu": None, "payments": None, "granted": [seat], "granted_type": kind_text}

    @staticmethod
    def _claim_kind(claim: Mapping[str, Any], index: int) -> ClaimKind:
        kind = claim.get("type")
        if kind == "chi_ready" or (kind == "chi" and claim.get("ready") is True):
            return ClaimKind.CHI_READY
        if kind not in _CLAIM_TYPES:
            raise RulesetError(f"situation field 'claims[{index}].type': expected hu, kan, pon, chi or chi_ready")
        return _CLAIM_TYPES[kind]

    def answer_drawn_settlement(self, request: SettleRequest) -> dict[str, Any]:
        """荒庄 (HR-11): nobody pays; the dealer stays."""
        return nobody_pays_dealer_stays(request.situation)
