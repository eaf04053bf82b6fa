"""責任払い (pao, ``situation.pao``) and the double ron's red fives (issue 27), worked by hand, then every settle row of
the real Tenhou records (``shared/records/settle-tenhou.jsonl``: 448 wins, draws and double rons) through the engine.

Pao as Tenhou pays it: the liable seat pays a self-drawn 大三元 alone, as a ron off it, with the honba; a ron off
another seat is paid half by each, the honba by the discarder; what the hand scores beyond the liable yakuman is
paid as usual."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.errors import MjtableError
from engine.rulesets.registry import get_ruleset
from engine.settle import SettleRequest
from tests.engine.rulesets.riichi.test_scoring import settle
from tests.paths import SHARED, needs_records

DAISANGEN = {"hand": "067m1p", "win": "1p", "melds": ["pon:666z:from=opposite", "pon:777z:from=opposite"]}
"""Seat 1's 大三元 (the last dragon pung, 555z, fed by seat 3), waiting on 1p; seat 0 deals."""


def daisangen(**situation: Any) -> dict:
    melds = [*DAISANGEN["melds"], "pon:555z:from=left"]
    return settle(DAISANGEN["hand"], DAISANGEN["win"], melds, {"red_fives": True}, **situation)


def test_a_self_drawn_daisangen_is_paid_by_the_liable_seat_alone_with_the_honba():
    answer = daisangen(pao=3, honba=2, riichi_sticks=1)
    assert answer["payments"] == {"0": 0, "1": 32000 + 600 + 1000, "2": 0, "3": -32600}


def test_a_daisangen_won_off_another_seat_is_paid_half_by_each_and_the_honba_by_the_discarder():
    answer = daisangen(pao=3, discarder=2, honba=1)
    assert answer["payments"] == {"0": 0, "1": 32300, "2": -16300, "3": -16000}


def test_a_daisangen_won_off_the_liable_seat_is_an_ordinary_ron():
    assert daisangen(pao=3, discarder=3)["payments"] == daisangen(discarder=3)["payments"]


def test_without_pao_a_self_drawn_daisangen_is_paid_by_all():
    assert daisangen()["payments"] == {"0": -16000, "1": 32000, "2": -8000, "3": -8000}


@pytest.mark.parametrize(
    ("pao", "options", "message"),
    [
        (1, {}, "not the winner's"),
        (4, {}, "seat 0-3"),
        ("3", {}, "seat 0-3"),
        (3, {"pao": False}, "option pao is off"),
    ],
)
def test_a_liable_seat_that_cannot_be_is_named(pao, options, message):
    melds = [*DAISANGEN["melds"], "pon:555z:from=left"]
    with pytest.raises(MjtableError, match=message):
        settle(DAISANGEN["hand"], DAISANGEN["win"], melds, {"red_fives": True, **options}, pao=pao)


def test_a_liable_seat_for_a_hand_with_no_such_yakuman_is_refused():
    with pytest.raises(MjtableError, match="situation field 'pao': the hand has no daisangen or daisuushii"):
        settle("234m456p789s1z", "1z", ["pon:555z:from=left"], pao=3)


def test_suukantsu_pao_only_under_its_option():
    hand, melds = (
        "7p",
        ["kan:9999s:from=right", "kan:7777s:from=left", "kan:9999p:from=opposite", "kan:2222p:from=right"],
    )
    with pytest.raises(MjtableError, match="pao"):
        settle(hand, "7p", melds, pao=3)
    answer = settle(hand, "7p", melds, {"pao_suukantsu": True}, pao=3)
    assert answer["payments"] == {"0": 0, "1": 32000, "2": 0, "3": -32000}


RECORDS = SHARED / "records" / "settle-tenhou.jsonl"


def _rows() -> list[dict[str, Any]]:
    if not RECORDS.is_file():
        return []
    return [json.loads(line) for line in RECORDS.read_text(encoding="utf-8").splitlines() if line.strip()]


@needs_records
def test_every_settle_row_of_the_tenhou_records_agrees_with_the_engine():
    """Each row's request (its pao, where the record names one, as ``situation.pao``; a double ron as the
    ``multi_win`` query) answers the record's payments, next dealer and honba; a double ron each winner's han and
    fu too (the first winner of 2020052700gm-00a9 hand 2 holds three red fives: 10,600, not 4,600)."""
    rows = _rows()
    assert len(rows) == 448
    for row in rows:
        given, expected = dict(row["input"]), row["expected"]
        if row.get("kind") == "multi_win":
            given["query"] = "multi_win"
        if expected.get("pao") is not None:
            given["situation"] = {**given["situation"], "pao": expected["pao"]}
        answer = get_ruleset("riichi", given["options"]).settle(SettleRequest.from_json(given))
        for key in ("payments", "next_dealer", "next_honba"):
            if key in expected:
                assert answer.get(key) == expected[key], (row["id"], key)
        for seat, each in expected.get("per_winner", {}).items():
            assert answer["per_winner"][seat]["han"] == each["han"], (row["id"], seat)
            if each["fu"] is not None:  # a yakuman's fu is not in the record
                assert answer["per_winner"][seat]["fu"] == each["fu"], (row["id"], seat)
