"""The batch commands' line reading (issue 16): one answer per line whatever the line holds, an endless line refused
without being held, a bug on one line answered as that line's error while the lines after it are still answered."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from controller import cli
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
    out = io.StringIO()
    lines = f"{GOOD}\n456p123m789s11122z|EE1000|0\n{GOOD}\n"  # the bug meets the lines starting with 1
    cli.main(["score", "--rules", "mcr"], stdin=io.StringIO(lines), stdout=out)
    first, second, third = _answers(out.getvalue())
    assert first["error"] == "line 1: could not be answered (TypeError: 'a bug'); please report it"
    assert "error" not in second and second["total"] > 0
    assert third["error"].startswith("line 3: could not be answered")
    assert [record.levelname for record in caplog.records] == ["ERROR", "ERROR"]
