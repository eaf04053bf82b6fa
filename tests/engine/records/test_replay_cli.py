"""``mjtable replay``: every hand answered, in order, as JSON lines or a readable table with its summary; files that
cannot be read and records that disagree are answers too, with exit status 1."""

from __future__ import annotations

import gzip
import io
import json

from controller.cli import main
from tests.engine.records.corpus import BOTZONE, MJLOGS, TENHOU6, game
from tests.paths import needs_records

pytestmark = needs_records


def run(*argv: str, stdin: io.TextIOBase | None = None) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = main(["replay", *argv], stdin=stdin, stdout=out)
    return code, out.getvalue().splitlines()


def test_json_gives_one_agreeing_line_per_hand_of_each_file_in_order():
    files = [MJLOGS[0], TENHOU6[0], BOTZONE]  # every file agrees: test_replay
    code, lines = run("--json", *map(str, files))
    answers = [json.loads(line) for line in lines]
    expected = [(str(path), hand.index) for path in files for hand in game(path.name).hands]
    assert [(answer["file"], answer["hand"]) for answer in answers] == expected
    assert code == 0 and all(answer["agrees"] for answer in answers)
    keys = {"file", "hand", "result", "winners", "deltas", "record", "agrees", "wins"}
    assert all(keys <= answer.keys() for answer in answers)


def test_the_table_ends_with_the_summary():
    code, lines = run(str(BOTZONE))
    assert code == 0 and lines[-1] == "10 hands, 10 agree" and len(lines) == 12


def test_stdin_takes_a_gzipped_record():
    stdin = io.TextIOWrapper(io.BytesIO(gzip.compress(MJLOGS[0].read_bytes())))
    code, lines = run("--json", "-", stdin=stdin)
    assert code == 0 and len(lines) == len(game(MJLOGS[0].name).hands)


def test_a_missing_file_and_a_foreign_one_are_named_and_the_others_replayed(tmp_path):
    foreign = tmp_path / "notes.txt"
    foreign.write_text("hello\n")
    code, lines = run("--json", str(tmp_path / "gone.mjlog"), str(foreign), str(BOTZONE))
    answers = [json.loads(line) for line in lines]
    assert code == 1 and len(answers) == 12
    assert "gone.mjlog" in answers[0]["file"] and "cannot be read" in answers[0]["error"]
    assert "not a game record" in answers[1]["error"] and all(answer["agrees"] for answer in answers[2:])


def test_a_hand_that_disagrees_with_the_record_fails_the_run(tmp_path):
    text = MJLOGS[0].read_text(encoding="utf-8")
    paid = 'sc="250,0,250,87,240,-77,250,0"'  # hand 0: seat 1 wins 8,700 off seat 2; the record made to say 9,700
    tampered = tmp_path / "tampered.mjlog"
    tampered.write_text(text.replace(paid, 'sc="250,0,250,97,240,-87,250,0"', 1), encoding="utf-8")
    code, lines = run(str(tampered))
    assert code == 1 and lines[-1] == f"{len(game(MJLOGS[0].name).hands)} hands, 14 agree"
    assert lines[1].split()[-3:] == ["-9700", "+0", "NO"]


def test_the_summary_counts_a_file_not_read_apart_from_the_hands(tmp_path):
    code, lines = run(str(tmp_path / "gone.mjlog"), str(BOTZONE))
    assert code == 1 and lines[-1] == "10 hands, 10 agree, 1 failed outside any hand"


def test_a_file_of_several_tenhou6_games_replays_each_and_names_a_broken_one(tmp_path):
    """JSON Lines, as ``mjtable history --format tenhou6`` writes a run of several matches: one game per line."""
    one = json.dumps(json.loads(TENHOU6[0].read_text(encoding="utf-8")))
    games = tmp_path / "games.jsonl"
    games.write_text(f"{one}\n\n{{\"log\": 3}}\n{one}\n", encoding="utf-8")
    code, lines = run("--json", str(games))
    answers = [json.loads(line) for line in lines]
    count = len(game(TENHOU6[0].name).hands)
    assert code == 1 and len(answers) == 2 * count + 1
    assert [answer["game"] for answer in answers] == [0] * count + [1] + [2] * count
    assert "line 3" in answers[count]["error"] and "'log' list" in answers[count]["error"]
    assert all(answer["agrees"] for answer in answers if answer["game"] != 1)
    code, table = run(str(games))
    assert table[1].split()[1] == "0.0"
    assert table[-1] == f"{2 * count} hands, {2 * count} agree, 1 failed outside any hand"
