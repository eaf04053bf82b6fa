"""Ruleset-specific situation keys (``WinContext.extra``), read with a clear error naming the key when mistyped."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import RulesetError
from engine.tiles import Tile, parse_tiles


def flag(extra: Mapping[str, Any], key: str) -> bool:
    """An optional true/false key; absent = false."""
    value = extra.get(key, False)
    if type(value) is not bool:
        raise RulesetError(f"situation field {key!r}: expected true or false, found {value!r}")
    return value


def whole_number(extra: Mapping[str, Any], key: str, default: int | None, least: int = 0) -> int | None:
    """An optional whole number ≥ ``least``; absent = ``default``."""
    value = extra.get(key, default)
    if value is None:
        return None
    if type(value) is not int or value < least:
        raise RulesetError(f"situation field {key!r}: expected a whole number {least} or more, found {value!r}")
    return value


def number(extra: Mapping[str, Any], key: str, default: float) -> float:
    value = extra.get(key, default)
    if type(value) not in (int, float):
        raise RulesetError(f"situation field {key!r}: expected a number, found {value!r}")
    return value


def optional_seat(extra: Mapping[str, Any], key: str) -> int | None:
    value = extra.get(key)
    if value is not None and (type(value) is not int or not 0 <= value <= 3):
        raise RulesetError(f"situation field {key!r}: expected a seat 0-3, found {value!r}")
    return value


def tile_kinds(extra: Mapping[str, Any], key: str) -> frozenset[Tile]:
    """A list of tiles in compact notation (``["5z"]`` or ``["5z", "1m"]``); absent = none."""
    value = extra.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise RulesetError(f'situation field {key!r}: expected a list of tiles such as ["5z"], found {value!r}')
    try:
        return frozenset(tile for item in value for tile in parse_tiles(item))
    except ValueError as error:
        raise RulesetError(f"situation field {key!r}: {error}") from None
