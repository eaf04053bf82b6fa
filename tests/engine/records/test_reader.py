"""Finding a record's format from its content, opening it as it comes off a download, and the neutral form's JSON."""

from __future__ import annotations

import gzip
import json

import pytest

from engine.records import Format, GameRecord, RecordError, RecordTile, decode, detect, parse
from engine.records import reader as reader_module
from tests.engine.records.corpus import BOTZONE, MJLOGS, TENHOU6, game
from tests.paths import needs_records


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('<mjloggm ver="2.3"><GO type="169"/>', Format.TENHOU_XML),
        ('  \n<?xml version="1.0"?>\n<mjloggm ver="2.3">', Format.TENHOU_XML),
        ('{"log": []}', Format.TENHOU6),
        ('\n {"name": ["A"]', Format.TENHOU6),
        ("Match 61602cb4\nWind 1\n", Format.BOTZONE),
    ],
)
def test_the_format_is_found_from_the_content(text, found):
    assert detect(text) is found


@pytest.mark.parametrize(
    "text", ["", "   \n", "<html><body>", "[1, 2]", "Wind 1\nMatch x", '<?xml version="1.0"?><foo/>']
)
def test_anything_else_is_named(text):
    with pytest.raises(RecordError, match="not a game record") as caught:
        parse(text)
    assert "begins" in str(caught.value)


@needs_records
def test_gzip_and_a_byte_order_mark_are_opened():
    data = MJLOGS[0].read_bytes()
    assert parse(gzip.compress(data)) == game(MJLOGS[0].name)
    assert parse(b"\xef\xbb\xbf" + data) == game(MJLOGS[0].name)
    assert parse("\ufeff" + data.decode()) == game(MJLOGS[0].name)


def test_damaged_gzip_is_named():
    with pytest.raises(RecordError, match="gzip"):
        parse(gzip.compress(b"<mjloggm>")[:-12] + b"\x00" * 12)


def test_gzip_that_opens_too_large_is_refused(monkeypatch):
    monkeypatch.setattr(reader_module, "MAX_BYTES", 1000)
    with pytest.raises(RecordError, match="more than 1,000 bytes"):
        parse(gzip.compress(b"Match x\n" * 200))


@needs_records
def test_bytes_that_are_not_utf8_are_named_and_the_hands_still_read():
    data = BOTZONE.read_bytes()
    spot = data.index(b"Match", 100) + 6  # inside the second hand's match id
    record = parse(data[:spot] + b"\xff" + data[spot + 1 :])
    first = record.problems[0]
    assert first.where == f"byte {spot}" and "not UTF-8" in first.reason and first.hand is None
    assert len(record.hands) == len(game(BOTZONE.name).hands)
    assert record.hands[0] == game(BOTZONE.name).hands[0]
    assert record.hands[1].ref != game(BOTZONE.name).hands[1].ref  # the id now holds U+FFFD


def test_text_is_taken_as_is():
    assert decode("Match x") == ("Match x", None)


@needs_records
@pytest.mark.parametrize("path", [*MJLOGS[:3], *TENHOU6, BOTZONE], ids=lambda path: path.name)
def test_to_dict_is_json(path):
    record = game(path.name)
    data = json.loads(json.dumps(record.to_dict(), ensure_ascii=False))
    assert data["format"] == record.format.value
    assert len(data["hands"]) == len(record.hands)
    moves = [move["move"] for hand in data["hands"] for move in hand["moves"]]
    assert {"draw", "discard"} <= set(moves) and ("win" in moves or "drawn" in moves)
    assert data["problems"] == []


def test_a_tile_is_one_string():
    assert RecordTile(4, red=True, id=16).to_dict() == "0m#16"
    assert RecordTile(31).to_dict() == "5z"
    assert RecordTile(13, red=True).code == "0p"


def test_problems_are_json_too():
    record = parse("Match a\nWind 9\n")
    assert isinstance(record, GameRecord) and record.hands == ()
    (problem,) = record.to_dict()["problems"]
    assert problem["hand"] == 0 and problem["where"] == "line 2" and "0-3" in problem["error"]
    with pytest.raises(RecordError, match="Wind"):
        record.strict()
