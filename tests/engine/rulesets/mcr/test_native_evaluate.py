"""``McrRuleset.evaluate`` through the compiled core (``hand_score``: the whole ``Score`` of a checked hand in one
call) against the pure path, hand by hand: the same ``Score`` (every field, the payments a dict of ints, ``extra``
a read-only view) for the 3,000 oracle hands and 12,000 random winning hands and near misses, under random
situations (winner, dealer, discarder, flags, flowers) and every option; what the core declines (flower tiles, a
fifth copy, a count off, the blessings of a first turn) is answered, or refused with the same message, by the pure
path."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import MappingProxyType, ModuleType

import pytest

from engine import native as native_module
from engine.errors import MjtableError
from engine.notation import Hand, Meld, MeldKind, parse_hand
from engine.rulesets.base import WinContext
from engine.rulesets.mcr import ruleset as mcr_ruleset
from engine.rulesets.mcr import scorer
from engine.rulesets.registry import get_ruleset
from engine.tiles import FLOWERS
from tests.engine.cores import built
from tests.engine.rulesets.mcr.generator import near_miss, random_winning_hand
from tests.engine.rulesets.mcr.test_native_fans import ORACLE

OPTIONS = (
    {},
    {"minimum": 0, "false_win_penalty": 0},
    {"minimum": 16, "false_win_penalty": 3},
    {"infer_last_tile": False, "knitted_body_waits": False, "exhausted_waits": False},
    {"blessings": True},
)


@pytest.fixture(scope="module")
def native() -> Iterator[ModuleType]:
    """The core, used by the rulesets built here even under ``MJTABLE_PURE=1`` (which keeps it out of the engine,
    not out of this comparison)."""
    core = built("_mcr_native", native_module.MCR_SOURCE)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mcr_ruleset, "MCR_NATIVE", core)
        yield core


@pytest.fixture(scope="module")
def pure_scores(native: ModuleType) -> Iterator[None]:
    """The pure path's own fans (the compiled ``hand_fans`` kept out) for the rulesets built with ``_core=None``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scorer, "MCR_NATIVE", None)
        mcr_ruleset.checked_hand_fans.cache_clear()
        yield
    mcr_ruleset.checked_hand_fans.cache_clear()


def rulesets(options: dict):
    """(compiled, pure) rulesets under ``options``."""
    compiled, pure = get_ruleset("mcr", options), get_ruleset("mcr", options)
    assert compiled._core is not None, "the core is built: the ruleset must use it"
    pure._core = None
    return compiled, pure


def random_context(rng: random.Random, hand: Hand) -> WinContext:
    """A situation of any shape the table may meet, the hand's own flags kept half the time."""
    winner, dealer = rng.randrange(4), rng.randrange(4)
    situation = hand.context
    self_drawn = situation.self_drawn if rng.random() < 0.5 else rng.random() < 0.4
    discarder = None if self_drawn else rng.choice([seat for seat in range(4) if seat != winner])
    kong = situation.kong_related if rng.random() < 0.5 else rng.random() < 0.1
    return WinContext(
        winner=winner,
        dealer=dealer,
        discarder=discarder,
        round_wind=rng.randrange(4),
        after_kong=kong and self_drawn,
        robbing_kong=kong and not self_drawn,
        last_tile=rng.random() < 0.1,
        first_turn=rng.random() < 0.1,
        fourth_tile=rng.random() < 0.1,
        flowers=rng.choice((0, 0, 1, 3, 8)),
    )


def outcome(ruleset, hand: Hand, ctx: WinContext) -> str:
    """The Score's repr and its parts' types, or the error refusing the hand."""
    try:
        score = ruleset.evaluate(hand, ctx)
    except MjtableError as error:
        return f"{type(error).__name__}: {error}"
    assert type(score.payments) is dict and type(score.extra) is MappingProxyType and type(score.fans) is tuple
    return repr(score) + repr([type(value) for value in (*score.payments.values(), score.total, score.hu)])


def compare(native, options: dict, cases: list[tuple[Hand, WinContext]]) -> int:
    """How many cases the core answered; every case scored otherwise is printed and fails the test."""
    compiled, pure = rulesets(options)
    differ = [
        f"{hand} {ctx}: pure {expected}, core {got}"
        for hand, ctx in cases
        if (got := outcome(compiled, hand, ctx)) != (expected := outcome(pure, hand, ctx))
    ]
    for text in differ[:5]:
        print(text)
    assert not differ, f"{len(differ)} of {len(cases)} differ under {options}"
    core = compiled._core
    return sum(
        native.hand_score(
            hand,
            core,
            ctx.flowers,
            ctx.self_drawn,
            ctx.fourth_tile,
            ctx.last_tile,
            ctx.after_kong or ctx.robbing_kong,
            ctx.round_wind,
            ctx.seat_wind,
            ctx.winner,
            ctx.discarder,
        )
        is not None
        for hand, ctx in cases
    )


@pytest.mark.parametrize("options", OPTIONS, ids=lambda options: ",".join(map(str, options.values())) or "default")
def test_random_hands_and_situations_score_alike(native, pure_scores, options) -> None:
    rng = random.Random(len(str(options)))
    hands = [parse_hand(text) for text in ORACLE[:600]]
    hands += [random_winning_hand(rng) for _ in range(2_000)] + [near_miss(rng) for _ in range(400)]
    cases = [(hand, random_context(rng, hand)) for hand in hands]
    answered = compare(native, options, cases)
    assert answered >= 0.999 * len(cases)


def test_the_oracle_hands_score_alike_in_their_own_situation(native, pure_scores) -> None:
    from controller.cli import win_context

    cases = [(hand, win_context(hand)) for hand in map(parse_hand, ORACLE)]
    assert compare(native, {}, cases) == len(cases)


def test_what_the_core_declines_is_the_pure_paths(native, pure_scores) -> None:
    """Flower tiles, a fifth copy, a wrong count, a kong of five: declined, and refused with the pure path's message;
    a blessed first turn is scored by the pure path alone."""
    plain = parse_hand("123m456m789m123p5p5p|EE0000|0")
    ctx = WinContext(winner=0, dealer=0, discarder=1)
    odd = [
        Hand(plain.melds, plain.standing, plain.win_tile, plain.situation, (FLOWERS[0], FLOWERS[1])),
        Hand((Meld(MeldKind.KONG, 0),), (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), 9),
        Hand((), plain.standing[:-1], plain.win_tile),
        Hand((), (*plain.standing[:-1], FLOWERS[0]), plain.win_tile),
        Hand((Meld(MeldKind.CHOW, 7),), plain.standing[:10], plain.win_tile),
    ]
    compiled, _ = rulesets({})
    for hand in odd:
        assert native.hand_score(hand, compiled._core, 0, False, False, False, False, 0, 0, 0, 1) is None
    compare(native, {}, [(hand, ctx) for hand in odd])
    blessed = WinContext(winner=0, dealer=0, first_turn=True)
    compiled, pure = rulesets({"blessings": True})
    assert compiled.evaluate(plain, blessed) == pure.evaluate(plain, blessed)
    assert any(fan.name_zh == "天和" for fan in compiled.evaluate(plain, blessed).fans)
