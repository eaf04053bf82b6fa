"""``mjtable settle`` and ``mjtable rules`` through the real CLI for the 108-tile rulesets (README of
shared/rules/regional): one answer per line in order, a bad line answers its error and the batch goes on."""

from __future__ import annotations

import io
import json

from controller.cli import main


def run(*args: str, stdin: str = "") -> list[dict]:
    out = io.StringIO()
    assert main(list(args), stdin=io.StringIO(stdin), stdout=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_settle_lines_of_every_108_ruleset_in_one_batch():
    """sichuan SC-6 平胡 on a discard (×1); a line with an honor tile (§0: invalid in 108 tiles); guizhou GZ-5 平胡
    self-draw (10 each); changsha CS-6 opening 四喜 + 缺一色 (4 each); sichuan SC-10 暗杠 money (2 each)."""
    lines = [
        {
            "rules": "sichuan",
            "hand": "123456789m234p5p",
            "win_tile": "5p",
            "situation": {"winner": 1, "dealer": 0, "discarder": 2, "void_suit": "s"},
        },
        {
            "rules": "sichuan",
            "hand": "123456789m234p1z",
            "win_tile": "1z",
            "situation": {"winner": 1, "dealer": 0, "discarder": 2, "void_suit": "s"},
        },
        {
            "rules": "guizhou",
            "hand": "123456789m234p5p",
            "win_tile": "5p",
            "situation": {"winner": 3, "dealer": 0, "discarder": None},
        },
        {
            "rules": "changsha",
            "hand": "1111m3579m13579p",
            "win_tile": None,
            "query": "opening_win",
            "situation": {"winner": 2, "dealer": 0},
        },
        {
            "rules": "sichuan",
            "hand": "",
            "win_tile": None,
            "query": "kong_payment",
            "situation": {"kong": {"seat": 0, "type": "concealed", "tile": "1m"}},
        },
    ]
    answers = run("settle", stdin="\n".join(json.dumps(line) for line in lines) + "\n")
    assert len(answers) == 5
    assert answers[0]["hu"] is True and answers[0]["payments"] == {"0": 0, "1": 1, "2": -1, "3": 0}
    assert answers[1]["hu"] is False and "1z" in answers[1]["error"]
    assert answers[2]["payments"] == {"0": -10, "1": -10, "2": -10, "3": 30}
    assert answers[3]["hu"] is True and answers[3]["payments"] == {"0": -4, "1": -4, "2": 12, "3": -4}
    assert answers[4]["payments"] == {"0": 6, "1": -2, "2": -2, "3": -2}


def test_rules_lists_the_108_rulesets_with_options_and_queries():
    listed = {entry["id"]: entry for entry in run("rules", "--json")}
    expected = {
        "sichuan": (
            {"cap_fan", "base", "void_rule", "self_draw"},
            {"score", "multi_win", "kong_payment", "drawn_settlement"},
        ),
        "guizhou": ({"chickens"}, {"score", "multi_win", "drawn_settlement"}),
        "changsha": (
            {"base", "bird_count", "dealer_premium"},
            {"score", "multi_win", "opening_win", "drawn_settlement"},
        ),
    }
    for ruleset, (options, queries) in expected.items():
        assert options <= {option["key"] for option in listed[ruleset]["options"]}  # the contract's options
        assert queries <= set(listed[ruleset]["queries"])
