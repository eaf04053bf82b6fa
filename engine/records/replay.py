"""A recorded game replayed hand by hand through the referee that runs the table (``engine.referee.Referee``).

Each hand is dealt from a wall stacked to give the record's deal, draws, kan replacements and dora indicators
(``engine.stacked``), with the record's dealer, round wind, honba and sticks; every move of the record is then a
referee action, with full information. A seat that lets a discard pass while it could win on it passes, so the
referee applies furiten as at the table. A move the referee refuses ends that hand's replay and is named with its
hand and move number; the next hand is replayed all the same.

The score changes compared are the whole hand's, in the record's seat order and units: Tenhou points with honba and
riichi sticks (the sticks a hand's own declarations put on the table count as paid, as the referee settles them),
Botzone's MCR score.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, ActionKind
from engine.errors import MjtableError
from engine.records.errors import RecordError
from engine.records.game import (
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    DrawnGame,
    GameRecord,
    HandRecord,
    Move,
    RecordTile,
    Riichi,
    Win,
)
from engine.records.stacking import record_ruleset, stacked_record_hand
from engine.referee import Phase, Referee
from engine.rulesets.base import Ruleset
from engine.rulesets.riichi.hooks import RIICHI_STICK

log = logging.getLogger(__name__)
BUGS = (ArithmeticError, LookupError, TypeError, ValueError, RecursionError, AssertionError)
"""Errors that are the project's bugs, not the record's damage: named in the hand's answer, logged."""
_KAN_CALLS = frozenset({CallKind.DAIMINKAN, CallKind.KAKAN, CallKind.ANKAN})
_CLAIMS = {CallKind.CHI: ActionKind.CHI, CallKind.PON: ActionKind.PUNG, CallKind.DAIMINKAN: ActionKind.KONG}


@dataclass(frozen=True)
class HandReplay:
    """One hand's answer: what the referee made of it beside what the record says, or why it could not be replayed
    (``error``: the record's damage, or the move the referee refused)."""

    file: str
    hand: int | None
    label: str = ""
    result: str | None = None
    winners: tuple[int, ...] = ()
    deltas: tuple[int, ...] | None = None
    record: tuple[int, ...] | None = None
    wins: tuple[dict[str, Any], ...] = ()
    error: str | None = None
    move: int | None = None
    game: int | None = None
    """The game's index in a file of several (tenhou.net/6 JSON Lines), else None."""

    @property
    def agrees(self) -> bool:
        return self.error is None and self.deltas is not None and self.deltas == self.record

    def to_dict(self) -> dict[str, Any]:
        line: dict[str, Any] = {
            "file": self.file,
            "hand": self.hand,
            "label": self.label,
            "result": self.result,
            "winners": list(self.winners),
            "deltas": None if self.deltas is None else list(self.deltas),
            "record": None if self.record is None else list(self.record),
            "agrees": self.agrees,
            "wins": list(self.wins),
        }
        if self.error is not None:
            line |= {"error": self.error, "move": self.move}
        if self.game is not None:
            line["game"] = self.game
        return line


class Refused(MjtableError):
    """A move of the record the referee refused (or could not be given), with its number in the hand."""

    def __init__(self, move: int, reason: str) -> None:
        self.move = move
        super().__init__(f"move {move}: {reason}")


def replay_record(record: GameRecord, file: str) -> Iterator[HandReplay]:
    """Every hand of ``record`` in order, and a named error for each hand (or header) the reader could not read."""
    pending = sorted(record.problems, key=lambda problem: -1 if problem.hand is None else problem.hand)
    ruleset = record_ruleset(record)
    for hand in record.hands:
        while pending and (pending[0].hand is None or pending[0].hand < hand.index):
            yield _broken(file, pending.pop(0))
        yield replay_hand(ruleset, hand, file)
    for problem in pending:
        yield _broken(file, problem)


