"""Readings of the concealed tiles as sets + one pair, in the order the reference calculator meets them.

Equal totals are broken by that order (``scorer``), so the readings come like summerinsects' depth-first search:
lexicographically by their sets in code order (万 条 饼 字), a pung before the chow starting on the same tile.
Each group's splits come from ``engine.analysis``'s per-group tables, converted once per group key (keys repeat far
more often than whole hands) into the compact form the fan rules read: chow middles, pung tiles, pair tile. A
reading is one split per group; as the groups come in code order, concatenating their chows and pungs keeps both
sorted, which is what the fan rules expect.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

from engine.analysis.suit_tables import Memo, group_splits, suit_bits
from engine.rulesets.mcr.codes import CODE_OF, Code

Reading = tuple[tuple[Code, ...], tuple[Code, ...], Code]
"""(sorted chow middles, sorted pung tiles, pair tile) of the concealed tiles; the pair is 0 in a group split
that holds none."""

GROUPS: tuple[tuple[int, int, bool], ...] = ((0, 9, True), (18, 9, True), (9, 9, True), (27, 7, False))
"""(first ``engine.tiles`` id, size, chows allowed) of 万 条 饼 字: the code order."""


def _order(kind: str, rank: int) -> int:
    """Search order of a set in its group: its first tile, a pung before the chow that starts there."""
    return 2 * rank + (kind == "chow")


def _converter(base: int, chows: bool) -> Callable[[tuple[int, ...]], tuple[Reading, ...]]:
    def convert(key: tuple[int, ...]) -> tuple[Reading, ...]:
        """Every split of one group in search order (empty when the group cannot be split)."""
        found = []
        for sets, pair in group_splits(chows)[key]:
            ordered = sorted(sets, key=lambda s: _order(*s))
            found.append(
                (
                    [_order(*s) for s in ordered],
                    (
                        tuple(CODE_OF[base + r] + 1 for kind, r in ordered if kind == "chow"),
                        tuple(CODE_OF[base + r] for kind, r in ordered if kind == "pung"),
                        0 if pair is None else CODE_OF[base + pair],
                    ),
                )
            )
        found.sort(key=lambda split: split[0])
        return tuple(split for _, split in found)

    return convert


_SPLITS: tuple[Memo[tuple[int, ...], tuple[Reading, ...]], ...] = tuple(
    Memo(_converter(base, chows)) for base, _, chows in GROUPS
)
"""Per group: count key → its splits, filled by ``prime_splits`` and on first sight of a larger key."""

PRIMED_SIZE = 9
"""Groups of up to this many tiles are converted up front: they are most of the groups met (~2,300 keys a suit,
~0.1 s in all); larger ones (three or four sets in one suit) are converted when met."""


def prime_splits() -> None:
    """Convert the splits of every complete key of up to ``PRIMED_SIZE`` tiles, for each group."""
    for (_, _, chows), splits in zip(GROUPS, _SPLITS, strict=True):
        for key in suit_bits(chows):
            if sum(key) <= PRIMED_SIZE:
                splits[key]


def readings(counts: Sequence[int]) -> list[Reading]:
    """Every reading of the concealed tiles (count vector by ``engine.tiles`` id) as sets + one pair."""
    m = _SPLITS[0][tuple(counts[0:9])]
    s = _SPLITS[1][tuple(counts[18:27])]
    p = _SPLITS[2][tuple(counts[9:18])]
    z = _SPLITS[3][tuple(counts[27:34])]
    if not (m and s and p and z):
        return []
    # A group's size decides whether it holds the pair, so the first split of each tells.
    if (m[0][2] != 0) + (s[0][2] != 0) + (p[0][2] != 0) + (z[0][2] != 0) != 1:
        return []
    if len(m) == len(s) == len(p) == len(z) == 1:
        return [_join(m[0], s[0], p[0], z[0])]
    return [_join(*splits) for splits in product(m, s, p, z)]


def _join(m: Reading, s: Reading, p: Reading, z: Reading) -> Reading:
    return m[0] + s[0] + p[0], m[1] + s[1] + p[1] + z[1], m[2] or s[2] or p[2] or z[2]
