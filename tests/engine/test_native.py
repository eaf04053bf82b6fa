"""The compiled core (``engine/_native.c``) against the pure-Python path, hand by hand: the 3,000 oracle hands and
thousands of their mutations (bad characters, cut and doubled pieces, wrong sizes, a fifth copy) go through both, and
every answer (a hand, a count vector, or the error's type and text) must be the same. CI (``MJTABLE_NO_SKIPS=1``,
gcc present) builds the core, so there the test fails instead of skipping when it is missing."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import native as native_module
from engine.analysis.fast import is_win, is_win_pure, waits, waits_pure
from engine.analysis.shanten import shanten, shanten_pure
from engine.analysis.shapes import ShapeRules
from engine.errors import MjtableError
from engine.native import NATIVE
from engine.notation import _MELDS, _SITUATIONS, Hand, parse_hand, parse_hand_pure
from engine.rulesets.handcheck import concealed_counts, concealed_counts_pure
from engine.tilesets import TILE_SETS
from tests.engine.analysis.hands import near_winning_hands, random_hands, winning_hands
from tests.paths import ANCHOR, REPO

ORACLE = [json.loads(line)["notation"] for line in (ANCHOR / "mcr-oracle-pymahjonggb-1.4.0.jsonl").open()]
ALPHABET = "123456789mpszESWNPFC[],|01 a"


@pytest.fixture(scope="module")
def native():
    """The compiled core; where CI builds it (gcc present, no skip allowed) its absence is a failure."""
    if NATIVE is None:
        reason = "the compiled core engine._native is not built (python setup.py build_ext --inplace) or MJTABLE_PURE=1"
        if os.environ.get("MJTABLE_NO_SKIPS") == "1" and shutil.which("gcc"):
            pytest.fail(reason)
        pytest.skip(reason)
    return NATIVE


def _mutations(rng: random.Random, text: str) -> list[str]:
    """A hand with one character replaced, one inserted, one piece cut out and one doubled."""
    at = rng.randrange(len(text))
    cut = rng.randrange(len(text) + 1)
    return [
        text[:at] + rng.choice(ALPHABET) + text[at + 1 :],
        text[:at] + rng.choice(ALPHABET) + text[at:],
        text[:at] + text[cut:],
        text[:at] + text[at:cut] * 2 + text[cut:],
    ]


def _hands() -> list[str]:
    rng = random.Random(30)
    hands = list(ORACLE)
    for text in ORACLE:
        hands.extend(_mutations(rng, text))
        hands.append(text.split("|")[0])  # no situation, no flowers
    return hands


def _outcome(function: Callable[..., object], *arguments: object) -> object:
    try:
        return function(*arguments)
    except MjtableError as error:
        return type(error), str(error)


def test_the_core_reads_every_hand_as_the_pure_reader_does(native) -> None:
    read = 0
    for text in _hands():
        pure = _outcome(parse_hand_pure, text)  # first: it fills the caches of melds and situations the core reads
        fast = native.parse_hand(text, _MELDS, _SITUATIONS, Hand)
        if fast is not None:
            read += 1
            assert type(fast) is Hand and fast == pure and hash(fast) == hash(pure), text
            assert fast.__dict__ == pure.__dict__, text
        assert _outcome(parse_hand, text) == pure, text
    assert read > len(ORACLE)  # the oracle hands and most of the mutations are the core's to read


@pytest.mark.parametrize("tile_set", ["136", "144"])
def test_the_core_checks_every_hand_as_the_pure_check_does(native, tile_set: str) -> None:
    tiles = TILE_SETS[tile_set]
    counted = 0
    for text in _hands():
        hand = _outcome(parse_hand_pure, text)
        if not isinstance(hand, Hand):
            continue
        pure = _outcome(concealed_counts_pure, hand, tiles)
        fast = native.concealed_counts(hand, tiles.flower_count)
        if fast is not None:
            counted += 1
            assert fast == pure, text
        assert _outcome(concealed_counts, hand, tiles) == pure, text
    assert counted >= len(ORACLE) * (1 if tile_set == "144" else 0.5)


shape_rules = st.builds(
    ShapeRules,
    standard=st.booleans(),
    seven_pairs=st.booleans(),
    seven_pairs_quad_as_two_pairs=st.booleans(),
    thirteen_orphans=st.booleans(),
    honors_knitted=st.booleans(),
    knitted_straight=st.booleans(),
    pair_ranks=st.none() | st.frozensets(st.integers(1, 9)),
)


@settings(max_examples=2000)
@given(st.one_of(winning_hands(), random_hands((14, 11, 8, 5, 2, 13)), random_hands((17,))), shape_rules)
def test_the_core_finds_every_win_the_pure_check_finds(native, counts: list[int], rules: ShapeRules) -> None:
    fast = native.is_win(counts, rules.native_code)
    assert fast is None if sum(counts) > 14 else fast is is_win_pure(counts, rules)
    assert is_win(counts, rules) is is_win_pure(counts, rules)



@settings(max_examples=2000)
@given(
    st.one_of(near_winning_hands(), near_winning_hands(2), random_hands((13, 14, 10, 11, 7, 4, 1))),
    shape_rules,
)
def test_the_core_counts_shanten_as_the_pure_count_does(native, counts: list[int], rules: ShapeRules) -> None:
    pure = _outcome(shanten_pure, counts, rules)
    fast = native.shanten(counts, rules.native_code)
    assert fast is None if isinstance(pure, tuple) else fast == pure
    assert _outcome(shanten, counts, rules) == pure


@settings(max_examples=2000)
@given(st.one_of(near_winning_hands(), random_hands((13, 10, 7, 4, 1, 14))), shape_rules)
def test_the_core_finds_every_wait_the_pure_search_finds(native, counts: list[int], rules: ShapeRules) -> None:
    pure = _outcome(waits_pure, counts, rules)
    fast = native.waits(counts, rules.native_code)
    assert fast is None if isinstance(pure, tuple) else fast == pure
    assert _outcome(waits, counts, rules) == pure


def test_a_core_built_from_other_source_is_not_trusted(native, tmp_path, monkeypatch) -> None:
    assert native_module.load() is native
    moved_on = tmp_path / "_native.c"
    moved_on.write_bytes(native_module.SOURCE.read_bytes() + b"\n")
    monkeypatch.setattr(native_module, "SOURCE", moved_on)
    assert native_module.load() is None


@pytest.mark.slow  # about 30 s on two workers: the engine's whole suite once more
def test_the_engine_suite_passes_on_the_pure_path_too() -> None:
    """CI installs the core, so the default run takes the compiled path; this runs the rest of the engine's tests
    on the pure one (a machine without a compiler)."""
    environment = {**os.environ, "PYTHONPATH": str(REPO), "MJTABLE_PURE": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", "-m", "not slow"]
    ignored = f"--ignore={REPO / 'tests' / 'engine' / 'test_native.py'}"
    run = subprocess.run([*command, ignored, str(REPO / "tests" / "engine")], env=environment, cwd=REPO, check=False)
    assert run.returncode == 0


def test_mjtable_pure_keeps_the_core_out() -> None:
    probe = "from engine.native import NATIVE; print(NATIVE is None)"
    environment = {**os.environ, "PYTHONPATH": str(REPO), "MJTABLE_PURE": "1"}
    run = subprocess.run([sys.executable, "-c", probe], env=environment, capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "True"
