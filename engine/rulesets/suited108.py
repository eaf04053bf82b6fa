"""What the three 108-tile rulesets (``sichuan``, ``guizhou``, ``changsha``; 108.md §0) read from a hand and a
situation: the readings of a complete hand with its melds, the suits and four-of-a-kinds of its 14 tiles, the
kong just made or robbed (``engine.rulesets.contract.Kong``), and how several wins on one discard are settled
together.

Readings: 4 sets + pair and seven pairs (a four-of-a-kind counts as two pairs, S000:145; a declared kong is a set,
so any meld rules seven pairs out). 十三幺 and 全不靠 need honors and cannot occur with 108 tiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.analysis import ShapeRules, decompositions
from engine.errors import RulesetError
from engine.notation import Hand, Meld, MeldKind
from engine.rulesets.base import KongType, MultipleWinners, Ruleset, Score
from engine.rulesets.contract import Kong, read_kongs
from engine.rulesets.handcheck import concealed_counts
from engine.settlement import Payments, combine
from engine.tiles import NUM_KINDS, SUITS, Tile, rank_of, suit_of, to_counts
from engine.tilesets import TILE_SETS, TileSet

if TYPE_CHECKING:
    from engine.rulesets.base import WinContext

TILE_SET: TileSet = TILE_SETS["108"]
SUITED_SUITS = SUITS[:3]
"""``m``, ``p``, ``s``: the only suits of the 108-tile set."""

SHAPES = ShapeRules(
    standard=True, seven_pairs=True, seven_pairs_quad_as_two_pairs=True, thirteen_orphans=False, honors_knitted=False
)
"""4 sets + pair and seven pairs (108.md §0)."""

MeldSet = tuple[str, Tile]
"""A set of a reading: ("chow" | "pung" | "kong", lowest tile)."""


@dataclass(frozen=True)
class Reading:
    """One way to read a complete hand. ``sets`` holds the declared melds and the concealed sets together."""

    form: str
    """``standard`` (4 sets + pair) or ``seven_pairs``."""
    sets: tuple[MeldSet, ...] = ()
    pair: Tile | None = None
    pairs: tuple[Tile, ...] = ()

    @property
    def all_pungs(self) -> bool:
        return self.form == "standard" and all(kind != "chow" for kind, _ in self.sets)

    def groups(self) -> list[tuple[Tile, ...]]:
        """Every set and the pair as its tiles (standard readings)."""
        tiles = [(tile, tile + 1, tile + 2) if kind == "chow" else (tile,) for kind, tile in self.sets]
        return [*tiles, (self.pair,)] if self.pair is not None else tiles


def _meld_set(meld: Meld) -> MeldSet:
    return {MeldKind.CHOW: "chow", MeldKind.PUNG: "pung", MeldKind.KONG: "kong"}[meld.kind], meld.tile


def readings(hand: Hand, shapes: ShapeRules = SHAPES) -> list[Reading]:
    """Every reading of the declared hand (none: not a winning shape); ``TileCountError`` for a hand that cannot
    exist in the 108-tile set."""
    counts = concealed_counts(hand, TILE_SET)
    melded = tuple(_meld_set(meld) for meld in hand.melds)
    found = []
    for split in decompositions(counts, shapes):
        if split.form == "standard":
            found.append(Reading("standard", melded + split.sets, split.pair))
        elif split.form == "seven_pairs":
            found.append(Reading("seven_pairs", pairs=split.pairs))
    return found


def tile_counts(melds: Iterable[Meld], concealed: Iterable[Tile]) -> list[int]:
    """Counts of every tile a player holds: concealed tiles and the tiles of his melds (a kong counts four)."""
    return to_counts([*(tile for meld in melds for tile in meld.tiles), *concealed])


def hand_counts(hand: Hand) -> list[int]:
    """The 14 tiles of a declared win, melds and winning tile included."""
    return to_counts(hand.all_tiles())


def suits_held(counts: Sequence[int]) -> set[str]:
    return {suit_of(tile) for tile in range(NUM_KINDS) if counts[tile]}


def four_of_a_kinds(counts: Sequence[int]) -> int:
    """Kinds held four times (Sichuan 根, Changsha 豪华七小对)."""
    return sum(1 for n in counts if n == 4)


def all_ranks_in(counts: Sequence[int], ranks: frozenset[int]) -> bool:
    return all(rank_of(tile) in ranks for tile in range(NUM_KINDS) if counts[tile])


RANKS_258 = frozenset({2, 5, 8})


def just_made_kong(ctx: WinContext) -> Kong | None:
    """The discarder's kong made right before the winning discard (杠上炮 / 热炮), when the situation says so."""
    if ctx.self_drawn or ctx.robbing_kong or not ctx.extra.get("discarder_after_kong", False):
        return None
    mine = [kong for kong in read_kongs(ctx.extra, TILE_SET) if kong.seat == ctx.discarder and kong.just_made]
    if not mine:
        raise RulesetError("situation field 'kongs': 'discarder_after_kong' needs the discarder's kong with just_made")
    return mine[-1]


def robbed_kong_type(ctx: WinContext) -> KongType | None:
    """The type of the kong declaration a robbing win is made on (``situation.kong``; an added kong when the
    situation does not describe it); ``None`` when no kong is robbed."""
    if not ctx.robbing_kong:
        return None
    if "kong" not in ctx.extra:
        return KongType.ADDED
    kong = Kong.read(ctx.extra["kong"], "kong", TILE_SET)
    if kong.seat != ctx.discarder:
        raise RulesetError("situation field 'kong': a robbed kong is the discarder's (the konger)")
    return kong.type


class Suited108Ruleset(Ruleset):
    """What the three 108-tile rulesets share: the tile set, the winning shapes (§0) and several winners on one
    discard (SC-12, GZ-9, CS-2)."""

    @property
    def tile_set(self) -> TileSet:
        return TILE_SET

    @property
    def shape_rules(self) -> ShapeRules:
        return SHAPES

    @property
    def multiple_winners(self) -> MultipleWinners:
        return MultipleWinners.ALL


def turn_order(scores: Sequence[Score]) -> list[Score]:
    """The scores of one discard's winners in turn order after the discarder (claim order, 108.md SC-11 / GZ-9)."""

    def distance(score: Score) -> int:
        discarder = score.extra.get("discarder")
        return (score.extra["winner"] - (discarder if discarder is not None else score.extra["winner"])) % 4

    return sorted(scores, key=distance)


def settle_together(scores: Sequence[Score], own: Sequence[str], once: Sequence[str]) -> Payments:
    """Several wins on one discard: each winner's ``own`` breakdown parts, plus the ``once`` parts (a transfer, the
    whole 豆 settlement) taken from the first winner in turn order after the discarder only."""
    ordered = turn_order(scores)
    parts = [score.extra["breakdown"][name] for score in ordered for name in own]
    if ordered:
        parts += [ordered[0].extra["breakdown"][name] for name in once]
    return combine(*({int(seat): amount for seat, amount in part.items()} for part in parts))
