"""Tile codes for fan evaluation: ``suit * 16 + rank`` in the order 万 条 饼 字, honors 东南西北中发白.

The fan rules compare ranks and suits all the time (``t0 + 3 == t1`` is a straight step, ``t >> 4`` the suit), and
the decomposition order decides ties between equal totals the way the reference calculator does, so the scorer
works on these codes rather than on ``engine.tiles`` ids.
"""

from __future__ import annotations

from itertools import permutations

from engine.tiles import EAST, GREEN, NORTH, RED, SOUTH, WEST, WHITE, Tile

Code = int

CHARACTERS, BAMBOO, DOTS = 1, 2, 3
E, S, W, N, C, F, P = range(0x41, 0x48)
"""Winds, then 中 (C) 发 (F) 白 (P)."""

_HONOR_CODES = {EAST: E, SOUTH: S, WEST: W, NORTH: N, RED: C, GREEN: F, WHITE: P}

CODE_OF: tuple[Code, ...] = (
    *(0x10 + rank for rank in range(1, 10)),
    *(0x30 + rank for rank in range(1, 10)),
    *(0x20 + rank for rank in range(1, 10)),
    *(_HONOR_CODES[tile] for tile in range(27, 34)),
)
"""Code of each ``engine.tiles`` id 0-33."""

TILE_OF: dict[Code, Tile] = {code: tile for tile, code in enumerate(CODE_OF)}

WINDS = frozenset((E, S, W, N))
DRAGONS = frozenset((C, F, P))
TERMINALS = frozenset(suit * 16 + rank for suit in (CHARACTERS, BAMBOO, DOTS) for rank in (1, 9))
ORPHANS = TERMINALS | WINDS | DRAGONS
GREEN_TILES = frozenset((0x22, 0x23, 0x24, 0x26, 0x28, F))
"""绿一色: 23468 条 and 发."""
REVERSIBLE = frozenset((0x31, 0x32, 0x33, 0x34, 0x35, 0x38, 0x39, 0x22, 0x24, 0x25, 0x26, 0x28, 0x29, P))
"""推不倒: 1234589 饼, 245689 条 and 白 — the tiles that look the same upside down."""

KNITTED_STRAIGHTS: tuple[frozenset[Code], ...] = tuple(
    frozenset(suits[index] * 16 + 1 + index + 3 * step for index in range(3) for step in range(3))
    for suits in permutations((CHARACTERS, BAMBOO, DOTS))
)
"""The six 组合龙: 147 / 258 / 369 spread over the three suits."""
