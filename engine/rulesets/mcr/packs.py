"""Packs (sets and the pair) of one reading of a hand, as the fan rules see them."""

from __future__ import annotations

from typing import NamedTuple

from engine.notation import Meld, MeldKind
from engine.rulesets.mcr.codes import CODE_OF, Code

CHOW, PUNG, KONG, PAIR = 1, 2, 3, 4


class Pack(NamedTuple):
    """``tile`` is the middle tile of a chow, the tile of a pung, kong or pair; ``melded`` = exposed."""

    kind: int
    tile: Code
    melded: bool = False


def pack_of_meld(meld: Meld) -> Pack:
    """A declared meld: chows and pungs are exposed; a kong is exposed unless it has no supplier (暗杠)."""
    code = CODE_OF[meld.tile]
    if meld.kind is MeldKind.CHOW:
        return Pack(CHOW, code + 1, True)
    if meld.kind is MeldKind.PUNG:
        return Pack(PUNG, code, True)
    return Pack(KONG, code, meld.offer is not None)
