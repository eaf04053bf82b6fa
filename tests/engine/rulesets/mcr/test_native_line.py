"""The compiled core's whole ``mjtable score --rules mcr`` line (``engine.rulesets.mcr.line``, the core's
``score_lines``) against the pure path, line by line: where the core answers, its text must be byte for byte what
``score_of`` and ``ScoreText`` write with the core kept out of the fans too; where the pure path refuses a line (any
error), the core must decline it (None), so the error message stays the pure path's. The 3,000 oracle lines under
each ruleset option, 20,000 random winning hands and near misses written in several ways, and lines mangled at
random."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller import cli
from controller.scoretext import ScoreText
from engine import native as native_module
from engine.errors import MjtableError
from engine.notation import format_hand, format_mcr_tiles
from engine.rulesets.mcr import line as line_module
from engine.rulesets.mcr import ruleset as mcr_ruleset
from engine.rulesets.mcr import scorer
from engine.rulesets.mcr.line import score_lines
from engine.rulesets.registry import get_ruleset
from tests.engine.cores import built
from tests.engine.rulesets.mcr.generator import near_miss, random_winning_hand
from tests.engine.rulesets.mcr.test_native_fans import ORACLE

OPTIONS = (
    {},
    {"minimum": 0},
    {"minimum": 20},
    {"infer_last_tile": False},
    {"knitted_body_waits": False},
    {"exhausted_waits": False},
    {"flowers": False},
    {"false_win_penalty": 7, "minimum": 12},
)
Answers = Callable[[list[str]], list[str | None]]


@pytest.fixture(scope="module")
def native() -> Iterator[ModuleType]:
    """The core, used by ``score_lines`` even under ``MJTABLE_PURE=1`` (which keeps it out of the engine, not out
    of this comparison)."""
    core = built("_mcr_native", native_module.MCR_SOURCE)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(line_module, "MCR_NATIVE", core)
        yield core


@pytest.fixture(scope="module")
def pure(native: ModuleType) -> Iterator[Callable[[dict, str], str | None]]:
    """The pure path's answer text to one line under some options (None where it refuses the line), the compiled
    fans kept out of it; and the core's lines set up with the same options (``lines(options)``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scorer, "MCR_NATIVE", None)
        patch.setattr(mcr_ruleset, "MCR_NATIVE", None)  # the rulesets built here score through the pure path
        mcr_ruleset.checked_hand_fans.cache_clear()
        text_of = ScoreText()

        def answer(options: dict, line: str) -> str | None:
            try:
                return text_of(cli.score_of(get_ruleset("mcr", options), cli._text(line, "a hand")))
            except MjtableError:
                return None

        yield answer
    mcr_ruleset.checked_hand_fans.cache_clear()


def lines_of(native: ModuleType, options: dict) -> Answers:
    found = score_lines(get_ruleset("mcr", options))
    assert found is not None, "the core is built: an MCR ruleset must have its compiled lines"
    return found


def compare(native: ModuleType, pure: Callable[[dict, str], str | None], options: dict, lines: list[str]) -> int:
    """How many lines the core answered; every line it answers otherwise, or answers where the pure path refuses,
    is printed and fails the test."""
    got = lines_of(native, options)(lines)
    differ = [
        f"{line!r}: pure {expected!r}, core {answer!r}"
        for line, answer in zip(lines, got, strict=True)
        if answer is not None and answer != (expected := pure(options, line))
    ]
    for text in differ[:10]:
        print(text)
    assert not differ, f"{len(differ)} of {len(lines)} lines differ under {options}"
    return sum(answer is not None for answer in got)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda options: ",".join(f"{k}={v}" for k, v in options.items()))
def test_the_oracle_lines_are_answered_as_the_pure_path_answers_them(native, pure, options) -> None:
    answered = compare(native, pure, options, ORACLE)
    with_flowers = sum(not line.endswith("|0") and line.count("|") == 2 for line in ORACLE)
    assert answered == len(ORACLE) - (with_flowers if options.get("flowers") is False else 0)


def _written(rng: random.Random, hand) -> str:
    """The hand's line as a person might write it: canonical, without the flowers or the situation, tiles
    one by one, melds out of order, a CR at the end."""
    text = format_hand(hand)
    roll = rng.random()
    if roll < 0.1:
        text = text.rsplit("|", 1)[0] if text.count("|") == 2 else text
    elif roll < 0.15:
        text = text.split("|", 1)[0]
    elif roll < 0.3:
        body, bar, rest = text.partition("|")
        melds = body.rpartition("]")[0]
        spelled = "".join(format_mcr_tiles([tile]) for tile in (*hand.standing, hand.win_tile))
        text = (melds + "]" if melds else "") + spelled + bar + rest
    if rng.random() < 0.05:
        text += "\r"
    return text


