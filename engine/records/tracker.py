"""The one-hand bookkeeping every record reader shares: it collects the moves in order and checks, as each arrives,
that the record is still the game it claims to be.

A record is damaged long before it is unreadable: a flipped digit makes a tile id drawn twice, a flipped tag letter
moves a draw to the wrong seat. So each move is checked against what the hand so far allows: tiles are conserved
(no physical id seen twice, no kind more than four times across deal, draws and indicators; a discarded or melded
tile is in its owner's hand; a claimed tile is the last discard), and the turn passes as mahjong passes it. This is
not the referee: it knows no ruleset, only what every ruleset shares, and it never judges a win.
"""

from __future__ import annotations

from collections import Counter
from enum import Enum, auto

from engine.records.game import Call, CallKind, Discard, Draw, DrawnGame, Move, NewDora, RecordTile, Riichi, Win
from engine.tiles import tile_code

_FIVES = (4, 13, 22)
"""The kinds 5m, 5p, 5s."""


class Broken(Exception):
    """What is wrong with the move just offered; the reader adds the hand, move and place."""


class Phase(Enum):
    DRAW = auto()
    """``turn`` draws next (or another seat claims ``last``, while it is set)."""
    DISCARD = auto()
    """``turn`` holds 14 tiles (counting melds): it discards, declares a kan or riichi, or wins."""
    REPLACE = auto()
    """``turn`` declared a kan and draws its replacement (or another seat robs the added kan)."""
    OVER = auto()


def _name(tile: RecordTile) -> str:
    return tile.code if tile.id is None else f"{tile.code} (id {tile.id})"


