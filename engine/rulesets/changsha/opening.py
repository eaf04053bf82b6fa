"""起手胡 (108.md CS-6): wins shown on the dealt hand (13 tiles, the dealer's 14) before the first discard.

四喜 = a kind held four times (each such kind counts once); 板板胡 = no 2, 5 or 8 at all; 缺一色 = a suit entirely
missing; 六六顺 = two kinds each held three or more times. Each kind found is settled like a 小胡 self-draw (each
other player pays 2); no birds; the hand continues.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rulesets.suited108 import RANKS_258, SUITED_SUITS, suits_held
from engine.tiles import NUM_KINDS, rank_of

FOUR = "四喜 four of a kind"
NO_258 = "板板胡 no 2-5-8"
MISSING_SUIT = "缺一色 missing suit"
TWO_TRIPLETS = "六六顺 two triplets"

OPENING_POINTS = 2
"""Per kind, from each other player (a 小胡 self-draw, CS-4)."""


def opening_kinds(counts: Sequence[int]) -> list[str]:
    """Every opening kind of a dealt hand, one entry per instance (四喜 once per kind held four times)."""
    kinds = [FOUR] * sum(1 for tile in range(NUM_KINDS) if counts[tile] == 4)
    if not any(counts[tile] for tile in range(NUM_KINDS) if rank_of(tile) in RANKS_258 and tile < 27):
        kinds.append(NO_258)
    if len(suits_held(counts) & set(SUITED_SUITS)) < 3:
        kinds.append(MISSING_SUIT)
    if sum(1 for tile in range(NUM_KINDS) if counts[tile] >= 3) >= 2:
        kinds.append(TWO_TRIPLETS)
    return kinds
