"""``settle-mcr.jsonl``, the winning hands of the Botzone sample as ``mjtable settle`` requests, settled by the engine:
every field the record kept agrees: hu, the fan total, the payments, and how many fans and how often each counts
(``fan_shape``: this copy lost the names, keeping each one's length in Botzone's own words, which are not always the
engine's: 独听・嵌张 is its 嵌张; the names' lengths are not compared)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.settle.answer import settle_object
from tests.engine.records.corpus import settle_rows
from tests.paths import needs_records

ROWS = settle_rows("settle-mcr.jsonl")


@needs_records
def test_the_file_holds_the_nine_wins():
    assert len(ROWS) == 9


@needs_records
@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_every_field_agrees(row):
    answer, expected = settle_object(row["input"]), row["expected"]
    fields = ("hu", "total", "payments")
    assert [answer[field] for field in fields] == [expected[field] for field in fields]
    names = Counter(fan["name_zh"] for fan in answer["fans"])
    assert sorted(names.values()) == sorted(count for _, count in expected["fan_shape"])