class HandTracker:
    """Moves of one hand, checked as they come. ``deal`` is each seat's 13 tiles, ``dora`` the first indicator(s).
    ``implicit_riichi``: the record never says a riichi stood (tenhou.net/6), so its acceptance is recorded when the
    next move shows the riichi discard passed; else the record accepts it itself (mjlog ``REACH step=2``). ``aka``:
    the red fives of 5m, 5p, 5s in the set, where the tiles carry no id to tell them (each five then counts red
    ones and plain ones apart)."""

    def __init__(
        self,
        deal: list[list[RecordTile]],
        dealer: int,
        dora: list[RecordTile],
        *,
        implicit_riichi: bool = False,
        aka: tuple[int, int, int] | None = None,
    ) -> None:
        self.implicit_riichi = implicit_riichi
        self.aka = aka
        self._reds: Counter[int] = Counter()
        self.moves: list[Move] = []
        self.hands: list[dict[int, int]] = [{}, {}, {}, {}]
        """Each seat's concealed tiles, counted by ``_key``: an int hashes in C, a dataclass in Python."""
        self._tiles: dict[int, RecordTile] = {}
        self.melds: list[list[Call]] = [[], [], [], []]
        self.turn = dealer
        self.phase = Phase.DRAW
        self.last: Discard | None = None
        """The discard on offer to the other seats (or the added kan tile, after a kakan)."""
        self.drawn: list[RecordTile | None] = [None] * 4
        self._ids: set[int] = set()
        self._kinds: Counter[int] = Counter()
        self._riichi: int | None = None
        """The seat whose riichi is declared and not yet accepted."""
        self._declared: set[int] = set()
        for seat, tiles in enumerate(deal):
            if len(tiles) != 13:
                raise Broken(f"seat {seat} is dealt {len(tiles)} tiles, not 13")
            for tile in tiles:
                self._see(tile)
                self._give(seat, tile)
        for tile in dora:
            self._see(tile)

    def _see(self, tile: RecordTile) -> None:
        """A tile leaves the wall: its id must be new and its kind seen at most four times."""
        if tile.id is not None:
            if tile.id in self._ids:
                raise Broken(f"tile id {tile.id} appears a second time in the hand")
            self._ids.add(tile.id)
        self._kinds[tile.kind] += 1
        if self._kinds[tile.kind] > 4:
            raise Broken(f"a fifth {tile_code(tile.kind)} appears in the hand")
        if self.aka is not None and tile.kind in _FIVES:
            self._count_five(tile, self.aka[_FIVES.index(tile.kind)])

    def _count_five(self, tile: RecordTile, red: int) -> None:
        if tile.red:
            self._reds[tile.kind] += 1
            if self._reds[tile.kind] > red:
                raise Broken(f"red {tile_code(tile.kind)} number {self._reds[tile.kind]} appears; the set has {red}")
        elif self._kinds[tile.kind] - self._reds[tile.kind] > 4 - red:
            raise Broken(f"a plain {tile_code(tile.kind)} too many appears; the set has {4 - red} and {red} red")

    def _give(self, seat: int, tile: RecordTile) -> None:
        key = tile.id if tile.id is not None else 1000 + 2 * tile.kind + tile.red
        held = self.hands[seat]
        held[key] = held.get(key, 0) + 1
        self._tiles[key] = tile

    def _take(self, seat: int, tile: RecordTile) -> None:
        key = tile.id if tile.id is not None else 1000 + 2 * tile.kind + tile.red
        held = self.hands[seat]
        count = held.get(key, 0)
        if count <= 0:
            raise Broken(f"seat {seat} does not hold {_name(tile)}")
        held[key] = count - 1

    def _expect(self, seat: int, phase: Phase, what: str) -> None:
        if self.phase is Phase.OVER:
            raise Broken(f"{what} after the hand ended")
        if self.phase is not phase or seat != self.turn:
            raise Broken(f"{what} by seat {seat} out of turn ({self._state()})")

    def _state(self) -> str:
        if self.phase is Phase.DISCARD:
            return f"seat {self.turn} is to discard"
        if self.phase is Phase.REPLACE:
            return f"seat {self.turn} is to draw a kan replacement"
        return f"seat {self.turn} is to draw"

    def concealed(self, seat: int) -> tuple[RecordTile, ...]:
        """The seat's concealed tiles now, sorted."""
        return tuple(sorted(self._tiles[key] for key, count in self.hands[seat].items() for _ in range(count)))

    def draw(self, seat: int, tile: RecordTile) -> None:
        if seat != self.turn or (self.phase is not Phase.DRAW and self.phase is not Phase.REPLACE):
            self._expect(seat, Phase.DRAW, "a draw")
        self._see(tile)
        if self._riichi is not None:
            self._accept_riichi()
        self._give(seat, tile)
        self.drawn[seat] = tile
        self.last = None
        self.phase = Phase.DISCARD
        self.moves.append(Draw(seat, tile))

    def discard(self, seat: int, tile: RecordTile, tsumogiri: bool | None) -> None:
        if seat != self.turn or self.phase is not Phase.DISCARD:
            self._expect(seat, Phase.DISCARD, "a discard")
        self._take(seat, tile)
        move = Discard(seat, tile, tsumogiri)
        self.moves.append(move)
        self.drawn[seat] = None
        self.last = move
        self.turn = (seat + 1) % 4
        self.phase = Phase.DRAW

    def riichi(self, seat: int, accepted: bool) -> None:
        """Declared before the discard; accepted by the record (mjlog) or when the next move shows it stood."""
        if accepted:
            if self._riichi != seat or self.last is None or self.last.seat != seat:
                raise Broken(f"riichi of seat {seat} accepted, but it has not declared riichi and discarded")
            self.moves.append(Riichi(seat, True))
            self._riichi = None
            return
        self._expect(seat, Phase.DISCARD, "a riichi")
        if seat in self._declared:
            raise Broken(f"seat {seat} declares riichi a second time")
        self._declared.add(seat)
        self._riichi = seat
        self.moves.append(Riichi(seat, False))

    def _accept_riichi(self) -> None:
        """The riichi discard on offer passed unclaimed by a win: recorded as accepted where the record leaves it
        implicit, and where the record states it (mjlog), its silence is damage."""
        if self._riichi is None or self.last is None or self.last.seat != self._riichi:
            return
        if not self.implicit_riichi:
            raise Broken(f"seat {self._riichi}'s riichi discard passed, but the record never accepts the riichi")
        self.moves.append(Riichi(self._riichi, True))
        self._riichi = None

    def call(self, call: Call) -> Call:
        """Record a meld; a kakan's ``from_seat`` left ``None`` is filled from its pon. Returns the call recorded."""
        if self.phase is Phase.OVER:
            raise Broken(f"a {call.kind} after the hand ended")
        if call.kind in (CallKind.ANKAN, CallKind.KAKAN, CallKind.NUKIDORA):
            call = self._own_call(call)
        else:
            self._claim(call)
        self.melds[call.seat].append(call)
        self.moves.append(call)
        return call

    def _claim(self, call: Call) -> None:
        last = self.last
        if self.phase is not Phase.DRAW or last is None:
            raise Broken(f"a {call.kind} by seat {call.seat} with no discard on offer ({self._state()})")
        if call.seat == last.seat or call.from_seat != last.seat:
            raise Broken(
                f"a {call.kind} by seat {call.seat} from seat {call.from_seat}, but seat {last.seat} discarded"
            )
        if call.called != last.tile:
            called = "nothing" if call.called is None else _name(call.called)
            raise Broken(f"a {call.kind} by seat {call.seat} claims {called}, but {_name(last.tile)} was discarded")
        if call.kind is CallKind.CHI and call.seat != (last.seat + 1) % 4:
            raise Broken(f"a chi by seat {call.seat} from seat {last.seat}, which is not on its left")
        self._accept_riichi()
        own = list(call.tiles)
        own.remove(call.called)
        for tile in own:
            self._take(call.seat, tile)
        self.last = None
        self.turn = call.seat
        self.phase = Phase.REPLACE if call.kind is CallKind.DAIMINKAN else Phase.DISCARD

    def _own_call(self, call: Call) -> Call:
        self._expect(call.seat, Phase.DISCARD, f"a {call.kind}")
        if call.kind is CallKind.KAKAN:
            if call.called is None:
                raise Broken("a kakan names no added tile")
            pons = [m for m in self.melds[call.seat] if m.kind is CallKind.PON and m.tiles[0].kind == call.called.kind]
            if not pons:
                raise Broken(f"seat {call.seat} adds {_name(call.called)} to a pon it does not have")
            pon = pons[0]
            if call.from_seat is None:
                call = Call(call.kind, call.seat, call.tiles, call.called, pon.from_seat)
            self._take(call.seat, call.called)
            self.melds[call.seat].remove(pon)
            self.last = Discard(call.seat, call.called)
        else:
            for tile in call.tiles:
                self._take(call.seat, tile)
        self.phase = Phase.REPLACE
        return call

    def dora(self, indicator: RecordTile) -> None:
        if self.phase is Phase.OVER:
            raise Broken("a new dora after the hand ended")
        self._see(indicator)
        self.moves.append(NewDora(indicator))

    def ura(self, indicators: tuple[RecordTile, ...]) -> None:
        """Ura indicators are tiles too: they take their place in the count once the record shows them."""
        for tile in indicators:
            self._see(tile)

    def win(self, win: Win) -> None:
        """A self-draw by the seat to discard; a ron on the discard (or added kan tile) on offer, by one seat or more:
        a further ron follows a ron on the same tile."""
        previous = self.moves[-1] if self.moves else None
        if self.phase is Phase.OVER and not (
            isinstance(previous, Win)
            and not previous.self_drawn
            and not win.self_drawn
            and win.winner != previous.winner
        ):
            raise Broken(f"a win by seat {win.winner} after the hand ended")
        if win.self_drawn:
            if self.phase is not Phase.DISCARD or win.winner != self.turn:
                raise Broken(f"a self-drawn win by seat {win.winner} out of turn ({self._state()})")
        else:
            last = self.last
            if last is None or last.seat != win.from_seat:
                offered = "no discard" if last is None else f"the discard of seat {last.seat}"
                raise Broken(f"a win by seat {win.winner} on a tile of seat {win.from_seat}, but {offered} is on offer")
        self.phase = Phase.OVER
        self.moves.append(win)

    def drawn_game(self, game: DrawnGame) -> None:
        """A hand ends with no win. Its payments (noten, nagashi mangan) pass between players: they sum to zero."""
        if self.phase is Phase.OVER:
            raise Broken("a drawn game after the hand ended")
        if sum(game.deltas) != 0:
            raise Broken(f"the drawn hand's score changes {list(game.deltas)} do not sum to zero")
        if self.implicit_riichi:
            self._accept_riichi()
        self.phase = Phase.OVER
        self.moves.append(game)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER
