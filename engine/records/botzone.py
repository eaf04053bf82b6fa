"""The Botzone / IJCAI Chinese Official (MCR) human-game text, read into the neutral form (``engine.records.game``).

One hand (one Botzone match) per block::

    Match 61602cb45ddc087351c04358        the match id
    Wind 1                                the prevalent wind, 0-3 = East South West North
    Player 0 Deal T8 B7 ...               each seat's 13 tiles
    Player 0 Draw J3 / Play T6            a draw, a discard
    Player 2 Chi T5                       a chow on the last discard, named by its middle tile
    Player 0 Peng W9 Ignore Player 3 Chi W8     a pung (or Gang, a kong) on it; a claim it beat is ignored
    Player 3 AnGang W7 / BuGang W9        a concealed kong, a pung made a kong
    Player 1 Hu B7                        a win (on the last discard, the added kong tile, or one's own draw)
    Fan 9 ???*1+??*1+???*1                the fan total, and each fan's name times its count
    Score -8 33 -17 -8                    the score changes
    Huang / Score 0 0 0 0                 a drawn hand

Tiles: ``W`` characters, ``B`` dots, ``T`` bamboo with ranks 1-9, ``F1``-``F4`` East South West North, ``J1``-``J3``
red, green, white dragon. A match is one hand: the format names no dealer (seat 0 deals: Botzone seats its first player
East), no hand number or honba (``number`` 1, ``honba`` 0) and keeps no running score (``scores`` is ``None``).
"""

from __future__ import annotations

import re

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
    Win,
    Yaku,
)
from engine.records.tracker import Broken, HandTracker
from engine.tiles import make_tile

FMT = Format.BOTZONE.value
_SUITS = {"W": "m", "B": "p", "T": "s"}
_HONORS = {"F1": 27, "F2": 28, "F3": 29, "F4": 30, "J1": 33, "J2": 32, "J3": 31}
_COUNT = re.compile(r"[0-9]{1,4}", re.ASCII)
_SCORE = re.compile(r"[-+]?[0-9]{1,6}", re.ASCII)
_CLAIMS = {"CHI", "PENG", "GANG", "HU"}
"""What an ``Ignore`` part may name: the claims a higher one beat."""


_TILES = {code: RecordTile(kind) for code, kind in _HONORS.items()} | {
    f"{letter}{rank}": RecordTile(make_tile(suit, rank)) for letter, suit in _SUITS.items() for rank in range(1, 10)
}


def tile(code: str) -> RecordTile:
    """One Botzone tile code (``W5``, ``F3``, ``J1``)."""
    found = _TILES.get(code)
    if found is None:
        raise Broken(f"{code!r} is no Botzone tile (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3)")
    return found


