"""The MCR community notation for a whole hand, as used by the fan calculators.

``[123m,1][777p,3]55m789p23s4s|EE1000|2`` reads:

* ``[...]`` declared melds. ``[123m,2]`` a chow whose 2nd tile was claimed; ``[777p,3]`` a pung from player 3
  (1 = 上家 on the left, 2 = 对家, 3 = 下家 on the right); ``[4444p]`` a concealed kong, ``[4444p,1]`` a kong
  on a discard, ``[4444p,5]``-``[4444p,7]`` an added kong (supplier of the pung = offer - 4). A chow or pung
  written without a number is exposed with the supplier unknown.
* the standing tiles, the last of them being the winning tile; a trailing space instead marks a waiting
  hand (13 - 3k tiles, no winning tile). Honors are ``ESWN`` and ``C`` 中, ``F`` 发, ``P`` 白, or ``1z``-``7z``.
* ``|EE1000``: prevalent wind, seat wind, self-drawn, 绝张 (last of its kind), last wall tile, kong-related.
* ``|n`` or ``|abc``: the number of flowers, or the flowers themselves (``a``-``h`` = 春夏秋冬梅兰菊竹).

See ``../shared/anchor-data/README.md``. ``parse_hand(format_hand(h)) == h`` for every hand, and
``format_hand`` writes one canonical string per hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import TypeVar

from engine.errors import NotationError
from engine.native import NATIVE
from engine.tiles import FLOWERS, SUIT_OFFSET, SUIT_SIZE, WIND_LETTERS, Tile, format_tiles, is_honor

T = TypeVar("T")

HONOR_LETTERS = "ESWNPFC"
"""MCR letters of tiles 1z-7z: the winds, then 白 (P), 发 (F), 中 (C)."""
FLOWER_LETTERS = "abcdefgh"


class MeldKind(StrEnum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"


@dataclass(frozen=True)
class Meld:
    """A declared set. ``tile`` is its lowest tile; ``offer`` as in the notation (see the module doc)."""

    kind: MeldKind
    tile: Tile
    offer: int | None = None

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind is MeldKind.CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind is MeldKind.KONG else 3)

    @property
    def is_concealed_kong(self) -> bool:
        return self.kind is MeldKind.KONG and self.offer is None

    @property
    def is_added_kong(self) -> bool:
        return self.kind is MeldKind.KONG and self.offer is not None and self.offer >= 5

    @property
    def supplier(self) -> int | None:
        """Relative seat that supplied the claimed tile (1 上家, 2 对家, 3 下家) of a pung or kong."""
        if self.kind is MeldKind.CHOW or self.offer is None:
            return None
        return self.offer - 4 if self.offer >= 5 else self.offer


@dataclass(frozen=True)
class Situation:
    """The ``|EE1000`` block. Winds are 0-3 = E S W N."""

    prevalent_wind: int = 0
    seat_wind: int = 0
    self_drawn: bool = False
    fourth_tile: bool = False
    last_tile: bool = False
    kong_related: bool = False


@dataclass(frozen=True)
class Hand:
    """A hand as the fan calculators see it.

    ``situation`` and ``flowers`` are ``None`` when the string leaves them out (the defaults then apply:
    ``Situation()`` and no flowers); ``flowers`` is a count or the flower tiles themselves.
    """

    melds: tuple[Meld, ...] = ()
    standing: tuple[Tile, ...] = ()
    win_tile: Tile | None = None
    situation: Situation | None = None
    flowers: int | tuple[Tile, ...] | None = None

    @property
    def flower_count(self) -> int:
        if self.flowers is None:
            return 0
        return self.flowers if isinstance(self.flowers, int) else len(self.flowers)

    @property
    def context(self) -> Situation:
        return self.situation or Situation()

    def all_tiles(self) -> list[Tile]:
        """Every playing tile of the hand: melds, standing tiles and the winning tile."""
        tiles = [tile for meld in self.melds for tile in meld.tiles]
        tiles.extend(self.standing)
        if self.win_tile is not None:
            tiles.append(self.win_tile)
        return tiles


_HONOR_TILE = {letter: SUIT_OFFSET["z"] + index for index, letter in enumerate(HONOR_LETTERS)}
_RANK_SUITS = {suit: (SUIT_OFFSET[suit], SUIT_SIZE[suit]) for suit in "mpsz"}


_TOKENS = re.compile(r"[1-9]+[mps]|[1-7]+z|[ESWNPFC]")


@dataclass(frozen=True)
class TileNotation:
    """The tiles of a ruleset whose faces are not the engine's (十万's ranks 1-10) inside the MCR notation:
    ``read(part, start, source)`` the tiles of one part of ``source`` starting at ``start`` (a ``NotationError``
    naming the position of a bad one), ``chow(tiles)`` whether three sorted tiles are a chow. ``parse_hand``
    without one reads the engine's own tiles."""

    read: Callable[[str, int, str], list[Tile]]
    chow: Callable[[Sequence[Tile]], bool]