def test_random_hands_and_near_misses_are_answered_alike(native, pure) -> None:
    rng = random.Random(41)
    hands = [random_winning_hand(rng) for _ in range(8_000)] + [near_miss(rng) for _ in range(2_000)]
    lines = [_written(rng, hand) for hand in hands]
    answered = compare(native, pure, {}, lines)
    assert answered >= 0.999 * len(lines)


ALPHABET = "0123456789mpszESWNPFCabh[],| \r\t\u00e9x"


def _mangled(rng: random.Random, line: str) -> str:
    """One to three characters deleted, replaced, inserted or doubled."""
    chars = list(line)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(chars) + 1)
        action = rng.randrange(4)
        if action == 0 and at < len(chars):
            del chars[at]
        elif action == 1 and at < len(chars):
            chars[at] = rng.choice(ALPHABET)
        elif action == 2:
            chars.insert(at, rng.choice(ALPHABET))
        elif at < len(chars):
            chars.insert(at, chars[at])
    return "".join(chars)


def test_mangled_lines_are_declined_wherever_the_pure_path_refuses_them(native, pure) -> None:
    rng = random.Random(43)
    lines = [_mangled(rng, rng.choice(ORACLE)) for _ in range(6_000)]
    refused = [line for line in lines if pure({}, line) is None]
    assert len(refused) > 2_000  # the mangling was real
    assert lines_of(native, {})(refused) == [None] * len(refused)
    compare(native, pure, {}, lines)


REFUSED = (
    "[1111m]1m2m3m4m5m6m7m8m9m9|EE0000|0",  # a fifth 1m
    "[1111m]1m2m3m4m5m6m7m8m9m9m|EE0000|0",
    "[111m,4]2m3m4m5m6m7m8m9m9m9mE|EE0000|0",  # a pung from offer 4
    "[123m,5]2m3m4m5m6m7m8m9m9m9mE|EE0000|0",
    "[1111m,8]2m3m4m5m6m7m8m9m9m9m|EE0000|0",
    "[ESW]2m3m4m5m6m7m8m9m9m9mEE|EE0000|0",  # a chow of winds
    "[89m1p]2m3m4m5m6m7m8m9m9m9mEE|EE0000|0",  # a chow across suits
    "[124m]2m3m4m5m6m7m8m9m9m9mEE|EE0000|0",
    "123m456m789m123p5p5|XE0000|0",
    "123m456m789m123p5p5p|XE0000|0",
    "123m456m789m123p5p5p|EE0200|0",
    "123m456m789m123p5p5p|EE000|0",
    "123m456m789m123p5p5p|EE0000|9",
    "123m456m789m123p5p5p|EE0000|00",
    "123m456m789m123p5p5p|EE0000|0|0",
    "123m456m789m123p5p|EE0000|0",
    "123m456m789m123p5p5p5p|EE0000|0",
    "123m456m789m123p5p5p ",
    "123m456m789m123p[5p5p]",
    "",
    "\r",
)


def test_lines_the_pure_path_refuses_are_declined(native, pure) -> None:
    assert [pure({}, line) for line in REFUSED] == [None] * len(REFUSED)
    assert lines_of(native, {})(list(REFUSED)) == [None] * len(REFUSED)
    assert pure({"flowers": False}, "123m456m789m123p5p5p|EE0000|1") is None
    assert lines_of(native, {"flowers": False})(["123m456m789m123p5p5p|EE0000|1"]) == [None]


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40), st.sampled_from(OPTIONS))
def test_any_text_is_answered_alike_or_declined(native, pure, text: str, options: dict) -> None:
    compare(native, pure, options, [text])


def test_the_batch_writes_the_same_answers_with_and_without_the_core(native, monkeypatch) -> None:
    """``mjtable score --rules mcr`` takes the core's answers, and answers every line the core declines itself."""
    text = "\n".join([*ORACLE[:300], "1m2m3m|EE0000|0", "", "[123m]4m5m6m7m8m9m1p1p1p2p2p |EE0000|0"]) + "\n"

    def run() -> str:
        out = io.StringIO()
        assert cli.main(["score", "--rules", "mcr"], io.StringIO(text), out) == 0
        return out.getvalue()

    compiled = run()
    monkeypatch.setattr(line_module, "MCR_NATIVE", None)  # no compiled lines: every line by the pure path
    assert run() == compiled
    assert compiled.count("\n") == 303 and compiled.count('"error"') == 3
