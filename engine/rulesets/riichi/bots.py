"""Riichi players for ``mjtable simulate``: a workload for the shared referee, not opponents.

A ``SimpleBot`` that knows a hand needs a yaku: it wins whenever the rules let it, declares riichi whenever it can,
declares nine kinds when it may, makes concealed and added kans outside riichi, calls pons of dragons and its winds,
and now and then a pon, kan or chi that keeps its hand on an all-simples or honour-set road (so that its open hands
usually have a yaku). It discards the tile whose removal leaves the lowest shanten, ties going to the tile with
the fewest neighbours; in riichi the tile it drew.
"""

from __future__ import annotations

from engine.actions import Action, ActionKind
from engine.analysis import shanten
from engine.bots import SimpleBot, neighbours
from engine.notation import MeldKind
from engine.referee import Phase, Referee
from engine.rulesets.riichi.hooks import NINE_KINDS
from engine.rulesets.riichi.reading import RIICHI_SHAPES
from engine.tiles import DRAGONS, EAST, NUM_KINDS, ORPHANS, Tile, is_orphan

OPEN_KAN_CHANCE = 0.3
OPEN_CALL_CHANCE = 0.5


class RiichiBot(SimpleBot):
    def act(self, referee: Referee) -> Action:
        seat = referee.seats[self.seat]
        if referee.may_win_by_draw and self._can_win(referee, None):
            return Action(ActionKind.HU, self.seat)
        if self.seat in referee.ready:
            return Action(ActionKind.DISCARD, self.seat, referee.last_drawn)
        counts = list(seat.known[:NUM_KINDS])
        abort = Action(ActionKind.ABORT, self.seat)
        if sum(1 for tile in ORPHANS if counts[tile]) >= NINE_KINDS and referee.is_legal(abort):
            return abort
        kan = self._turn_kan(referee, counts)
        if kan is not None:
            return kan
        tile, ready = self._discard(referee, counts)
        riichi = Action(ActionKind.READY, self.seat, tile)
        return riichi if ready and referee.is_legal(riichi) else Action(ActionKind.DISCARD, self.seat, tile)

    def _turn_kan(self, referee: Referee, counts: list[int]) -> Action | None:
        kans = [Action(ActionKind.CONCEALED_KONG, self.seat, tile) for tile, n in enumerate(counts) if n == 4]
        kans += [
            Action(ActionKind.ADDED_KONG, self.seat, meld.tile)
            for meld in referee.seats[self.seat].melds
            if meld.kind is MeldKind.PUNG and counts[meld.tile]
        ]
        return next((kan for kan in kans if referee.is_legal(kan)), None)

    def _discard(self, referee: Referee, counts: list[int]) -> tuple[Tile, bool]:
        """The tile to discard and whether the hand left is ready (shanten 0) and closed, for a riichi."""
        tiles = referee.ruleset.tile_set
        held = [kind for kind, n in enumerate(counts) if n]
        kinds = [kind for kind in held if kind != referee.claimed] or held
        best: list[Tile] = []
        best_key: tuple[int, int] | None = None
        for kind in kinds:
            counts[kind] -= 1
            key = (shanten(counts, RIICHI_SHAPES), 3 * counts[kind] + neighbours(tiles, counts, kind))
            counts[kind] += 1
            if best_key is None or key < best_key:
                best, best_key = [kind], key
            elif key == best_key:
                best.append(kind)
        assert best_key is not None
        closed = all(meld.is_concealed_kong for meld in referee.seats[self.seat].melds)
        return self.rng.choice(best), closed and best_key[0] == 0

    def answer(self, referee: Referee) -> Action:
        """Ron whenever possible; else a call (kan, pon of a valued tile or on a road, chi on a road)."""
        tile = referee.offer
        assert tile is not None
        if self._can_win(referee, tile):
            return Action(ActionKind.HU, self.seat)
        passing = Action(ActionKind.PASS, self.seat)
        if referee.phase is Phase.ROB or referee.wall.exhausted or self.seat in referee.ready:
            return passing
        claim = self._call(referee, tile)
        return claim if claim is not None and referee.is_legal(claim) else passing

    def _call(self, referee: Referee, tile: Tile) -> Action | None:
        counts = list(referee.seats[self.seat].known[:NUM_KINDS])
        if counts[tile] == 3 and self.rng.random() < OPEN_KAN_CHANCE:
            return Action(ActionKind.KONG, self.seat)
        valued = {*DRAGONS, EAST + (self.seat - referee.dealer) % 4, EAST + referee.round_wind}
        if counts[tile] >= 2 and (tile in valued or self._on_a_road(referee, counts, tile, (tile, tile))):
            return Action(ActionKind.PUNG, self.seat)
        tiles = referee.ruleset.tile_set
        if referee.offer_seat == (self.seat + 3) % 4:
            for low in range(tile - 2, tile + 1):
                others = tuple(t for t in (low, low + 1, low + 2) if t != tile)
                if not (tiles.chow_start(low) and tiles.same_suit(low, tile)):
                    continue
                if all(counts[t] for t in others) and self._on_a_road(referee, counts, tile, others):
                    return Action(ActionKind.CHI, self.seat, low)
        return None

    def _on_a_road(self, referee: Referee, counts: list[int], tile: Tile, used: tuple[Tile, ...]) -> bool:
        """An optional call: the hand keeps a yaku road (a valued pon already made, or all simples with open
        tanyao) and does not get further from ready; taken at random half of the time."""
        if self.rng.random() >= OPEN_CALL_CHANCE:
            return False
        melds = referee.seats[self.seat].melds
        honour_set = any(meld.tile in DRAGONS for meld in melds)
        shown = [held for meld in melds for held in meld.tiles]
        simples = referee.ruleset.options["open_tanyao"] and not any(map(is_orphan, [tile, *shown]))
        if not (honour_set or simples):
            return False
        before = shanten(counts, RIICHI_SHAPES)
        after = list(counts)
        for held in used:
            after[held] -= 1
        return shanten(after, RIICHI_SHAPES) <= before