@lru_cache(maxsize=4096)
def _token_tiles(token: str) -> tuple[Tile, ...]:
    """Tiles of one well-formed token (``789p``, ``E``); tokens repeat across hands, so they are cached."""
    return tuple(_read_mcr_tiles(token, 0, token))


def _parse_mcr_tiles(text: str, start: int, source: str) -> list[Tile]:
    """Tiles in MCR notation (compact digits + suit, or honor letters) between ``start`` and its end.

    ``mjtable score`` reads every hand through here: well-formed text is split into tokens by one regular
    expression and each token read once; anything else goes through the character reader, which names the
    position of the first fault."""
    tokens = _TOKENS.findall(text)
    if sum(map(len, tokens)) == len(text):
        return [tile for token in tokens for tile in _token_tiles(token)]
    return _read_mcr_tiles(text, start, source)


def _read_mcr_tiles(text: str, start: int, source: str) -> list[Tile]:
    """The character-by-character reader behind ``_parse_mcr_tiles``."""
    tiles: list[Tile] = []
    digits_from = -1
    for offset, char in enumerate(text):
        if "0" <= char <= "9":
            if digits_from < 0:
                digits_from = offset
            continue
        suit = _RANK_SUITS.get(char)
        if suit is not None:
            if digits_from < 0:
                raise NotationError(source, start + offset, "expected a rank digit before the suit letter")
            base, size = suit
            for index in range(digits_from, offset):
                rank = ord(text[index]) - 48
                if not 1 <= rank <= size:
                    raise NotationError(source, start + index, f"expected a rank 1-{size} for suit {char!r}")
                tiles.append(base + rank - 1)
            digits_from = -1
            continue
        honor = _HONOR_TILE.get(char)
        if honor is None:
            raise NotationError(source, start + offset, "expected a tile (digits with m/p/s/z, or one of ESWNCFP)")
        if digits_from >= 0:
            raise NotationError(source, start + offset, "expected a suit letter m, p, s or z after the digits")
        tiles.append(honor)
    if digits_from >= 0:
        raise NotationError(source, start + len(text), "expected a suit letter m, p, s or z after the digits")
    return tiles


def _is_chow(tiles: list[Tile]) -> bool:
    """Three of the engine's tiles in sequence within one suit."""
    first = min(tiles)
    return not is_honor(first) and sorted(tiles) == [first, first + 1, first + 2] and first // 9 == (first + 2) // 9


def _parse_meld(text: str, start: int, source: str, notation: TileNotation | None = None) -> Meld:
    body, _, offer_text = text.partition(",")
    tiles = (notation.read if notation else _parse_mcr_tiles)(body, start, source)
    offer: int | None = None
    if offer_text:
        if len(offer_text) != 1 or offer_text not in "1234567":
            raise NotationError(source, start + len(body) + 1, "expected an offer digit 1-7 after the comma")
        offer = int(offer_text)
    first = min(tiles) if tiles else 0
    if len(tiles) == 4 and len(set(tiles)) == 1:
        kind = MeldKind.KONG
    elif len(tiles) == 3 and len(set(tiles)) == 1:
        kind = MeldKind.PUNG
    elif len(tiles) == 3 and (_is_chow(tiles) if notation is None else notation.chow(sorted(tiles))):
        kind = MeldKind.CHOW
    else:
        raise NotationError(source, start, "expected a meld: three in sequence, three or four of a kind")
    max_offer = 7 if kind is MeldKind.KONG else 3
    if offer is not None and offer > max_offer:
        raise NotationError(source, start + len(body) + 1, f"expected an offer 1-{max_offer} for a {kind.value}")
    return Meld(kind, first, offer)


def _parse_situation(text: str, start: int, source: str) -> Situation:
    if len(text) != 6:
        raise NotationError(source, start, "expected six situation characters such as 'EE1000'")
    for index in (0, 1):
        if text[index] not in WIND_LETTERS:
            raise NotationError(source, start + index, "expected a wind letter E, S, W or N")
    for index in range(2, 6):
        if text[index] not in "01":
            raise NotationError(source, start + index, "expected a situation flag 0 or 1")
    flags = [char == "1" for char in text[2:]]
    return Situation(WIND_LETTERS.index(text[0]), WIND_LETTERS.index(text[1]), *flags)


def _parse_flowers(text: str, start: int, source: str) -> int | tuple[Tile, ...]:
    if text and "0" <= text[0] <= "9":  # ASCII digits only: str.isdigit() also takes '²' and '١'
        if len(text) != 1 or text > str(len(FLOWERS)):
            raise NotationError(source, start, "expected a flower count 0-8")
        return int(text)
    flowers = []
    for offset, char in enumerate(text):
        if char not in FLOWER_LETTERS:
            raise NotationError(source, start + offset, "expected a flower count or flower letters a-h")
        tile = FLOWERS[FLOWER_LETTERS.index(char)]
        if tile in flowers:
            raise NotationError(source, start + offset, "expected each flower at most once")
        flowers.append(tile)
    return tuple(flowers)


