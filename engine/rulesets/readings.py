"""Readings of a finished standard hand (4 sets + pair) as the fan tables of fan.md see it: the declared melds
and one decomposition of the concealed tiles together, with every tile of the final hand counted.

Quanjiao, Nanchang and the 111-chip contest score a hand from its sets (pungs of winds, chows of one suit, ...),
and G-2 takes the best-scoring reading; this module lists the readings so that each scorer can pick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.analysis import Decomposition, ShapeRules, decompositions
from engine.notation import Hand, Meld, MeldKind
from engine.tiles import NUM_KINDS, Tile, is_honor, suit_of

STANDARD_ONLY = ShapeRules(standard=True, seven_pairs=False, thirteen_orphans=False, honors_knitted=False)


@dataclass(frozen=True)
class FinalSet:
    """One set of the final hand: ``kind`` chow/pung/kong, its lowest ``tile``; ``claimed`` = made on another
    player's tile (碰, 吃, 明杠, 加杠); ``declared`` = a meld (a concealed kong is declared but not claimed)."""

    kind: MeldKind
    tile: Tile
    claimed: bool
    declared: bool

    @property
    def is_triplet(self) -> bool:
        """A pung or a kong: a 坎 in Quanjiao's words (QJ-3: a kong counts wherever a 坎 counts)."""
        return self.kind is not MeldKind.CHOW


@dataclass(frozen=True)
class Reading:
    """The sets and the pair of one reading, and the count of every tile kind in the final hand."""

    sets: tuple[FinalSet, ...]
    pair: Tile
    counts: tuple[int, ...]

    @property
    def triplets(self) -> list[Tile]:
        return [s.tile for s in self.sets if s.is_triplet]

    @property
    def chows(self) -> list[Tile]:
        return [s.tile for s in self.sets if s.kind is MeldKind.CHOW]


def meld_set(meld: Meld) -> FinalSet:
    return FinalSet(meld.kind, meld.tile, claimed=not meld.is_concealed_kong, declared=True)


def final_counts(hand: Hand) -> list[int]:
    """How many of each tile kind the final hand holds: melds, standing tiles and the winning tile."""
    counts = [0] * NUM_KINDS
    for tile in hand.all_tiles():
        counts[tile] += 1
    return counts


def concealed_with_win(hand: Hand) -> list[int]:
    """The count vector of the standing tiles plus the winning tile."""
    counts = [0] * NUM_KINDS
    for tile in (*hand.standing, hand.win_tile):
        counts[tile] += 1  # type: ignore[index]
    return counts


def reading_of(hand: Hand, split: Decomposition) -> Reading:
    """The hand's melds and one standard decomposition of its concealed tiles as one reading."""
    assert split.pair is not None
    melded = tuple(meld_set(meld) for meld in hand.melds)
    concealed = tuple(
        FinalSet(MeldKind.CHOW if kind == "chow" else MeldKind.PUNG, tile, claimed=False, declared=False)
        for kind, tile in split.sets
    )
    return Reading(melded + concealed, split.pair, tuple(final_counts(hand)))


def standard_readings(hand: Hand) -> list[Reading]:
    """Every reading of the hand as 4 sets + pair (empty when it is not one)."""
    return [reading_of(hand, split) for split in decompositions(concealed_with_win(hand), STANDARD_ONLY)]


def suits_present(tiles: Sequence[Tile]) -> set[str]:
    """The number suits (m/p/s) among ``tiles``."""
    return {suit_of(tile) for tile in tiles if not is_honor(tile)}


def tiles_of(counts: Sequence[int]) -> list[Tile]:
    return [tile for tile, n in enumerate(counts) if n]
