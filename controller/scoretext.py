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
"""Fan entries whose text is kept (a ruleset has at most a few hundred distinct ones, counts included)."""


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
        self._fans: dict[FanEntry, str] = {}

    def __call__(self, score: Score) -> str:
        found = self._known.get(id(score))
        if found is not None and found[0] is score:
            return found[1]
        text = self.write(score)
        if len(self._known) >= self.KEPT:
            self._known.clear()
        self._known[id(score)] = (score, text)
        return text

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
            ", ".join([self._fan(fan) for fan in score.fans]),
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

    def _fan(self, fan: FanEntry) -> str:
        """One fan entry's text, written once per distinct entry."""
        text = self._fans.get(fan)
        if text is None:
            if len(self._fans) >= FANS_KEPT:
                self._fans.clear()
            text = self._fans[fan] = dump(fan.to_dict())
        return text
