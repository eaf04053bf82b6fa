"""A riichi game in the neutral form (``engine.records.game``) written as a tenhou.net/6 JSON log: what the
tenhou.net/6 viewer and the mjai-reviewer / Mortal review tools load, and what ``engine.records.tenhou6`` reads back.

The writing is the reading turned round: each seat's takes (draws, and chi/pon/daiminkan strings with the letter
placed by the seat called from) and discards (``60`` for the tile just drawn, ``r`` before a riichi discard, ``0``
after a daiminkan, kakan/ankan strings), the result as Tenhou words it (``30符2飜2000点``, ``満貫8000点``,
``1000-2000点``, ``3900点∀``).
"""

from __future__ import annotations

import json
from typing import Any

from engine.records.errors import RecordError
from engine.records.game import (
    Call,
    CallKind,
    Discard,
    Draw,
    DrawnGame,
    GameRecord,
    HandRecord,
    RecordTile,
    Riichi,
    Rules,
    Win,
    Yaku,
)
from engine.records.tenhou6 import _CALLS, _DRAWS, _LIMITS, _ROOMS, FMT, TSUMOGIRI
from engine.records.tenhou_yaku import _BY_NAME, TENHOU_YAKU, YAKUMAN_HAN

_PLACES = {(kind, source): place for (_, place, _), (kind, source) in _CALLS.items()}
"""(call, source relative to the caller) to the place of its letter: the reader's table turned round."""
_LETTERS = {kind: letter for (letter, _, _), (kind, _) in _CALLS.items()}
_DRAW_WORDS = {kind: word for word, kind in reversed(_DRAWS.items())}
"""The first word the reader maps to each kind of drawn game (``流局`` for the wall run out)."""
_LIMIT_WORDS = {limit: word for word, limit in _LIMITS.items()}
_NAMES = {key: name for key, name in reversed(TENHOU_YAKU)}
"""The project's yaku key to Tenhou's name (the first, for the winds: a record's own name is kept where known)."""
_ROOM_LETTERS = {room: letter for letter, room in _ROOMS.items()}


def number(tile: RecordTile) -> int:
    """The tenhou.net/6 number of a tile: 11-19, 21-29, 31-39, 41-47, 51-53 for a red five."""
    if tile.red:
        return 51 + tile.kind // 9
    if tile.kind >= 27:
        return 14 + tile.kind
    return 11 + tile.kind // 9 * 10 + tile.kind % 9


def write_tenhou6(record: GameRecord) -> str:
    """The whole game as one tenhou.net/6 JSON document. ``RecordError`` names a hand the format cannot hold."""
    log = []
    for hand in record.hands:
        try:
            log.append(_hand(hand))
        except ValueError as error:
            raise RecordError(str(error), fmt=FMT, hand=hand.index) from None
    document: dict[str, Any] = {"title": [record.ref or "", ""], "name": list(record.players), "rule": _rule(record)}
    document["log"] = log
    if record.final_scores is not None and record.final_results is not None:
        pairs = zip(record.final_scores, record.final_results, strict=True)
        document["sc"] = [value for pair in pairs for value in pair]
    if record.ref is not None:
        document["ref"] = record.ref
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def _rule(record: GameRecord) -> dict[str, Any]:
    rules: Rules = record.rules
    disp = _ROOM_LETTERS.get(rules.room or "", "")
    disp += {"east": "東", "south": "南"}.get(rules.length or "", "")
    shown = _red_suits(record)
    aka = [max(count, int(suit in shown)) for suit, count in enumerate(rules.aka)]
    disp += ("喰" if rules.open_tanyao is not False else "") + ("赤" if any(aka) else "") + ("速" * rules.fast)
    return {"disp": disp, "aka51": aka[0], "aka52": aka[1], "aka53": aka[2]}


