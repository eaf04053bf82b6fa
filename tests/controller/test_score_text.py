"""``mjtable score``'s answer written from a ``Score``'s parts (``controller.scoretext``, issue 30) is byte for byte
what the JSON encoder writes of ``Score.to_dict()``: on every ruleset's real answers, and on scores of any shape."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller import cli
from controller.scoretext import ScoreText, dump
from engine.errors import MjtableError
from engine.rulesets.registry import all_rulesets
from engine.rulesets.terms import FanEntry, Score
from tests.paths import ANCHOR

ORACLE = ANCHOR / "mcr-oracle-pymahjonggb-1.4.0.jsonl"


def _hands() -> list[str]:
    """The first oracle hands (MCR notation), and a few that break a ruleset's rules or shapes."""
    lines = [json.loads(line)["notation"] for line in ORACLE.read_text().splitlines()[:300]]
    return [*lines, "123m456p789s11122z|EE1000|0", "19m19p19s1234567z1m|SS0000|0", "11223344556677m|EE1000|0"]


def test_every_rulesets_answers_are_written_as_the_encoder_writes_them():
    written = 0
    for kind in all_rulesets():
        ruleset, rules = kind(), kind.id
        text_of = ScoreText()
        for line in _hands():
            try:
                score = cli.score_of(ruleset, line)
            except MjtableError:
                continue
            assert text_of.write(score) == dump(score.to_dict()), (rules, line)
            written += 1
    assert written > 1000


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
)
_VALUES = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
)
_FANS = st.builds(
    FanEntry,
    st.one_of(st.integers(0, 90), st.text(max_size=6)),
    st.text(max_size=6),
    st.text(max_size=6),
    st.one_of(st.none(), st.integers(-100, 10**6), st.floats(allow_nan=False)),
    st.integers(1, 8),
)
_AMOUNTS = st.lists(st.one_of(st.integers(-1000, 1000), st.sampled_from([0.5, 1.25, 2.0])), min_size=3, max_size=3)


@st.composite
def _scores(draw: st.DrawFn) -> Score:
    amounts = draw(st.none() | _AMOUNTS)
    payments = None if amounts is None else {0: amounts[0], 1: amounts[1], 2: amounts[2], 3: -sum(amounts)}
    extra_keys = st.one_of(st.text(max_size=6), st.sampled_from(["reason", "total", "hu", "kinds"]), st.integers(0, 3))
    return Score(
        hu=draw(st.booleans()),
        shape_ok=draw(st.booleans()),
        total=draw(st.one_of(st.none(), st.integers(0, 10**6), st.floats(allow_nan=False))),
        total_without_flowers=draw(st.one_of(st.none(), st.integers(0, 100))),
        meets_minimum=draw(st.booleans()),
        fans=tuple(draw(st.lists(_FANS, max_size=5))),
        payments=payments,
        reason=draw(st.none() | st.text(max_size=10)),
        extra=draw(st.dictionaries(extra_keys, _VALUES, max_size=4)),
    )


@settings(max_examples=400, deadline=None)
@given(_scores())
def test_a_score_of_any_shape_is_written_as_the_encoder_writes_it(score: Score):
    assert ScoreText().write(score) == dump(score.to_dict())


def test_the_kept_fan_texts_are_bounded(monkeypatch):
    monkeypatch.setattr("controller.scoretext.FANS_KEPT", 10)  # read at each call
    text_of = ScoreText()
    rng = random.Random(30)
    for _ in range(50):
        fan = FanEntry(rng.randrange(1000), "x", "y", rng.randrange(10))
        score = Score(True, True, 1, 1, True, fans=(fan,))
        assert text_of.write(score) == dump(score.to_dict())
    assert len(text_of._fans) <= 10
