"""The two kinds of verdict the fan.md rulesets give, built one way: a win with its total, items and payments, or
a rejected declaration with its reason (``Score`` keeps the fields MCR needs, which these tables do not use)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.rulesets.base import FanEntry, Score
from engine.settlement import Amount, Payments


def won(
    total: Amount | None,
    fans: Iterable[FanEntry] = (),
    payments: Payments | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Score:
    """A legal win: ``total`` is the ruleset's own total (``None`` where the source gives none)."""
    return Score(True, True, total, total, True, tuple(fans), payments, None, extra or {})


def rejected(
    reason: str,
    *,
    total: Amount | None = None,
    shape_ok: bool = False,
    meets_minimum: bool | None = None,
    fans: Iterable[FanEntry] = (),
    payments: Payments | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Score:
    """A declaration that is no win; ``payments`` is what it costs (a penalty, all zero, or ``None``).
    ``meets_minimum`` follows ``shape_ok`` unless given (tables without a minimum answer ``True``)."""
    minimum = shape_ok if meets_minimum is None else meets_minimum
    return Score(False, shape_ok, total, total, minimum, tuple(fans), payments, reason, extra or {})
