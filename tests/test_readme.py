"""The README says what the commands do (issue 16): its score example is a real win, and the commands it says take
``--rules`` and ``--options`` do, and the ones it says take neither refuse them."""

from __future__ import annotations

import io
import json
import re

import pytest

from controller.cli import build_parser, main
from tests.paths import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def test_the_score_example_is_a_win_worth_what_the_readme_says():
    row = next(line for line in README.splitlines() if line.startswith("| `mjtable score"))
    hand, points = re.search(r"\(`([^`]+)`: .*? (\d+) points\)", row).groups()
    out = io.StringIO()
    assert main(["score", "--rules", "mcr"], stdin=io.StringIO(hand.replace("\\|", "|") + "\n"), stdout=out) == 0
    answer = json.loads(out.getvalue())
    assert answer["hu"] is True and answer["total"] == int(points)


def _said(sentence_start: str) -> list[str]:
    """The commands named in backticks in the README's sentence that starts so."""
    sentence = README[README.index(sentence_start) :].split(";")[0]
    return re.findall(r"`(\w+)`", sentence)


def test_the_commands_said_to_take_rules_and_options_take_them():
    takers = _said("`score`, `waits`")
    assert takers == ["score", "waits", "deal", "simulate"]
    for command in takers:
        extra = ["--seed", "1"] if command == "deal" else []
        args = build_parser().parse_args([command, "--rules", "basic", "--options", "{}", *extra])
        assert (args.rules, args.options) == ("basic", "{}")


@pytest.mark.parametrize("command", ["rules", "history", "doctor", "fleet"])
def test_the_commands_said_to_take_neither_refuse_them(command, capsys):
    assert command in README[README.index("`history`,") - 20 : README.index("take neither") + 12]
    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--options", "{}"])
    assert "unrecognized arguments: --options" in capsys.readouterr().err
