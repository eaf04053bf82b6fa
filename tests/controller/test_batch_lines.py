"""The batch commands' line reading (issue 16): one answer per line whatever the line holds, an endless line refused
without being held, a bug on one line answered as that line's error while the lines after it are still answered."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from controller import cli
from engine.rulesets.mcr import line as mcr_line
from tests.paths import REPO

GOOD = "123m456p789s11122z|EE1000|0"


def _answers(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_a_line_over_the_limit_through_a_pipe_is_one_error_and_the_next_line_is_scored():
    data = ("1" * (cli.MAX_LINE * 5) + "m\n" + GOOD + "\n" + "2" * (cli.MAX_LINE + 1)).encode()
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "score", "--rules", "mcr"],
        input=data, capture_output=True, cwd=REPO, timeout=60, check=False,
    )  # fmt: skip
    answers = _answers(done.stdout.decode())
    assert len(answers) == 3 and done.stderr == b""
    assert answers[0]["error"] == f"line 1: longer than {cli.MAX_LINE:,} bytes: expected a hand in MCR notation"
    assert "error" not in answers[1] and answers[1]["total"] > 0
    assert answers[2]["error"].startswith("line 3: longer than")


def test_a_line_just_under_the_limit_is_read_whole():
    out = io.StringIO()
    line = io.StringIO("1" * (cli.MAX_LINE - 1) + "m\n")
    assert cli.main(["waits", "--rules", "mcr"], stdin=line, stdout=out) == 0
    (answer,) = _answers(out.getvalue())
    assert "longer than" not in answer["error"] and len(answer["error"]) < 300  # read whole, refused, quoted short


def test_a_bug_on_one_line_is_its_answer_and_the_batch_goes_on(monkeypatch, caplog):
    real = cli.score_of

    def buggy(ruleset, text):
        if text.startswith("1"):
            raise TypeError("a bug")
        return real(ruleset, text)

    monkeypatch.setattr(cli, "score_of", buggy)
    monkeypatch.setattr(mcr_line, "MCR_NATIVE", None)  # every line through score_of, not the compiled MCR lines
    out = io.StringIO()
    lines = f"{GOOD}\n456p123m789s11122z|EE1000|0\n{GOOD}\n"  # the bug meets the lines starting with 1
    cli.main(["score", "--rules", "mcr"], stdin=io.StringIO(lines), stdout=out)
    first, second, third = _answers(out.getvalue())
    assert first["error"] == "line 1: could not be answered (TypeError: 'a bug'); please report it"
    assert "error" not in second and second["total"] > 0
    assert third["error"].startswith("line 3: could not be answered")
    assert [record.levelname for record in caplog.records] == ["ERROR", "ERROR"]


RIICHI = {
    "rules": "riichi",
    "hand": "234m567m2p345s678s",
    "win_tile": "2p",
    "situation": {"winner": 1, "dealer": 0, "discarder": 2, "dora_indicators": "1m"},
}


def test_a_settle_chunk_answers_as_each_line_alone(monkeypatch, caplog):
    """The chunk path (``_settle_chunk``: every stage over the chunk) gives each line's answer, error and log line
    as ``_answer`` gives it alone: lines that are no JSON, no object, refused by the ruleset, a bug, no win, a win."""
    from engine.settle import answer

    real = answer.settle_object

    def buggy(data):
        if isinstance(data, dict) and data.get("hand") == "bug":
            raise ValueError("a bug")
        return real(data)

    monkeypatch.setattr(answer, "settle_object", buggy)
    lines = [
        json.dumps(RIICHI), "", " \r", "{", "[]", '{"rules": "nope"}', "\ufffd", "1e999", cli.OVERLONG,
        json.dumps({**RIICHI, "hand": "bug"}), json.dumps({**RIICHI, "win_tile": "6p"}), json.dumps(RIICHI) + "\r",
    ]  # fmt: skip
    out = io.StringIO()
    assert cli.main(["settle"], stdin=io.StringIO("\n".join(lines)), stdout=out) == 0
    logged = [record.getMessage() for record in caplog.records]
    caplog.clear()
    alone = [cli._answer(n, line, cli._settle, cli.SETTLE_EXPECTED, {"hu": False}) for n, line in enumerate(lines, 1)]
    assert out.getvalue().splitlines() == alone
    assert logged == [record.getMessage() for record in caplog.records] == ["line 10: ValueError: a bug"]
    answers = _answers(out.getvalue())
    assert answers[0]["hu"] is True and answers[-1] == answers[0] and answers[10]["hu"] is False  # no wait of it
    assert ["error" in each for each in answers] == [False, *[True] * 9, False, False]
