"""Helpers of the fan.md ruleset tests: one ``mjtable settle`` request through the real contract path."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.settle.answer import settle_object


def ask(
    rules: str,
    hand: str = "",
    win_tile: str | None = None,
    melds: tuple[str, ...] = (),
    *,
    query: str = "score",
    options: dict[str, Any] | None = None,
    **situation: Any,
) -> dict[str, Any]:
    request = {
        "rules": rules,
        "options": options or {},
        "hand": hand,
        "melds": list(melds),
        "win_tile": win_tile,
        "situation": situation,
        "query": query,
    }
    return settle_object(request)


def fans_of(answer: dict[str, Any]) -> Counter[tuple[str, Any]]:
    """The answer's fans as a multiset of (name, value)."""
    return Counter((fan["name_zh"], fan["value"]) for fan in answer["fans"])


def paid(answer: dict[str, Any]) -> tuple[Any, ...]:
    """Payments of seats 0-3 in order."""
    return tuple(answer["payments"][str(seat)] for seat in range(4))
