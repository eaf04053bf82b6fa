"""Tenhou's mjlog XML, read tag by tag into the neutral form (``engine.records.game``).

An mjlog is one ``<mjloggm>`` element of empty tags: the header (``SHUFFLE`` seed, ``GO type`` rule bits, ``UN``
names, ``TAIKYOKU``), then per hand an ``INIT`` (``seed`` = round, honba, sticks, two dice 0-5, first dora
indicator; ``ten`` scores in hundreds; ``oya`` dealer; ``hai0``-``hai3`` the deal as tile ids 0-135), the moves
(``T U V W`` + id: seat 0-3 draws; ``D E F G`` + id: discards; ``N who m``: a meld, see ``tenhou_meld``;
``REACH who step``; ``DORA hai``), and its end: ``AGARI`` (one per winner) or ``RYUUKYOKU``; ``owari`` on the last
gives the final scores. ``BYE`` and a second ``UN`` mark a disconnection and a return, and change nothing.

The tags are scanned with one regular expression, not an XML parser, so that a cut or damaged file still gives every
hand before (and after) the damage: a hand that does not read whole is left out and named in ``problems``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote

from engine.records.errors import RecordError
from engine.records.game import (
    Call,
    DrawKind,
    DrawnGame,
    Format,
    GameRecord,
    HandRecord,
    RecordTile,
    Rules,
    Win,
    Yaku,
)
from engine.records.tenhou_meld import decode_meld
from engine.records.tenhou_yaku import YAKUMAN_HAN, tenhou_yaku
from engine.records.tracker import Broken, HandTracker

_TAG = re.compile(r'<(/?)([A-Za-z]+)([0-9]*)((?:\s+[A-Za-z_][A-Za-z0-9_]*="[^"<>]*")*)\s*(/?)>', re.ASCII)
_ATTR = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="([^"]*)"', re.ASCII)
_PROLOG = re.compile(r"\s*(?:<\?xml[^>]*\?>\s*)?", re.ASCII)
_INTEGERS = re.compile(r"-?[0-9]{1,9}(?:,-?[0-9]{1,9})*", re.ASCII)
_DECIMALS = re.compile(r"-?[0-9]{1,9}(?:\.[0-9]{1,9})?(?:,-?[0-9]{1,9}(?:\.[0-9]{1,9})?)*", re.ASCII)
_DRAWS = "TUVW"
_DISCARDS = "DEFG"
RED_IDS = frozenset({16, 52, 88})
"""The red fives' ids (the first copy of 5m, 5p, 5s) when the game plays with them."""
_LIMITS = ("", "mangan", "haneman", "baiman", "sanbaiman", "yakuman")
_ABORTS = {
    "yao9": DrawKind.NINE_TERMINALS,
    "reach4": DrawKind.FOUR_RIICHI,
    "ron3": DrawKind.TRIPLE_RON,
    "kan4": DrawKind.FOUR_KANS,
    "kaze4": DrawKind.FOUR_WINDS,
    "nm": DrawKind.NAGASHI_MANGAN,
}
_AFTER_END = frozenset({"AGARI", "/mjloggm", "UN", "BYE"})
"""Tags that may follow a hand's result: a further winner, the end of the game, a player leaving or returning."""
_ROOMS = {0x00: "一般", 0x80: "上級", 0x20: "特上", 0xA0: "鳳凰"}
FMT = Format.TENHOU_XML.value


class _Tag:
    __slots__ = ("_attrs", "name", "number", "offset", "raw")

    def __init__(self, name: str, number: str, raw: str, offset: int) -> None:
        self.name = name
        self.number = number
        self.raw = raw
        self.offset = offset
        self._attrs: dict[str, str] | None = None

    @property
    def attrs(self) -> dict[str, str]:
        """Read when first asked: most tags are a draw or a discard with none."""
        if self._attrs is None:
            self._attrs = dict(_ATTR.findall(self.raw))
        return self._attrs

    def get(self, key: str) -> str:
        value = self.attrs.get(key)
        if value is None:
            raise Broken(f"<{self.name}> has no attribute {key!r}")
        return value

    def ints(self, key: str, count: int | None = None) -> list[int]:
        """A comma-separated attribute as numbers (``count`` of them when given)."""
        text = self.get(key)
        if text and not _INTEGERS.fullmatch(text):
            raise Broken(f"<{self.name} {key}={text[:40]!r}> is not a list of numbers")
        values = [int(part) for part in text.split(",")] if text else []
        if count is not None and len(values) != count:
            raise Broken(f"<{self.name} {key}> has {len(values)} numbers, expected {count}")
        return values

    def int(self, key: str, low: int, high: int) -> int:
        (value,) = self.ints(key, 1)
        if not low <= value <= high:
            raise Broken(f"<{self.name} {key}={value}> is outside {low}-{high}")
        return value


