"""``jipinghu``: Guangdong 鸡平胡 (wild.md §4, S003:73, S003:101-103). 136 tiles, no wildcard; chi only from the
上家, 碰 beats 吃; several players may win on one discard; each 番 doubles, up to the 爆胡 cap of 3 番 (JP-2),
except 十三幺, which pays ``special_hand_fan`` and adds nothing (JP-3). The discarder alone pays a discard win,
each of the three a self-draw: ``2^F × 底分`` (JP-4). 漏胡 blocks a passed face until one's next draw (JP-5): at
the table the referee notes the faces passed and refuses the win (``missed_wins``); ``mjtable settle`` reads them
as ``missed_win_tiles``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine.analysis import ShapeRules, is_win
from engine.errors import RulesetError
from engine.match import RotationPolicy
from engine.notation import Hand
from engine.rulesets.base import (
    STAKE,
    FanEntry,
    MissedWins,
    MultipleWinners,
    OptionSpec,
    Ruleset,
    Score,
    WinContext,
)
from engine.rulesets.contract import Claim, read_tiles, require
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.queries import nobody_pays_dealer_stays
from engine.rulesets.readings import Reading, standard_readings
from engine.rulesets.verdicts import rejected, won
from engine.rulesets.wildcommon import claim_answer
from engine.settlement import Payments, collect
from engine.tiles import DRAGONS, WINDS, is_honor

if TYPE_CHECKING:
    from engine.settle import SettleRequest

THIRTEEN_ORPHANS = ShapeRules(standard=False, seven_pairs=False, thirteen_orphans=True, honors_knitted=False)

FANS: dict[str, tuple[str, int]] = {
    "pinghu": ("平胡", 1),
    "pengpenghu": ("碰碰胡", 3),
    "hunyise": ("混一色", 3),
    "qingyise": ("清一色", 7),
    "ziyise": ("字一色", 7),
    "dragon-pung": ("箭刻", 1),
    "seat-wind-pung": ("门风刻", 1),
    "round-wind-pung": ("圈风刻", 1),
    "zimo": ("自摸", 1),
    "gangshangkaihua": ("杠上开花", 1),
    "qianggang": ("抢杠", 1),
    "haidilaoyue": ("海底捞月", 1),
    "shisanyao": ("十三幺", 0),
}
"""JP-1 (the Cantonese 雞平糊 table; a kong itself scores nothing); 十三幺's value is the option (JP-3)."""
SHAPE_FANS = ("pinghu", "pengpenghu", "hunyise", "qingyise", "ziyise")
"""The shape fans that name the ``kind``, lowest first; a tie goes to the later one (混一色 over 碰碰胡)."""


