"""What the fleet accepts from the broker about a table: its retained ``state`` (the table's ``/api/state``) and its
``availability``. Anyone the broker's ACL lets write there can publish anything, retained: a state that would break
the parlor page (a ``wins`` that is no list, a ``NaN`` that is not JSON for the browser) or hold the fleet up is
refused here with the field named, and the fleet shows that table's problem instead of its state."""

from __future__ import annotations

import json
import math
from typing import Any

from controller.fleet.callbacks import excerpt
from controller.jsonin import read_json
from engine.errors import MjtableError

MAX_STATE = 256 * 1024
"""Bytes of a state message; a table's state is about 10 KB (its last 30 verdicts, four seats' discards)."""
AVAILABILITY = ("online", "offline")


def _fail(field: str, expected: str, value: Any) -> MjtableError:
    return MjtableError(f"state.{field}: expected {expected}, got {excerpt(repr(value), 40)}")


def _int(state: dict[str, Any], field: str, low: int, high: int, optional: bool = False) -> None:
    value = state.get(field)
    if optional and value is None:
        return
    if type(value) is not int or not low <= value <= high:
        raise _fail(field, f"an integer {low}-{high}" + (" or null" if optional else ""), value)


def _text(state: dict[str, Any], field: str, optional: bool = False) -> None:
    value = state.get(field)
    if not (isinstance(value, str) or (optional and value is None)):
        raise _fail(field, "a string" + (" or null" if optional else ""), value)


def _number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _win(win: Any) -> None:
    if win is None:
        return
    if not isinstance(win, dict) or type(win.get("drawn")) is not bool or not isinstance(win.get("wins"), list):
        raise _fail("win", 'null or {"drawn": true|false, "wins": [...]}', win)
    for index, one in enumerate(win["wins"]):
        score = one.get("score") if isinstance(one, dict) else None
        if not (isinstance(one, dict) and type(one.get("seat")) is int and 0 <= one["seat"] <= 3):
            raise _fail(f"win.wins[{index}]", '{"seat": 0-3, "score": {"total": N}}', one)
        if not (isinstance(score, dict) and _number(score.get("total"))):
            raise _fail(f"win.wins[{index}].score", '{"total": a number}', score)


def _fault(fault: Any) -> None:
    if fault is not None and not (
        isinstance(fault, dict) and isinstance(fault.get("code"), str) and isinstance(fault.get("hint_en"), str)
    ):
        raise _fail("fault", 'null or {"code": "...", "hint_en": "..."}', fault)


def read_state(payload: bytes) -> dict[str, Any]:
    """The state, or a ``MjtableError`` naming the first thing wrong with it."""
    if len(payload) > MAX_STATE:
        raise MjtableError(f"state: {len(payload)} bytes; at most {MAX_STATE}")
    try:
        state = read_json(payload, "state")
    except ValueError as error:  # int() refuses over 4,300 digits
        raise MjtableError(f"state: not JSON ({excerpt(error, 80)})") from None
    if not isinstance(state, dict):
        raise MjtableError(f"state: expected a JSON object, got {type(state).__name__}")
    try:
        json.dumps(state, allow_nan=False)  # the browser's JSON has no NaN nor Infinity
    except ValueError:
        raise MjtableError("state: holds a number that is not finite (NaN or Infinity)") from None
    except RecursionError:
        raise MjtableError("state: nested too deeply") from None
    _int(state, "version", 0, 2**53)
    _int(state, "hand", 0, 10**9, optional=True)
    scores = state.get("scores")
    if not (isinstance(scores, list) and len(scores) == 4 and all(_number(score) for score in scores)):
        raise _fail("scores", "four numbers", scores)
    _fault(state.get("fault"))
    if state.get("hand") is not None:
        _text(state, "rules")
        _int(state, "dealer", 0, 3)
        if state.get("round_wind") not in ("E", "S", "W", "N"):
            raise _fail("round_wind", "one of E, S, W, N", state.get("round_wind"))
        _int(state, "wall_remaining", 0, 1000, optional=True)
        _text(state, "phase", optional=True)
        _win(state.get("win"))
    return state


def read_availability(payload: bytes) -> str:
    """``online`` or ``offline``, or a ``MjtableError`` quoting (a little of) what came."""
    text = payload.decode("utf-8", errors="replace")
    if text not in AVAILABILITY:
        raise MjtableError(f"availability: expected online or offline, got {excerpt(repr(text), 40)}")
    return text
