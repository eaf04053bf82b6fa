"""The fixed MCR corpora (engine.md §7.2): gb-mahjong-js's 130 fan cases and 20 waiting cases, and the 3,000
hands labelled by PyMahjongGB 1.4.0. Fan lists are compared as multisets of fan numbers, with totals."""

from __future__ import annotations

import csv
import json
from collections import Counter

import pytest

from controller.cli import waits_line, win_context
from engine.notation import parse_hand
from engine.rulesets.registry import get_ruleset
from tests.paths import ANCHOR

RULESET = get_ruleset("mcr")
FAN_ROWS = list(csv.DictReader((ANCHOR / "mcr-fan-names.csv").open(encoding="utf-8")))
BY_ENUM = {row["zhengfan_enum"]: int(row["index"]) for row in FAN_ROWS}
BY_ZH = {row["name_zh"]: int(row["index"]) for row in FAN_ROWS}
CASES = json.loads((ANCHOR / "gb-mahjong-js" / "generated-unit-test-cases.json").read_text(encoding="utf-8"))
ORACLE = [json.loads(line) for line in (ANCHOR / "mcr-oracle-pymahjonggb-1.4.0.jsonl").read_text().splitlines()]


def scored(text: str) -> dict:
    hand = parse_hand(text)
    return RULESET.evaluate(hand, win_context(hand)).to_dict()


def fan_multiset(answer: dict) -> Counter[int]:
    return Counter({fan["id"]: fan["count"] for fan in answer["fans"]})


@pytest.mark.parametrize("case", CASES["fanCases"], ids=[case["input"] for case in CASES["fanCases"]])
def test_gb_mahjong_js_fan_case(case: dict) -> None:
    accepted = [Counter(BY_ENUM[name] for name in case["expectedNames"])]
    if case.get("altExpectedNames"):
        accepted.append(Counter(BY_ENUM[name] for name in case["altExpectedNames"]))
    assert fan_multiset(scored(case["input"])) in accepted


def _tile_text(name: str) -> str:
    """``TILE_1m`` → ``1m``, ``TILE_E`` → ``E``: the same notation as the hands."""
    return name.removeprefix("TILE_")


@pytest.mark.parametrize("case", CASES["tingCases"], ids=[case["input"] for case in CASES["tingCases"]])
def test_gb_mahjong_js_waiting_case(case: dict) -> None:
    expected = sorted(parse_hand(_tile_text(name) + " ").standing[0] for name in case["expectedNames"])
    found = waits_line(RULESET, case["input"])["waits"]
    assert sorted(parse_hand(code + " ").standing[0] for code in found) == expected


def test_pymahjonggb_corpus_all_3000() -> None:
    mismatches = []
    for record in ORACLE:
        answer = scored(record["notation"])
        expected = Counter({BY_ZH[fan["name_zh"]]: fan["count"] for fan in record["fans"]})
        got = (fan_multiset(answer), answer["total"], answer["total_without_flowers"], answer["hu"])
        if got != (expected, record["total"], record["total_without_flowers"], record["meets_8_fan_minimum"]):
            mismatches.append(f"{record['notation']}: expected {dict(expected)} {record['total']}, got {got}")
    assert len(ORACLE) == 3000
    assert not mismatches, "\n".join(mismatches)
