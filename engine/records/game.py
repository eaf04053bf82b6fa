"""The neutral form of a recorded game: what a Tenhou mjlog, a tenhou.net/6 JSON log and a Botzone MCR text all say,
in one shape a replay through the referee can walk without knowing which format it came from.

Tiles are the engine's kinds (``engine.tiles``) plus what a record may add: a red flag (red fives are kinds 5m/5p/5s
with ``red``) and the physical id where the format has one (Tenhou's 0-135; 16, 52 and 88 are the red fives when
the game has them). Seats are 0-3 in the record's own seating (seat 0 is the first East of the game); scores are
in points. The moves of a hand are in the order they happened; a hand ends with one ``Win`` per winner or with a
``DrawnGame``. Every value is what the record says: nothing is scored or settled here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.records.errors import RecordError
from engine.tiles import tile_code


class Format(StrEnum):
    TENHOU_XML = "tenhou-xml"
    """Tenhou's mjlog XML (``<mjloggm>``)."""
    TENHOU6 = "tenhou6"
    """tenhou.net/6 JSON (``{"log": [...]}``), also written by converters from other sites."""
    BOTZONE = "botzone"
    """The Botzone / IJCAI Chinese Official (MCR) human-game text (``Match``, ``Wind``, ``Player N ...``)."""


@dataclass(frozen=True, order=True, slots=True)
class RecordTile:
    """One tile as a record names it: the engine kind, red or not, and the physical id when the format has one."""

    kind: int
    red: bool = False
    id: int | None = None

    @property
    def code(self) -> str:
        """Compact code with ``0`` for a red five (``0m``), the common riichi spelling."""
        text = tile_code(self.kind)
        return "0" + text[1] if self.red else text

    def to_dict(self) -> str:
        """``5m``, ``0m`` (red), or with the physical id ``0m#16``: a tile is a value, so its JSON is one string."""
        return self.code if self.id is None else f"{self.code}#{self.id}"


def _tiles(tiles: tuple[RecordTile, ...]) -> list[str]:
    return [tile.to_dict() for tile in tiles]


class CallKind(StrEnum):
    CHI = "chi"
    PON = "pon"
    DAIMINKAN = "daiminkan"
    """An exposed kan on a discard (明槓, MCR 明杠)."""
    KAKAN = "kakan"
    """A pon made a kan with the fourth tile (加槓, MCR 补杠)."""
    ANKAN = "ankan"
    """A concealed kan (暗槓)."""
    NUKIDORA = "nukidora"
    """A north set aside (三麻 抜きドラ); decoded for completeness, refused with the three-player game."""


class DrawKind(StrEnum):
    """Why a hand ended with no win."""

    EXHAUSTIVE = "exhaustive"
    """The live wall ran out (荒牌流局, MCR 荒庄)."""
    NAGASHI_MANGAN = "nagashi_mangan"
    """The wall ran out and a player's discards were all terminals and honours, none claimed (流し満貫)."""
    NINE_TERMINALS = "nine_terminals"
    """九種九牌 (Tenhou ``yao9``)."""
    FOUR_RIICHI = "four_riichi"
    """四家立直 (``reach4``)."""
    TRIPLE_RON = "triple_ron"
    """三家和了 (``ron3``)."""
    FOUR_KANS = "four_kans"
    """四槓散了 (``kan4``)."""
    FOUR_WINDS = "four_winds"
    """四風連打 (``kaze4``)."""


@dataclass(frozen=True)
class Draw:
    """A tile drawn (from the live wall, or the replacement after a kan: the move after a ``Call`` kan)."""

    seat: int
    tile: RecordTile

    def to_dict(self) -> dict[str, Any]:
        return {"move": "draw", "seat": self.seat, "tile": self.tile.to_dict()}


@dataclass(frozen=True)
class Discard:
    """``tsumogiri``: the tile just drawn was discarded; ``None`` where the record cannot tell."""

    seat: int
    tile: RecordTile
    tsumogiri: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"move": "discard", "seat": self.seat, "tile": self.tile.to_dict(), "tsumogiri": self.tsumogiri}


@dataclass(frozen=True)
class Call:
    """A meld declared. ``tiles`` are all its tiles as the record lists them; ``called`` is the claimed discard (chi,
    pon, daiminkan) or the added tile (kakan), ``None`` for an ankan; ``from_seat`` is the seat that discarded the
    claimed tile (for a kakan, the one that gave the pon), ``None`` for an ankan."""

    kind: CallKind
    seat: int
    tiles: tuple[RecordTile, ...]
    called: RecordTile | None = None
    from_seat: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": "call",
            "kind": self.kind.value,
            "seat": self.seat,
            "tiles": _tiles(self.tiles),
            "called": None if self.called is None else self.called.to_dict(),
            "from": self.from_seat,
        }


