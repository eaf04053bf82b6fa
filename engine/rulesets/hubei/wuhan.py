"""``wuhan``: Wuhan 红中赖子杠 (wild.md §3) = the Hubei rules (WH-1) with these overrides: 红中 is never the
赖子 and cannot be played (WH-2, WH-3), 屁和 needs an opened hand and has no 门前清 exemption (WH-4), 开口翻 or
口口翻 (WH-5), and the kong weights of WH-6 (exposed or added 1, concealed 2, each 红中杠 1, each 赖子杠 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine.notation import Hand
from engine.rulesets.base import (
    STAKE,
    STANDARD_HONOR_CYCLE,
    IndicatorPosition,
    OptionSpec,
    WildcardRule,
    WildcardSource,
    WinContext,
)
from engine.rulesets.contract import seat_map
from engine.rulesets.hubei.hands import HubeiHand
from engine.rulesets.hubei.ruleset import HubeiRuleset, feeder_fact
from engine.rulesets.wildcommon import MeldFacts, agreeing, meld_facts
from engine.tiles import RED, Tile

if TYPE_CHECKING:
    from engine.referee import Referee

WUHAN_HONOR_CYCLE: tuple[Tile, ...] = tuple(face for face in STANDARD_HONOR_CYCLE if face != RED)
"""WH-2: 东南西北发白 → 东; a flipped 中 gives 发 (``WildcardRule.step`` places a skipped face before its next)."""
OPEN_MODES = ("kaikou", "koukou")


class WuhanRuleset(HubeiRuleset):
    id = "wuhan"
    description = "武汉红中赖子杠 — Wuhan: Hubei 赖子 with 红中杠, 开口翻 / 口口翻, 屁和 only when opened"
    option_specs = (
        OptionSpec("base", 1, None, "底分", types=(int, float), span=STAKE),
        OptionSpec(
            "open_mode", "kaikou", OPEN_MODES, "WH-5: 开口翻 (one doubling if opened) or 口口翻 (one per open meld)"
        ),
    )
    concealed_exemption = False

    @cached_property
    def wildcards(self) -> WildcardRule:
        return WildcardRule(
            WildcardSource.SUCCESSOR, indicator=IndicatorPosition.NEXT_DRAW, honor_cycle=WUHAN_HONOR_CYCLE
        )

    def barred(self, hand: Hand, ctx: WinContext) -> str | None:
        if RED in hand.all_tiles():
            return "a hand holding 红中 cannot win: 红中 is only discarded, as 红中杠 (WH-3)"
        return None

    def small_win_allowed(self, melds: MeldFacts) -> bool:
        return melds.open

    def small_reason(self, read: HubeiHand, wilds: int) -> str:
        if read.pihu_shape and wilds <= 1:
            return "屁和 needs an opened hand (开口: a chi, pon or exposed kong, WH-4)"
        return super().small_reason(read, wilds)

    def flags(self, menqianqing: bool) -> dict[str, Any]:
        return {}

    def _open_doublings(self, open_melds: int) -> int:
        return open_melds if self.options["open_mode"] == "koukou" else int(open_melds > 0)

    def seat_items(self, extra: Mapping[str, Any]) -> dict[int, int]:
        """WH-5 and WH-6: the open doubling, then exposed/added kongs 1, concealed kongs 2, 红中杠 1, 赖子杠 2."""
        opened = seat_map(extra, "open_meld_count", int, 0)
        exposed = seat_map(extra, "exposed_kong_count", int, 0)
        concealed = seat_map(extra, "concealed_kong_count", int, 0)
        red = seat_map(extra, "discarded_red_dragons", int, 0)
        wild = seat_map(extra, "discarded_wildcards", int, 0)
        return {
            seat: self._open_doublings(opened[seat]) + exposed[seat] + 2 * concealed[seat] + red[seat] + 2 * wild[seat]
            for seat in range(4)
        }

    def winner_items(self, extra: Mapping[str, Any], winner: int, melds: MeldFacts) -> int:
        agreeing(extra, "open_meld_count", winner, melds.open_melds)
        agreeing(extra, "exposed_kong_count", winner, melds.exposed_kongs + melds.added_kongs)
        agreeing(extra, "concealed_kong_count", winner, melds.concealed_kongs)
        red = seat_map(extra, "discarded_red_dragons", int, 0)[winner]
        wild = seat_map(extra, "discarded_wildcards", int, 0)[winner]
        kongs = melds.exposed_kongs + melds.added_kongs + 2 * melds.concealed_kongs
        return self._open_doublings(melds.open_melds) + kongs + red + 2 * wild

    def claim_reason(
        self, faces: frozenset[Tile], kind: str, tile: Tile, using: tuple[Tile, ...], held: int
    ) -> str | None:
        if tile == RED:
            return "红中 is never claimed nor konged: each one is discarded as a 红中杠 (WH-3)"
        return super().claim_reason(faces, kind, tile, using, held)

    def win_facts(self, referee: Referee, seat: int) -> dict[str, Any]:
        faces = referee.wildcard_faces()
        melds = {str(s): meld_facts(state.melds) for s, state in enumerate(referee.seats)}
        return {
            "discarded_wildcards": {str(s): sum(t in faces for t in st.discards) for s, st in enumerate(referee.seats)},
            "discarded_red_dragons": {str(s): st.discards.count(RED) for s, st in enumerate(referee.seats)},
            "open_meld_count": {s: facts.open_melds for s, facts in melds.items()},
            "exposed_kong_count": {s: facts.exposed_kongs + facts.added_kongs for s, facts in melds.items()},
            "concealed_kong_count": {s: facts.concealed_kongs for s, facts in melds.items()},
            "declared": True,
        } | feeder_fact(referee, seat)
