"""tenhou.net/6 JSON logs, read into the neutral form (``engine.records.game``).

A log is ``{"name": [...], "rule": {"disp": "鳳南喰赤", "aka": 1}, "log": [hand, ...], "sc": [...]}``; a hand is
``[[kyoku, honba, sticks], scores, dora indicators, ura indicators, deal0, takes0, discards0, ... deal3, takes3,
discards3, result]``. Tiles are numbers: 11-19 man, 21-29 pin, 31-39 sou, 41-47 East ... 中, 51/52/53 the red 5m,
5p, 5s. A take is a drawn tile or a call on a discard (``c`` chi, ``p`` pon, ``m`` daiminkan: the letter stands
before the claimed tile, and its place says whose it was: first = the previous seat, second pair = opposite, last =
the next seat); a discard is a tile, ``60`` (the tile just drawn), ``r`` + tile (riichi), ``k``/``a`` strings
(kakan, ankan) or ``0`` (the slot of a daiminkan). ``result`` is ``["和了", deltas, [who, from, pao, text, yaku...],
...]`` or a draw's name with its deltas.

The record keeps each seat's takes and discards apart, not the order of play: the order is rebuilt as play goes,
the dealer first, each discard passing to the next seat unless another seat's next take is a call on it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

from engine.records.errors import RecordError
from engine.records.game import (
    Call,
    CallKind,
    DrawKind,
    DrawnGame,
    Format,
    GameRecord,
    HandRecord,
    RecordTile,
    Riichi,
    Rules,
    Win,
)
from engine.records.tenhou_yaku import yaku_from_text
from engine.records.tracker import Broken, HandTracker

FMT = Format.TENHOU6.value
TSUMOGIRI = 60
_DRAWS = {
    "流局": DrawKind.EXHAUSTIVE,
    "全員聴牌": DrawKind.EXHAUSTIVE,
    "全員不聴": DrawKind.EXHAUSTIVE,
    "流し満貫": DrawKind.NAGASHI_MANGAN,
    "九種九牌": DrawKind.NINE_TERMINALS,
    "四家立直": DrawKind.FOUR_RIICHI,
    "三家和了": DrawKind.TRIPLE_RON,
    "四槓散了": DrawKind.FOUR_KANS,
    "四風連打": DrawKind.FOUR_WINDS,
}
_LIMITS = {"満貫": "mangan", "跳満": "haneman", "倍満": "baiman", "三倍満": "sanbaiman", "役満": "yakuman"}
_POINTS = re.compile(
    r"(?:([0-9]{1,3})符([0-9]{1,3})飜|(満貫|跳満|倍満|三倍満|数え役満|役満))([0-9]{1,7})(?:-([0-9]{1,7}))?点(∀?)"
)
_ROOMS = {"般": "一般", "上": "上級", "特": "特上", "鳳": "鳳凰"}
_LOG_KEY = re.compile(r'"log"\s*:\s*\[')


def tile(code: Any) -> RecordTile:
    """One tenhou.net/6 tile number."""
    if not isinstance(code, int) or isinstance(code, bool):
        raise Broken(f"tile {code!r} is not a number")
    suit, rank = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= rank <= 9:
        return RecordTile((suit - 1) * 9 + rank - 1)
    if suit == 4 and 1 <= rank <= 7:
        return RecordTile(26 + rank)
    if suit == 5 and 1 <= rank <= 3:
        return RecordTile((rank - 1) * 9 + 4, red=True)
    raise Broken(f"tile {code} is no tenhou.net/6 tile (11-19, 21-29, 31-39, 41-47, 51-53)")


def _pairs(text: str) -> list[RecordTile]:
    """Tiles written as two-digit numbers one after another (``275226``)."""
    if len(text) % 2 or not text.isdigit() or not text.isascii():
        raise Broken(f"{text!r} is not tiles written as two-digit numbers")
    return [tile(int(text[i : i + 2])) for i in range(0, len(text), 2)]


def _call(text: str, seat: int) -> Call:
    """A call string of the takes (chi, pon, daiminkan) or of the discards (kakan, ankan)."""
    letters = [char for char in text if char.isalpha()]
    if len(letters) != 1 or letters[0] not in "cpmka":
        raise Broken(f"call {text!r} is not one of c, p, m, k, a and tiles")
    letter = letters[0]
    place = text.index(letter)
    called, *_ = _pairs(text[place + 1 : place + 3])
    tiles = _pairs(text[:place] + text[place + 1 :])
    kind, source = _CALLS.get((letter, place, len(tiles)), (None, 0))
    if kind is None:
        raise Broken(f"call {text!r}: {letter!r} cannot stand at place {place} of {len(tiles)} tiles")
    if kind is CallKind.ANKAN:
        return Call(kind, seat, tuple(tiles))
    return Call(kind, seat, tuple(tiles), called, (seat + source) % 4)


_CALLS = {
    ("c", 0, 3): (CallKind.CHI, 3),
    ("p", 0, 3): (CallKind.PON, 3),
    ("p", 2, 3): (CallKind.PON, 2),
    ("p", 4, 3): (CallKind.PON, 1),
    ("m", 0, 4): (CallKind.DAIMINKAN, 3),
    ("m", 2, 4): (CallKind.DAIMINKAN, 2),
    ("m", 6, 4): (CallKind.DAIMINKAN, 1),
    ("k", 0, 4): (CallKind.KAKAN, 3),
    ("k", 2, 4): (CallKind.KAKAN, 2),
    ("k", 4, 4): (CallKind.KAKAN, 1),
    ("a", 6, 4): (CallKind.ANKAN, 0),
}
"""(letter, its place, tiles) to the call and the source relative to the caller (3 previous, 2 opposite, 1 next)."""


def _rules(rule: Any) -> Rules:
    if not isinstance(rule, dict):
        raise Broken(f"'rule' is {type(rule).__name__}, not an object")
    disp = rule.get("disp", "")
    if not isinstance(disp, str):
        raise Broken("'rule.disp' is not text")
    if "三" in disp or "3-Player" in disp:
        raise Broken(f"rule {disp!r} is a three-player (sanma) game; the referee plays four")
    english = disp.isascii()
    length = None
    if "東" in disp or "East" in disp:
        length = "east"
    elif "南" in disp or "South" in disp:
        length = "south"
    room = _ROOMS.get(disp[:1])
    if english:
        room = " ".join(word for word in disp.split() if word not in ("East", "South")) or None
    shared = _count(rule, "aka")
    aka = tuple(_count(rule, f"aka5{suit}") or shared or int("赤" in disp) for suit in (1, 2, 3))
    return Rules(
        aka=aka,  # type: ignore[arg-type]
        length=length,
        open_tanyao=None if english else "喰" in disp,
        room=room,
        fast="速" in disp,
        text=disp,
    )


def _count(rule: dict[str, Any], key: str) -> int:
    value = rule.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 4:
        raise Broken(f"'rule.{key}' is {value!r}, not a count 0-4")
    return value


def _numbers(value: Any, what: str, count: int | None = None) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise Broken(f"{what} is not a list of numbers")
    if count is not None and len(value) != count:
        raise Broken(f"{what} has {len(value)} numbers, expected {count}")
    return value


class _Hand:
    """One ``log`` entry: its fields read and checked, its play rebuilt by ``play``."""

    def __init__(self, entry: Any, rules: Rules, known: bool = True) -> None:
        if not isinstance(entry, list) or len(entry) != 17:
            raise Broken(f"the hand is not a list of 17 items ({_size(entry)})")
        kyoku, self.honba, self.sticks = _numbers(entry[0], "the hand's [kyoku, honba, sticks]", 3)
        if not 0 <= kyoku <= 15 or self.honba < 0 or self.sticks < 0:
            raise Broken(f"the hand's [kyoku, honba, sticks] {entry[0]} is not kyoku 0-15 and two counts")
        self.kyoku = kyoku
        self.dealer = kyoku % 4
        self.aka = rules.aka if known else None
        """The red fives to count against, unless the log does not say."""
        self.scores = tuple(_numbers(entry[1], "the hand's scores", 4))
        self.dora = [tile(code) for code in _numbers(entry[2], "the dora indicators")]
        self.ura = tuple(tile(code) for code in _numbers(entry[3], "the ura indicators"))
        if not self.dora:
            raise Broken("the hand has no dora indicator")
        self.deal = tuple(
            tuple(tile(code) for code in _numbers(entry[4 + 3 * seat], f"seat {seat}'s deal", 13)) for seat in range(4)
        )
        self.takes = [_list(entry[5 + 3 * seat], f"seat {seat}'s takes") for seat in range(4)]
        self.discards = [_list(entry[6 + 3 * seat], f"seat {seat}'s discards") for seat in range(4)]
        self.result = _list(entry[16], "the result")
        self.moves_read = 0
        """How far the first order of play got, for the error that names a broken hand."""

    def play(self) -> HandTracker:
        """The moves in the order of play. Where a seat's next take is a call on a tile its source discards twice in a
        row (no draw of the caller between), the record cannot say which discard was claimed: the first is tried,
        then, if the hand does not play to its end that way, the later one (a depth-first search, bounded)."""
        plan: list[bool] = []
        first: Broken | None = None
        for _ in range(_ATTEMPTS):
            attempt = _Play(self, plan)
            try:
                attempt.run()
            except Broken as error:
                if first is None:
                    first, self.moves_read = error, len(attempt.tracker.moves)
                plan = attempt.made
                while plan and not plan[-1]:
                    plan.pop()
                if not plan:
                    break
                plan[-1] = False
                continue
            return attempt.tracker
        assert first is not None
        raise first

    def record(self, index: int, tracker: HandTracker) -> HandRecord:
        return HandRecord(
            index=index,
            round_wind=self.kyoku // 4,
            number=self.kyoku % 4 + 1,
            honba=self.honba,
            riichi_sticks=self.sticks,
            dealer=self.dealer,
            deal=self.deal,
            moves=tuple(tracker.moves),
            scores=self.scores,
            dora=tuple(self.dora),
            ura=self.ura,
        )


_ATTEMPTS = 64
"""Orders of play tried for one hand before it is named broken."""


class _Play:
    """One attempt at the order of play. ``plan`` gives the first claim decisions (true: the seat whose next take is
    a call on this discard claims it now; false: it lets it pass); later ones default to claiming. ``made`` lists
    every decision taken."""

    def __init__(self, hand: _Hand, plan: list[bool]) -> None:
        self.hand = hand
        self.plan = plan
        self.made: list[bool] = []
        self.tracker = HandTracker(
            [list(tiles) for tiles in hand.deal], hand.dealer, hand.dora[:1], implicit_riichi=True, aka=hand.aka
        )
        self.took = [0, 0, 0, 0]
        self.threw = [0, 0, 0, 0]
        self.turned = 1
        """Dora indicators turned so far."""
        self.pending = False
        """A daiminkan or kakan whose indicator turns after the next discard (or at the next kan)."""
        self.at_draw = False
        """An indicator that turns with the next draw: the waiting one when a kakan follows an open kan."""

    def run(self) -> None:
        """Every take and discard in the order of play, then the result."""
        hand, tracker, took, threw = self.hand, self.tracker, self.took, self.threw
        actor = hand.dealer
        while True:
            if took[actor] >= len(hand.takes[actor]):
                raise Broken(f"seat {actor} is to take a tile, but its takes are used up")
            take = hand.takes[actor][took[actor]]
            took[actor] += 1
            if isinstance(take, str):
                call = tracker.call(_call(take, actor))
                if call.kind is CallKind.DAIMINKAN:
                    if threw[actor] >= len(hand.discards[actor]) or hand.discards[actor][threw[actor]] != 0:
                        raise Broken(f"seat {actor}'s daiminkan {take!r} has no 0 in its discards")
                    threw[actor] += 1
                    self._kan_dora(call.kind)
                    continue
            else:
                if self.at_draw:
                    self._turn_dora()
                    self.at_draw = False
                tracker.draw(actor, tile(take))
            if threw[actor] >= len(hand.discards[actor]):
                break  # a self-drawn win, or nine terminals
            discard = hand.discards[actor][threw[actor]]
            threw[actor] += 1
            if isinstance(discard, str) and discard[:1] != "r":
                self._kan_dora(tracker.call(_call(discard, actor)).kind)
                if self._all_taken():
                    break  # the added kan robbed
                continue
            self._discard(actor, discard)
            if self.pending:
                self._turn_dora()
                self.pending = False
            if self._all_taken():
                break  # a win on this discard, or the wall ran out
            actor = self._next(actor)
        for seat in range(4):
            if threw[seat] < len(hand.discards[seat]):
                raise Broken(f"seat {seat} has {len(hand.discards[seat]) - threw[seat]} discards after the hand ended")
        self._result()

    def _all_taken(self) -> bool:
        return all(self.took[seat] >= len(self.hand.takes[seat]) for seat in range(4))

    def _kan_dora(self, kind: CallKind) -> None:
        """Tenhou turns a concealed kan's indicator at once, an open kan's after the discard that follows. A kan
        declared before that discard turns the waiting one first, but for a kakan, which may still be robbed: then
        it turns with the replacement draw (a robbed kakan turns none)."""
        if self.pending and kind is CallKind.KAKAN:
            self.at_draw = True
        elif self.pending:
            self._turn_dora()
        if kind is CallKind.ANKAN:
            self._turn_dora()
        self.pending = kind is not CallKind.ANKAN

    def _discard(self, seat: int, discard: Any) -> None:
        tracker = self.tracker
        if isinstance(discard, str):
            tracker.riichi(seat, False)
            if not discard[1:].isdigit() or not discard.isascii():
                raise Broken(f"riichi discard {discard!r} is not 'r' and a tile")
            discard = int(discard[1:])
        if discard == TSUMOGIRI:
            drawn = tracker.drawn[seat]
            if drawn is None:
                raise Broken(f"seat {seat} discards the tile it drew (60), but it drew none")
            tracker.discard(seat, drawn, True)
        else:
            tracker.discard(seat, tile(discard), False)

    def _next(self, actor: int) -> int:
        """The seat that claims ``actor``'s discard (its next take is a call from ``actor`` on that very tile; a pon or
        kan before a chi, as the claims rank), else the next seat."""
        hand, thrown = self.hand, self.tracker.last
        claims = []
        for step in (1, 2, 3):
            seat = (actor + step) % 4
            if self.took[seat] < len(hand.takes[seat]):
                take = hand.takes[seat][self.took[seat]]
                if isinstance(take, str):
                    call = _call(take, seat)
                    if call.from_seat == actor and thrown is not None and call.called == thrown.tile:
                        claims.append((call.kind is CallKind.CHI, step, seat))
        if not claims:
            return (actor + 1) % 4
        claim = self.plan[len(self.made)] if len(self.made) < len(self.plan) else True
        self.made.append(claim)
        return min(claims)[2] if claim else (actor + 1) % 4

    def _turn_dora(self) -> None:
        dora = self.hand.dora
        if self.turned >= len(dora):
            raise Broken(f"a kan turns dora indicator {self.turned + 1}, but the record lists {len(dora)}")
        self.tracker.dora(dora[self.turned])
        self.turned += 1

    def _result(self) -> None:
        hand, result = self.hand, self.hand.result
        if not result or not isinstance(result[0], str):
            raise Broken("the result names no outcome")
        while self.turned < len(hand.dora):  # a kan's indicator turned as the hand ended on its replacement tile
            self._turn_dora()
        self.tracker.ura(hand.ura)
        if result[0] == "和了":
            if len(result) < 3 or len(result) % 2 == 0:
                raise Broken("a win result is not pairs of deltas and details")
            for place in range(1, len(result), 2):
                self._win(result[place], result[place + 1], head=place == 1)
            return
        kind = _DRAWS.get(result[0])
        if kind is None:
            raise Broken(f"result {result[0]!r} is neither 和了 nor a draw ({', '.join(_DRAWS)})")
        deltas = tuple(_numbers(result[1], "the draw's deltas", 4)) if len(result) > 1 else (0, 0, 0, 0)
        tenpai = None
        if result[0] == "全員聴牌":
            tenpai = (0, 1, 2, 3)
        elif result[0] == "全員不聴":
            tenpai = ()
        elif kind is DrawKind.EXHAUSTIVE and any(deltas):
            tenpai = tuple(seat for seat in range(4) if deltas[seat] > 0)
        self.tracker.drawn_game(DrawnGame(kind, deltas, tenpai))

    def _win(self, deltas: Any, detail: Any, head: bool) -> None:
        hand, tracker = self.hand, self.tracker
        deltas = _numbers(deltas, "a win's deltas", 4)
        if not isinstance(detail, list) or len(detail) < 5:
            raise Broken("a win's details are not [who, from, pao, text, yaku...]")
        winner, from_seat, pao = _numbers(detail[:3], "a win's [who, from, pao]", 3)
        if not all(0 <= seat <= 3 for seat in (winner, from_seat, pao)):
            raise Broken(f"a win's [who, from, pao] {detail[:3]} are not seats 0-3")
        text = detail[3]
        if not isinstance(text, str) or not all(isinstance(item, str) for item in detail[4:]):
            raise Broken("a win's score and yaku are not text")
        fu, han, points = _score(text)
        try:
            yaku = tuple(yaku_from_text(item) for item in detail[4:])
        except ValueError as error:
            raise Broken(str(error)) from None
        if len({item.name for item in yaku}) < len(yaku):
            raise Broken(f"a win lists a yaku twice: {', '.join(item.name for item in yaku)}")
        if han is not None and han != sum(item.han or 0 for item in yaku):
            raise Broken(f"a win's score {text!r} counts {han} han, its yaku {sum(item.han or 0 for item in yaku)}")
        win_tile = tracker.drawn[winner] if winner == from_seat else tracker.last.tile if tracker.last else None
        shown = tracker.concealed(winner)
        if winner != from_seat and win_tile is not None:
            shown = tuple(sorted((*shown, win_tile)))
        riichi = any(isinstance(move, Riichi) and move.seat == winner for move in tracker.moves)
        accepted = sum(1 for move in tracker.moves if isinstance(move, Riichi) and move.accepted)
        tracker.win(
            Win(
                winner=winner,
                from_seat=from_seat,
                han=sum(item.han or 0 for item in yaku),
                deltas=tuple(deltas),
                yaku=yaku,
                fu=fu,
                points=points[0],
                limit=points[1],
                pao_seat=None if pao == winner else pao,
                win_tile=win_tile,
                hand=shown,
                honba=hand.honba if head else 0,
                sticks=hand.sticks + accepted if head else 0,
                dora=tuple(hand.dora),
                ura=hand.ura if riichi else (),
            )
        )


def _score(text: str) -> tuple[int | None, int | None, tuple[int, str]]:
    """``30符3飜1000-2000点`` (a self-draw: 1000 from each other seat, 2000 from the dealer), ``満貫8000点``,
    ``30符4飜3900点∀`` (the dealer's self-draw: 3900 from every seat) to fu, han and (points, limit)."""
    match = _POINTS.search(text)
    if match is None:
        raise Broken(f"score {text!r} is not 'N符N飜P点' or a limit name and 'P点'")
    fu, han, name, first, second, everyone = match.groups()
    points = 2 * int(first) + int(second) if second else 3 * int(first) if everyone else int(first)
    limit = "yakuman" if name == "数え役満" else _LIMITS.get(name or "", "")
    return (int(fu) if fu else None), (int(han) if han else None), (points, limit)


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise Broken(f"{what} is not a list")
    return value


def _size(value: Any) -> str:
    return f"{len(value)} items" if isinstance(value, list) else type(value).__name__


def _entries(text: str) -> tuple[dict[str, Any], Iterator[tuple[Any, int]], RecordError | None]:
    """The header fields and the ``log`` entries with their offsets. A whole JSON document is read at once; a damaged
    one is salvaged: each header field read where it stands, and the ``log`` entries one by one up to the damage."""
    decoder = json.JSONDecoder()
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        damage = RecordError(f"the JSON is damaged: {error.msg}", fmt=FMT, where=f"offset {error.pos}")
    except (ValueError, RecursionError) as error:  # a number too long for int(), arrays nested too deep
        damage = RecordError(f"the JSON cannot be read: {type(error).__name__}", fmt=FMT)
    else:
        if not isinstance(document, dict) or not isinstance(document.get("log"), list):
            raise RecordError("the JSON is not an object with a 'log' list", fmt=FMT)
        return document, ((entry, 0) for entry in document["log"]), None
    header: dict[str, Any] = {}
    for key in ("name", "rule", "sc", "ref"):
        for found in re.finditer(rf'"{key}"\s*:\s*', text):
            try:
                header[key] = decoder.raw_decode(text, found.end())[0]
                break
            except (ValueError, RecursionError):
                continue
    log = _LOG_KEY.search(text)
    if log is None:
        raise RecordError("the JSON is damaged and no 'log' list can be found in it", fmt=FMT, where=damage.where)

    def salvage() -> Iterator[tuple[Any, int]]:
        position = log.end()
        while True:
            while position < len(text) and text[position] in " \t\r\n,":
                position += 1
            if text.startswith("]", position):
                return
            try:
                entry, end = decoder.raw_decode(text, position)
            except (ValueError, RecursionError):
                return
            yield entry, position
            position = end

    return header, salvage(), damage


def parse_tenhou6(text: str) -> GameRecord:
    """Read a tenhou.net/6 log. Raises ``RecordError`` when the ``log`` list cannot be found, the header is damaged
    or the game is not four-player; a damaged hand is left out and named in ``GameRecord.problems``, and so is a
    missing ``rule`` (the hands still read: their tiles say which are red)."""
    header, entries, damage = _entries(text)
    problems: list[RecordError] = []
    rules = Rules()
    try:
        if "rule" in header:
            rules = _rules(header["rule"])
        else:  # the tiles say red for themselves, so the hands still read
            problems.append(RecordError("the log has no 'rule': red fives and length unknown", fmt=FMT))
        players = _players(header.get("name"))
        final = _final(header.get("sc"))
    except Broken as error:
        raise RecordError(str(error), fmt=FMT, where="the header") from None
    hands: list[HandRecord] = []
    count = 0
    for index, (entry, offset) in enumerate(entries):
        count = index + 1
        hand = None
        try:
            hand = _Hand(entry, rules, known="rule" in header)
            tracker = hand.play()
        except Broken as error:
            move = hand.moves_read if hand is not None else 0
            where = f"log[{index}]" + (f" at offset {offset}" if offset else "")
            problems.append(RecordError(str(error), fmt=FMT, hand=index, move=move, where=where))
            continue
        hands.append(hand.record(index, tracker))
    if damage is not None:
        problems.append(RecordError(damage.reason, fmt=FMT, hand=count, move=0, where=damage.where))
    ref = header.get("ref")
    return GameRecord(
        format=Format.TENHOU6,
        hands=tuple(hands),
        rules=rules,
        players=players,
        final_scores=final[0] if final else None,
        final_results=final[1] if final else None,
        ref=ref if isinstance(ref, str) else None,
        problems=tuple(problems),
    )


def _players(names: Any) -> tuple[str, ...]:
    if names is None:
        return ("", "", "", "")
    if not isinstance(names, list) or len(names) != 4 or not all(isinstance(name, str) for name in names):
        raise Broken("'name' is not four names")
    return tuple(names)


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _final(sc: Any) -> tuple[tuple[int, ...], tuple[float, ...]] | None:
    """``sc``: final score and result points per seat, alternating."""
    if sc is None:
        return None
    if not isinstance(sc, list) or len(sc) != 8 or not all(_finite(v) for v in sc):
        raise Broken("'sc' is not four pairs of final score and result")
    return tuple(int(v) for v in sc[0::2]), tuple(float(v) for v in sc[1::2])
