"""Real games replayed through the referee that runs the table (``engine.records.replay``): every hand of every record
of ``shared/records`` ends with the record's own score changes; a refused move or a damaged hand is named by hand and
move, and the other hands are still replayed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.records import Discard, RecordTile, parse
from engine.records.replay import replay_record
from tests.engine.records.corpus import BOTZONE, MJLOGS, TENHOU6, game
from tests.paths import needs_records

pytestmark = needs_records
FILES = [*MJLOGS, *TENHOU6, BOTZONE]


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_every_hand_replays_to_the_score_changes_of_the_record(path):
    record = game(path.name)
    answers = list(replay_record(record, path.name))
    assert [answer.hand for answer in answers] == [hand.index for hand in record.hands]
    assert [answer.to_dict() for answer in answers if not answer.agrees] == []


def answer(name: str, hand: int) -> dict:
    (found,) = [line.to_dict() for line in replay_record(game(name), name) if line.hand == hand]
    return found


def test_the_pao_player_pays_a_self_drawn_daisangen_alone():
    line = answer("pao-tsumo.mjlog", 4)
    assert line["deltas"] == line["record"] == [-32000, 0, 32000, 0]
    assert [entry["key"] for entry in line["wins"][0]["yaku"]] == ["daisangen"]


def test_a_double_ron_pays_each_winner_with_his_red_fives():
    line = answer("2020052700gm-00a9-0000-75a4695c.mjlog", 2)
    assert line["result"] == "win" and len(line["winners"]) == 2 and line["agrees"]
    assert line["deltas"][line["winners"][0]] == 10600  # 4,600 with his three red fives dropped


def test_a_botzone_hand_ends_drawn_when_the_seat_to_draw_has_no_wall_left():
    line = answer("botzone-sample.txt", 9)
    assert line["result"] == "draw" and line["deltas"] == line["record"] == [0, 0, 0, 0]


def test_an_mcr_win_gives_its_fans():
    line = answer("botzone-sample.txt", 0)
    assert line["agrees"] and line["wins"][0]["total"] == 9 and line["wins"][0]["fans"]


def test_a_refused_move_is_named_and_the_next_hands_are_still_replayed():
    record = game("double-ron.mjlog")
    hand = record.hands[0]
    number, move = next((n, m) for n, m in enumerate(hand.moves) if isinstance(m, Discard))
    wrong = replace(move, tile=RecordTile(33))  # a 7z nobody was dealt
    broken = replace(hand, moves=(*hand.moves[:number], wrong, *hand.moves[number + 1 :]))
    answers = list(replay_record(replace(record, hands=(broken, *record.hands[1:])), "double-ron.mjlog"))
    first = answers[0].to_dict()
    assert not first["agrees"] and first["move"] == number
    assert f"move {number}: seat {move.seat} discard 7z refused" in first["error"]
    assert all(line.agrees for line in answers[1:]) and len(answers) == len(record.hands)


def test_a_truncated_record_answers_the_hands_it_holds_and_names_the_broken_one():
    text = (MJLOGS[0]).read_text(encoding="utf-8")
    cut = text[: text.index("<INIT", text.index("<INIT", text.index("<INIT") + 1) + 1) + 300]
    answers = [line.to_dict() for line in replay_record(parse(cut), "cut.mjlog")]
    assert [line["agrees"] for line in answers[:2]] == [True, True]
    assert answers[2]["hand"] == 2 and answers[2]["error"] and not answers[2]["agrees"]
