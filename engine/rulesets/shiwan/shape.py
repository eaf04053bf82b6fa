"""十万's winning shape (SW-1): 4 sets + pair, a chow being three consecutive ranks 1-10 of one suit (8-9-10 is a
chow; 9-10-1 is not: chows do not wrap); winds make pungs and pairs only. Counts are over ``tiles.NUM_KINDS``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.analysis.shanten import INF, group_costs
from engine.analysis.shapes import melds_implied
from engine.errors import SettleError
from engine.notation import TileNotation
from engine.rulesets.shiwan.tiles import (
    COPIES,
    NUM_KINDS,
    RANKS,
    WIND_BASE,
    counts_of,
    is_suited,
    rank_of,
    read_mcr,
    read_tiles,
)


def chow_start(tile: int) -> bool:
    """Whether ``tile`` can begin a chow: a suited tile of rank 1-8 (so the chow ends at 10 at most)."""
    return is_suited(tile) and rank_of(tile) <= RANKS - 2


def is_chow(tiles: Sequence[int]) -> bool:
    """Whether three sorted tiles are a chow: consecutive ranks of one suit, 8-9-10 at most (SW-1)."""
    return len(tiles) == 3 and chow_start(tiles[0]) and tuple(tiles) == (tiles[0], tiles[0] + 1, tiles[0] + 2)


NOTATION = TileNotation(read_mcr, is_chow)
"""十万's tiles in the MCR notation of ``mjtable score`` and ``waits`` (``engine.notation.parse_hand``)."""


@lru_cache(maxsize=65536)
def _sets(counts: tuple[int, ...]) -> bool:
    """Whether the tiles split into sets exactly: the lowest tile is in a pung or starts a chow."""
    first = next((tile for tile, n in enumerate(counts) if n), None)
    if first is None:
        return True
    work = list(counts)
    if work[first] >= 3:
        work[first] -= 3
        if _sets(tuple(work)):
            return True
        work[first] += 3
    if chow_start(first) and work[first + 1] and work[first + 2]:
        for tile in (first, first + 1, first + 2):
            work[tile] -= 1
        return _sets(tuple(work))
    return False


def is_win(counts: Sequence[int]) -> bool:
    """Whether the concealed tiles (14 − 3k) are sets + one pair."""
    if sum(counts) % 3 != 2:
        return False
    work = list(counts)
    for tile in range(NUM_KINDS):
        if work[tile] >= 2:
            work[tile] -= 2
            if _sets(tuple(work)):
                return True
            work[tile] += 2
    return False


def waits(counts: Sequence[int]) -> list[int]:
    """Tiles that complete a waiting hand (13 − 3k tiles); a tile held four times is no wait."""
    found = []
    work = list(counts)
    for tile in range(NUM_KINDS):
        if work[tile] < 4:
            work[tile] += 1
            if is_win(work):
                found.append(tile)
            work[tile] -= 1
    return found


_GROUPS = ((0, RANKS, True), (RANKS, RANKS, True), (2 * RANKS, RANKS, True), (WIND_BASE, NUM_KINDS - WIND_BASE, False))
"""(first tile, size, chows allowed) of 万, 饼, 条 (ranks 1-10) and the winds: sets never cross a group."""


@lru_cache(maxsize=65536)
def _group(key: tuple[int, ...], chows: bool) -> tuple[int, ...]:
    return group_costs(key, chows, (COPIES,) * len(key), (True,) * len(key))


def shanten(counts: Sequence[int]) -> int:
    """Shanten of 13 − 3k or 14 − 3k concealed tiles towards 4 sets + pair (−1 complete, 0 ready): the fewest
    tiles missing from a target of at most four copies of a tile, less one, from the shared analysis'
    per-group costs (``engine.analysis.shanten.group_costs``) over 十万's groups of ten ranks."""
    sets = 4 - melds_implied(sum(counts))
    total = [0] + [INF] * 9  # cheapest cost per (sets, pair) at index 2 * sets + pair, as group_costs
    for base, size, chows in _GROUPS:
        group = _group(tuple(counts[base : base + size]), chows)
        joined = [INF] * 10
        for i in range(5):
            for j in range(5 - i):
                for pair_a, pair_b in ((0, 0), (0, 1), (1, 0)):
                    cost = total[2 * i + pair_a] + group[2 * j + pair_b]
                    at = 2 * (i + j) + pair_a + pair_b
                    joined[at] = min(joined[at], cost)
        total = joined
    # Sets and a pair covering no held tile cost 3 and 2 wherever they go (there is always room for them).
    best = min(min(total[2 * m + 1], total[2 * m] + 2) + 3 * (sets - m) for m in range(sets + 1))
    return best - 1


@dataclass(frozen=True)
class ShiwanMeld:
    """A declared set in 十万 ids: ``kind`` chi/pon/kan/kakan and its tiles."""

    kind: str
    tiles: tuple[int, ...]


_SIZES = {"chi": 3, "pon": 3, "kan": 4, "kakan": 4}
_ORIGINS = ("from=left", "from=right", "from=opposite")


def read_meld(text: object, place: str) -> ShiwanMeld:
    """One meld of the contract notation, its chow checked against the ten-rank suits."""
    if not isinstance(text, str) or len(text.split(":")) != 3 or text.split(":")[0] not in _SIZES:
        raise SettleError(f"{place}: expected kind:tiles:origin with kind chi, pon, kan or kakan")
    kind, tiles_text, origin = text.split(":")
    tiles = tuple(sorted(read_tiles(tiles_text, place)))
    if len(tiles) != _SIZES[kind]:
        raise SettleError(f"{place}: a {kind} has {_SIZES[kind]} tiles, found {len(tiles)}")
    if origin not in (*_ORIGINS, *(("concealed",) if kind == "kan" else ())):
        raise SettleError(f"{place}: origin {origin!r} is not one of from=left|right|opposite (or concealed for kan)")
    if kind == "chi":
        if origin != "from=left" or not is_chow(tiles):
            raise SettleError(f"{place}: a chow is three consecutive ranks of one suit, claimed from the left")
    elif len(set(tiles)) != 1:
        raise SettleError(f"{place}: a {kind} is {_SIZES[kind]} identical tiles")
    return ShiwanMeld(kind, tiles)


def concealed_counts(standing: Sequence[int], win_tile: int) -> list[int]:
    return counts_of([*standing, win_tile])
