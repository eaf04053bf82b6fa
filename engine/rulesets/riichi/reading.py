"""Readings of a winning riichi hand: its sets, pair and the wait the winning tile completed.

One hand can be read several ways (``123123123m`` as three chows or three pungs) and, within one reading, the
winning tile may complete different sets (``45666`` + 6: the pair wait or the 456 chow). Yaku and fu depend on
both, and the rules score the hand by the reading worth the most (the scorer picks it), so every combination is
listed here.

A pung completed by a discard (ron) counts as an open set for fu and for the concealed-triplet yaku (明刻扱い),
though the hand stays closed for menzen yaku; ``Group.concealed`` records that.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from engine.analysis import ShapeRules, decompositions
from engine.notation import Hand, MeldKind

RIICHI_SHAPES = ShapeRules(seven_pairs_quad_as_two_pairs=False, honors_knitted=False)
"""Four sets + pair, seven *distinct* pairs (four of a kind is not two pairs), thirteen orphans."""


class SetKind(StrEnum):
    CHI = "chi"
    PON = "pon"
    KAN = "kan"


class Wait(StrEnum):
    RYANMEN = "ryanmen"
    """Two-sided: the chow 23 waiting on 1 or 4."""
    KANCHAN = "kanchan"
    """Closed: 13 waiting on 2."""
    PENCHAN = "penchan"
    """Edge: 12 waiting on 3, 89 on 7."""
    SHANPON = "shanpon"
    """Two pairs, one becomes the pung."""
    TANKI = "tanki"
    """Single tile waiting for its pair (also seven pairs)."""
    KOKUSHI = "kokushi"


class Group(NamedTuple):
    kind: SetKind
    tile: int
    """The lowest tile (the tile itself for pon and kan)."""
    concealed: bool
    """Concealed for fu and 暗刻: a closed kan is, a pung completed by ron is not."""


class Reading(NamedTuple):
    form: str
    """"standard", "chiitoitsu" or "kokushi"."""
    sets: tuple[Group, ...]
    """Standard: the four sets (concealed first, then the melds); otherwise empty."""
    pair: int | None
    """The pair tile of the standard form."""
    wait: Wait
    pairs: tuple[int, ...] = ()
    """Seven pairs: the seven pair tiles."""


_SET_KINDS = {MeldKind.CHOW: SetKind.CHI, MeldKind.PUNG: SetKind.PON, MeldKind.KONG: SetKind.KAN}


_CONCEALED = {
    "chow": tuple(Group(SetKind.CHI, tile, True) for tile in range(34)),
    "pung": tuple(Group(SetKind.PON, tile, True) for tile in range(34)),
}
"""The concealed sets of a decomposition as groups, built once (each hand's readings look them up)."""


def meld_groups(hand: Hand) -> tuple[Group, ...]:
    """The declared melds as groups: chows and pungs open, a kong concealed only when declared concealed."""
    return tuple(Group(_SET_KINDS[meld.kind], meld.tile, meld.is_concealed_kong) for meld in hand.melds)


def chow_wait(low: int, win: int) -> Wait:
    if win == low + 1:
        return Wait.KANCHAN
    if (low % 9 == 0 and win == low + 2) or (low % 9 == 6 and win == low):
        return Wait.PENCHAN
    return Wait.RYANMEN


def readings(hand: Hand, concealed_counts: list[int], self_drawn: bool) -> list[Reading]:
    """Every (decomposition, completed set) reading of a winning hand; empty when it is no winning shape."""
    assert hand.win_tile is not None
    win = hand.win_tile
    melds = meld_groups(hand)
    found: list[Reading] = []
    for decomposition in decompositions(concealed_counts, RIICHI_SHAPES):
        if decomposition.form == "thirteen_orphans":
            found.append(Reading("kokushi", (), None, Wait.KOKUSHI))
        elif decomposition.form == "seven_pairs":
            found.append(Reading("chiitoitsu", (), None, Wait.TANKI, decomposition.pairs))
        else:
            found.extend(_standard_readings(decomposition.sets, decomposition.pair, win, melds, self_drawn))
    return found


def _standard_readings(
    sets: tuple[tuple[str, int], ...], pair: int | None, win: int, melds: tuple[Group, ...], self_drawn: bool
) -> list[Reading]:
    assert pair is not None
    concealed = [_CONCEALED[kind][tile] for kind, tile in sets]
    found = []
    seen: set[tuple[SetKind, int]] = set()
    if pair == win:
        found.append(Reading("standard", (*concealed, *melds), pair, Wait.TANKI))
    for index, group in enumerate(concealed):
        chow = group.kind is SetKind.CHI
        if not (group.tile <= win <= group.tile + 2 if chow else win == group.tile) or (group.kind, group.tile) in seen:
            continue
        seen.add((group.kind, group.tile))
        if chow:
            wait = chow_wait(group.tile, win)
            completed = group
        else:
            wait = Wait.SHANPON
            completed = Group(SetKind.PON, group.tile, self_drawn)
        groups = [*concealed]
        groups[index] = completed
        found.append(Reading("standard", (*groups, *melds), pair, wait))
    return found
