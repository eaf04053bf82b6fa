"""The hands of Hubei 赖子 (wild.md §2.4): 屁和 with a 2-5-8 pair, the 大和 kinds and 豪华七对, read with the
hand's wildcards standing for any face (W-1) and every reading considered (W-2).

No reading is enumerated: each kind is a question about the natural tiles and the number of wildcards.
* a one-colour kind (清一色 / 将一色 / 风一色) needs every natural tile of that colour: a wildcard completing a
  set of natural tiles takes their colour, and a set or pair of wildcards alone may take any face of it;
* the shapes (4 sets + pair, with a 2-5-8 pair or all pungs; seven pairs) are the fast wildcard checks of
  ``engine.analysis`` and ``engine.rulesets.wildsets``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.analysis import ShapeRules, is_win_wild
from engine.notation import Hand
from engine.rulesets.base import WinContext
from engine.rulesets.wildcommon import SEVEN_PAIRS, STANDARD, MeldFacts, WildSplit, meld_tiles
from engine.rulesets.wildsets import standard_with_wilds
from engine.tiles import NUM_KINDS, Tile, is_honor, rank_of

PAIR_258 = ShapeRules(
    standard=True, seven_pairs=False, thirteen_orphans=False, honors_knitted=False, pair_ranks=frozenset({2, 5, 8})
)
"""4 sets + a suited 2, 5 or 8 as the pair (S002:21, S002:34)."""

ONE_COLOUR = ("qingyise", "jiangyise", "fengyise")
"""The one-colour 大和s that carry 包三家 (清一色喂三铺, §2.6)."""
HAOHUA = "haohua-qiduizi"


@dataclass(frozen=True)
class HubeiHand:
    """What a declared hand is under every wildcard reading: ``pihu_shape`` = 4 sets + a 2-5-8 pair; ``kinds``
    = the 大和 ids it qualifies for (豪华七对 as ``haohua-qiduizi``), sorted."""

    pihu_shape: bool
    kinds: tuple[str, ...]


def read_hand(hand: Hand, split: WildSplit, melds: MeldFacts, ctx: WinContext) -> HubeiHand:
    natural = split.natural
    wilds = split.wilds
    tiles = _natural_tiles(natural) + meld_tiles(hand.melds)
    standard = is_win_wild(natural, wilds, STANDARD)
    seven_pairs = not hand.melds and is_win_wild(natural, wilds, SEVEN_PAIRS)
    pihu_shape = is_win_wild(natural, wilds, PAIR_258)
    kinds = []
    suits = {tile // 9 for tile in tiles}
    if len(suits) == 1 and not any(is_honor(tile) for tile in tiles) and (standard or seven_pairs):
        kinds.append("qingyise")
    if all(not is_honor(tile) and rank_of(tile) in (2, 5, 8) for tile in tiles):
        kinds.append("jiangyise")
    if all(is_honor(tile) for tile in tiles):
        kinds.append("fengyise")
    if melds.chows == 0 and standard_with_wilds(natural, wilds, pungs_only=True):
        kinds.append("pengpenghe")
    if seven_pairs:
        kinds.append("qiduizi")
        if four_alike(natural, wilds):
            kinds.append(HAOHUA)
    if standard and ctx.self_drawn and ctx.after_kong:
        kinds.append("gangshangkaihua")
    if standard and ctx.self_drawn and ctx.last_tile:
        kinds.append("haidilaoyue")
    if len(hand.melds) == 4 and melds.concealed_kongs == 0 and not ctx.self_drawn and pihu_shape:
        kinds.append("quanqiuren")
    return HubeiHand(pihu_shape, tuple(sorted(kinds)))


def hand_value(kinds: Sequence[str]) -> int:
    """M (HB-6): 10 for 豪华, else 5 for any 大和, else 1; kinds do not stack."""
    if HAOHUA in kinds:
        return 10
    return 5 if kinds else 1


def _natural_tiles(natural: Sequence[int]) -> list[Tile]:
    return [tile for tile in range(NUM_KINDS) for _ in range(natural[tile])]


def four_alike(natural: Sequence[int], wilds: int) -> bool:
    """Whether a seven-pairs reading can hold four identical tiles: a natural three or four (a wildcard makes
    the fourth), or two wildcards to spare after every odd face is paired, doubling a pair."""
    odd = sum(n % 2 for n in natural)
    return max(natural) >= 3 or wilds - odd >= 2
