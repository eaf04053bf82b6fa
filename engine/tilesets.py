"""Tile sets (牌具): which tiles a table plays with and how many copies of each (rules-B §1)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from engine.errors import RulesetError, TileCountError
from engine.tiles import DRAGONS, FLOWERS, NUM_KINDS, RED, WINDS, Tile, tile_code

SUITS = 3
"""Suited ids come first, three suits of ``ranks`` consecutive ids each (万 筒 条)."""


@dataclass(frozen=True)
class TileSet:
    """A multiset of tiles; ``copies[t]`` is how many of tile ``t`` the set holds (0 = not in the set).

    ``ranks`` is how many ranks a suit has: the engine's ids have nine (``engine.tiles``), 十万's ten (its own ids,
    ``engine.rulesets.shiwan.tiles``). Everything that asks what a sequence is (the referee's chow check, the
    bots) asks the tile set, so one referee serves both: ids ``0 .. 3 × ranks − 1`` are the suits, a suit being
    ``ranks`` consecutive ids, and a chow is three consecutive ids of one suit.

    ``marked`` are the kinds of which one copy is marked (riichi's red fives, 赤ドラ): the first copy of each in
    ``tiles()``. Only the marked copy's identity matters to the rules, so the wall and the seats keep it beside
    the faces (``WallState.marked``, ``SeatState.marked``).
    """

    name: str
    description: str
    copies: tuple[int, ...]
    ranks: int = 9
    marked: frozenset[Tile] = frozenset()

    @property
    def size(self) -> int:
        return sum(self.copies)

    @cached_property
    def flower_count(self) -> int:
        """Flowers in the set (asked once per scored hand, so computed once)."""
        return sum(self.copies[tile] for tile in FLOWERS)

    @cached_property
    def four_of_each_kind(self) -> bool:
        """Four copies of each of the 34 playing kinds (136, 144 tiles): a hand of those kinds alone is then
        checked by its count vector (``engine.rulesets.handcheck``)."""
        return len(self.copies) >= NUM_KINDS and all(self.copies[kind] == 4 for kind in range(NUM_KINDS))

    def tiles(self) -> list[Tile]:
        """Every physical tile, sorted by id: the order a fresh set is unpacked in before shuffling."""
        return [tile for tile, n in enumerate(self.copies) for _ in range(n)]

    def kinds(self) -> list[Tile]:
        return [tile for tile, n in enumerate(self.copies) if n]

    @cached_property
    def marked_ids(self) -> frozenset[int]:
        """The marked copies as indices into ``tiles()``: the first copy of each marked kind."""
        return frozenset(sum(self.copies[:kind]) for kind in self.marked)

    def is_suited(self, tile: Tile) -> bool:
        return 0 <= tile < SUITS * self.ranks

    def same_suit(self, tile: Tile, other: Tile) -> bool:
        return self.is_suited(tile) and self.is_suited(other) and tile // self.ranks == other // self.ranks

    def chow_start(self, low: Tile) -> bool:
        """Whether a chow ``low, low + 1, low + 2`` exists: a suited tile at most ``ranks − 2`` (chows do not wrap)."""
        return self.is_suited(low) and low % self.ranks <= self.ranks - 3

    def check(self, tiles: list[Tile], where: str = "hand") -> None:
        """Raise ``TileCountError`` naming the tile when ``tiles`` hold one outside the set or too many copies."""
        seen: dict[Tile, int] = {}
        for tile in tiles:
            seen[tile] = seen.get(tile, 0) + 1
        for tile, n in seen.items():
            allowed = self.copies[tile]
            if allowed == 0:
                raise TileCountError(f"{where}: tile {tile_code(tile)} is not in the {self.name}-tile set")
            if n > allowed:
                raise TileCountError(
                    f"{where}: {n} copies of {tile_code(tile)}, the {self.name}-tile set has {allowed}"
                )


def _make(name: str, description: str, per_kind: dict[Tile, int]) -> TileSet:
    copies = [0] * (NUM_KINDS + len(FLOWERS))
    for tile, n in per_kind.items():
        copies[tile] = n
    return TileSet(name, description, tuple(copies))


_SUITED = {tile: 4 for tile in range(27)}
_HONORS = {tile: 4 for tile in WINDS + DRAGONS}
_FLOWER_SET = {tile: 1 for tile in FLOWERS}

TILE_SETS: dict[str, TileSet] = {
    tile_set.name: tile_set
    for tile_set in (
        _make("136", "三门数牌 + 字牌 (素麻将), no flowers", _SUITED | _HONORS),
        _make("144", "136 + eight flowers 春夏秋冬梅兰菊竹 (全花麻将)", _SUITED | _HONORS | _FLOWER_SET),
        _make("108", "suited tiles only (万 筒 条), as in Sichuan", _SUITED),
        _make("112", "108 + four 红中, as in Harbin and Hubei red-dragon games", _SUITED | {RED: 4}),
    )
}


def tile_set(name: str | int) -> TileSet:
    """Look a tile set up by its name ("136", 144, ...)."""
    try:
        return TILE_SETS[str(name)]
    except KeyError:
        raise RulesetError(f"unknown tile set {name!r}; known: {', '.join(TILE_SETS)}") from None
