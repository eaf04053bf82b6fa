"""The compiled MCR fan engine (``engine/_mcr_native.c``) against the pure scorer, hand by hand: the 3,000 oracle
hands, gb-mahjong-js's fan cases, and 20,000 seeded random winning hands (every form, 0-4 melds) and near misses
under random winds, situation flags and scoring options. Wherever the core answers, its fans (and so the total)
must be the pure path's; where it declines (more readings than it keeps), ``hand_fans`` must still give the pure
answer. The core is loaded here even under ``MJTABLE_PURE=1`` (which keeps it out of the engine, not out of this
comparison). CI (``MJTABLE_NO_SKIPS=1``, gcc present) builds it, so there the test fails instead of skipping when
it is missing."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from types import ModuleType

import pytest

from controller.cli import win_context
from engine import native as native_module
from engine.notation import Hand, format_hand, parse_hand
from engine.rulesets.mcr.scorer import ScoringOptions, _packs, hand_fans, pure_hand_fans, total
from engine.rulesets.mcr.situation import WinFlags
from tests.engine.cores import built
from tests.engine.rulesets.mcr.generator import near_miss, random_winning_hand
from tests.paths import ANCHOR

Case = tuple[Hand, WinFlags, tuple[int, int], ScoringOptions]

RECORDS = [json.loads(line) for line in (ANCHOR / "mcr-oracle-pymahjonggb-1.4.0.jsonl").open()]
ORACLE = [record["notation"] for record in RECORDS]
FAN_CASES = [
    case["input"]
    for case in json.loads((ANCHOR / "gb-mahjong-js" / "generated-unit-test-cases.json").read_text())["fanCases"]
]
DEFAULTS = ScoringOptions()


@pytest.fixture(scope="module")
def native() -> ModuleType:
    """The compiled core; where CI builds it (gcc present, no skip allowed) its absence is a failure."""
    return built("_mcr_native", native_module.MCR_SOURCE)


def stated(hand: Hand, options: ScoringOptions = DEFAULTS) -> Case:
    """The flags and winds ``McrRuleset.evaluate`` derives from the hand's own situation block."""
    ctx = win_context(hand)
    flags = WinFlags(ctx.discarder is None, ctx.fourth_tile, ctx.last_tile, ctx.after_kong or ctx.robbing_kong)
    return hand, flags, (ctx.round_wind, (ctx.winner - ctx.dealer) % 4), options


def shuffled(rng: random.Random, hand: Hand) -> Case:
    """The hand under random winds, flags (the scorer corrects those the tiles contradict) and options."""
    flags = WinFlags(*(rng.random() < 0.3 for _ in range(4)))
    options = ScoringOptions(*(rng.random() < 0.7 for _ in range(3)))
    return hand, flags, (rng.randrange(4), rng.randrange(4)), options


def compare(native: ModuleType, cases: Iterable[Case]) -> tuple[int, int]:
    """(cases, answered by the core); every difference is printed in notation and fails the test."""
    seen = answered = 0
    differ = []
    for hand, flags, winds, options in cases:
        seen += 1
        pure = pure_hand_fans(hand, flags, winds, options)
        assert hand_fans(hand, flags, winds, options) in (pure, tuple(sorted(pure or ())) or None)
        got = native.hand_fans(hand.standing, hand.win_tile, _packs(hand.melds), *flags, *winds, *options)
        if got is None:
            continue
        answered += 1
        expected = tuple(sorted(pure or ()))
        if got != expected or (pure and total(dict(got)) != total(dict(pure))):
            differ.append(f"{format_hand(hand)} {flags} {winds} {options}: pure {expected}, core {got}")
    for line in differ[:20]:
        print(line)
    assert not differ, f"{len(differ)} of {seen} hands differ between the core and the pure scorer"
    return seen, answered


def test_oracle_hands_agree(native: ModuleType) -> None:
    seen, answered = compare(native, (stated(parse_hand(text)) for text in ORACLE))
    print(f"core answered {answered} of {seen} oracle hands")
    assert answered >= 0.8 * seen, "the core must answer the common case (standard hands)"


def test_every_special_form_is_answered(native: ModuleType) -> None:
    """Seven pairs (连七对, 七对 against the hand's readings), thirteen orphans, honors and knitted tiles and the
    knitted straight with a set (concealed or melded) are the core's too: every one of the oracle's, under its own
    situation and random ones (the scoring options too), agrees and is answered."""
    kinds = ("seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
    forms = [parse_hand(record["notation"]) for record in RECORDS if record["kind"] in kinds]
    assert len(forms) == 176 + 146 + 94
    rng = random.Random(7)
    seen, answered = compare(native, (case for hand in forms for case in (stated(hand), shuffled(rng, hand))))
    assert seen == answered == 2 * len(forms)


def test_nine_gates_are_answered(native: ModuleType) -> None:
    """九莲宝灯 completed by each tile of each suit (what the winning rank adds differs), under random situations,
    and the same tiles one short of the gates (a full flush read as sets): all agree and are answered."""
    rng = random.Random(9)
    cases = []
    for suit in "mps":
        for rank in range(1, 10):
            gates = "".join(f"{r}{suit}" for r in "1112345678999")
            cases.append(parse_hand(f"{gates}{rank}{suit}|EE0000|0"))
    near = [parse_hand("1112345678999m1p|EE0000|0"), parse_hand("11123456789999m|EE0000|0")]
    every = [case for hand in cases for case in (stated(hand), shuffled(rng, hand), shuffled(rng, hand))]
    seen, answered = compare(native, every)
    assert seen == answered == 3 * 27
    compare(native, (stated(hand) for hand in near))


def test_fan_cases_agree(native: ModuleType) -> None:
    compare(native, (stated(parse_hand(text)) for text in FAN_CASES))


def test_random_hands_agree(native: ModuleType) -> None:
    """20,000 winning hands and 2,000 near misses, each under its own situation and under a random one; the core
    answers nearly all (it declines only a hand with more readings than it keeps)."""
    rng = random.Random(30)
    hands = [random_winning_hand(rng) for _ in range(20_000)] + [near_miss(rng) for _ in range(2_000)]
    seen, answered = compare(native, (case for hand in hands for case in (stated(hand), shuffled(rng, hand))))
    print(f"core answered {answered} of {seen} random hands")
    assert answered >= 0.999 * seen


def test_core_declines_what_it_cannot_read(native: ModuleType) -> None:
    """A tile id out of range, a wrong tile count, a malformed meld or a list for a tuple: None (the pure path
    answers or raises)."""
    flags = (False, False, False, False, 0, 0, True, True, True)
    assert native.hand_fans((1, 2, 3) * 3 + (10, 10, 10, 5), 5, (), *flags) is not None
    assert native.hand_fans([1, 2, 3] * 3 + [10, 10, 10, 5], 5, (), *flags) is None
    assert native.hand_fans((1, 2, 3) * 4 + (5,), 34, (), *flags) is None
    assert native.hand_fans((1, 2, 3) * 4, 5, (), *flags) is None
    assert native.hand_fans((1, 2, 3) * 3 + (5,), 5, ((1, 0x40, True),), *flags) is None


def test_a_core_built_from_other_source_is_not_trusted(native: ModuleType, tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("MJTABLE_PURE", raising=False)
    moved_on = tmp_path / "_mcr_native.c"
    moved_on.write_bytes(native_module.MCR_SOURCE.read_bytes() + b"\n")
    assert native_module.load("_mcr_native", moved_on) is None
    monkeypatch.setenv("MJTABLE_PURE", "1")
    assert native_module.load("_mcr_native", native_module.MCR_SOURCE) is None
