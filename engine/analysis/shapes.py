"""Winning-shape vocabulary shared by every analysis module: the rule switches, the decomposition record and
the fixed tile patterns of the special shapes (rules-B §3, §6)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from itertools import permutations

from engine.errors import TileCountError
from engine.tiles import DRAGONS, ORPHANS, WINDS, Tile

HONORS: tuple[Tile, ...] = WINDS + DRAGONS
THIRTEEN_ORPHANS: tuple[Tile, ...] = tuple(sorted(ORPHANS))

KNITTED_STARTS: tuple[tuple[int, ...], ...] = tuple(permutations(range(3)))
"""The series (rank index mod 3) each suit gives to each knitted straight, in the order of KNITTED_PATTERNS."""
KNITTED_PATTERNS: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(sorted(9 * suit + rank for suit in range(3) for rank in range(starts[suit], 9, 3)))
    for starts in KNITTED_STARTS
)
"""The six knitted straights (组合龙): 147 / 258 / 369 spread over the three suits, one series per suit."""

GROUPS: tuple[tuple[int, int, bool], ...] = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))
"""(first tile, size, chows allowed) of the three suits and the honors: sets never cross a group."""


@dataclass(frozen=True)
class ShapeRules:
    """Which winning shapes a ruleset allows."""

    standard: bool = True
    """4 sets + pair (with k exposed melds: 4-k concealed sets + pair)."""
    seven_pairs: bool = True
    """Only with 14 concealed tiles."""
    seven_pairs_quad_as_two_pairs: bool = True
    """Four identical tiles count as two pairs (rules-B §3.2)."""
    thirteen_orphans: bool = True
    honors_knitted: bool = True
    """全不靠: any 14 distinct tiles of one knitted pattern's 9 tiles + the 7 honors (七星不靠 included)."""
    knitted_straight: bool = False
    """MCR 组合龙: a knitted pattern + 1 set + pair (14 concealed tiles), or + pair (11 tiles and 1 exposed meld)."""
    pair_ranks: frozenset[int] | None = None
    """Ranks (1-9) the standard-shape pair must have, a suited tile; e.g. frozenset({2, 5, 8}) for 2-5-8 pairs.
    The pair beside a knitted straight follows it too; seven pairs and thirteen orphans do not."""

    def pair_allowed(self, tile: Tile) -> bool:
        """Whether ``tile`` may be the pair of a standard shape."""
        return self.pair_ranks is None or (tile < 27 and tile % 9 + 1 in self.pair_ranks)

    @cached_property
    def native_code(self) -> int:
        """These switches packed into one int for the compiled core (``engine/_native.c``, its enum of them); kept
        on the instance, as a batch asks for it once per hand."""
        switches = (
            self.standard,
            self.seven_pairs,
            self.seven_pairs_quad_as_two_pairs,
            self.thirteen_orphans,
            self.honors_knitted,
            self.knitted_straight,
            self.pair_ranks is None,
        )
        ranks = self.pair_ranks or ()
        return sum(1 << bit for bit, on in enumerate(switches) if on) + sum(1 << (6 + r) for r in ranks if 1 <= r <= 9)


DEFAULT_SHAPES = ShapeRules()
MCR_SHAPES = ShapeRules(knitted_straight=True)

Set = tuple[str, int]
"""A concealed set: ("chow", lowest tile) or ("pung", tile)."""


@dataclass(frozen=True)
class Decomposition:
    """One reading of a winning hand, for the scorers."""

    form: str
    """"standard", "seven_pairs", "thirteen_orphans", "honors_knitted" or "knitted_straight"."""
    sets: tuple[Set, ...]
    """Concealed sets, sorted."""
    pair: int | None
    """The pair tile (standard, knitted_straight, thirteen_orphans' doubled tile); None otherwise."""
    pairs: tuple[int, ...] = ()
    """seven_pairs: the 7 pair tiles sorted (a quad appears twice)."""
    knitted: tuple[int, ...] = ()
    """knitted_straight: the 9 knitted tiles; honors_knitted: the 14 tiles."""


def melds_implied(tile_count: int) -> int:
    """Exposed melds implied by the number of concealed tiles (14-3k or 13-3k); raises on any other count."""
    if tile_count % 3 == 0 or not 1 <= tile_count <= 14:
        raise TileCountError(f"a concealed hand holds 14-3k or 13-3k tiles (k = 0-4 exposed melds), not {tile_count}")
    return (14 - tile_count) // 3


@cache
def pair_flags(pair_ranks: frozenset[int] | None) -> tuple[tuple[bool, ...], ...]:
    """Per group (three suits, honors), whether a standard pair of each rank is allowed."""
    rules = ShapeRules(pair_ranks=pair_ranks)
    return tuple(tuple(rules.pair_allowed(base + r) for r in range(size)) for base, size, _ in GROUPS)