def shape_fans(reading: Reading, ctx: WinContext) -> list[str]:
    """The fans of one reading of a standard hand (melds and concealed sets together), one id per instance."""
    tiles = [tile for tile, n in enumerate(reading.counts) if n]
    suits = {tile // 9 for tile in tiles if not is_honor(tile)}
    honors = any(is_honor(tile) for tile in tiles)
    fans = []
    if len(reading.chows) == 4:
        fans.append("pinghu")
    if not reading.chows:
        fans.append("pengpenghu")
    if len(suits) == 1:
        fans.append("hunyise" if honors else "qingyise")
    if not suits:
        fans.append("ziyise")
    for tile in reading.triplets:
        if tile in DRAGONS:
            fans.append("dragon-pung")
        if tile == WINDS[ctx.seat_wind]:
            fans.append("seat-wind-pung")
        if tile == WINDS[ctx.round_wind]:
            fans.append("round-wind-pung")
    return fans


def situation_fans(ctx: WinContext) -> list[str]:
    fans = []
    if ctx.self_drawn:
        fans.append("zimo")
        if ctx.after_kong:
            fans.append("gangshangkaihua")
        if ctx.last_tile:
            fans.append("haidilaoyue")
    if ctx.robbing_kong:
        fans.append("qianggang")
    return fans


class JipinghuRuleset(Ruleset):
    id = "jipinghu"
    description = "广东鸡平胡 — Guangdong chicken hand: ×2 per 番, 爆胡 cap 3 番, 十三幺 breaks it, 一炮多响, 漏胡"
    option_specs = (
        OptionSpec("base", 1, None, "底分", types=(int, float), span=STAKE),
        OptionSpec("cap_fan", 3, None, "爆胡: the most 番 a hand counts (JP-2)", types=(int,), span=(1, 20)),
        OptionSpec("special_hand_fan", 6, None, "value of 十三幺 in 番 (JP-3; 6 = ×64)", types=(int,), span=(0, 20)),
        OptionSpec(
            "qq", None, None, 'QQ room coins: {"room_coefficient": N, "fee": A} (§4.1)', types=(dict, type(None))
        ),
    )

    @cached_property
    def shape_rules(self) -> ShapeRules:
        return ShapeRules(standard=True, seven_pairs=False, thirteen_orphans=True, honors_knitted=False)

    @property
    def multiple_winners(self) -> MultipleWinners:
        return MultipleWinners.ALL

    @property
    def rotation(self) -> RotationPolicy:
        """The dealer stays on a win (also among several winners) or a drawn hand, else his 下家 deals [text]."""
        return RotationPolicy()

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        counts = concealed_counts(hand, self.tile_set)
        facts = {"winner": ctx.winner, "discarder": ctx.discarder}
        # A refused declaration states no settlement (payments None) and no kind.
        refusal = {"total": 0, "meets_minimum": True, "extra": {"kind": None, **facts}}
        missed = read_tiles(ctx.extra.get("missed_win_tiles", []), "missed_win_tiles", self.tile_set)
        if not ctx.self_drawn and hand.win_tile in missed:
            return rejected("漏胡: the winner passed this face since his last draw or claim (JP-5)", **refusal)
        if not hand.melds and is_win(counts, THIRTEEN_ORPHANS):
            fan, fans, special, capped = self.options["special_hand_fan"], ["shisanyao"], True, False
        else:
            best = self._best_reading(hand, ctx)
            if best is None:
                return rejected("not a winning shape: 4 sets + pair or 十三幺 (JP-1, JP-3)", **refusal)
            fans = best
            total = sum(FANS[fan][1] for fan in fans)
            fan, special = min(self.options["cap_fan"], total), False
            capped = fan < total
        payments = self._payments(ctx, self.options["base"] * 2**fan)
        kind = (
            "shisanyao"
            if special
            else max(
                (f for f in SHAPE_FANS if f in fans), key=lambda f: (FANS[f][1], SHAPE_FANS.index(f)), default="jihu"
            )
        )
        extra = {
            **facts,
            "kind": kind,
            "capped_fan": fan,
            "kinds": sorted(set(fans)),
            "capped": capped,
            "special": special,
            **self._qq(payments, ctx),
        }
        entries = tuple(
            FanEntry(f, FANS[f][0], f, fan if f == "shisanyao" else FANS[f][1], fans.count(f))
            for f in sorted(set(fans))
        )
        return won(payments[ctx.winner], entries, payments, extra)

    @property
    def missed_wins(self) -> MissedWins:
        """漏胡 (JP-5): the face passed, until the player's next draw or claim."""
        return MissedWins("漏胡")

    def _best_reading(self, hand: Hand, ctx: WinContext) -> list[str] | None:
        """W-2: the reading with the highest capped 番 (then the highest uncapped total)."""
        found = [shape_fans(reading, ctx) + situation_fans(ctx) for reading in standard_readings(hand)]
        if not found:
            return None
        cap = self.options["cap_fan"]

        def value(fans: list[str]) -> tuple[int, int]:
            total = sum(FANS[fan][1] for fan in fans)
            return min(cap, total), total

        return max(found, key=value)

    @staticmethod
    def _payments(ctx: WinContext, amount: float) -> Payments:
        """JP-4 / JP-7: the discarder (the robbed player on 抢杠) pays alone; a self-draw is paid by all three."""
        if ctx.self_drawn:
            return collect(ctx.winner, {seat: amount for seat in range(4) if seat != ctx.winner})
        return collect(ctx.winner, {ctx.discarder: amount})  # type: ignore[dict-item]

    def _qq(self, payments: Payments, ctx: WinContext) -> dict[str, Any]:
        """§4.1 QQ coins: a loser pays X·N, the winner gets X·P·N; the room keeps the fee A from everyone."""
        room = self.options["qq"]
        if room is None:
            return {}
        if not isinstance(room, Mapping) or set(room) != {"room_coefficient", "fee"}:
            raise RulesetError('option "qq": expected {"room_coefficient": N, "fee": A}')
        coefficient, fee = room["room_coefficient"], room["fee"]
        if any(type(value) not in (int, float) for value in (coefficient, fee)):
            raise RulesetError('option "qq": room_coefficient and fee are numbers')
        gross = {seat: amount * coefficient for seat, amount in payments.items()}
        return {
            "qq_coins_gross": {str(seat): gross[seat] for seat in range(4)},
            "qq_coins_net": {str(seat): gross[seat] - fee for seat in range(4)},
        }

    # --- settle queries -------------------------------------------------------------------------------------

    def answer_claim_allowed(self, request: SettleRequest) -> dict[str, Any]:
        """Chi only from the 上家 [text]; pon, kong and hu from anyone."""
        claim = Claim.read(require(request.situation, "claim"), self.tile_set)
        return claim_answer(claim.shape_reason())

    def answer_drawn_settlement(self, request: SettleRequest) -> dict[str, Any]:
        """JP-8: nobody pays; the dealer stays ("和牌 = 流局")."""
        return nobody_pays_dealer_stays(request.situation)

    def answer_multi_win(self, request: SettleRequest) -> dict[str, Any]:
        """JP-9: the discarder pays each winner separately; ``per_winner`` gives each one's ``capped_fan``."""
        answer = super().answer_multi_win(request)
        answer["per_winner"] = {
            seat: {"capped_fan": score.get("capped_fan"), "hu": score["hu"]}
            for seat, score in answer["per_winner"].items()
        }
        return answer