class _Hand:
    """One ``Match`` block, its lines fed one by one."""

    def __init__(self, ref: str) -> None:
        self.ref = ref
        self.wind: int | None = None
        self.deal: list[tuple[RecordTile, ...] | None] = [None, None, None, None]
        self.tracker: HandTracker | None = None
        self.fan: tuple[int, tuple[Yaku, ...]] | None = None
        self.winners: list[tuple[int, int, RecordTile, tuple[RecordTile, ...]]] = []
        self.huang = False
        self.done = False

    def line(self, words: list[str]) -> None:
        head = words[0]
        if head == "Wind":
            if self.wind is not None or len(words) != 2 or words[1] not in ("0", "1", "2", "3"):
                raise Broken(f"'Wind' is to be given once, as 0-3: {' '.join(words)!r}")
            self.wind = int(words[1])
        elif head == "Player":
            self._player(words)
        elif head == "Fan":
            self._fan(words)
        elif head == "Huang":
            if len(words) != 1 or self.tracker is None:
                raise Broken("'Huang' out of place")
            self.huang = True
        elif head == "Score":
            self._score(words)
        elif head == "Ignore":  # a beaten claim on a line of its own
            _ignore(words)
        else:
            raise Broken(f"unknown line {' '.join(words)[:40]!r}")

    def _player(self, words: list[str]) -> None:
        if len(words) < 4 or words[1] not in ("0", "1", "2", "3"):
            raise Broken(f"'Player' is to be followed by a seat 0-3, an action and a tile: {' '.join(words)[:40]!r}")
        seat, action = int(words[1]), words[2]
        if action == "Deal":
            if self.deal[seat] is not None or self.tracker is not None:
                raise Broken(f"seat {seat} is dealt twice, or after play began")
            self.deal[seat] = tuple(tile(code) for code in words[3:])
            return
        if self.fan is not None or self.huang or (self.winners and action != "Hu"):
            raise Broken(f"'{action}' after the hand's end")
        tracker = self._start()
        rest = words[3:]
        if "Ignore" in rest:
            rest = _ignore(rest)
        if len(rest) != 1:
            raise Broken(f"'{action}' names {len(rest)} tiles, not 1")
        named = tile(rest[0])
        if action == "Draw":
            tracker.draw(seat, named)
        elif action == "Play":
            drawn = tracker.drawn[seat]
            tracker.discard(seat, named, None if drawn == named else False)
        elif action in ("Chi", "Peng", "Gang"):
            self._claim(seat, action, named)
        elif action == "AnGang":
            tracker.call(Call(CallKind.ANKAN, seat, (named,) * 4))
        elif action == "BuGang":
            tracker.call(Call(CallKind.KAKAN, seat, (named,) * 4, named))
        elif action == "Hu":
            self._hu(seat, named)
        else:
            raise Broken(f"unknown action {action!r}")

    def _start(self) -> HandTracker:
        if self.tracker is None:
            if self.wind is None or any(tiles is None for tiles in self.deal):
                raise Broken("play begins before 'Wind' and the four 'Deal' lines")
            self.tracker = HandTracker([list(tiles or ()) for tiles in self.deal], 0, [], aka=(0, 0, 0))
        return self.tracker

    def _claim(self, seat: int, action: str, named: RecordTile) -> None:
        tracker = self.tracker
        assert tracker is not None
        last = tracker.last
        if last is None:
            raise Broken(f"'{action}' with no discard on offer")
        called = last.tile
        if action == "Chi":
            if named.kind % 9 in (0, 8) or named.kind >= 27 or abs(called.kind - named.kind) > 1:
                raise Broken(f"'Chi {_code(named)}' names no run around the discard {_code(called)}")
            tiles = tuple(RecordTile(kind) for kind in (named.kind - 1, named.kind, named.kind + 1))
            tracker.call(Call(CallKind.CHI, seat, tiles, called, last.seat))
            return
        if named != called:
            raise Broken(f"'{action} {_code(named)}' claims {_code(named)}, but {_code(called)} was discarded")
        kind, size = (CallKind.PON, 3) if action == "Peng" else (CallKind.DAIMINKAN, 4)
        tracker.call(Call(kind, seat, (named,) * size, called, last.seat))

    def _hu(self, seat: int, named: RecordTile) -> None:
        """A win on the tile on offer (a discard, an added kong's tile) or on one's own draw."""
        tracker = self.tracker
        assert tracker is not None
        last = tracker.last
        if last is not None and last.seat != seat:
            if last.tile != named:
                raise Broken(f"'Hu {_code(named)}' on {_code(last.tile)}, the tile on offer")
            shown = tuple(sorted((*tracker.concealed(seat), named)))
            self.winners.append((seat, last.seat, named, shown))
        else:
            if tracker.drawn[seat] != named:
                raise Broken(f"'Hu {_code(named)}' by seat {seat}, which did not draw it")
            self.winners.append((seat, seat, named, tracker.concealed(seat)))

    def _fan(self, words: list[str]) -> None:
        if not self.winners or self.fan is not None or len(words) < 2 or not _COUNT.fullmatch(words[1]):
            raise Broken("'Fan' out of place, or with no total")
        yaku = []
        for part in " ".join(words[2:]).split("+") if len(words) > 2 else []:
            name, star, count = part.rpartition("*")
            if not star or not _COUNT.fullmatch(count):
                raise Broken(f"fan {part!r} is not 'name*count'")
            yaku.append(Yaku("", name, None, int(count)))
        self.fan = (int(words[1]), tuple(yaku))

    def _score(self, words: list[str]) -> None:
        tracker = self.tracker
        if tracker is None or not (self.huang or self.fan is not None) or self.done:
            raise Broken("'Score' out of place")
        if not all(_SCORE.fullmatch(word) for word in words[1:]):
            raise Broken(f"'Score' is to give four numbers: {' '.join(words)[:40]!r}")
        deltas = tuple(int(word) for word in words[1:])
        if len(deltas) != 4:
            raise Broken(f"'Score' gives {len(deltas)} numbers, not 4")
        if self.huang:
            tracker.drawn_game(DrawnGame(DrawKind.EXHAUSTIVE, deltas))
        else:
            assert self.fan is not None
            total, yaku = self.fan
            for winner, from_seat, win_tile, shown in self.winners:
                tracker.win(Win(winner, from_seat, total, deltas, yaku, win_tile=win_tile, hand=shown))
        self.done = True

    def record(self, index: int) -> HandRecord:
        if not self.done or self.tracker is None or self.wind is None:
            raise Broken("the hand ends before its 'Score' line: the record is cut or a line is missing")
        return HandRecord(
            index=index,
            round_wind=self.wind,
            number=1,
            honba=0,
            riichi_sticks=0,
            dealer=0,
            deal=tuple(tiles or () for tiles in self.deal),
            moves=tuple(self.tracker.moves),
            ref=self.ref,
        )


