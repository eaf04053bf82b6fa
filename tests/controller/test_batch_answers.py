"""``mjtable score``'s batch answers written once per verdict (issue 30): a ruleset that keeps its verdicts hands
the same ``Score`` to many lines, and the line written for it is the one ``score_line`` gives, whatever the order."""

from __future__ import annotations

import io
import json
import random

from controller import cli
from engine.rulesets.registry import get_ruleset
from tests.paths import ANCHOR

ORACLE = ANCHOR / "mcr-oracle-pymahjonggb-1.4.0.jsonl"
BASIC = ["--rules", "basic", "--options", '{"tile_set": 144}']


def _lines(count: int) -> list[str]:
    lines = [json.loads(line)["notation"] for line in ORACLE.read_text().splitlines()[:count]]
    return [*lines, "123m456p789s11122z|EE1000|0", "19m19p19s1234567z1m|SS0000|0", "1m2m", "", "[111m]22m|EE1000|0"]


def _batch(arguments: list[str], lines: list[str]) -> list[str]:
    out = io.StringIO()
    assert cli.main(["score", *arguments], stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out) == 0
    return out.getvalue().splitlines()


def _one_by_one(arguments: list[str], lines: list[str]) -> list[str]:
    return [_batch(arguments, [line])[0].replace("line 1:", f"line {n}:") for n, line in enumerate(lines, 1)]


def test_a_batch_answers_each_line_as_alone_with_verdicts_met_again_in_any_order():
    lines = _lines(30) * 2
    random.Random(30).shuffle(lines)
    for arguments in (BASIC, ["--rules", "mcr"]):
        assert _batch(arguments, lines) == _one_by_one(arguments, lines)


def test_score_text_is_the_json_of_score_line_and_follows_the_object_not_its_id():
    ruleset = get_ruleset("basic")
    text_of = cli.ScoreText()
    good, bad = "123m456p789s11122z|EE1000|0", "123m456p789s11123z|EE1000|0"
    for line in (good, bad, good, bad):
        assert json.loads(text_of(cli.score_of(ruleset, line))) == cli.score_line(ruleset, line)
    mcr = get_ruleset("mcr")
    for _ in range(3):  # a fresh Score per hand: answered right though ids of freed objects come back
        for line in _lines(40)[:40]:
            assert json.loads(text_of(cli.score_of(mcr, line))) == cli.score_line(mcr, line)


def test_the_kept_answers_are_bounded():
    text_of = cli.ScoreText()
    mcr = get_ruleset("mcr")
    for line in _lines(cli.ScoreText.KEPT + 50)[: cli.ScoreText.KEPT + 50]:
        text_of(cli.score_of(mcr, line))
    assert len(text_of._known) <= cli.ScoreText.KEPT
