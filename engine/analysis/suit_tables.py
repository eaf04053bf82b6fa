"""Per-group lookup tables of complete patterns: the fast paths look a suit up instead of searching it.

A group is one suit (9 ranks, chows allowed) or the honors (7 kinds, pungs only). Its key is the tuple of its
counts. Every complete pattern (0-4 sets, with or without one pair) is enumerated once from the sets
themselves, so the tables are exact by construction. Counts above 4 are kept: a wildcard may stand for a
fifth copy (wild.md W-1).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import cache, partial
from itertools import combinations_with_replacement
from typing import Generic, TypeVar

from engine.analysis import table_cache

Key = tuple[int, ...]
GroupSplit = tuple[tuple[tuple[str, int], ...], int | None]
"""One way to split a group: its sets as ("chow"|"pung", rank index) and the pair's rank index (or None)."""

NO_PAIR = 1
"""Bit of a value: the group splits into sets alone. Bit ``1 << (1 + r)``: sets and a pair of rank index r."""


def pair_bit(rank_index: int) -> int:
    return 1 << (1 + rank_index)


@cache
def group_table(chows: bool) -> tuple[dict[Key, int], dict[Key, tuple[GroupSplit, ...]]]:
    """(completion bits, every split) of each complete pattern of a suit (``chows``) or of the honors."""
    size = 9 if chows else 7
    kinds = [("chow", r) for r in range(size - 2)] if chows else []
    kinds += [("pung", r) for r in range(size)]
    splits: dict[Key, list[GroupSplit]] = {}
    for n_sets in range(5):
        for sets in combinations_with_replacement(kinds, n_sets):
            counts = [0] * size
            for kind, r in sets:
                if kind == "chow":
                    counts[r] += 1
                    counts[r + 1] += 1
                    counts[r + 2] += 1
                else:
                    counts[r] += 3
            splits.setdefault(tuple(counts), []).append((sets, None))
            for pair in range(size):
                counts[pair] += 2
                splits.setdefault(tuple(counts), []).append((sets, pair))
                counts[pair] -= 2
    bits = {key: _bits(found) for key, found in splits.items()}
    return bits, {key: tuple(found) for key, found in splits.items()}


def _build_bits(chows: bool) -> dict[Key, int]:
    """The completion bits of ``group_table(chows)`` without its splits: the count vectors of 0-4 sets, each
    met once (a layer per number of sets), with and without each pair."""
    size = 9 if chows else 7
    shapes = [tuple(int(r <= i <= r + 2) for i in range(size)) for r in range(size - 2)] if chows else []
    shapes += [tuple(3 * (i == r) for i in range(size)) for r in range(size)]
    pairs = [(r, tuple(2 * (i == r) for i in range(size)), pair_bit(r)) for r in range(size)]
    bits: dict[Key, int] = {}
    layer = {(0,) * size}
    for n_sets in range(5):
        for key in layer:
            bits[key] = bits.get(key, 0) | NO_PAIR
            for _, pair, bit in pairs:
                with_pair = tuple(map(sum, zip(key, pair, strict=True)))
                bits[with_pair] = bits.get(with_pair, 0) | bit
        if n_sets < 4:
            layer = {tuple(map(sum, zip(key, shape, strict=True))) for key in layer for shape in shapes}
    return bits


Packed = tuple[bytes, list[int], bytes, list[int]]
"""The bit tables as the cache keeps them: per group, its keys' counts one byte each, end to end, and their bits
in the same order (a tuple per key would take four times the bytes and the time to read)."""


def _pack() -> Packed:
    suits, honors = _build_bits(True), _build_bits(False)
    return b"".join(map(bytes, suits)), list(suits.values()), b"".join(map(bytes, honors)), list(honors.values())


def _packed_shape(value: object) -> bool:
    if not (isinstance(value, tuple) and len(value) == 4):
        return False
    return all(
        isinstance(keys, bytes) and isinstance(bits, list) and len(keys) == size * len(bits)
        for keys, bits, size in ((value[0], value[1], 9), (value[2], value[3], 7))
    )


