"""``nanchang``: 南昌算子 (fan.md §3, S002:62-63). The source is only the count table; the hand kinds are the
common Jiangxi readings (NC-1), 精 wildcards are named by the situation (NC-2), and 德国 is a win with no 精
standing for another tile (NC-3).

Every printed amount is M · (2 if the payer is the discarder or pays a self-draw) · (2 if the dealer wins or
pays) + (5 on a 德国 row when the payer is the discarder or pays a self-draw), with M per row (NC-5); the
formula also gives the row the source leaves out (the dealer winning on a 闲's discard). All three others pay on
every win; the highest-paying row counts (NC-4). Dealer rotation: basic ``traditional`` (NC-6).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from engine.analysis import ShapeRules, is_win_wild
from engine.notation import Hand, MeldKind
from engine.rulesets.base import FanEntry, Ruleset, Score, WinContext
from engine.rulesets.contract import tile_kinds
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.verdicts import rejected, won
from engine.rulesets.wildsets import standard_with_wilds
from engine.settlement import Amount, Payments, collect, no_payments
from engine.tiles import NUM_KINDS, suit_of


@dataclass(frozen=True)
class Row:
    """One row of the count table: its name, the multiplier M of NC-5 and whether it carries the 德国 +5."""

    name_zh: str
    multiplier: int
    deguo: bool = False

    def amount(self, *, primary: bool, with_dealer: bool) -> int:
        """What one payer pays: ``primary`` = the discarder or a self-draw payer."""
        return self.multiplier * (2 if primary else 1) * (2 if with_dealer else 1) + (
            5 if self.deguo and primary else 0
        )


PINGHU = Row("平胡", 1)
XIAO7 = Row("小7对", 2)
DA7 = Row("大7对", 4)
LAN = Row("烂", 2)
ROWS = (PINGHU, XIAO7, DA7, LAN)
"""The rows without 德国; ``DEGUO_ROW`` gives each one's 德国 row."""
DEGUO_ROW = {
    PINGHU: Row("德国", 2, True),
    XIAO7: Row("德国小7对", 8, True),
    DA7: Row("德国大7对", 8, True),
    LAN: Row("德国13烂", 4, True),
}

SEVEN_PAIRS = ShapeRules(standard=False, seven_pairs=True, thirteen_orphans=False, honors_knitted=False)
STANDARD = ShapeRules(standard=True, seven_pairs=False, thirteen_orphans=False, honors_knitted=False)


def _lan_suit_room(ranks: list[int]) -> int | None:
    """十三烂 in one suit: ``None`` when two held ranks are closer than 3 apart, else the most ranks the suit
    can hold with them (every pair ≥ 3 apart)."""
    ranks = sorted(ranks)
    if any(b - a < 3 for a, b in itertools.pairwise(ranks)):
        return None
    best = 0
    for mask in range(1 << 9):
        chosen = [rank for rank in range(1, 10) if mask >> (rank - 1) & 1]
        if set(ranks) <= set(chosen) and all(b - a >= 3 for a, b in itertools.pairwise(chosen)):
            best = max(best, len(chosen))
    return best


def is_lan(counts: list[int], wilds: int) -> bool:
    """NC-1 烂 (十三烂): 14 different tiles, two number tiles of one suit at least 3 apart, honors free; the
    wildcards fill tiles the hand lacks."""
    if sum(counts) + wilds != 14 or max(counts) > 1:
        return False
    room = sum(1 for tile in range(27, NUM_KINDS) if not counts[tile]) if wilds else 0
    for suit in "mps":
        ranks = [tile % 9 + 1 for tile in range(27) if counts[tile] and suit_of(tile) == suit]
        suit_room = _lan_suit_room(ranks)
        if suit_room is None:
            return False
        room += suit_room - len(ranks)
    return room >= wilds


def kinds_won(counts: list[int], wilds: int, melds_all_pungs: bool, melds: int) -> list[Row]:
    """The rows (without 德国) whose hand kind the tiles complete."""
    rows = []
    if is_win_wild(counts, wilds, STANDARD):
        rows.append(PINGHU)
    if melds == 0 and is_win_wild(counts, wilds, SEVEN_PAIRS):
        rows.append(XIAO7)
    if melds_all_pungs and standard_with_wilds(counts, wilds, pungs_only=True):
        rows.append(DA7)
    if melds == 0 and is_lan(counts, wilds):
        rows.append(LAN)
    return rows


def row_payments(row: Row, ctx: WinContext) -> Payments:
    amounts: dict[int, Amount] = {
        payer: row.amount(
            primary=ctx.self_drawn or payer == ctx.discarder, with_dealer=ctx.dealer in (ctx.winner, payer)
        )
        for payer in range(4)
        if payer != ctx.winner
    }
    return collect(ctx.winner, amounts)


class NanchangRuleset(Ruleset):
    id = "nanchang"
    description = "南昌算子 (S002) — Nanchang: count table 平胡/德国/小7对/大7对/烂, 精 wildcards"

    @property
    def shape_rules(self) -> ShapeRules:
        """The natural shapes (a hand with 精 is judged by ``evaluate``); 十三烂 has no ``ShapeRules`` switch."""
        return ShapeRules(standard=True, seven_pairs=True, thirteen_orphans=False, honors_knitted=False)

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        counts = concealed_counts(hand, self.tile_set)[:NUM_KINDS]
        jing = tile_kinds(ctx.extra, "wildcards")
        natural = [0 if tile in jing else n for tile, n in enumerate(counts)]
        wilds = sum(counts) - sum(natural)
        all_pungs = all(meld.kind is not MeldKind.CHOW for meld in hand.melds)
        melds = len(hand.melds)
        rows = [DEGUO_ROW[row] for row in kinds_won(counts, 0, all_pungs, melds)]
        rows += kinds_won(natural, wilds, all_pungs, melds) if wilds else []
        if not rows:
            return rejected("not 平胡, 小7对, 大7对 or 烂 (with the 精 as wildcards)", total=0, payments=no_payments())
        row = max(rows, key=lambda candidate: row_payments(candidate, ctx)[ctx.winner])
        payments = row_payments(row, ctx)
        total = payments[ctx.winner]
        return won(total, (FanEntry(row.name_zh, row.name_zh, row.name_zh, None),), payments)
