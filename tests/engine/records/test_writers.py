"""The writers of ``engine.records`` (tenhou.net/6 JSON, Botzone text) on the real records: what they write reads
back as the same game, and replays through the referee to the record's score changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.records import RecordError, parse
from engine.records.botzone_writer import write_botzone
from engine.records.game import Format, GameRecord, HandRecord, NewDora
from engine.records.replay import replay_record
from engine.records.tenhou6 import tile
from engine.records.tenhou6_writer import number, write_tenhou6
from tests.engine.records.corpus import BOTZONE, MJLOGS, TENHOU6, game
from tests.engine.records.test_fuzz import run
from tests.paths import needs_records

TENHOU = [path.name for path in (*MJLOGS, *TENHOU6)]


def _same_play(first: GameRecord, second: GameRecord) -> None:
    """The same hands move by move, tiles compared by face and red (a tenhou.net/6 log keeps no tile ids)."""
    assert len(first.hands) == len(second.hands)
    for one, two in zip(first.hands, second.hands, strict=True):
        assert (one.dealer, one.round_wind, one.honba, one.riichi_sticks, one.scores) == (
            two.dealer,
            two.round_wind,
            two.honba,
            two.riichi_sticks,
            two.scores,
        )
        assert [[(t.kind, t.red) for t in tiles] for tiles in one.deal] == [
            [(t.kind, t.red) for t in tiles] for tiles in two.deal
        ]
        assert _play(one) == _play(two)
        assert one.deltas == two.deltas


def _play(hand: HandRecord) -> list[tuple[str, int | None]]:
    """Each move's kind and seat; a new dora left out (a tenhou.net/6 log has no place for one: its reader puts it
    where Tenhou turns it, an mjlog where it was written)."""
    return [(type(move).__name__, getattr(move, "seat", None)) for move in hand.moves if not isinstance(move, NewDora)]


def test_tile_numbers_read_back():
    for code in (*range(11, 20), *range(21, 30), *range(31, 40), *range(41, 48), 51, 52, 53):
        assert number(tile(code)) == code


@needs_records
@pytest.mark.parametrize("name", TENHOU)
def test_tenhou6_written_reads_back_and_replays(name):
    record = game(name)
    text = write_tenhou6(record)
    back = parse(text)
    assert back.problems == ()
    _same_play(record, back)
    assert write_tenhou6(back) == text  # a fixed point: nothing is lost on the second pass
    answers = list(replay_record(back, name))
    assert [answer.deltas for answer in answers] == [answer.record for answer in answers]
    assert all(answer.agrees for answer in answers)


@needs_records
def test_botzone_written_reads_back_and_replays():
    record = game(BOTZONE.name)
    text = write_botzone(record)
    back = parse(text)
    assert back.problems == ()
    _same_play(record, back)
    assert [hand.ref for hand in back.hands] == [hand.ref for hand in record.hands]
    assert text == write_botzone(back)
    assert [answer.agrees for answer in replay_record(back, "written")] == [
        answer.agrees for answer in replay_record(record, "read")
    ]


@needs_records
def test_a_hand_with_no_running_score_is_named():
    with pytest.raises(RecordError, match="hand 0 keeps no running score"):
        write_tenhou6(game(BOTZONE.name))


def _written(path: Path, mutant: bytes, changed: int) -> str:
    """A damaged record's good hands written out: read back whole, the same hands, or a named ``RecordError``."""
    try:
        record = parse(mutant)
    except RecordError:
        return "refused"
    writer = write_botzone if record.format is Format.BOTZONE else write_tenhou6
    try:
        text = writer(record)
    except RecordError:
        return "named"
    back = parse(text)
    assert back.problems == (), back.problems
    _same_play(record, back)
    return "written"


@needs_records
def test_damaged_records_written_read_back_or_are_named():
    outcomes = run(200, seed=27, judge=_written)
    assert outcomes["written"] > 100, outcomes


@needs_records
@pytest.mark.slow
def test_2000_damaged_records_written_read_back_or_are_named():
    outcomes = run(2000, seed=28, judge=_written)
    assert outcomes["written"] > 1800, outcomes


@needs_records
def test_a_log_that_lost_its_rule_is_written_with_the_red_fives_its_tiles_show():
    text = (TENHOU6[0].parent / "ranked_game.json").read_text(encoding="utf-8")
    document = json.loads(text)
    del document["rule"]
    record = parse(json.dumps(document, ensure_ascii=False))
    assert not record.rules.red_fives
    rule = json.loads(write_tenhou6(record))["rule"]
    assert (rule["aka51"], rule["aka52"], rule["aka53"]) == (1, 1, 1)
    assert parse(write_tenhou6(record)).problems == ()