@dataclass(frozen=True)
class Riichi:
    """Riichi declared (``accepted`` false: Tenhou's ``REACH step=1``, before the discard), or accepted (the discard
    passed unclaimed by a win, the 1000-point stick is paid: ``step=2``)."""

    seat: int
    accepted: bool

    def to_dict(self) -> dict[str, Any]:
        return {"move": "riichi", "seat": self.seat, "accepted": self.accepted}


@dataclass(frozen=True)
class NewDora:
    """A further dora indicator turned over (after a kan)."""

    indicator: RecordTile

    def to_dict(self) -> dict[str, Any]:
        return {"move": "dora", "indicator": self.indicator.to_dict()}


@dataclass(frozen=True)
class Yaku:
    """One scoring element as the record gives it. ``key`` is the project's name (the riichi ruleset's yaku keys:
    ``riichi``, ``seat_wind``, ``aka_dora``...; ``""`` when the record names something unknown), ``name`` the
    record's own words; ``han`` is the han (riichi) or ``None`` when the record gives none (MCR's ``Fan`` line
    counts each fan ``count`` times but does not give its value)."""

    key: str
    name: str
    han: int | None
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "han": self.han, "count": self.count}


@dataclass(frozen=True)
class Win:
    """One winner's win. ``from_seat`` equals ``winner`` for a self-draw. ``han`` is the han (riichi) or the fan total
    (MCR); ``fu`` and ``points`` (the hand's value before honba and sticks: 8000 for a mangan ron or a 2000-4000
    tsumo) are ``None`` where the record does not give them; ``limit`` is ``""``, ``mangan``, ``haneman``, ``baiman``,
    ``sanbaiman`` or ``yakuman``. ``deltas`` are the record's own score changes of this win per seat (honba and the
    sticks included as the record has them); ``honba``/``sticks`` are the counters this win collects: all of them for
    the first winner listed, none for a second winner of a double ron (Tenhou's 上家取り, which its deltas follow;
    an mjlog's ``ba`` may repeat the honba on the second winner). ``hand`` is the winner's concealed tiles as shown,
    winning tile
    included; ``dora``/``ura`` the indicators counted for it."""

    winner: int
    from_seat: int
    han: int
    deltas: tuple[int, ...]
    yaku: tuple[Yaku, ...] = ()
    fu: int | None = None
    points: int | None = None
    limit: str = ""
    pao_seat: int | None = None
    win_tile: RecordTile | None = None
    hand: tuple[RecordTile, ...] = ()
    honba: int = 0
    sticks: int = 0
    dora: tuple[RecordTile, ...] = ()
    ura: tuple[RecordTile, ...] = ()

    @property
    def self_drawn(self) -> bool:
        return self.winner == self.from_seat

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": "win",
            "winner": self.winner,
            "from": self.from_seat,
            "pao": self.pao_seat,
            "han": self.han,
            "fu": self.fu,
            "points": self.points,
            "limit": self.limit,
            "yaku": [yaku.to_dict() for yaku in self.yaku],
            "deltas": list(self.deltas),
            "win_tile": None if self.win_tile is None else self.win_tile.to_dict(),
            "hand": _tiles(self.hand),
            "honba": self.honba,
            "sticks": self.sticks,
            "dora": _tiles(self.dora),
            "ura": _tiles(self.ura),
        }


@dataclass(frozen=True)
class DrawnGame:
    """A hand ended with no win. ``tenpai`` are the seats the record shows ready (``None`` where it cannot tell, as
    after an abortive draw); ``shown`` the hands it lays open, by seat; ``deltas`` its score changes."""

    kind: DrawKind
    deltas: tuple[int, ...]
    tenpai: tuple[int, ...] | None = None
    shown: tuple[tuple[int, tuple[RecordTile, ...]], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": "drawn",
            "kind": self.kind.value,
            "deltas": list(self.deltas),
            "tenpai": None if self.tenpai is None else list(self.tenpai),
            "shown": {str(seat): _tiles(tiles) for seat, tiles in self.shown},
        }


Move = Draw | Discard | Call | Riichi | NewDora | Win | DrawnGame


