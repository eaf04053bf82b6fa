"""``hangzhou``: 杭州麻将, minimal reading (fan.md §6, S002:76). 136 tiles, the standard shape, a 财神 wildcard
named by the situation (HZ-1: every copy is wild and may stand for itself), self-drawn wins only (HZ-2).

Multipliers: 爆头 ×2 — the 13 standing tiles are complete sets plus one lone 财神, so any drawn tile pairs with
it (HZ-3); 财飘 ×4 in place of 爆头 when the winner discarded a 财神 on his previous turn while already in that
position (HZ-4); 杠开 ×2 on a kong replacement (HZ-5), multiplying with either. ``total`` is their product (1 for
a plain win); no settlement is stated (``payments`` null).
"""

from __future__ import annotations

from engine.analysis import ShapeRules, is_win_wild
from engine.notation import Hand
from engine.rulesets.base import FanEntry, Ruleset, Score, WinContext
from engine.rulesets.contract import boolean, tile_kinds
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.readings import STANDARD_ONLY
from engine.rulesets.verdicts import rejected, won
from engine.rulesets.wildsets import sets_only
from engine.tiles import NUM_KINDS, Tile

MULTIPLIERS = {"爆头": 2, "财飘": 4, "杠开": 2}
NAMES_EN = {"爆头": "Lone wildcard pair (baotou)", "财飘": "Wildcard float (caipiao)", "杠开": "Win after a kong"}


def split_wild(tiles: list[Tile], wild: frozenset[Tile]) -> tuple[list[int], int]:
    """The natural count vector and the number of wild tiles."""
    counts = [0] * NUM_KINDS
    wilds = 0
    for tile in tiles:
        if tile in wild:
            wilds += 1
        else:
            counts[tile] += 1
    return counts, wilds


def is_baotou(standing: list[Tile], wild: frozenset[Tile]) -> bool:
    """HZ-3: the standing tiles without one 财神 split into complete sets (the 财神 awaits any tile)."""
    counts, wilds = split_wild(standing, wild)
    return wilds >= 1 and sets_only(counts, wilds - 1)


def is_win_with(tiles: list[Tile], wild: frozenset[Tile]) -> bool:
    counts, wilds = split_wild(tiles, wild)
    return is_win_wild(counts, wilds, STANDARD_ONLY)


class HangzhouRuleset(Ruleset):
    id = "hangzhou"
    description = "杭州麻将 (S002) — Hangzhou: 财神 wildcard, self-drawn wins only, 爆头 ×2, 财飘 ×4, 杠开 ×2"

    @property
    def shape_rules(self) -> ShapeRules:
        return STANDARD_ONLY

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        concealed_counts(hand, self.tile_set)
        wild = tile_kinds(ctx.extra, "wildcards")
        standing = list(hand.standing)
        if not ctx.self_drawn:
            return rejected("Hangzhou wins are self-drawn only (HZ-2)")
        if not is_win_with([*standing, hand.win_tile], wild):  # type: ignore[list-item]
            return rejected("not 4 sets + pair, 财神 counted as any tile (HZ-1)")
        names = []
        if is_baotou(standing, wild):
            names.append("财飘" if boolean(ctx.extra, "wildcard_discarded_last_turn") else "爆头")
        if ctx.after_kong:
            names.append("杠开")
        total = 1
        for name in names:
            total *= MULTIPLIERS[name]
        return won(total, (FanEntry(name, name, NAMES_EN[name], MULTIPLIERS[name]) for name in names))