_MELDS: dict[str, Meld] = {}
_SITUATIONS: dict[str, Situation] = {}
_CACHE_LIMIT = 4096


def _cached(cache: dict[str, T], parse: Callable[[str, int, str], T], part: str, start: int, source: str) -> T:
    """Melds and situation blocks repeat from hand to hand: each distinct one is read once. Only successes are
    kept (they do not depend on where the part stands); a bad part is read again to name its position."""
    found = cache.get(part)
    if found is None:
        found = parse(part, start, source)
        if len(cache) < _CACHE_LIMIT:
            cache[part] = found
    return found


def parse_hand(text: str, notation: TileNotation | None = None) -> Hand:
    """Read a hand in MCR notation; a ``NotationError`` names the position and what was expected. ``notation``:
    the tiles of a ruleset with faces of its own (``Ruleset.parse_hand``), else the engine's. The compiled core
    reads a well-formed hand whose melds and situation this reader has met before; it leaves the rest here."""
    if NATIVE is not None and notation is None:
        hand = NATIVE.parse_hand(text, _MELDS, _SITUATIONS, Hand)
        if hand is not None:
            return hand
    return parse_hand_pure(text, notation)


def parse_hand_pure(text: str, notation: TileNotation | None = None) -> Hand:
    """``parse_hand`` in Python alone: every hand the compiled core declines, and its differential test."""
    waiting = text.endswith(" ")
    body_end = len(text) - 1 if waiting else len(text)
    sections = text[:body_end].split("|")
    if len(sections) > 3:
        position = len(sections[0]) + len(sections[1]) + len(sections[2]) + 2
        raise NotationError(text, position, "expected at most three '|'-separated sections")
    tiles_part = sections[0]
    melds: list[Meld] = []
    position = 0
    while position < len(tiles_part) and tiles_part[position] == "[":
        close = tiles_part.find("]", position)
        if close < 0:
            raise NotationError(text, len(tiles_part), "expected ']' closing the meld")
        part = tiles_part[position + 1 : close]
        if notation is None:
            melds.append(_cached(_MELDS, _parse_meld, part, position + 1, text))
        else:  # the cache holds the engine's tiles only
            melds.append(_parse_meld(part, position + 1, text, notation))
        position = close + 1
    standing = (notation.read if notation else _parse_mcr_tiles)(tiles_part[position:], position, text)
    if "[" in tiles_part[position:] or "]" in tiles_part[position:]:
        raise NotationError(text, position, "expected melds before the standing tiles")
    win_tile: Tile | None = None
    if not waiting:
        if not standing:
            raise NotationError(text, len(tiles_part), "expected standing tiles ending with the winning tile")
        win_tile = standing.pop()
    situation = None
    flowers: int | tuple[Tile, ...] | None = None
    offset = len(tiles_part) + 1
    if len(sections) > 1:
        situation = _cached(_SITUATIONS, _parse_situation, sections[1], offset, text)
        offset += len(sections[1]) + 1
    if len(sections) > 2:
        flowers = _parse_flowers(sections[2], offset, text)
    return Hand(tuple(melds), tuple(standing), win_tile, situation, flowers)


def format_mcr_tiles(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    """Tiles in MCR notation: suited tiles compact, honors as letters, order kept."""
    out: list[str] = []
    run: list[Tile] = []
    for tile in tiles:
        if is_honor(tile):
            if run:
                out.append(format_tiles(run))
                run = []
            out.append(HONOR_LETTERS[tile - SUIT_OFFSET["z"]])
        else:
            run.append(tile)
    if run:
        out.append(format_tiles(run))
    return "".join(out)


def format_meld(meld: Meld) -> str:
    offer = "" if meld.offer is None else f",{meld.offer}"
    return f"[{format_mcr_tiles(meld.tiles)}{offer}]"


def format_hand(hand: Hand) -> str:
    """The canonical MCR string of a hand (``parse_hand`` reads it back to an equal hand)."""
    text = "".join(format_meld(meld) for meld in hand.melds) + format_mcr_tiles(hand.standing)
    if hand.win_tile is not None:
        text += format_mcr_tiles([hand.win_tile])
    if hand.situation is not None or hand.flowers is not None:
        s = hand.context
        text += "|" + WIND_LETTERS[s.prevalent_wind] + WIND_LETTERS[s.seat_wind]
        text += "".join("1" if flag else "0" for flag in (s.self_drawn, s.fourth_tile, s.last_tile, s.kong_related))
    if hand.flowers is not None:
        if isinstance(hand.flowers, int):
            text += f"|{hand.flowers}"
        else:
            text += "|" + "".join(FLOWER_LETTERS[tile - FLOWERS[0]] for tile in hand.flowers)
    if hand.win_tile is None:
        text += " "
    return text
