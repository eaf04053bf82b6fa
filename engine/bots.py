"""Simple players for simulation and tests: they see their own hand (full information) and play plainly.

A bot wins whenever it can, replaces flowers, makes every kong it can, claims pungs and chows now and then
(seeded), and discards the tile that helps its hand least. Where a void suit is declared (定缺) it declares the
suit it holds least, discards that suit first and never claims or kongs it. It is a workload for the referee,
not an opponent. Suits and sequences are the tile set's (``TileSet.ranks``: 十万's ten ranks too).
"""

from __future__ import annotations

import random

from engine.actions import Action, ActionKind
from engine.notation import MeldKind
from engine.referee import Phase, Referee
from engine.tiles import NUM_KINDS, SUITS, Tile, is_flower, suit_of
from engine.tilesets import TileSet

CLAIM_PUNG_CHANCE = 0.6
CLAIM_CHI_CHANCE = 0.3


class SimpleBot:
    """One seat's decisions. The random source is passed in, so a seeded simulation is reproducible."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def declare(self, referee: Referee) -> Action:
        """定缺: the suit it holds fewest tiles of (ties broken by the seeded rng), named by its 1."""
        known = referee.seats[self.seat].known
        held = {suit: sum(known[9 * index : 9 * index + 9]) for index, suit in enumerate(SUITS[:3])}
        fewest = min(held.values())
        suit = self.rng.choice([suit for suit, count in held.items() if count == fewest])
        return Action(ActionKind.DECLARE_VOID, self.seat, 9 * SUITS.index(suit))

    def act(self, referee: Referee) -> Action:
        """The seat's move in its turn (phase ``act``)."""
        seat = referee.seats[self.seat]
        known = seat.known
        flower = next((tile for tile in range(NUM_KINDS, len(known)) if known[tile]), None)
        if flower is not None:
            return Action(ActionKind.FLOWER, self.seat, flower)
        if referee.may_win_by_draw and self._can_win(referee, None):
            return Action(ActionKind.HU, self.seat)
        void = referee.void_suits.get(self.seat)
        if not referee.wall.exhausted and referee.ruleset.allows_kong:
            kongs = [Action(ActionKind.CONCEALED_KONG, self.seat, t) for t in range(NUM_KINDS) if known[t] == 4]
            kongs = [kong for kong in kongs if suit_of(kong.tile) != void]  # type: ignore[arg-type]
            kongs += [
                Action(ActionKind.ADDED_KONG, self.seat, meld.tile)
                for meld in seat.melds
                if meld.kind is MeldKind.PUNG and known[meld.tile]
            ]
            kong = next((kong for kong in kongs if referee.is_legal(kong)), None)
            if kong is not None:
                return kong
        keep = referee.wildcard_faces()
        if void is not None and any(known[tile] for tile in range(NUM_KINDS) if suit_of(tile) == void):
            return Action(ActionKind.DISCARD, self.seat, self._least_useful(referee, void, keep))
        return Action(ActionKind.DISCARD, self.seat, self._least_useful(referee, keep=keep))

    def answer(self, referee: Referee) -> Action:
        """The seat's answer to the tile on offer (phases ``claims`` and ``rob``)."""
        tile = referee.offer
        assert tile is not None
        if self._can_win(referee, tile):
            return Action(ActionKind.HU, self.seat)
        if referee.phase is Phase.ROB or referee.wall.exhausted:
            return Action(ActionKind.PASS, self.seat)
        known = referee.seats[self.seat].known
        ruleset = referee.ruleset
        if referee.void_suits.get(self.seat) == suit_of(tile):
            return Action(ActionKind.PASS, self.seat)
        claim = None
        if known[tile] == 3 and ruleset.allows_kong:
            claim = Action(ActionKind.KONG, self.seat)
        elif known[tile] >= 2 and ruleset.allows_pung and self.rng.random() < CLAIM_PUNG_CHANCE:
            claim = Action(ActionKind.PUNG, self.seat)
        else:
            chow = self._chow(referee, tile, known)
            if chow is not None and self.rng.random() < CLAIM_CHI_CHANCE:
                claim = Action(ActionKind.CHI, self.seat, chow)
        # A ruleset may refuse a meld the tiles allow (a wildcard in it, wild.md W-3): ask the referee first.
        return claim if claim is not None and referee.is_legal(claim) else Action(ActionKind.PASS, self.seat)

    def _can_win(self, referee: Referee, offered: Tile | None) -> bool:
        """Shape first (cheap), then the referee's full verdict (minimum score, ruleset conditions)."""
        counts = list(referee.seats[self.seat].known[:NUM_KINDS])
        if offered is not None:
            counts[offered] += 1
        if not referee.ruleset.quick_win(referee, self.seat, counts, offered):
            return False
        return referee.would_win(self.seat)

    def _chow(self, referee: Referee, tile: Tile, known: list[int]) -> Tile | None:
        ruleset = referee.ruleset
        tiles = ruleset.tile_set
        if not ruleset.allows_chi or not tiles.is_suited(tile):
            return None
        if ruleset.chi_only_from_left and self.seat != (referee.offer_seat + 1) % 4:  # type: ignore[operator]
            return None
        for low in range(tile - 2, tile + 1):
            if not (tiles.chow_start(low) and tiles.same_suit(low, tile)):
                continue
            if all(known[other] for other in (low, low + 1, low + 2) if other != tile):
                return low
        return None

    def _least_useful(
        self, referee: Referee, only_suit: str | None = None, keep: frozenset[Tile] = frozenset()
    ) -> Tile:
        """The held tile (of ``only_suit`` if given) with the fewest partners (copies and suit neighbours); ties
        broken by the seeded rng. Tiles in ``keep`` (wildcards) go only when nothing else is left."""
        known, tiles = referee.seats[self.seat].known, referee.ruleset.tile_set
        best: list[Tile] = []
        best_value = None
        candidates = [
            tile
            for tile in range(NUM_KINDS)
            if known[tile] and not is_flower(tile) and (only_suit is None or suit_of(tile) == only_suit)
        ]
        spare = any(tile not in keep for tile in candidates)
        for tile in candidates:
            if spare and tile in keep:
                continue
            value = 3 * (known[tile] - 1) + neighbours(tiles, known, tile)
            if best_value is None or value < best_value:
                best, best_value = [tile], value
            elif value == best_value:
                best.append(tile)
        return self.rng.choice(best)


def neighbours(tiles: TileSet, counts: list[int], tile: Tile) -> int:
    """How much ``tile`` works with the suit tiles held beside it: 2 for each neighbour, 1 for each tile two
    ranks away, within its suit of the tile set."""
    value = 0
    for step, weight in ((1, 2), (2, 1)):
        for other in (tile - step, tile + step):
            if tiles.same_suit(tile, other):
                value += weight * min(counts[other], 1)
    return value
