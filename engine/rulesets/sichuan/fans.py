"""成都计番 (108.md SC-4): the base kind of a Sichuan win, its roots (根) and the situational kinds.

Exactly one base kind is named per win; the table is additive (清一色 +2 on whatever it joins, 对对胡 +1, 金钩钓 a
further +1, 将对 a further +2, 七对 +2, 龙 = the first 根 of a 七对). Of several readings the one that pays most
is scored (DECISION ALL-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.rulesets.suited108 import RANKS_258, Reading, all_ranks_in, four_of_a_kinds, suits_held
from engine.tiles import rank_of


@dataclass(frozen=True)
class Kind:
    """A named scoring kind: ``name`` is "zh en" as the answer writes it, ``fan`` its 番."""

    name: str
    fan: int

    @property
    def name_zh(self) -> str:
        return self.name.split(" ", 1)[0]


PLAIN = Kind("平胡 plain win", 0)
ALL_PUNGS = Kind("对对胡 all pungs", 1)
GOLDEN_HOOK = Kind("金钩钓 golden hook", 2)
PUNGS_258 = Kind("将对 2-5-8 pungs", 3)
GOLDEN_HOOK_258 = Kind("将金钩钓 2-5-8 golden hook", 4)
TERMINALS = Kind("带幺九 terminals everywhere", 2)
SEVEN_PAIRS = Kind("七对 seven pairs", 2)
DRAGON_PAIRS = Kind("龙七对 dragon seven pairs", 3)
FLUSH = Kind("清一色 full flush", 2)
PURE_PUNGS = Kind("清对 pure all pungs", 3)
PURE_HOOK = Kind("清金钩钓 pure golden hook", 4)
PURE_TERMINALS = Kind("清带幺九 pure terminals", 4)
PURE_PAIRS = Kind("清七对 pure seven pairs", 4)
PURE_DRAGON = Kind("清龙七对 pure dragon seven pairs", 5)
HEAVENLY = Kind("天胡 heavenly win", 0)
EARTHLY = Kind("地胡 earthly win", 0)
"""天胡 / 地胡 are paid at the cap whatever the hand holds; their fan is set by the ruleset's cap."""

KONG_BLOOM = Kind("杠上开花 win on a kong's replacement tile", 1)
KONG_DISCARD = Kind("杠上炮 win on a kong discard", 1)
ROBBING = Kind("抢杠胡 robbing the kong", 1)
LAST_TILE = Kind("海底捞月 last-tile self-draw", 1)
SELF_DRAW = Kind("自摸 self-draw", 1)
"""Only under the option ``self_draw = add_fan`` (SC-7, Panzhihua S9)."""
CONCEALED = Kind("门清 concealed hand", 1)
NO_TERMINALS = Kind("中张 no terminals", 1)
"""门清 and 中张 (断幺九) count only under their options (SC-4: "not used by default")."""

_TERMINAL_RANKS = (1, 9)


@dataclass(frozen=True)
class HandFan:
    """The fan of a hand itself: base kind and roots (no situation)."""

    base: Kind
    roots: int

    @property
    def fan(self) -> int:
        return self.base.fan + self.roots


def _candidates(reading: Reading, counts: Sequence[int], melds: int) -> list[Kind]:
    pure = len(suits_held(counts)) == 1
    if reading.form == "seven_pairs":
        dragon = four_of_a_kinds(counts) > 0
        return [(PURE_DRAGON if dragon else PURE_PAIRS) if pure else (DRAGON_PAIRS if dragon else SEVEN_PAIRS)]
    terminals = all(any(rank_of(tile) in _TERMINAL_RANKS for tile in group) for group in reading.groups())
    golden = reading.all_pungs and melds == 4
    kinds = [FLUSH if pure else PLAIN]
    if reading.all_pungs:
        if pure:
            kinds.append(PURE_HOOK if golden else PURE_PUNGS)
        elif all_ranks_in(counts, RANKS_258):
            kinds.append(GOLDEN_HOOK_258 if golden else PUNGS_258)
        else:
            kinds.append(GOLDEN_HOOK if golden else ALL_PUNGS)
    if terminals:
        kinds.append(PURE_TERMINALS if pure else TERMINALS)
    return kinds


def hand_fan(found: Sequence[Reading], counts: Sequence[int], melds: int) -> HandFan:
    """The best base kind over every reading, with its roots: +1 for each kind held four times among the 14
    tiles (a kong, a pung plus the fourth in a chow, four concealed 归), the first one already in 龙七对's name."""
    quads = four_of_a_kinds(counts)
    best: HandFan | None = None
    for reading in found:
        for kind in _candidates(reading, counts, melds):
            roots = quads - 1 if kind in (DRAGON_PAIRS, PURE_DRAGON) else quads
            candidate = HandFan(kind, roots)
            if best is None or candidate.fan > best.fan:
                best = candidate
    if best is None:
        raise ValueError("hand_fan needs at least one reading")
    return best
