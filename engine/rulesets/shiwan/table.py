"""十万's own table for ``mjtable simulate``: four plain bots play one hand on the ten-rank set.

The shared referee is built on the engine's nine-rank tile ids (its chow check, the bots' win test and the tile
names all assume them), so 十万 plays here instead, with the same bot habits (win whenever possible, pung now and
then, chi from the 上家 now and then, discard the least connected tile) and the same invariant: after every action
the wall, hands, rivers and melds hold exactly the 136 tiles. Simplifications, all outside fan.md §7: the wall is
drawn in shuffled order (no dice break), there are no kongs, one winner per discard (the first in turn order).
Every win is confirmed by ``ShiwanRuleset.evaluate``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.match import HandResult
from engine.notation import Hand, Meld, MeldKind
from engine.rulesets.base import Score, WinContext
from engine.rulesets.shiwan.shape import chow_start, is_win
from engine.rulesets.shiwan.tiles import NUM_KINDS, RANKS, SET_SIZE, counts_of, format_tiles, full_set, is_suited

if TYPE_CHECKING:
    from engine.rulesets.shiwan.ruleset import ShiwanRuleset

SEATS = 4
PUNG_CHANCE = 0.6
CHI_CHANCE = 0.3


class TableInvariantError(AssertionError):
    """The own table lost count of a tile or scored a bot's win as no win."""


@dataclass(frozen=True)
class ShiwanWin:
    seat: int
    hand: Hand
    score: Score

    def to_dict(self) -> dict[str, Any]:
        melds = " ".join(format_tiles(meld.tiles) for meld in self.hand.melds)
        text = format_tiles(self.hand.standing) + (f" [{melds}]" if melds else "")
        return {
            "seat": self.seat,
            "hand": text,
            "win_tile": format_tiles([self.hand.win_tile]),
            **self.score.to_settle(),
        }  # type: ignore[list-item]


