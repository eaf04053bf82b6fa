"""Furiten (振聴): when a ready player may not win on a discard (he may still win by self-draw).

Three kinds, the common rules (rules-A §13 says furiten is not in the sources):
- own discards: one of the hand's waiting tiles lies in the player's own discards (those called away included);
- temporary (同巡内): the player let a winning tile pass since his last discard; his next discard clears it;
- riichi: a player in riichi who let a winning tile pass can no longer win on a discard this hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.analysis import waits
from engine.rulesets.riichi.reading import RIICHI_SHAPES


def waiting_tiles(concealed: Sequence[int]) -> list[int]:
    """The kinds completing a hand of 13-3k concealed kinds (a count vector over the 34 kinds)."""
    return waits(concealed, RIICHI_SHAPES)


def discard_furiten(waiting: Iterable[int], discards: Iterable[int]) -> bool:
    """Own-discard furiten: a waiting tile is among the player's discards."""
    return not set(waiting).isdisjoint(discards)


@dataclass
class FuritenState:
    """The passing-a-win furiten of one player during a hand."""

    temporary: bool = False
    riichi: bool = False

    def passed_win(self, in_riichi: bool) -> None:
        """The player did not (or could not) win on a tile completing his hand."""
        self.temporary = True
        if in_riichi:
            self.riichi = True

    def discarded(self) -> None:
        self.temporary = False

    def blocks_ron(self) -> bool:
        return self.temporary or self.riichi
