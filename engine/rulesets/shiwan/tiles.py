"""十万麻将's own tile model (fan.md §7): 万/饼/条 of ranks 1-10 and the four winds, four copies each, 136 tiles.

The engine's tiles (``engine.tiles``) are ids 0-33 with nine ranks per suit, and the analysis, the referee and
the notation all lean on that. 十万 therefore keeps its tiles to itself: id = 10 × suit + rank − 1 for the
suits (m 0-9, p 10-19, s 20-29) and 30-33 for 东南西北. Its ids never reach the shared code, which keeps the
0-33 model intact; this module reads and writes them, with the digit 0 meaning rank 10 (G-1: ``890m``).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import NotationError, TileCountError, around

SUITS = "mps"
RANKS = 10
WIND_BASE = 30
NUM_KINDS = 34
COPIES = 4
SET_SIZE = NUM_KINDS * COPIES
HONOR_NAMES = ("东", "南", "西", "北", "白", "发", "中")
HONOR_LETTERS = "ESWNPFC"
"""The MCR notation's honour letters, 1z-7z in order: 十万 has ``ESWN``; ``P F C`` (白发中) are outside its set."""


def is_suited(tile: int) -> bool:
    return tile < WIND_BASE


def rank_of(tile: int) -> int:
    return tile % RANKS + 1


def code(tile: int) -> str:
    """Compact notation of one tile: ``0m`` is 10万, ``1z`` 东."""
    if is_suited(tile):
        return f"{rank_of(tile) % RANKS}{SUITS[tile // RANKS]}"
    return f"{tile - WIND_BASE + 1}z"


def format_tiles(tiles: Iterable[int]) -> str:
    """Sorted compact notation (ranks ascending, 0 after 9), one suit letter per run: ``190m``."""
    parts: list[str] = []
    for tile in sorted(tiles):
        digit, suit = code(tile)
        if parts and parts[-1] == suit:
            parts.pop()
        parts += [digit, suit]
    return "".join(parts)


def read_tiles(text: str, where: str) -> list[int]:
    """Tiles of ``text``; ``TileCountError`` naming the character and ``where`` for anything outside the set
    (SW-2: 5z-7z, the dragons, are not 十万 tiles)."""
    tiles: list[int] = []
    pending: list[tuple[str, int]] = []
    for position, char in enumerate(text):
        if "0" <= char <= "9":  # ASCII only: str.isdigit() also takes '²' and '١'
            pending.append((char, position))
            continue
        if char not in "mpsz" or not pending:
            raise TileCountError(
                f"{where}: {around(text, position)} position {position}: expected a rank digit then m, p, s or z"
            )
        for digit, at in pending:
            tiles.append(_tile(digit, char, f"{where}: {around(text, at)} position {at}"))
        pending = []
    if pending:
        raise TileCountError(
            f"{where}: {around(text, len(text))}: the digits at the end need a suit letter m, p, s or z"
        )
    return tiles


def _tile(digit: str, suit: str, place: str) -> int:
    rank = int(digit)
    if suit == "z":
        if not 1 <= rank <= 7:
            raise TileCountError(f"{place}: {digit}z is no tile; honors are 1z-7z")
        if rank > 4:
            raise TileCountError(f"{place}: {digit}z ({HONOR_NAMES[rank - 1]}) is not in the 十万 set (winds only)")
        return WIND_BASE + rank - 1
    return SUITS.index(suit) * RANKS + (rank - 1 if rank else RANKS - 1)


def read_mcr(text: str, start: int, source: str) -> list[int]:
    """Tiles of one part of a hand in the MCR notation (``mjtable score`` and ``waits``), ``text`` being
    ``source[start:]`` up to the next meld bracket or ``|``: ranks 0-9 (0 = 10) with m, p, s; 1z-4z or ``ESWN``.
    A ``NotationError`` names the position in ``source`` of a tile outside the set (SW-2) or of any other fault."""
    tiles: list[int] = []
    digits_from = -1
    for offset, char in enumerate(text):
        if "0" <= char <= "9":  # ASCII only: str.isdigit() also takes '²' and '١'
            if digits_from < 0:
                digits_from = offset
            continue
        if char in "mpsz":
            if digits_from < 0:
                raise NotationError(source, start + offset, "expected a rank digit before the suit letter")
            for index in range(digits_from, offset):
                tiles.append(_mcr_tile(text[index], char, source, start + index))
            digits_from = -1
            continue
        if char not in HONOR_LETTERS:
            raise NotationError(source, start + offset, "expected a 十万 tile (ranks 0-9 with m/p/s, 1-4z, or E S W N)")
        if digits_from >= 0:
            raise NotationError(source, start + offset, "expected a suit letter m, p, s or z after the digits")
        wind = HONOR_LETTERS.index(char)
        if wind >= len(HONOR_LETTERS) - 3:
            name = f"{char} ({HONOR_NAMES[wind]})"
            raise NotationError(source, start + offset, f"{name} is not in the 十万 set, {_WINDS_ONLY}")
        tiles.append(WIND_BASE + wind)
    if digits_from >= 0:
        raise NotationError(source, start + len(text), "expected a suit letter m, p, s or z after the digits")
    return tiles


_WINDS_ONLY = "whose honours are the winds 1z-4z (E S W N)"


def _mcr_tile(digit: str, suit: str, source: str, position: int) -> int:
    rank = int(digit)
    if suit == "z" and not 1 <= rank <= 4:
        name = f" ({HONOR_NAMES[rank - 1]})" if 5 <= rank <= 7 else ""
        raise NotationError(source, position, f"{rank}z{name} is not in the 十万 set, {_WINDS_ONLY}")
    return WIND_BASE + rank - 1 if suit == "z" else SUITS.index(suit) * RANKS + (rank - 1 if rank else RANKS - 1)


def counts_of(tiles: Iterable[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


def check_copies(tiles: Iterable[int], where: str) -> None:
    """No face more often than the four copies of the set."""
    for tile, n in enumerate(counts_of(tiles)):
        if n > COPIES:
            raise TileCountError(f"{where}: {n} copies of {code(tile)}, the 十万 set has {COPIES}")


def full_set() -> list[int]:
    return [tile for tile in range(NUM_KINDS) for _ in range(COPIES)]
