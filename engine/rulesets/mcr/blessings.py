"""天和 / 地和 / 人和 (the ruleset option ``blessings``, off by default): a win in the very first go-around with no
meld declared. Not in the 1998 list of 81 fans nor in PyMahjongGB; the values are summerinsects' optional ones.

天和: the dealer wins on his dealt tiles (a self-draw); 人和: another player self-draws on his first draw; 地和:
another player wins on a discard of the first go-around. Each replaces the fans that say the same thing (不求人,
自摸, 门前清), and 天和 has no wait to score (no 边张 / 嵌张 / 单钓).
"""

from __future__ import annotations

from engine.rulesets.mcr.fans import (
    CLOSED_WAIT,
    CONCEALED_HAND,
    EARTHLY_HAND,
    EDGE_WAIT,
    FULLY_CONCEALED_HAND,
    HEAVENLY_HAND,
    HUMANLY_HAND,
    SELF_DRAWN,
    SINGLE_WAIT,
)

_REPLACED = {
    HEAVENLY_HAND: (FULLY_CONCEALED_HAND, SELF_DRAWN, EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT),
    HUMANLY_HAND: (FULLY_CONCEALED_HAND, SELF_DRAWN),
    EARTHLY_HAND: (CONCEALED_HAND,),
}


def with_blessing(fans: tuple[tuple[int, int], ...], *, dealer: bool, self_drawn: bool) -> tuple[tuple[int, int], ...]:
    """The fans of a first-go-around win with no meld declared, the blessing added."""
    blessing = (HEAVENLY_HAND if dealer else HUMANLY_HAND) if self_drawn else EARTHLY_HAND
    if blessing == EARTHLY_HAND and dealer:
        return fans  # the dealer discards first: he cannot win on a discard of the first go-around
    replaced = _REPLACED[blessing]
    return (*((fan, count) for fan, count in fans if fan not in replaced), (blessing, 1))