def _tags(text: str, start: int) -> Iterator[_Tag]:
    """Every tag from ``start``; text between tags that is not blank (a cut or garbled tag) is raised as ``Broken``
    once, then scanning goes on after it."""
    position = start
    for match in _TAG.finditer(text, start):
        if match.start() > position and not text[position : match.start()].isspace():
            yield _Tag("?", "", text[position : match.start()], position)
        position = match.end()
        closing, name, number, raw, _ = match.groups()
        yield _Tag("/" + name if closing else name, number, raw, match.start())
    if position < len(text) and not text[position:].isspace():
        yield _Tag("?", "", text[position:], position)


def _table(red: bool) -> tuple[RecordTile, ...]:
    """The 136 tiles by id, made once per record."""
    return tuple(RecordTile(tile_id // 4, red and tile_id in RED_IDS, tile_id) for tile_id in range(136))


def _rules(go: int) -> Rules:
    """``GO type`` bits: 0x01 against people, 0x02 no red fives, 0x04 no open tanyao, 0x08 hanchan (else tonpuu),
    0x10 three players, 0x40 fast; 0x20 and 0x80 the room."""
    aka = (0, 0, 0) if go & 0x02 else (1, 1, 1)
    return Rules(
        aka=aka,
        length="south" if go & 0x08 else "east",
        open_tanyao=not go & 0x04,
        room=_ROOMS[go & 0xA0],
        fast=bool(go & 0x40),
        text=f"GO type={go}",
    )


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.table = _table(True)
        self.rules = Rules()
        self.players = ("", "", "", "")
        self.seed: str | None = None
        self.hands: list[HandRecord] = []
        self.problems: list[RecordError] = []
        self.final_scores: tuple[int, ...] | None = None
        self.final_results: tuple[float, ...] | None = None
        self.index = -1
        self.hand: _Hand | None = None

    def tile(self, tile_id: int) -> RecordTile:
        if not 0 <= tile_id <= 135:
            raise Broken(f"tile id {tile_id} is outside 0-135")
        return self.table[tile_id]

    def tiles(self, ids: list[int]) -> tuple[RecordTile, ...]:
        return tuple(self.tile(tile_id) for tile_id in ids)

    def read(self) -> GameRecord:
        start = _PROLOG.match(self.text)
        tags = _tags(self.text, start.end() if start else 0)
        self._header(tags)
        for tag in tags:
            self._hand_tag(tag)
        self._close_hand(len(self.text))
        return GameRecord(
            format=Format.TENHOU_XML,
            hands=tuple(self.hands),
            rules=self.rules,
            players=self.players,
            final_scores=self.final_scores,
            final_results=self.final_results,
            wall_seed=self.seed,
            problems=tuple(self.problems),
        )

    def _header(self, tags: Iterator[_Tag]) -> None:
        """The tags before the first ``INIT``: any damage here leaves the rules unknown, so the record is refused."""
        seen_go = False
        for tag in tags:
            try:
                if tag.name == "INIT":
                    if not seen_go:
                        raise Broken("the record has no <GO> tag, so its rules (red fives, length) are unknown")
                    self._hand_tag(tag)
                    return
                if tag.name == "GO":
                    go = tag.int("type", 0, 0xFFFF)
                    if go & 0x10:
                        raise Broken(f"<GO type={go}> is a three-player (sanma) game; the referee plays four")
                    self.rules = _rules(go)
                    self.table = _table(self.rules.red_fives)
                    seen_go = True
                elif tag.name == "UN":
                    self.players = tuple(unquote(tag.attrs.get(f"n{seat}", "")) for seat in range(4))
                elif tag.name == "SHUFFLE":
                    self.seed = tag.attrs.get("seed")
                elif tag.name not in ("mjloggm", "TAIKYOKU"):
                    raise Broken(f"unexpected {_describe(tag)} before the first hand")
            except Broken as error:
                raise RecordError(str(error), fmt=FMT, where=f"offset {tag.offset}") from None
        raise RecordError("the record holds no hand (no <INIT> tag)", fmt=FMT, where=f"offset {len(self.text)}")

    def _hand_tag(self, tag: _Tag) -> None:
        """One tag after the header. A damaged tag leaves its hand out, named with the move it broke at."""
        if tag.name == "INIT":
            self._close_hand(tag.offset)
            self.index += 1
            try:
                self.hand = _Hand(self, tag)
            except (Broken, ValueError) as error:
                self._fail(error, None, tag, move=0)
            return
        hand = self.hand
        if hand is None:
            self._stray(tag)
        elif not hand.tracker.over or tag.name in _AFTER_END:
            try:
                hand.take(tag)
            except (Broken, ValueError) as error:
                self._fail(error, hand, tag)
                self.hand = None
        elif tag.name == "?" and not _is_init(tag):
            self._fail(Broken(f"{_describe(tag)} after the hand's result: a result may be lost"), hand, tag)
            self.hand = None
        else:  # the hand is whole; what follows is a hand whose INIT is lost
            self._close_hand(tag.offset)
            self._lost_init(tag)

    def _stray(self, tag: _Tag) -> None:
        """A tag while no hand is open: the rest of a hand already named broken, or the damaged INIT of the next."""
        if _is_init(tag):
            self._lost_init(tag)

    def _lost_init(self, tag: _Tag) -> None:
        self.index += 1
        self._fail(Broken(f"the hand's <INIT> is missing or damaged ({_describe(tag)})"), None, tag, move=0)

    def _fail(self, error: Exception, hand: _Hand | None, tag: _Tag, move: int | None = None) -> None:
        if hand is not None:
            move = len(hand.tracker.moves)
        where = f"offset {tag.offset}"
        self.problems.append(RecordError(str(error), fmt=FMT, hand=self.index, move=move, where=where))

    def _close_hand(self, offset: int) -> None:
        """The open hand ends here (at the next ``INIT`` or the end of the text): kept if it ended, else named."""
        hand = self.hand
        self.hand = None
        if hand is None:
            return
        if not hand.tracker.over:
            cut = "the record is cut" if offset >= len(self.text.rstrip()) else "a tag is missing"
            self.problems.append(
                RecordError(
                    f"the hand has no AGARI or RYUUKYOKU: {cut}",
                    fmt=FMT,
                    hand=self.index,
                    move=len(hand.tracker.moves),
                    where=f"offset {offset}",
                )
            )
            return
        self.hands.append(hand.record(self.index))

    def close_game(self, tag: _Tag) -> None:
        if "owari" not in tag.attrs:
            return
        text = tag.get("owari")
        if not _DECIMALS.fullmatch(text):
            raise Broken(f"<{tag.name} owari={text[:40]!r}> is not a list of numbers")
        parts = [float(part) for part in text.split(",")]
        if len(parts) != 8:
            raise Broken(f"<{tag.name} owari> has {len(parts)} numbers, expected 8")
        self.final_scores = tuple(round(value * 100) for value in parts[0::2])
        self.final_results = tuple(parts[1::2])


def _is_init(tag: _Tag) -> bool:
    return tag.name == "?" and tag.raw.lstrip().startswith("<INIT")


def _describe(tag: _Tag) -> str:
    if tag.name == "?":
        return f"text {tag.raw[:40]!r} (a cut or damaged tag)"
    return f"<{tag.name}{tag.number}>"


class _Hand:
    """One hand between its ``INIT`` and the next: the tracker checks every move."""

    def __init__(self, reader: _Reader, tag: _Tag) -> None:
        self.reader = reader
        seed = tag.ints("seed", 6)
        round_number, self.honba, self.sticks, dice0, dice1, dora = seed
        if not 0 <= round_number <= 15 or not (0 <= dice0 <= 5 and 0 <= dice1 <= 5) or min(self.honba, self.sticks) < 0:
            raise Broken(f"<INIT seed={tag.get('seed')!r}> is not round 0-15, honba, sticks, two dice 0-5, dora")
        self.round = round_number
        self.dice = (dice0, dice1)
        scores = tag.ints("ten")
        if len(scores) != 4:
            raise Broken(f"<INIT ten> has {len(scores)} scores; a four-player game has 4")
        self.scores = tuple(score * 100 for score in scores)
        self.running = list(self.scores)
        self.dealer = tag.int("oya", 0, 3)
        if self.dealer != round_number % 4:
            raise Broken(
                f"<INIT oya={self.dealer}> is not the dealer of round {round_number} (seat {round_number % 4})"
            )
        self.deal = tuple(reader.tiles(tag.ints(f"hai{seat}", 13)) for seat in range(4))
        self.dora = [reader.tile(dora)]
        self.ura: tuple[RecordTile, ...] | None = None
        self.tracker = HandTracker([list(tiles) for tiles in self.deal], self.dealer, self.dora)

    def take(self, tag: _Tag) -> None:
        name, tracker = tag.name, self.tracker
        if len(tag.number) > 3:
            raise Broken(f"{_describe(tag)} names no tile id")
        if tag.number and name in _DRAWS and not tag.raw:
            tracker.draw(_DRAWS.index(name), self.reader.tile(int(tag.number)))
        elif tag.number and name in _DISCARDS and not tag.raw:
            seat = _DISCARDS.index(name)
            tile = self.reader.tile(int(tag.number))
            drawn = tracker.drawn[seat]
            tracker.discard(seat, tile, drawn is not None and drawn.id == tile.id)
        elif tag.number:
            raise Broken(f"unexpected {_describe(tag)}")
        elif name == "N":
            self._meld(tag)
        elif name == "REACH":
            seat, step = tag.int("who", 0, 3), tag.int("step", 1, 2)
            tracker.riichi(seat, step == 2)
            if step == 2:
                self._pay_stick(seat, tag)
        elif name == "DORA":
            tile = self.reader.tile(tag.int("hai", 0, 135))
            self.dora.append(tile)
            tracker.dora(tile)
        elif name == "AGARI":
            self._win(tag)
            self.reader.close_game(tag)
        elif name == "RYUUKYOKU":
            self._drawn(tag)
            self.reader.close_game(tag)
        elif name not in ("BYE", "UN", "/mjloggm"):
            raise Broken(f"unexpected {_describe(tag)}")

    def _pay_stick(self, seat: int, tag: _Tag) -> None:
        """An accepted riichi pays its stick; ``ten`` (when given) is the scores after it."""
        self.running[seat] -= 1000
        if "ten" in tag.attrs and [score * 100 for score in tag.ints("ten", 4)] != self.running:
            raise Broken(f"<REACH ten={tag.get('ten')}> are not the scores after seat {seat}'s stick: {self.running}")

    def _meld(self, tag: _Tag) -> None:
        seat = tag.int("who", 0, 3)
        meld = decode_meld(tag.int("m", 0, 0xFFFF))
        called = None if meld.called is None else self.reader.tile(meld.called)
        self.tracker.call(Call(meld.kind, seat, self.reader.tiles(list(meld.ids)), called, meld.from_seat(seat)))

    def _ura(self, tag: _Tag) -> tuple[RecordTile, ...]:
        """``doraHaiUra`` (the same on every winner of a double ron): counted once among the hand's tiles."""
        ura = self.reader.tiles(tag.ints("doraHaiUra")) if "doraHaiUra" in tag.attrs else ()
        if self.ura is None:
            self.tracker.ura(ura)
            self.ura = ura
        elif ura and ura != self.ura:
            raise Broken(f"<AGARI doraHaiUra> differs from the first winner's ({tag.get('doraHaiUra')})")
        return ura

    def _win(self, tag: _Tag) -> None:
        reader, tracker = self.reader, self.tracker
        winner, from_seat = tag.int("who", 0, 3), tag.int("fromWho", 0, 3)
        pao = tag.int("paoWho", 0, 3) if "paoWho" in tag.attrs else None
        honba, sticks = tag.ints("ba", 2)
        head = not any(isinstance(move, Win) for move in tracker.moves)
        fu, points, limit = tag.ints("ten", 3)
        if not 0 <= limit < len(_LIMITS):
            raise Broken(f"<AGARI ten> gives limit {limit}, not 0-{len(_LIMITS) - 1}")
        yaku = self._yaku(tag)
        hand = reader.tiles(tag.ints("hai"))
        win_tile = reader.tile(tag.int("machi", 0, 135))
        dora = reader.tiles(tag.ints("doraHai"))
        if dora != tuple(self.dora):
            raise Broken(f"<AGARI doraHai={tag.get('doraHai')}> are not the indicators turned in the hand")
        ura = self._ura(tag)
        win = Win(
            winner=winner,
            from_seat=from_seat,
            han=sum(item.han or 0 for item in yaku),
            deltas=self._deltas(tag),
            yaku=yaku,
            fu=fu,
            points=points,
            limit=_LIMITS[limit],
            pao_seat=pao,
            win_tile=win_tile,
            hand=tuple(sorted(hand)),
            honba=honba if head else 0,
            sticks=sticks if head else 0,
            dora=dora,
            ura=ura,
        )
        self._check_shown(win, tag)
        tracker.win(win)

    def _check_shown(self, win: Win, tag: _Tag) -> None:
        """The shown hand (``hai``), winning tile (``machi``) and melds (``m``) are the winner's as played."""
        tracker = self.tracker
        held = tracker.concealed(win.winner)
        if not win.self_drawn:
            last = tracker.last
            if last is None or last.tile != win.win_tile:
                raise Broken(f"<AGARI machi> {win.win_tile} is not the tile on offer")
            held = tuple(sorted((*held, win.win_tile)))
        elif tracker.drawn[win.winner] != win.win_tile:
            raise Broken(f"<AGARI machi> {win.win_tile} is not the tile seat {win.winner} drew")
        if held != win.hand:
            raise Broken(f"<AGARI hai> is not the hand seat {win.winner} holds")
        shown = sorted(decode_meld(m).ids for m in tag.ints("m")) if tag.attrs.get("m") else []
        played = sorted(tuple(tile.id for tile in meld.tiles) for meld in tracker.melds[win.winner])
        if shown != played:
            raise Broken(f"<AGARI m> are not the melds seat {win.winner} declared")

    def _yaku(self, tag: _Tag) -> tuple[Yaku, ...]:
        pairs = tag.ints("yaku") if tag.attrs.get("yaku") else []
        if len(pairs) % 2:
            raise Broken("<AGARI yaku> is not pairs of yaku number and han")
        yaku = [tenhou_yaku(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)]
        yakuman = tag.ints("yakuman") if tag.attrs.get("yakuman") else []
        yaku += [tenhou_yaku(number, YAKUMAN_HAN) for number in yakuman]
        if not yaku:
            raise Broken("<AGARI> gives no yaku")
        return tuple(yaku)

    def _deltas(self, tag: _Tag) -> tuple[int, ...]:
        """``sc``: score before and change, per seat, in hundreds. The scores before are the ones the hand has run
        to (its start, less the sticks paid, plus a first winner's changes): the record says them twice."""
        sc = tag.ints("sc", 8)
        before = [score * 100 for score in sc[0::2]]
        if before != self.running:
            raise Broken(f"<{tag.name} sc> starts from {before}, but the hand stands at {self.running}")
        deltas = tuple(delta * 100 for delta in sc[1::2])
        self.running = [score + delta for score, delta in zip(self.running, deltas, strict=True)]
        return deltas

    def _drawn(self, tag: _Tag) -> None:
        kind = _ABORTS.get(tag.attrs.get("type", ""), DrawKind.EXHAUSTIVE)
        if "type" in tag.attrs and tag.attrs["type"] not in _ABORTS:
            raise Broken(f"<RYUUKYOKU type={tag.attrs['type']!r}> is none of {', '.join(_ABORTS)}")
        shown = []
        for seat in range(4):
            if tag.attrs.get(f"hai{seat}"):
                tiles = tuple(sorted(self.reader.tiles(tag.ints(f"hai{seat}"))))
                if tiles != self.tracker.concealed(seat):
                    raise Broken(f"<RYUUKYOKU hai{seat}> is not the hand seat {seat} holds")
                shown.append((seat, tiles))
        ready = kind in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI_MANGAN)
        tenpai = tuple(seat for seat, _ in shown) if ready else None
        deltas = self._deltas(tag)
        if kind is DrawKind.EXHAUSTIVE and any(deltas) and tenpai != tuple(s for s in range(4) if deltas[s] > 0):
            raise Broken(f"<RYUUKYOKU> shows the ready hands of seats {tenpai}, but its payments {deltas} say others")
        self.tracker.drawn_game(DrawnGame(kind, deltas, tenpai, tuple(shown)))

    def record(self, index: int) -> HandRecord:
        return HandRecord(
            index=index,
            round_wind=self.round // 4,
            number=self.round % 4 + 1,
            honba=self.honba,
            riichi_sticks=self.sticks,
            dealer=self.dealer,
            deal=self.deal,
            moves=tuple(self.tracker.moves),
            scores=self.scores,
            dora=tuple(self.dora),
            ura=self.ura or (),
            dice=self.dice,
        )


def parse_mjlog(text: str) -> GameRecord:
    """Read an mjlog. Raises ``RecordError`` when the header is damaged (the rules unknown) or the game is not
    four-player; a damaged hand is left out and named in ``GameRecord.problems``."""
    return _Reader(text).read()
