"""Referees dealt from a stacked wall (``engine.stacked``): the test names every hand and the order of the next draws.

Tiles are written in the ruleset's notation (``Ruleset.read_tiles``: 十万's rank 0 is a 10). Where the tile set has
marked copies (riichi's red fives), a five written with rank 0 (``0m``) is the marked one. ``indicators`` and
``under`` stack the bonus indicators of the dead wall and the tiles under them (``BonusIndicators``), first one
first; ``facts`` go to the referee (``honba``, ``pot``, ``scores``, ``round_wind``, ...).
"""

from __future__ import annotations

from typing import Any

from engine.referee import Referee
from engine.rulesets.base import Ruleset
from engine.stacked import Stacked, stacked_hand


def _read(ruleset: Ruleset, text: str) -> list[Stacked]:
    """Each tile of ``text`` and whether it is written as a marked copy (rank 0 where the set marks fives)."""
    tiles = ruleset.read_tiles(text, "stacked")
    digits = [char for char in text if char.isdigit()]
    marks = ruleset.tile_set.marked
    return [(tile, bool(marks) and digit == "0") for tile, digit in zip(tiles, digits, strict=True)]


def stacked(
    ruleset: Ruleset,
    hands: dict[int, str],
    draws: str = "",
    replacements: str = "",
    dealer: int = 0,
    *,
    indicators: str = "",
    under: str = "",
    **facts: Any,
) -> Referee:
    """A full-information referee whose dealt hands are ``hands`` (seat → compact tiles; the dealer's 14),
    whose next live draws are ``draws`` and next tail draws ``replacements``; the rest of the set fills in."""
    texts = {"draws": draws, "replacements": replacements, "indicators": indicators, "under": under}
    tiles = {key: _read(ruleset, text) for key, text in texts.items()}
    read = {seat: _read(ruleset, text) for seat, text in hands.items()}
    return Referee.dealt(ruleset, stacked_hand(ruleset, read, dealer, **tiles), **facts)
