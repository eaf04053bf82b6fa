"""The 不计 rules as tables: a fan present removes the fans it already implies (non-repeat, non-separation).

Applied once to a reading's fans, after every fan is found and before the wind pungs are credited; the table is
read on the fans present before any removal (the result does not depend on the order of the rows). Two rules are
not plain removals: 四暗刻 turns 不求人 into 自摸, and 三风刻 absorbs its three wind pungs' 幺九刻.
"""

from __future__ import annotations

from engine.rulesets.mcr.fans import (
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    ALL_GREEN,
    ALL_HONORS,
    ALL_PUNGS,
    ALL_SIMPLES,
    ALL_TERMINALS,
    ALL_TERMINALS_AND_HONORS,
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BIG_THREE_WINDS,
    CONCEALED_HAND,
    DOUBLE_PUNG,
    DRAGON_PUNG,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FOUR_PURE_SHIFTED_PUNGS,
    FULL_FLUSH,
    FULLY_CONCEALED_HAND,
    HALF_FLUSH,
    LAST_TILE_DRAW,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    LOWER_FOUR,
    LOWER_TILES,
    MELDED_HAND,
    MIDDLE_TILES,
    NO_HONORS,
    ONE_VOIDED_SUIT,
    OUT_WITH_REPLACEMENT_TILE,
    OUTSIDE_HAND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_TERMINAL_CHOWS,
    REVERSIBLE_TILES,
    SELF_DRAWN,
    SINGLE_WAIT,
    THREE_SUITED_TERMINAL_CHOWS,
    TWO_CONCEALED_KONGS,
    TWO_CONCEALED_PUNGS,
    TWO_DRAGONS_PUNGS,
    UPPER_FOUR,
    UPPER_TILES,
)

Fans = dict[int, int]

EXCLUDES: dict[int, tuple[int, ...]] = {
    BIG_FOUR_WINDS: (ALL_PUNGS, PUNG_OF_TERMINALS_OR_HONORS),
    BIG_THREE_DRAGONS: (DRAGON_PUNG,),
    ALL_GREEN: (HALF_FLUSH, ONE_VOIDED_SUIT),
    FOUR_KONGS: (SINGLE_WAIT,),
    ALL_TERMINALS: (ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, NO_HONORS, DOUBLE_PUNG),
    LITTLE_FOUR_WINDS: (PUNG_OF_TERMINALS_OR_HONORS,),
    LITTLE_THREE_DRAGONS: (DRAGON_PUNG,),
    ALL_HONORS: (ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, ONE_VOIDED_SUIT),
    FOUR_CONCEALED_PUNGS: (ALL_PUNGS, CONCEALED_HAND),
    PURE_TERMINAL_CHOWS: (FULL_FLUSH, ALL_CHOWS, NO_HONORS),
    FOUR_PURE_SHIFTED_PUNGS: (ALL_PUNGS,),
    ALL_TERMINALS_AND_HONORS: (ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS),
    ALL_EVEN_PUNGS: (ALL_PUNGS, ALL_SIMPLES, NO_HONORS),
    UPPER_TILES: (NO_HONORS,),
    MIDDLE_TILES: (ALL_SIMPLES, NO_HONORS),
    LOWER_TILES: (NO_HONORS,),
    THREE_SUITED_TERMINAL_CHOWS: (ALL_CHOWS, NO_HONORS),
    ALL_FIVE: (ALL_SIMPLES, NO_HONORS),
    UPPER_FOUR: (NO_HONORS,),
    LOWER_FOUR: (NO_HONORS,),
    REVERSIBLE_TILES: (ONE_VOIDED_SUIT,),
    LAST_TILE_DRAW: (SELF_DRAWN,),
    OUT_WITH_REPLACEMENT_TILE: (SELF_DRAWN,),
    MELDED_HAND: (SINGLE_WAIT,),
    TWO_DRAGONS_PUNGS: (DRAGON_PUNG,),
    TWO_CONCEALED_KONGS: (TWO_CONCEALED_PUNGS,),
    FULLY_CONCEALED_HAND: (SELF_DRAWN,),
    ALL_CHOWS: (NO_HONORS,),
    ALL_SIMPLES: (NO_HONORS,),
}
"""Fan → the fans it does not count with. Only the exclusions that can meet in one reading are listed; the
others never arise (e.g. 清一色 and 缺一门 are found exclusively by the suit rule)."""

_EXCLUDERS = frozenset(EXCLUDES)

ABSORBS: dict[int, tuple[int, int]] = {BIG_THREE_WINDS: (PUNG_OF_TERMINALS_OR_HONORS, 3)}
"""Fan → (fan, count) it contains: the three wind pungs of 三风刻 are not also 幺九刻."""


def apply_exclusions(fans: Fans) -> None:
    """Remove what the fans present exclude (in place)."""
    if FOUR_CONCEALED_PUNGS in fans and fans.pop(FULLY_CONCEALED_HAND, 0):
        fans[SELF_DRAWN] = 1  # 四暗刻 already says concealed: 不求人 keeps only its self-draw
    for fan in _EXCLUDERS.intersection(fans):  # a set operation in C: most fans have no row
        for excluded in EXCLUDES[fan]:
            fans.pop(excluded, None)
    for fan, (absorbed, count) in ABSORBS.items():
        if fan in fans and absorbed in fans:
            left = fans[absorbed] - count
            if left > 0:
                fans[absorbed] = left
            else:
                del fans[absorbed]
