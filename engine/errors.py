"""The engine's exception hierarchy: every error says what is wrong and where."""

from __future__ import annotations

from typing import Any

QUOTE_LIMIT = 60
"""The most characters of an input an error quotes: a bad line may be megabytes long."""


def quoted(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to at most ``limit`` characters (``…`` marks the cut), for an error that names it."""
    text = repr(value) if not isinstance(value, str) or len(value) <= limit else repr(value[:limit])
    return text if len(text) <= limit else text[: limit - 1] + "…"


def around(text: str, position: int, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted whole when short, else the ``limit`` characters around ``position`` with ``…`` marking what
    was left out on either side."""
    if len(text) <= limit:
        return repr(text)
    start = max(0, min(position - limit // 2, len(text) - limit))
    head = "…" if start else ""
    tail = "…" if start + limit < len(text) else ""
    return f"{head}{text[start : start + limit]!r}{tail} (of {len(text):,} characters)"


class MjtableError(Exception):
    """Base of every error the project raises on purpose (never a bug)."""


class NotationError(MjtableError, ValueError):
    """A tile or hand string that cannot be read; names the character position and what was expected."""

    def __init__(self, text: str, position: int, expected: str) -> None:
        self.text = text
        self.position = position
        self.expected = expected
        found = repr(text[position]) if position < len(text) else "end of input"
        super().__init__(f"{expected} at position {position} of {around(text, position)}, found {found}")


class TileCountError(MjtableError, ValueError):
    """A hand or set holds more copies of a tile than the tile set has, or the wrong number of tiles."""


class RulesetError(MjtableError, ValueError):
    """An unknown ruleset or option, or an option value the ruleset does not accept."""


class SettleError(MjtableError, ValueError):
    """A ``mjtable settle`` request that is not what the contract describes: a missing or mistyped field, a
    meld that cannot be read, a query the ruleset does not answer."""


class MissingSituation(RulesetError, SettleError):
    """A situation field the ruleset cannot score without (a wildcard indicator, a void suit, a dice unit): what a
    hand in MCR notation cannot carry, so ``mjtable score`` can point to ``mjtable settle``."""

    def __init__(self, field: str, why: str = "") -> None:
        super().__init__(f"situation field {field!r} is missing" + (f": {why}" if why else ""))


class IllegalAction(MjtableError):
    """An action the referee rejects; the state is unchanged."""
