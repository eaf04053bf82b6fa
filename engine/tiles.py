"""Tiles as small integers, and the compact notation ``123m456p789s1234567z`` with flowers ``1f``-``8f``.

A tile is an ``int`` so that hands are cheap count vectors in the hot paths of analysis:

====  ========  ==========================================
ids   notation  tiles
====  ========  ==========================================
0-8   1m-9m     characters 万
9-17  1p-9p     dots 筒/饼
18-26 1s-9s     bamboo 条/索
27-33 1z-7z     东 南 西 北 白 发 中 (winds, then dragons)
34-41 1f-8f     春 夏 秋 冬 梅 兰 菊 竹 (flowers, one copy each)
====  ========  ==========================================
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.errors import NotationError

Tile = int

SUITS = "mpsz"
SUIT_OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
NUM_KINDS = 34
"""Distinct playing tiles (flowers excluded): the length of a count vector."""
NUM_TILE_IDS = 42

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
FLOWERS = tuple(range(34, 42))
TERMINALS = (0, 8, 9, 17, 18, 26)
ORPHANS = TERMINALS + WINDS + DRAGONS
"""The thirteen kinds of 十三幺 (terminals and honors)."""
WIND_LETTERS = "ESWN"

_SUIT_ZH = {"m": "万", "p": "饼", "s": "条"}
_SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
_HONORS_ZH = ("东", "南", "西", "北", "白", "发", "中")
_HONORS_EN = ("East", "South", "West", "North", "White Dragon", "Green Dragon", "Red Dragon")
_FLOWERS_ZH = ("春", "夏", "秋", "冬", "梅", "兰", "菊", "竹")
_FLOWERS_EN = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Chrysanthemum", "Bamboo flower")
_NUMERALS_ZH = "一二三四五六七八九"


def suit_of(tile: Tile) -> str:
    """The suit letter: ``m``, ``p``, ``s``, ``z`` or ``f``."""
    if tile < 27:
        return SUITS[tile // 9]
    return "z" if tile < 34 else "f"


def rank_of(tile: Tile) -> int:
    """Rank within the suit, from 1."""
    return tile - SUIT_OFFSET[suit_of(tile)] + 1


def make_tile(suit: str, rank: int) -> Tile:
    """The tile of a suit letter and rank; raises ``ValueError`` outside the suit's range."""
    if suit not in SUIT_OFFSET or not 1 <= rank <= SUIT_SIZE[suit]:
        raise ValueError(f"no tile {rank}{suit}")
    return SUIT_OFFSET[suit] + rank - 1


def is_suited(tile: Tile) -> bool:
    return 0 <= tile < 27


def is_honor(tile: Tile) -> bool:
    return 27 <= tile < 34


def is_flower(tile: Tile) -> bool:
    return 34 <= tile < 42


def is_terminal(tile: Tile) -> bool:
    return tile in TERMINALS


def is_orphan(tile: Tile) -> bool:
    """Terminal or honor (幺九)."""
    return tile in ORPHANS


def tile_code(tile: Tile) -> str:
    """Compact code of one tile, e.g. ``5p``, ``7z``, ``3f``."""
    return f"{rank_of(tile)}{suit_of(tile)}"


def tile_name_zh(tile: Tile) -> str:
    suit, rank = suit_of(tile), rank_of(tile)
    if suit == "z":
        return _HONORS_ZH[rank - 1]
    if suit == "f":
        return _FLOWERS_ZH[rank - 1]
    return _NUMERALS_ZH[rank - 1] + _SUIT_ZH[suit]


def tile_name_en(tile: Tile) -> str:
    suit, rank = suit_of(tile), rank_of(tile)
    if suit == "z":
        return _HONORS_EN[rank - 1]
    if suit == "f":
        return _FLOWERS_EN[rank - 1]
    return f"{rank} {_SUIT_EN[suit]}"


def parse_tiles(text: str, *, start: int = 0, source: str | None = None) -> list[Tile]:
    """Read compact notation (``123m4p77z1f``); order is kept.

    ``source``/``start`` let a caller that parses a larger string report positions in that string.
    """
    whole = text if source is None else source
    tiles: list[Tile] = []
    pending: list[tuple[int, int]] = []  # (rank digit, position in whole)
    for offset, char in enumerate(text):
        position = start + offset
        if "0" <= char <= "9":  # ASCII only: str.isdigit() also takes '²' and '١'
            pending.append((ord(char) - 48, position))
        elif char in SUIT_OFFSET:
            if not pending:
                raise NotationError(whole, position, "expected a rank digit before the suit letter")
            for rank, rank_position in pending:
                if not 1 <= rank <= SUIT_SIZE[char]:
                    raise NotationError(whole, rank_position, f"expected a rank 1-{SUIT_SIZE[char]} for suit {char!r}")
                tiles.append(SUIT_OFFSET[char] + rank - 1)
            pending = []
        else:
            raise NotationError(whole, position, "expected a rank digit or a suit letter m, p, s, z or f")
    if pending:
        raise NotationError(whole, start + len(text), "expected a suit letter m, p, s, z or f after the digits")
    return tiles


def parse_tile(text: str) -> Tile:
    """Exactly one tile in compact notation."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(text, 0, "expected exactly one tile such as '5m'")
    return tiles[0]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Compact notation keeping the order given; runs of one suit share a suit letter."""
    parts: list[str] = []
    current_suit = ""
    for tile in tiles:
        suit = suit_of(tile)
        if current_suit and suit != current_suit:
            parts.append(current_suit)
        parts.append(str(rank_of(tile)))
        current_suit = suit
    if current_suit:
        parts.append(current_suit)
    return "".join(parts)


def to_counts(tiles: Iterable[Tile]) -> list[int]:
    """Count vector over the 34 playing kinds (flowers must be removed first)."""
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


def from_counts(counts: Sequence[int]) -> list[Tile]:
    """Sorted tiles of a count vector."""
    return [tile for tile, n in enumerate(counts) for _ in range(n)]
