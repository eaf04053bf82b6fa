"""Simple riichi players for ``mjtable simulate``: a workload for the table, not opponents.

A bot wins whenever the rules let it, declares riichi whenever it can, declares nine kinds when it may, makes
concealed and added kans outside riichi, calls pons of dragons and its winds, and now and then a pon, kan or
chi that keeps its hand on an all-simples or honour-set road (so that its open hands usually have a yaku). It
discards the tile whose removal leaves the lowest shanten, ties going to the tile with the fewest neighbours.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.analysis import shanten
from engine.notation import MeldKind
from engine.rulesets.riichi.reading import RIICHI_SHAPES
from engine.tiles import DRAGONS, EAST, is_orphan, is_suited

if TYPE_CHECKING:
    from engine.rulesets.riichi.table import Player, RiichiTable

OPEN_KAN_CHANCE = 0.3
OPEN_CALL_CHANCE = 0.5
NINE_KINDS = 9
RIICHI_WALL_LEFT = 4
"""Riichi needs a draw still to come for the declarer (the common rule: four or more live tiles)."""


class RiichiBot:
    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def nine_kinds(self, player: Player) -> bool:
        return len({kind for kind in player.kinds() if is_orphan(kind)}) >= NINE_KINDS

    def turn_kan(self, table: RiichiTable, player: Player) -> tuple[int, str] | None:
        """(kind, "concealed" | "added") or None. No kan in riichi (it could change the wait)."""
        if player.riichi or player.double_riichi or not table.may_kan():
            return None
        counts = player.counts()
        for kind, count in enumerate(counts):
            if count == 4:
                return kind, "concealed"
        for meld in player.melds:
            if meld.kind is MeldKind.PUNG and counts[meld.tile]:
                return meld.tile, "added"
        return None

    def discard(self, table: RiichiTable, player: Player, drawn: int, forbidden: int | None) -> tuple[int, bool]:
        """(physical tile, declare riichi)."""
        if player.riichi or player.double_riichi:
            return drawn, False
        counts = player.counts()
        kinds = [kind for kind, n in enumerate(counts) if n and kind != forbidden] or [drawn // 4]
        best: list[int] = []
        best_key: tuple[int, int] | None = None
        for kind in kinds:
            counts[kind] -= 1
            key = (shanten(counts, RIICHI_SHAPES), _partners(counts, kind))
            counts[kind] += 1
            if best_key is None or key < best_key:
                best, best_key = [kind], key
            elif key == best_key:
                best.append(kind)
        kind = self.rng.choice(best)
        tile = max(tile for tile in player.concealed if tile // 4 == kind)
        assert best_key is not None
        riichi = (
            player.closed
            and best_key[0] == 0
            and player.points >= 1000
            and table.wall.live_remaining >= RIICHI_WALL_LEFT
        )
        return tile, riichi

    def call(self, table: RiichiTable, player: Player, kind: int, discarder: int) -> tuple[str, int] | None:
        """("kan" | "pon", kind), ("chi", lowest kind) or None for the discard ``kind``."""
        if player.riichi or player.double_riichi:
            return None
        counts = player.counts()
        if counts[kind] == 3 and table.may_kan() and self.rng.random() < OPEN_KAN_CHANCE:
            return "kan", kind
        valued = {*DRAGONS, EAST + (self.seat - table.dealer) % 4, EAST + table.round_wind}
        if counts[kind] >= 2 and (kind in valued or self._on_a_road(table, player, kind, (kind, kind))):
            return "pon", kind
        if discarder == (self.seat + 3) % 4 and is_suited(kind):
            for low in range(kind - 2, kind + 1):
                others = [t for t in (low, low + 1, low + 2) if t != kind]
                if low < 0 or low // 9 != kind // 9 or low % 9 > 6 or not all(counts[t] for t in others):
                    continue
                if self._on_a_road(table, player, kind, tuple(others)):
                    return "chi", low
        return None

    def _on_a_road(self, table: RiichiTable, player: Player, kind: int, used: tuple[int, ...]) -> bool:
        """An optional call: the hand keeps a yaku road (a valued pon already made, or all simples with open
        tanyao) and does not get further from ready; taken at random half of the time."""
        if self.rng.random() >= OPEN_CALL_CHANCE:
            return False
        meld_tiles = [tile for meld in player.melds for tile in meld.tiles]
        honour_set = any(meld.tile in DRAGONS for meld in player.melds)
        simples = table.options["open_tanyao"] and not any(map(is_orphan, [kind, *meld_tiles]))
        if not (honour_set or simples):
            return False
        counts = player.counts()
        before = shanten(counts, RIICHI_SHAPES)
        for tile in used:
            counts[tile] -= 1
        return shanten(counts, RIICHI_SHAPES) <= before


def _partners(counts: list[int], kind: int) -> int:
    """How much a tile works with the rest: copies and suit neighbours (fewest = the best discard)."""
    value = 3 * counts[kind]
    if is_suited(kind):
        rank = kind % 9
        for step, weight in ((1, 2), (2, 1)):
            if rank - step >= 0:
                value += weight * min(counts[kind - step], 1)
            if rank + step <= 8:
                value += weight * min(counts[kind + step], 1)
    return value
