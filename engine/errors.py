"""The engine's exception hierarchy: every error says what is wrong and where."""

from __future__ import annotations


class MjtableError(Exception):
    """Base of every error the project raises on purpose (never a bug)."""


class NotationError(MjtableError, ValueError):
    """A tile or hand string that cannot be read; names the character position and what was expected."""

    def __init__(self, text: str, position: int, expected: str) -> None:
        self.text = text
        self.position = position
        self.expected = expected
        found = repr(text[position]) if position < len(text) else "end of input"
        super().__init__(f"{expected} at position {position} of {text!r}, found {found}")


class TileCountError(MjtableError, ValueError):
    """A hand or set holds more copies of a tile than the tile set has, or the wrong number of tiles."""


class RulesetError(MjtableError, ValueError):
    """An unknown ruleset or option, or an option value the ruleset does not accept."""


class SettleError(MjtableError, ValueError):
    """A ``mjtable settle`` request that is not what the contract describes: a missing or mistyped field, a
    meld that cannot be read, a query the ruleset does not answer."""


class IllegalAction(MjtableError):
    """An action the referee rejects; the state is unchanged."""
