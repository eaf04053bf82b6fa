"""Per-group lookup tables of complete patterns: the fast paths look a suit up instead of searching it.

A group is one suit (9 ranks, chows allowed) or the honors (7 kinds, pungs only). Its key is the tuple of its
counts. Every complete pattern (0-4 sets, with or without one pair) is enumerated once from the sets
themselves, so the tables are exact by construction. Counts above 4 are kept: a wildcard may stand for a
fifth copy (wild.md W-1).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import cache
from itertools import combinations_with_replacement
from typing import Generic, TypeVar

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
