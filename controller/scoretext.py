"""``mjtable score``'s answer line written from a ``Score`` (issue 30): the JSON encoder walking ``Score.to_dict()``
was half of an MCR line's cost (about 20 of 42 µs a cached line: the dictionaries built, then encoded key by key).
The answer is written here from its parts instead, each fan entry's text written once per distinct entry (a ruleset
has a few dozen), byte for byte what ``json.dumps(score.to_dict(), ensure_ascii=False)`` writes (the tests compare
the two on every ruleset's answers); anything out of the ordinary (a ruleset field named like a common one, a key
that is not text) is written by the encoder itself."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from json.encoder import encode_basestring
from typing import Any

from engine.rulesets.terms import FanEntry, Score

dump: Callable[[Any], str] = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)``, its encoder built once instead of once a line (a few µs of each)."""

COMMON = frozenset(("hu", "total", "fans", "payments", "shape_ok", "meets_minimum", "reason"))
"""The answer's own fields, in ``Score.to_dict``'s order: a ruleset field of the same name replaces its value in
place, which the encoder writes (never met in the rulesets; kept exact all the same)."""

FANS_KEPT = 4096
"""Fan lists and fan entries whose text is kept, each (the rulesets keep theirs: MCR one tuple per combination)."""


def _value(value: Any) -> str:
    """One JSON value as the encoder writes it; the common kinds without a call into the encoder."""
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is str:
        return encode_basestring(value)
    return dump(value)


def _payments(payments: Mapping[int, Any] | None) -> str:
    """A settlement as ``payments_out`` gives it to the encoder: seats ``"0"``-``"3"`` in order, or null."""
    if payments is None:
        return "null"
    return "{" + ", ".join([f'"{seat}": {_value(payments[seat])}' for seat in range(4)]) + "}"


class ScoreText:
    """A ``Score``'s answer line, written once per ``Score`` object met again: a ruleset that keeps its verdicts
    (basic: one per seats, one for every no-win) hands the same immutable object to many lines, so its JSON is
    written once for them all. Keyed by identity and holding the object, so an id is never reused under a key."""

    KEPT = 1024

    def __init__(self) -> None:
        self._known: dict[int, tuple[Score, str]] = {}
        self._lists: dict[int, tuple[tuple[FanEntry, ...], str]] = {}
        self._fans: dict[int, tuple[FanEntry, str]] = {}

    def __call__(self, score: Score) -> str:
        return _kept(self._known, score, self.write, self.KEPT)

    def write(self, score: Score) -> str:
        """``json.dumps(score.to_dict(), ensure_ascii=False)``, written from the score's parts."""
        extra = score.extra
        if extra and any(type(key) is not str or key in COMMON for key in extra):
            return dump(score.to_dict())
        parts = [
            '{"hu": ',
            _value(score.hu),
            ', "total": ',
            _value(score.total),
            ', "fans": [',
            self._fan_list(score.fans),
            '], "payments": ',
            _payments(score.payments),
            ', "shape_ok": ',
            _value(score.shape_ok),
            ', "meets_minimum": ',
            _value(score.meets_minimum),
        ]
        if score.reason is not None:
            parts += ', "reason": ', _value(score.reason)
        for key, value in extra.items():
            parts += ", ", encode_basestring(key), ": ", _value(value)
        parts.append("}")
        return "".join(parts)

    def _fan_list(self, fans: tuple[FanEntry, ...]) -> str:
        """The fan entries' texts, joined: written once per tuple met again, else from each entry's text."""
        return _kept(self._lists, fans, self._join_fans, FANS_KEPT)

    def _join_fans(self, fans: tuple[FanEntry, ...]) -> str:
        return ", ".join([_kept(self._fans, fan, _fan_text, FANS_KEPT) for fan in fans])


def _fan_text(fan: FanEntry) -> str:
    return dump(fan.to_dict())


def _kept(kept: dict[int, tuple[Any, str]], thing: Any, write: Callable[[Any], str], limit: int) -> str:
    """``thing``'s text from ``kept`` (keyed by identity, holding the object, so an id is never reused under a key),
    written and kept when absent; at most ``limit`` kept."""
    found = kept.get(id(thing))
    if found is not None and found[0] is thing:
        return found[1]
    if len(kept) >= limit:
        kept.clear()
    text = write(thing)
    kept[id(thing)] = (thing, text)
    return text