@dataclass(frozen=True)
class HandRecord:
    """One hand (局) of a record. ``round_wind`` 0-3 = East South West North, ``number`` 1-4 (East 1 ... East 4),
    ``scores`` the points per seat at its start (``None`` where the record keeps no running score, as Botzone),
    ``dice`` as the record gives them (Tenhou's ``INIT seed``: two values 0-5), ``dora`` every indicator in the order
    turned (the first, then each ``NewDora``), ``ura`` the ura indicators where the record shows them, ``deal`` the
    13 tiles each seat was dealt, ``ref`` the record's own id of the hand (Botzone's match id)."""

    index: int
    round_wind: int
    number: int
    honba: int
    riichi_sticks: int
    dealer: int
    deal: tuple[tuple[RecordTile, ...], ...]
    moves: tuple[Move, ...]
    scores: tuple[int, ...] | None = None
    dora: tuple[RecordTile, ...] = ()
    ura: tuple[RecordTile, ...] = ()
    dice: tuple[int, int] | None = None
    ref: str | None = None

    @property
    def label(self) -> str:
        """``East 4, honba 1``: how players name the hand."""
        wind = ("East", "South", "West", "North")[self.round_wind]
        return f"{wind} {self.number}, honba {self.honba}"

    @property
    def results(self) -> tuple[Win | DrawnGame, ...]:
        return tuple(move for move in self.moves if isinstance(move, Win | DrawnGame))

    @property
    def deltas(self) -> tuple[int, ...]:
        """The record's score changes of the whole hand (every winner's summed), riichi sticks paid not included."""
        totals = [0, 0, 0, 0]
        for result in self.results:
            for seat, delta in enumerate(result.deltas):
                totals[seat] += delta
        return tuple(totals)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "round_wind": self.round_wind,
            "number": self.number,
            "honba": self.honba,
            "riichi_sticks": self.riichi_sticks,
            "dealer": self.dealer,
            "scores": None if self.scores is None else list(self.scores),
            "dice": None if self.dice is None else list(self.dice),
            "dora": _tiles(self.dora),
            "ura": _tiles(self.ura),
            "deal": [_tiles(tiles) for tiles in self.deal],
            "moves": [move.to_dict() for move in self.moves],
            "ref": self.ref,
        }


@dataclass(frozen=True)
class Rules:
    """The rule options a record states. ``aka`` counts the red fives of 5m, 5p, 5s; ``length`` is ``east``
    (東風 tonpuu), ``south`` (東南 hanchan) or ``None``; ``open_tanyao`` (喰断) ``None`` where unstated; ``room`` the
    lobby or room as the record names it (Tenhou 一般 上級 特上 鳳凰); ``text`` the record's own rule words (the
    ``GO type`` number, the ``rule.disp`` text)."""

    aka: tuple[int, int, int] = (0, 0, 0)
    length: str | None = None
    open_tanyao: bool | None = None
    room: str | None = None
    fast: bool = False
    text: str = ""

    @property
    def red_fives(self) -> bool:
        return any(self.aka)

    def to_dict(self) -> dict[str, Any]:
        return {
            "aka": list(self.aka),
            "red_fives": self.red_fives,
            "length": self.length,
            "open_tanyao": self.open_tanyao,
            "room": self.room,
            "fast": self.fast,
            "text": self.text,
        }


@dataclass(frozen=True)
class GameRecord:
    """A whole record. ``hands`` are the hands that read whole; ``problems`` name each hand that did not (and any
    damage outside hands), so a damaged file still gives its good hands. ``final_scores`` / ``final_results`` are
    the record's closing scores and its result points (Tenhou's ``owari`` / ``sc``: uma and oka applied), when
    it gives them. ``wall_seed`` is the record's shuffle seed (Tenhou's ``SHUFFLE seed``), from which the walls can
    be dealt again; ``ref`` the record's own id of the game."""

    format: Format
    hands: tuple[HandRecord, ...]
    rules: Rules = Rules()
    players: tuple[str, ...] = ("", "", "", "")
    final_scores: tuple[int, ...] | None = None
    final_results: tuple[float, ...] | None = None
    ref: str | None = None
    wall_seed: str | None = None
    problems: tuple[RecordError, ...] = field(default=(), compare=False)

    def strict(self) -> GameRecord:
        """The record itself when it read whole; else raises its first problem."""
        if self.problems:
            raise self.problems[0]
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format.value,
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "ref": self.ref,
            "wall_seed": self.wall_seed,
            "hands": [hand.to_dict() for hand in self.hands],
            "final_scores": None if self.final_scores is None else list(self.final_scores),
            "final_results": None if self.final_results is None else list(self.final_results),
            "problems": [problem.to_dict() for problem in self.problems],
        }