def _ignore(rest: list[str]) -> list[str]:
    """The words before the first ``Ignore``; each ``Ignore Player N Claim Tile`` after it is checked and dropped."""
    first = rest.index("Ignore")
    tail = rest[first:]
    for start in range(0, len(tail), 5):
        part = tail[start : start + 5]
        if (
            len(part) != 5
            or part[:2] != ["Ignore", "Player"]
            or part[2] not in ("0", "1", "2", "3")
            or part[3].upper() not in _CLAIMS
        ):
            raise Broken(f"{' '.join(part)[:40]!r} is not 'Ignore Player N Chi/Peng/Gang/Hu tile'")
        tile(part[4])
    return rest[:first]


def _code(tile_: RecordTile) -> str:
    for code, kind in _HONORS.items():
        if kind == tile_.kind:
            return code
    suit = "WBT"[tile_.kind // 9]
    return f"{suit}{tile_.kind % 9 + 1}"


def parse_botzone(text: str) -> GameRecord:
    """Read a Botzone MCR text; a damaged hand is left out and named in ``GameRecord.problems``."""
    hands: list[HandRecord] = []
    problems: list[RecordError] = []
    hand: _Hand | None = None
    index = -1
    broken = False
    lines = text.splitlines()

    def close(line_number: int) -> None:
        if hand is None or broken:
            return  # nothing read yet, or a hand already named broken
        try:
            hands.append(hand.record(index))
        except Broken as error:
            moves = len(hand.tracker.moves) if hand.tracker else 0
            problems.append(RecordError(str(error), fmt=FMT, hand=index, move=moves, where=f"line {line_number}"))

    for number, line in enumerate(lines, start=1):
        words = line.split()
        if not words:
            continue
        if words[0] == "Match":
            close(number)
            index += 1
            hand, broken = _Hand(" ".join(words[1:])), False
            if len(words) != 2:
                where = f"line {number}"
                problems.append(RecordError("'Match' is to give one id", fmt=FMT, hand=index, move=0, where=where))
                broken = True
            continue
        if broken:
            continue
        if hand is None:
            problems.append(RecordError(f"{line[:40]!r} before the first 'Match'", fmt=FMT, where=f"line {number}"))
            broken = True
            continue
        try:
            hand.line(words)
        except Broken as error:
            moves = len(hand.tracker.moves) if hand.tracker else 0
            problems.append(RecordError(str(error), fmt=FMT, hand=index, move=moves, where=f"line {number}"))
            broken = True
    close(len(lines))
    return GameRecord(format=Format.BOTZONE, hands=tuple(hands), problems=tuple(problems))