def _broken(file: str, problem: RecordError) -> HandReplay:
    return HandReplay(file, problem.hand, error=str(problem), move=problem.move)


def replay_hand(ruleset: Ruleset, hand: HandRecord, file: str) -> HandReplay:
    """One hand through the referee; a refused move is named, never raised."""
    record = _record_deltas(hand)
    try:
        referee = Referee.dealt(ruleset, stacked_record_hand(ruleset, hand), **_facts(hand))
    except MjtableError as error:
        return HandReplay(file, hand.index, hand.label, record=record, error=f"the deal: {error}", move=0)
    walk = _Walk(referee, hand)
    try:
        walk.run()
    except Refused as error:
        return HandReplay(file, hand.index, hand.label, record=record, error=str(error), move=error.move)
    except MjtableError as error:
        return HandReplay(file, hand.index, hand.label, record=record, error=str(error), move=walk.number)
    except BUGS as error:  # a bug met in one hand is that hand's answer; the next hands are still replayed
        log.error("%s hand %d: %s: %s", file, hand.index, type(error).__name__, error)
        reason = f"could not be replayed ({type(error).__name__}: {error}); please report it"
        return HandReplay(file, hand.index, hand.label, record=record, error=reason, move=walk.number)
    result = referee.result
    assert result is not None
    kind = "abortive" if result.abortive else "win" if result.wins else "draw"
    deltas = tuple(round(result.payments[seat]) for seat in range(4))
    wins = tuple(_win_detail(ruleset, win.seat, win.score.to_dict()) for win in referee.wins)
    return HandReplay(file, hand.index, hand.label, kind, tuple(result.winners), deltas, record, wins)


def _facts(hand: HandRecord) -> dict[str, Any]:
    facts: dict[str, Any] = {"round_wind": hand.round_wind, "honba": hand.honba}
    facts["pot"] = hand.riichi_sticks * RIICHI_STICK
    if hand.scores is not None:
        facts["scores"] = hand.scores
    return facts


def _record_deltas(hand: HandRecord) -> tuple[int, ...]:
    """The record's changes of the whole hand, the sticks its declarations put on the table paid."""
    deltas = list(hand.deltas)
    for move in hand.moves:
        if isinstance(move, Riichi) and move.accepted:
            deltas[move.seat] -= RIICHI_STICK
    return tuple(deltas)


def _win_detail(ruleset: Ruleset, seat: int, score: dict[str, Any]) -> dict[str, Any]:
    """What the referee scored for a winner: han, fu, points (the hand's value before honba and sticks), the limit and
    the yaku (riichi), the fans (MCR)."""
    if ruleset.id != "riichi":
        return {"seat": seat, "total": score["total"], "fans": score["fans"]}
    points = score["breakdown"]["hand"][str(seat)]
    return {"seat": seat, "han": score["han"], "fu": score["fu"], "points": points, "limit": score["limit"]} | {
        "yaku": score["yaku"]
    }


