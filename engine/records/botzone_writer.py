"""An MCR game in the neutral form (``engine.records.game``) written as Botzone / IJCAI human-game text, what
``engine.records.botzone`` reads back: one ``Match`` block per hand, seat 0 dealing (the format names no dealer)."""

from __future__ import annotations

from engine.records.botzone import FMT, _code
from engine.records.errors import RecordError
from engine.records.game import Call, CallKind, Discard, Draw, DrawnGame, GameRecord, HandRecord, Win

_ACTIONS = {
    CallKind.CHI: "Chi",
    CallKind.PON: "Peng",
    CallKind.DAIMINKAN: "Gang",
    CallKind.ANKAN: "AnGang",
    CallKind.KAKAN: "BuGang",
}


def write_botzone(record: GameRecord) -> str:
    """Every hand as a ``Match`` block. ``RecordError`` names a hand the format cannot hold, or no hand at all (an
    empty text is no Botzone record)."""
    if not record.hands:
        raise RecordError("the record holds no whole hand to write", fmt=FMT)
    return "".join(_hand(hand) for hand in record.hands)


def _hand(hand: HandRecord) -> str:
    if hand.dealer != 0:
        raise RecordError(f"seat {hand.dealer} deals; a Botzone match is dealt by seat 0", fmt=FMT, hand=hand.index)
    lines = [f"Match {hand.ref or hand.index}", f"Wind {hand.round_wind}"]
    lines += [f"Player {seat} Deal {' '.join(_code(tile) for tile in tiles)}" for seat, tiles in enumerate(hand.deal)]
    for move in hand.moves:
        if isinstance(move, Draw):
            lines.append(f"Player {move.seat} Draw {_code(move.tile)}")
        elif isinstance(move, Discard):
            lines.append(f"Player {move.seat} Play {_code(move.tile)}")
        elif isinstance(move, Call):
            lines.append(f"Player {move.seat} {_ACTIONS[move.kind]} {_code(_named(move))}")
        elif isinstance(move, Win):
            lines.append(f"Player {move.winner} Hu {_code(move.win_tile) if move.win_tile else '?'}")
    results = hand.results
    if not results:
        raise RecordError("the hand has no result", fmt=FMT, hand=hand.index)
    if isinstance(results[0], DrawnGame):
        lines.append("Huang")
    else:
        win = results[0]
        assert isinstance(win, Win)
        fans = "+".join(f"{yaku.name}*{yaku.count}" for yaku in win.yaku)
        lines.append(f"Fan {win.han} {fans}".rstrip())
    lines.append("Score " + " ".join(str(delta) for delta in hand.deltas))
    return "\n".join(lines) + "\n"


def _named(call: Call) -> object:
    """The tile a line names: a chow's middle tile, else the meld's tile."""
    if call.kind is CallKind.CHI:
        return sorted(call.tiles)[1]
    return call.tiles[0]