def _unpack(keys: bytes, bits: list[int], size: int) -> dict[Key, int]:
    counts = iter(keys)
    return dict(zip(zip(*[counts] * size, strict=False), bits, strict=True))


@cache
def bit_tables() -> tuple[dict[Key, int], dict[Key, int]]:
    """Completion bits of every complete key of (a suit, the honors), as ``group_table(...)[0]``: read from the
    on-disk cache (``table_cache``) or built, the splits left out (``group_splits`` finds those per key)."""
    suits, suit_values, honors, honor_values = table_cache.cached(
        "suit-bits", (__file__, table_cache.__file__), _pack, _packed_shape
    )
    return _unpack(suits, suit_values, 9), _unpack(honors, honor_values, 7)


def suit_bits(chows: bool) -> dict[Key, int]:
    """The completion bits of a suit (``chows``) or of the honors."""
    return bit_tables()[0 if chows else 1]


def splits_of(chows: bool, key: Key) -> tuple[GroupSplit, ...]:
    """Every split of one group key, as ``group_table(chows)[1].get(key, ())`` lists them (by the sets' kind
    indices, chows then pungs, lexicographically), found by searching the key alone rather than the table."""
    size = len(key)
    total = sum(key)
    if total % 3 == 1 or total > 14 or any(n < 0 for n in key):
        return ()
    pung_base = size - 2 if chows else 0
    found: set[tuple[tuple[int, ...], int | None]] = set()
    counts = list(key)

    def search(taken: list[int], pair: int | None) -> None:
        first = next((r for r, n in enumerate(counts) if n), None)
        if first is None:
            found.add((tuple(sorted(taken)), pair))
            return
        if counts[first] >= 3:
            counts[first] -= 3
            taken.append(pung_base + first)
            search(taken, pair)
            taken.pop()
            counts[first] += 3
        if chows and first + 2 < size and counts[first + 1] and counts[first + 2]:
            for r in (first, first + 1, first + 2):
                counts[r] -= 1
            taken.append(first)
            search(taken, pair)
            taken.pop()
            for r in (first, first + 1, first + 2):
                counts[r] += 1

    if total % 3 == 0:
        search([], None)
    else:
        for pair in range(size):
            if counts[pair] >= 2:
                counts[pair] -= 2
                search([], pair)
                counts[pair] += 2
    kinds = _kinds(chows)
    return tuple((tuple(kinds[index] for index in indices), pair) for indices, pair in sorted(found))


@cache
def _kinds(chows: bool) -> tuple[tuple[str, int], ...]:
    size = 9 if chows else 7
    return (*(("chow", r) for r in range(size - 2 if chows else 0)), *(("pung", r) for r in range(size)))


@cache
def group_splits(chows: bool) -> Memo[Key, tuple[GroupSplit, ...]]:
    """Per key, its splits (``splits_of``), found when the key is first met."""
    return Memo(partial(splits_of, chows))


def _bits(found: list[GroupSplit]) -> int:
    value = 0
    for _, pair in found:
        value |= NO_PAIR if pair is None else pair_bit(pair)
    return value


def series_split(key: Key, series: int) -> tuple[int, Key]:
    """(ranks of knitted series ``series`` (147/258/369 for 0/1/2) a suit lacks, the suit without one copy of
    each rank of the series it holds)."""
    rest = list(key)
    for r in range(series, 9, 3):
        rest[r] -= rest[r] > 0
    return (key[series], key[series + 3], key[series + 6]).count(0), tuple(rest)


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(dict[K, V], Generic[K, V]):
    """A dict that computes, keeps and returns the value of a key it lacks: ``memo[key]`` runs ``compute`` once
    per key, and every later lookup runs at C speed. Used for values per group key, which repeat far more often
    than whole hands; it grows with the keys met (at most 5**9 per suit for natural tiles; about 4,400 per suit
    after 40,000 random and ready hands)."""

    def __init__(self, compute: Callable[[K], V]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: K) -> V:
        value = self[key] = self.compute(key)
        return value