class _Walk:
    """The record's moves of one hand given to the referee as actions, in order."""

    def __init__(self, referee: Referee, hand: HandRecord) -> None:
        self.referee = referee
        self.hand = hand
        self.declaring: set[int] = set()
        self.replacement = False
        self.first_draw = True
        self.number = 0
        """The move being applied."""

    def run(self) -> None:
        moves = self.hand.moves
        while self.number < len(moves):
            self.number = self._move(self.number, moves[self.number])
        if self.referee.result is None:
            raise Refused(len(moves), f"the record ends, the referee's hand goes on ({self.referee._waiting_for()})")

    def _apply(self, number: int, action: Action) -> None:
        verdict = self.referee.apply(action)
        if not verdict.ok:
            raise Refused(number, f"{_said(action)} refused: {verdict.reason}")

    def _move(self, number: int, move: Move) -> int:
        """Apply the move at ``number``; the number of the next move to apply."""
        if isinstance(move, Win | DrawnGame):
            return self._end(number)
        if isinstance(move, Draw):
            self._draw(number, move)
        elif isinstance(move, Discard):
            self._pass_all(number)
            kind = ActionKind.READY if move.seat in self.declaring else ActionKind.DISCARD
            self.declaring.discard(move.seat)
            self._apply(number, Action(kind, move.seat, move.tile.kind, marked=move.tile.red))
        elif isinstance(move, Riichi):
            if not move.accepted:
                self.declaring.add(move.seat)
        elif isinstance(move, Call):
            self._call(number, move)
        return number + 1

    def _draw(self, number: int, move: Draw) -> None:
        """A replacement after a kan and the dealer's first draw were made by the referee itself; a draw on a discard
        nobody answered is the next seat's draw, which tells the referee that all passed (the table's shortcut)."""
        replacement, first, self.replacement, self.first_draw = self.replacement, self.first_draw, False, False
        if replacement or first or self.referee.phase is not Phase.CLAIMS or self.referee.responses:
            self._pass_all(number)
        if not (replacement or first):
            self._apply(number, Action(ActionKind.DRAW, move.seat))

    def _call(self, number: int, call: Call) -> None:
        self.replacement = call.kind in _KAN_CALLS
        if call.kind is CallKind.ANKAN:
            self._apply(number, Action(ActionKind.CONCEALED_KONG, call.seat, call.tiles[0].kind))
        elif call.kind is CallKind.KAKAN:
            tile = call.called or call.tiles[0]
            self._apply(number, Action(ActionKind.ADDED_KONG, call.seat, tile.kind, marked=tile.red))
        elif call.kind in _CLAIMS:
            self._pass_all(number, but=call.seat)
            low = min(tile.kind for tile in call.tiles) if call.kind is CallKind.CHI else None
            shown = sum(tile.red for tile in call.tiles) > (call.called is not None and call.called.red)
            self._apply(number, Action(_CLAIMS[call.kind], call.seat, low, marked=shown))
        else:
            raise Refused(number, f"a {call.kind.value} is not played by the {self.referee.ruleset.id} ruleset")

    def _pass_all(self, number: int, but: int | None = None, winners: tuple[int, ...] = ()) -> None:
        """Every seat still to answer the tile on offer passes (a winner named by the record declares its win)."""
        referee = self.referee
        if referee.phase not in (Phase.CLAIMS, Phase.ROB):
            return
        for seat in referee.answering_seats():
            if seat != but and seat not in referee.responses:
                kind = ActionKind.HU if seat in winners else ActionKind.PASS
                self._apply(number, Action(kind, seat))

    def _end(self, number: int) -> int:
        """The hand's end as the record has it: the wins (a self-draw, or every winner on the tile on offer), an
        abortive draw declared or found by the referee, or the wall run out."""
        results = self.hand.moves[number:]
        wins = [move for move in results if isinstance(move, Win)]
        referee = self.referee
        if wins and wins[0].self_drawn:
            tile = wins[0].win_tile
            self._apply(number, Action(ActionKind.HU, wins[0].winner, None if tile is None else tile.kind))
        elif wins:
            self._pass_all(number, winners=tuple(win.winner for win in wins))
        elif isinstance(results[0], DrawnGame) and results[0].kind is DrawKind.NINE_TERMINALS:
            self._apply(number, Action(ActionKind.ABORT, referee.turn))
        elif isinstance(results[0], DrawnGame) and results[0].kind is DrawKind.TRIPLE_RON:
            seats = referee.answering_seats() if referee.phase is Phase.CLAIMS else []
            self._pass_all(number, winners=tuple(seat for seat in seats if referee.would_win(seat)))
        else:
            self._pass_all(number)
        return len(self.hand.moves)


def _said(action: Action) -> str:
    tile = "" if action.tile is None else f" {RecordTile(action.tile).code}"
    return f"seat {action.seat} {action.kind.value}{tile}"

