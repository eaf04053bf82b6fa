"""The one error of the record readers: a damaged or foreign record, named by hand, move and place."""

from __future__ import annotations

from typing import Any

from engine.errors import MjtableError


class RecordError(MjtableError, ValueError):
    """A game record (or one hand of it) that cannot be read.

    ``hand`` is the hand's index in the record (from 0, as ``HandRecord.index``) and ``move`` the index its next move
    would have had (the moves before it were read), both ``None`` when the damage is outside any hand (the header, an
    undetectable format). ``where`` says where in the text: a byte offset, a line number, a JSON path.
    """

    def __init__(
        self, reason: str, *, fmt: str = "", hand: int | None = None, move: int | None = None, where: str = ""
    ) -> None:
        self.reason = reason
        self.format = fmt
        self.hand = hand
        self.move = move
        self.where = where
        parts = [fmt] if fmt else []
        if hand is not None:
            parts.append(f"hand {hand}")
        if move is not None:
            parts.append(f"move {move}")
        if where:
            parts.append(where)
        super().__init__(f"{', '.join(parts)}: {reason}" if parts else reason)

    def to_dict(self) -> dict[str, Any]:
        return {
            "error": str(self),
            "format": self.format,
            "hand": self.hand,
            "move": self.move,
            "where": self.where,
            "reason": self.reason,
        }