def _red_suits(record: GameRecord) -> set[int]:
    """The suits whose red five the hands show: a record that lost its rules still says so with its tiles."""
    suits = set()
    for hand in record.hands:
        drawn = (move.tile for move in hand.moves if isinstance(move, Draw))
        for tile in (*drawn, *hand.dora, *hand.ura, *(tile for tiles in hand.deal for tile in tiles)):
            if tile.red:
                suits.add(tile.kind // 9)
    return suits


def _hand(hand: HandRecord) -> list[Any]:
    if hand.scores is None:
        raise ValueError(f"hand {hand.index} keeps no running score; tenhou.net/6 starts every hand from the scores")
    takes: list[list[Any]] = [[], [], [], []]
    discards: list[list[Any]] = [[], [], [], []]
    declaring: set[int] = set()
    for move in hand.moves:
        if isinstance(move, Draw):
            takes[move.seat].append(number(move.tile))
        elif isinstance(move, Riichi) and not move.accepted:
            declaring.add(move.seat)
        elif isinstance(move, Discard):
            tile = TSUMOGIRI if move.tsumogiri else number(move.tile)
            discards[move.seat].append(f"r{tile}" if move.seat in declaring else tile)
            declaring.discard(move.seat)
        elif isinstance(move, Call):
            text = _call(move)
            (discards if move.kind in (CallKind.KAKAN, CallKind.ANKAN) else takes)[move.seat].append(text)
            if move.kind is CallKind.DAIMINKAN:
                discards[move.seat].append(0)
    entry: list[Any] = [
        [hand.round_wind * 4 + hand.number - 1, hand.honba, hand.riichi_sticks],
        list(hand.scores),
        [number(tile) for tile in hand.dora],
        [number(tile) for tile in hand.ura],
    ]
    for seat in range(4):
        entry += [[number(tile) for tile in hand.deal[seat]], takes[seat], discards[seat]]
    return [*entry, _result(hand)]


def _call(call: Call) -> str:
    """``c275226`` chi, ``p`` pon and ``m`` daiminkan placed by whom they called from, ``k`` kakan placed as its pon,
    ``a`` ankan last but one."""
    if call.kind is CallKind.NUKIDORA:
        raise ValueError("a nukidora is a three-player call; tenhou.net/6 four-player logs have none")
    if call.kind is CallKind.ANKAN:
        codes = [f"{number(tile):02d}" for tile in call.tiles]
        return "".join(codes[:3]) + "a" + codes[3]
    if call.called is None or call.from_seat is None:
        raise ValueError(f"seat {call.seat}'s {call.kind.value} names no called tile or seat")
    rest = list(call.tiles)
    rest.remove(call.called)
    place = _PLACES.get((call.kind, (call.from_seat - call.seat) % 4))
    if place is None:
        raise ValueError(f"seat {call.seat}'s {call.kind.value} from seat {call.from_seat} cannot be written")
    codes = [str(number(tile)) for tile in rest]
    head = "".join(codes)[:place]
    return head + _LETTERS[call.kind] + str(number(call.called)) + "".join(codes)[place:]


def _result(hand: HandRecord) -> list[Any]:
    results = hand.results
    if not results:
        raise ValueError(f"hand {hand.index} has no result")
    if isinstance(results[0], DrawnGame):
        return _drawn(results[0])
    entry: list[Any] = ["和了"]
    for win in results:
        if not isinstance(win, Win):
            raise ValueError(f"hand {hand.index} ends with both a win and a drawn game")
        pao = win.winner if win.pao_seat is None else win.pao_seat
        detail = [win.winner, win.from_seat, pao, _score(win, hand.dealer), *map(_yaku, win.yaku)]
        entry += [list(win.deltas), detail]
    return entry


def _drawn(game: DrawnGame) -> list[Any]:
    word = _DRAW_WORDS[game.kind]
    if game.tenpai == (0, 1, 2, 3):
        word = "全員聴牌"
    elif game.tenpai == () and not any(game.deltas):
        word = "全員不聴"
    return [word, list(game.deltas)]


def _score(win: Win, dealer: int) -> str:
    """Tenhou's score text: fu and han or the limit, then the points: a self-draw's as each payer pays."""
    if win.points is None:
        raise ValueError(f"seat {win.winner}'s win gives no points")
    head = _LIMIT_WORDS.get(win.limit) or f"{win.fu}符{win.han}飜"
    if not win.self_drawn:
        return f"{head}{win.points}点"
    if win.winner == dealer:
        return f"{head}{win.points // 3}点∀"
    child = -(-win.points // 400) * 100  # a child pays the base rounded up, the dealer twice the base rounded up
    return f"{head}{child}-{win.points - 2 * child}点"


def _yaku(yaku: Yaku) -> str:
    name = yaku.name if yaku.name in _BY_NAME else _NAMES.get(yaku.key, yaku.name)
    han = yaku.han or 0
    return f"{name}(役満)" if han >= YAKUMAN_HAN else f"{name}({han}飜)"
