"""Errors of the table procedure; they derive from the engine hierarchy so callers catch ``MjtableError``."""

from __future__ import annotations

from engine.errors import IllegalAction, MjtableError


class ProcedureError(MjtableError, ValueError):
    """A dice value, seat, wall layout or wall state that the procedure cannot use; names the field and value."""


class WallExhausted(IllegalAction):
    """A draw asked of a wall whose live part is empty; the wall is unchanged."""
