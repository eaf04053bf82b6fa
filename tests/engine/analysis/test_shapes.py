"""Hand-worked cases from the rule text (rules-B §3, §6) and the gb-mahjong-js waiting-tile corpus."""

from __future__ import annotations

import json

import pytest

from engine.analysis import (
    DEFAULT_SHAPES,
    MCR_SHAPES,
    ShapeRules,
    decompositions,
    is_win,
    shanten,
    waits,
)
from engine.analysis.standard import standard_waits
from engine.errors import TileCountError
from engine.notation import parse_hand
from engine.tiles import parse_tiles, to_counts
from tests.paths import ANCHOR

CORPUS = ANCHOR / "gb-mahjong-js" / "generated-unit-test-cases.json"
NO_QUADS = ShapeRules(seven_pairs_quad_as_two_pairs=False)
PAIR_258 = ShapeRules(pair_ranks=frozenset({2, 5, 8}))


def hand(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def forms(text: str, rules: ShapeRules = DEFAULT_SHAPES) -> list[str]:
    return sorted(d.form for d in decompositions(hand(text), rules))


def test_nine_gates_waits_on_all_nine() -> None:
    assert waits(hand("1112345678999m")) == list(range(9))


def test_seven_pairs_with_a_quad_counts_only_when_allowed() -> None:
    assert forms("11223344556677z") == ["seven_pairs"]
    assert is_win(hand("1111m22334455p66s"))
    assert not is_win(hand("1111m22334455p66s"), NO_QUADS)
    quad = decompositions(hand("1111m22334455p66s"))
    assert [d.pairs for d in quad] == [(0, 0, 10, 11, 12, 13, 23)]


def test_seven_pairs_and_standard_both_listed() -> None:
    assert forms("112233m445566p77s") == ["seven_pairs", "standard"]


def test_258_pair_rule() -> None:
    assert is_win(hand("123456789m123p55s"), PAIR_258)
    assert not is_win(hand("123456789m123p66s"), PAIR_258)
    assert not is_win(hand("123456789m123p11z"), PAIR_258)
    assert is_win(hand("123456789m123p66s"))
    assert waits(hand("123456789m123p5s"), PAIR_258) == [22]
    assert waits(hand("123456789m123p6s"), PAIR_258) == []


def test_thirteen_orphans() -> None:
    (decomposition,) = decompositions(hand("19m19p19s12345677z"))
    assert decomposition.form == "thirteen_orphans" and decomposition.pair == 33
    assert not is_win(hand("19m19p19s12345677z"), ShapeRules(thirteen_orphans=False))
    assert waits(hand("19m19p19s1234567z")) == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def test_honors_and_knitted_lesser_and_greater() -> None:
    (lesser,) = decompositions(hand("147m258p369s12345z"))
    assert lesser.form == "honors_knitted" and len(lesser.knitted) == 14
    greater = hand("147m25p36s1234567z")
    assert is_win(greater) and sum(greater[27:]) == 7
    assert not is_win(hand("147m258p359s12345z")), "a shifted series is not knitted"
    assert not is_win(hand("147m258p369s12345z"), ShapeRules(honors_knitted=False))


def test_knitted_straight_only_with_mcr_rules() -> None:
    text = "147m258p369s567m11z"
    assert not is_win(hand(text))
    (straight,) = decompositions(hand(text), MCR_SHAPES)
    assert straight.form == "knitted_straight"
    assert straight.sets == (("chow", 4),) and straight.pair == 27
    assert straight.knitted == tuple(parse_tiles("147m258p369s"))
    assert is_win(hand("147m258p369s11z"), MCR_SHAPES), "11 tiles beside one exposed meld"


def test_sizes() -> None:
    assert not is_win(hand("123m"))
    assert decompositions(hand("123m456p")) == []
    with pytest.raises(TileCountError):
        waits(hand("123m456p"))


def _ting_cases() -> list[tuple[str, list[str]]]:
    data = json.loads(CORPUS.read_text(encoding="utf-8"))
    return [(case["input"], case["expectedNames"]) for case in data["tingCases"]]


def _tile_of_name(name: str) -> int:
    code = name.removeprefix("TILE_")
    return parse_hand(code + " ").standing[0]


@pytest.mark.parametrize(("text", "expected"), _ting_cases())
def test_gb_mahjong_js_ting_cases(text: str, expected: list[str]) -> None:
    parsed = parse_hand(text)
    assert waits(to_counts(parsed.standing), MCR_SHAPES) == sorted(_tile_of_name(name) for name in expected)


def test_anchor_has_twenty_ting_cases() -> None:
    assert len(_ting_cases()) == 20


def test_a_fifth_copy_is_never_waited_on() -> None:
    """Shanten and waits count only tiles that exist: a hand needing a fifth 1m or 3s is not ready."""
    assert waits(hand("1111m234p567p789s")) == []
    assert shanten(hand("1111m234p567p789s")) == 1
    assert shanten(hand("1111m")) == 1, "111m + a pair of 1m would be five copies"
    assert waits(hand("345555m234p3333s"), MCR_SHAPES) == []
    assert shanten(hand("345555m234p3333s"), MCR_SHAPES) == 1
    assert shanten(hand("1112345678999m")) == 0
    assert shanten(hand("11123456789999m")) == -1


def test_shanten_of_special_shapes() -> None:
    assert shanten(hand("19m19p19s1234567z")) == 0
    assert shanten(hand("19m19p19s123456z5m")) == 1
    assert shanten(hand("1133557799m113p")) == 0, "six pairs and a single"
    assert shanten(hand("1111335577m113p")) == 0, "the quad is two pairs"
    assert shanten(hand("1111335577m113p"), NO_QUADS) == 2, "five pairs, a single and a useless 1m pair"
    assert shanten(hand("147m258p369s1234z")) == 0
    assert shanten(hand("147m258p369s1234z"), ShapeRules(honors_knitted=False)) > 0
    assert shanten(hand("147m258p369s56m11z"), MCR_SHAPES) == 0
    assert shanten(hand("147m258p369s56m11z")) > 0


def test_standard_waits_keep_fifth_copies_that_waits_drop() -> None:
    counts = hand("1111m234p567p789s")
    assert standard_waits(counts, DEFAULT_SHAPES) == [0], "111m 11m with a fifth 1m"
    assert waits(counts) == []
