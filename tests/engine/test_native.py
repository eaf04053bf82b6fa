"""The compiled core (``engine/_native.c``) against the pure-Python path, hand by hand: the 3,000 oracle hands and
thousands of their mutations (bad characters, cut and doubled pieces, wrong sizes, a fifth copy) go through both, and
every answer (a hand, a count vector, or the error's type and text) must be the same; so must every line ``mjtable
waits`` writes, the core answering whole lines (``waits_answers``). CI (``MJTABLE_NO_SKIPS=1``,
gcc present) builds the core, so there the test fails instead of skipping when it is missing."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from controller import cli
from controller.scoretext import dump
from engine import native as native_module
from engine.analysis.fast import is_win, is_win_pure, waits, waits_pure
from engine.analysis.shanten import shanten, shanten_pure
from engine.analysis.shapes import ShapeRules
from engine.errors import MjtableError
from engine.native import NATIVE
from engine.notation import _MELDS, _SITUATIONS, Hand, parse_hand, parse_hand_pure
from engine.rulesets.handcheck import concealed_counts, concealed_counts_pure
from engine.rulesets.registry import get_ruleset
from engine.tiles import tile_code
from engine.tilesets import TILE_SETS
from tests.engine.analysis.hands import WALL, counts_of, near_winning_hands, random_hands, winning_hands
from tests.engine.cores import required
from tests.paths import ANCHOR, REPO

ORACLE = [json.loads(line)["notation"] for line in (ANCHOR / "mcr-oracle-pymahjonggb-1.4.0.jsonl").open()]
ALPHABET = "123456789mpszESWNPFC[],|01 a"


@pytest.fixture(scope="module")
def native():
    """The compiled core; where CI builds it (gcc present, no skip allowed) its absence is a failure."""
    return required(
        NATIVE, "the compiled core engine._native is not built (python setup.py build_ext --inplace) or MJTABLE_PURE=1"
    )


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


def _notation(counts: list[int]) -> str:
    return "".join(tile_code(tile) * n for tile, n in enumerate(counts))


def _less_one_tile(rng: random.Random, text: str) -> str:
    """An oracle hand with one standing tile taken out: 13 - 3k tiles, most of them ready, melds and all."""
    tiles, rest = text.split("|", 1)
    start = tiles.rfind("]") + 1
    codes = [tiles[i : i + 2] for i in range(start, len(tiles), 2)]
    if any(code[1] not in "mpsz" for code in codes):  # honor letters (one character): the last tile goes
        return f"{tiles[: -2 if tiles[-1] in 'mpsz' else -1]}|{rest}"
    codes.pop(rng.randrange(len(codes)))
    return f"{tiles[:start]}{''.join(codes)}|{rest}"


def _waits_lines() -> list[str]:
    """Ready hands with melds, fresh random 13-tile hands and mutations of both: bad and non-ASCII characters, a CR
    or a space at the end, cut and doubled pieces, a fifth copy."""
    rng = random.Random(19)
    good = [_less_one_tile(rng, text) for text in ORACLE]
    good += [_notation(counts_of(rng.sample(WALL, 13))) for _ in range(3000)]
    fuzzed = [mutation for text in rng.sample(good, 1500) for mutation in _mutations(rng, text)]
    odd = [f"{text}\r" for text in good[:200]] + [f"{text} " for text in good[-200:]] + ["", " ", "\r", "é1m", "\0"]
    return good + fuzzed + odd + [cli.OVERLONG]


def _waits_batch(ruleset_name: str, lines: list[str], compiled: bool) -> list[str]:
    ruleset = get_ruleset(ruleset_name)
    out = io.StringIO()
    answer = cli.waits_compiled(ruleset) if compiled else None
    cli._batch(io.StringIO("\n".join(lines) + "\n"), lambda text: cli.waits_line(ruleset, text), out, chunk=answer)
    return out.getvalue().splitlines()


@pytest.mark.parametrize("ruleset_name", ["mcr", "basic", "riichi", "hangzhou", "contest111"])
def test_the_core_answers_every_waits_line_as_the_pure_path_does(native, ruleset_name: str) -> None:
    lines = _waits_lines()
    pure = _waits_batch(ruleset_name, lines, compiled=False)  # first: it fills the reader's caches the core reads
    assert len(pure) == len(lines)
    assert _waits_batch(ruleset_name, lines, compiled=True) == pure
    answered = native.waits_answers(lines, get_ruleset(ruleset_name).shape_rules.native_code, _MELDS, _SITUATIONS)
    assert sum(text is not None for text in answered) > len(lines) / 2  # most lines are the core's to answer


def test_the_waits_batch_answers_as_the_pure_path_alone_does(native) -> None:
    """Every line of ``mjtable waits --rules mcr`` through a pipe, compiled and with ``MJTABLE_PURE=1``."""
    data = "\n".join(_waits_lines()) + "\n"
    outputs = []
    for pure in ("0", "1"):
        environment = {**os.environ, "PYTHONPATH": str(REPO), "MJTABLE_PURE": pure}
        command = [sys.executable, "-m", "controller.cli", "waits", "--rules", "mcr"]
        run = subprocess.run(command, input=data, env=environment, capture_output=True, text=True, check=True, cwd=REPO)
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1] and outputs[0].count("\n") == data.count("\n")


@settings(max_examples=2000)
@given(st.one_of(near_winning_hands(), random_hands((13,))), shape_rules)
def test_the_core_answers_a_waits_line_as_waits_and_shanten_do(native, counts: list[int], rules: ShapeRules) -> None:
    """Under any shape rules: the core looks for waits in ready hands alone, and writes the answer as the CLI does."""
    assume(sum(counts) == 13)
    try:
        found = [tile_code(tile) for tile in waits_pure(counts, rules) if counts[tile] < 4]
        expected = dump({"waits": found, "shanten": shanten_pure(counts, rules)})
    except MjtableError:
        expected = None
    assert native.waits_answers([_notation(counts)], rules.native_code, _MELDS, _SITUATIONS) == [expected]


def test_a_core_built_from_other_source_is_not_trusted(native, tmp_path, monkeypatch) -> None:
    assert native_module.load() is native
    moved_on = tmp_path / "_native.c"
    moved_on.write_bytes(native_module.SOURCE.read_bytes() + b"\n")
    monkeypatch.setattr(native_module, "SOURCE", moved_on)
    assert native_module.load() is None


def test_a_core_built_from_another_shared_header_is_not_trusted(native, tmp_path, monkeypatch) -> None:
    """The cores include engine/_notation.h: a header changed since the build makes each of them stale."""
    moved_on = tmp_path / "_notation.h"
    moved_on.write_bytes(native_module.HEADER.read_bytes() + b"\n")
    monkeypatch.setattr(native_module, "HEADER", moved_on)
    assert native_module.load() is None
    assert native_module.load("_mcr_native", native_module.MCR_SOURCE) is None


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