class ShiwanTable:
    """One hand: ``play`` runs it to a win or a drawn game; ``result``, ``wins``, ``history``, ``dice`` as the
    shared referee has them (``engine.simulation`` reports either the same way)."""

    def __init__(self, ruleset: ShiwanRuleset, seed: int, dealer: int, *, round_wind: int, consecutive_dealer: int):
        self.ruleset = ruleset
        self.rng = random.Random(seed)
        self.dealer, self.round_wind, self.consecutive_dealer = dealer, round_wind, consecutive_dealer
        self.wall = full_set()
        self.rng.shuffle(self.wall)
        self.dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        self.hands = [[0] * NUM_KINDS for _ in range(SEATS)]
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        self.discards: list[list[int]] = [[] for _ in range(SEATS)]
        self.history: list[dict[str, Any]] = []
        self.wins: list[ShiwanWin] = []
        self.result: HandResult | None = None
        for seat in range(SEATS):
            for _ in range(13 + (seat == dealer)):
                self.hands[seat][self.wall.pop()] += 1

    def play(self) -> ShiwanTable:
        turn, drawn, self_draw = self.dealer, None, True
        while self.result is None:
            if self_draw and is_win(self.hands[turn]):
                self._win(turn, drawn if drawn is not None else self._any_tile(turn), None)
                break
            tile = self._least_useful(turn)
            self.hands[turn][tile] -= 1
            self.discards[turn].append(tile)
            self._record("discard", turn, tile)
            turn, drawn, self_draw = self._answers(turn, tile)
        return self

    def _answers(self, discarder: int, tile: int) -> tuple[int, int | None, bool]:
        """The others answer the discard in turn order: a win, else a pung or a chi, else the next seat draws."""
        order = [(discarder + k) % SEATS for k in range(1, SEATS)]
        for seat in order:
            counts = list(self.hands[seat])
            counts[tile] += 1
            if is_win(counts):
                self.discards[discarder].pop()
                self.hands[seat][tile] += 1
                self._win(seat, tile, discarder)
                return seat, None, False
        if not self.wall:
            self.result = HandResult.draw()
            self._record("drawn", discarder, None)
            return discarder, None, False
        for seat in order:
            if self.hands[seat][tile] >= 2 and self.rng.random() < PUNG_CHANCE:
                self._claim(seat, discarder, Meld(MeldKind.PUNG, tile, (seat - discarder) % SEATS), (tile, tile))
                return seat, None, False
        low = self._chow(order[0], tile)
        if low is not None and self.rng.random() < CHI_CHANCE:
            used = tuple(t for t in (low, low + 1, low + 2) if t != tile)
            self._claim(order[0], discarder, Meld(MeldKind.CHOW, low), used)
            return order[0], None, False
        tile = self.wall.pop()
        self.hands[order[0]][tile] += 1
        self._record("draw", order[0], tile)
        return order[0], tile, True

    def _claim(self, seat: int, discarder: int, meld: Meld, used: tuple[int, ...]) -> None:
        self.discards[discarder].pop()
        for tile in used:
            self.hands[seat][tile] -= 1
        self.melds[seat].append(meld)
        self._record(meld.kind.value, seat, meld.tile)

    def _chow(self, seat: int, tile: int) -> int | None:
        held = self.hands[seat]
        for low in range(tile - 2, tile + 1):
            in_suit = low >= 0 and chow_start(low) and low // RANKS == tile // RANKS
            if in_suit and all(held[t] for t in (low, low + 1, low + 2) if t != tile):
                return low
        return None

    def _win(self, seat: int, tile: int, discarder: int | None) -> None:
        standing = [t for t in range(NUM_KINDS) for _ in range(self.hands[seat][t])]
        standing.remove(tile)
        hand = Hand(tuple(self.melds[seat]), tuple(standing), tile)
        ctx = WinContext(seat, self.dealer, discarder, self.round_wind, consecutive_dealer=self.consecutive_dealer)
        score = self.ruleset.evaluate(hand, ctx)
        if not score.hu:
            raise TableInvariantError(f"seat {seat}'s win {format_tiles(standing)} + {tile} scored as no win")
        self.wins.append(ShiwanWin(seat, hand, score))
        self.result = HandResult.win(seat, {s: 0 for s in range(SEATS)}, discarder)
        self._record("hu", seat, tile)

    def _any_tile(self, seat: int) -> int:
        return next(t for t in range(NUM_KINDS) if self.hands[seat][t])

    def _least_useful(self, seat: int) -> int:
        """The held tile with the fewest partners (copies and neighbours within its ten-rank suit)."""
        held = self.hands[seat]
        scored = []
        for tile in range(NUM_KINDS):
            if not held[tile]:
                continue
            value = 3 * (held[tile] - 1)
            if is_suited(tile):
                for step, weight in ((1, 2), (2, 1)):
                    for other in (tile - step, tile + step):
                        if 0 <= other < NUM_KINDS and other // RANKS == tile // RANKS and is_suited(other):
                            value += weight * min(held[other], 1)
            scored.append((value, tile))
        lowest = min(value for value, _ in scored)
        return self.rng.choice([tile for value, tile in scored if value == lowest])

    def _record(self, kind: str, seat: int, tile: int | None) -> None:
        self.history.append({"kind": kind, "seat": seat, "tile": None if tile is None else format_tiles([tile])})
        self.check_balance()

    def check_balance(self) -> None:
        """Wall, hands, rivers and melds hold exactly one 十万 set."""
        tiles = list(self.wall)
        for seat in range(SEATS):
            tiles += [t for t in range(NUM_KINDS) for _ in range(self.hands[seat][t])]
            tiles += self.discards[seat] + [t for meld in self.melds[seat] for t in meld.tiles]
        if len(tiles) != SET_SIZE or counts_of(tiles) != counts_of(full_set()):
            raise TableInvariantError(f"tiles do not balance: {len(tiles)} in play, the set has {SET_SIZE}")
