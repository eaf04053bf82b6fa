"""Fuzz the batch commands ``mjtable score``, ``waits`` and ``settle`` (issue 16): valid lines of every ruleset (its
own deals, winning hands, every query's request), lightly mutated as text, as bytes and, for settle, as JSON (a field
swapped for a hostile value, dropped, added; numbers huge, negative, not finite), mixed with junk lines. Every input
line gets exactly one answer line, in order, each strict JSON (no ``NaN``); a refused line is ``{"error": "line N:
..."}`` naming the problem in a short excerpt; no traceback, no warning, and each batch ends in bounded time.

The batches run in this process through a stream with a byte buffer behind it, as ``sys.stdin`` is (the path a pipe
takes, line splitting on ``\\n`` only); one batch per command also runs the installed ``mjtable`` in a subprocess."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main, score_line, waits_line
from engine.errors import MjtableError
from engine.referee import deal_for
from engine.rulesets.registry import all_rulesets, get_ruleset
from engine.settle.answer import settle_object
from tests.engine.settle.test_robustness import KEYS
from tests.paths import ANCHOR

RULESETS = [cls.describe()["id"] for cls in all_rulesets()]
MJTABLE = Path(sys.executable).with_name("mjtable")
JUNK = ["", " ", "\t", "²", "⑴", "١٢٣m", "１２３m", "9" * 4400, "NaN", "Infinity", "-0", "[", "|", "{", "\"", "🀄",
        "null", "[]", "{}", "-1", "1e999", "\x00", "\x1c", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\r",
        "\ufeff", "\ufffd", "m" * 3000, "[" * 5000, "{\"a\":" * 3000, "1" * 200 + "m", "0m", "10m", "99z", "8f",
        "9f"]  # fmt: skip
CHARS = [*"0123456789mpszf[],|ESWNCFP ", "\u00b2", "\u0661", "\uff11", "\U0001f004"]
HOSTILE: list[Any] = [None, True, False, 0, -1, -5, 4, 5, 99, 2**31, 2**63, 10**18, 10**30, 10**99, -(10**99), 1.5,
                      -0.0, 1e308, -1e308, float("nan"), float("inf"), "", "x", "²", "١", "5m", "0m", "1z", "x" * 5000,
                      [], [None], [1, 2], [[[[[]]]]], {}, {"0": 10**18}, {"2": 10**18}, {"seat": 9}]  # fmt: skip
FIELDS = ["rules", "options", "hand", "melds", "win_tile", "situation", "query"]
OPTIONS = ["base", "minimum", "tile_set", "false_win_penalty", "cap", "dice_unit", "horses", "birds", "bogus"]
MAX_ERROR = 600
"""Characters of an error answer: it names the problem and quotes a short excerpt, never the whole line."""
BATCH_S = 60.0
"""A hang guard per batch, not a speed measure."""


# -- valid inputs of every ruleset --------------------------------------------------------------------------------

WINNING = ["123m456p789s1122z2z", "123m456m789m1122p2p", "123m456p789s11p22s2s", "[123m,1]456p789s1122s2s",
           "1234567891235m5m", "123m456p789s1122z2z|EE1000|0", "11223344556677m", "19m19p19s1234567z1m",
           "[555m,2][999p,1]123s789s55z5z", "123m456p789s1122z2z|SW0100|3", "112233m44556677p"]  # fmt: skip
SETTLE_HANDS = [("123m456p789s1122z", "2z"), ("123m456m789m1122p", "2p"), ("123m456p789s11p22s", "2s"),
                ("123456789m1235m", "5m"), ("1122334455667m", "7m"), ("234m456p678s5566s", "5s")]  # fmt: skip
SITUATIONS = [{"winner": 1, "dealer": 0, "discarder": 0}, {"winner": 0, "dealer": 0, "discarder": None},
              {"winner": 2, "dealer": 1, "discarder": 3, "round_wind": "S"}]  # fmt: skip
EXTRAS: list[dict[str, Any]] = [{}, {"indicator": "4m"}, {"void_suit": "p"}, {"dice_unit": 1},
                                {"indicator": "4m", "void_suit": "z", "dice_unit": 1}]  # fmt: skip
QUERIES: dict[str, list[dict[str, Any]]] = {
    "dice_seat": [{"thrower": 2, "dice": [3, 4]}, {"thrower": 0, "dice": [6, 6]}],
    "wall_break": [{"dealer": 0, "dice": [2, 6]}, {"dealer": 1, "dice": [4, 5], "dice2": [6, 6]}],
    "next_dealer": [{"dealer": 0, "winners": [2], "drawn": False, "consecutive_dealer": 1},
                    {"dealer": 3, "winners": [1], "round_wind": "E", "round_first_dealer": 0},
                    {"dealer": 0, "drawn": True}],
    "claim_priority": [{"discarder": 0, "claims": [{"seat": 1, "type": "chi"}, {"seat": 3, "type": "pon"}]},
                       {"discarder": 0, "claims": [{"seat": 3, "type": "hu"}, {"seat": 2, "type": "hu"}]}],
    "claim_allowed": [{"discarder": 0, "claim": {"seat": 1, "type": "chi", "tile": "3m", "from": 0,
                                                  "using": ["4m", "5m"]}}],
    "drawn_settlement": [{"dealer": 0, "ready": [1]}, {"dealer": 0}],
    "kong_payment": [{"dealer": 0, "kong": {"seat": 1, "type": "exposed", "tile": "5m", "from": 2}}],
    "kong_allowed": [{"dealer": 0, "kong": {"seat": 1, "type": "added", "tile": "5m"}}],
}  # fmt: skip


def _tries(make: Callable[[], Any]) -> bool:
    try:
        answer = make()
    except MjtableError:
        return False
    return "error" not in answer


@cache
def valid_lines(rules: str) -> dict[str, list[str]]:
    """Lines each command answers without an error under ``rules``: its winning hands and its own deals (a
    dealer's 14 tiles to score, the others' 13 to wait on), and settle requests of each query it answers."""
    ruleset = get_ruleset(rules, {})
    score, waits = [], []
    if rules == "mcr":
        with open(ANCHOR / "mcr-oracle-pymahjonggb-1.4.0.jsonl", encoding="utf-8") as corpus:
            score += [json.loads(line)["notation"] for _, line in zip(range(60), corpus, strict=False)]
    for seed in range(6):
        dealt = deal_for(ruleset, seed, seed % 4)
        for seat, tiles in enumerate(dealt.hands):
            (score if seat == dealt.dealer else waits).append(ruleset.format_tiles(sorted(tiles)))
    answered = [line for line in WINNING + score if _tries(lambda line=line: score_line(ruleset, line))]
    score = answered or WINNING + score  # a wildcard ruleset scores no MCR-notation line: it needs the indicator
    waits = [line for line in waits if _tries(lambda line=line: waits_line(ruleset, line))]
    settle = []
    for (hand, win), situation, extra in [(h, s, e) for h in SETTLE_HANDS for s in SITUATIONS for e in EXTRAS]:
        request = {"rules": rules, "hand": hand, "win_tile": win, "situation": {**situation, **extra}}
        if _tries(lambda request=request: settle_object(request)):
            settle.append(json.dumps(request, ensure_ascii=False))
    for query in ruleset.describe()["queries"]:
        for situation in QUERIES.get(query, []):
            request = {"rules": rules, "query": query, "situation": situation}
            if _tries(lambda request=request: settle_object(request)):
                settle.append(json.dumps(request, ensure_ascii=False))
    return {"score": score, "waits": waits, "settle": settle}


# -- mutations ----------------------------------------------------------------------------------------------------


def mutate_text(text: str, rng: random.Random) -> str:
    """One to three characters or junk pieces inserted, deleted or replaced."""
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        index = rng.randrange(len(chars) + 1)
        roll = rng.random()
        if roll < 0.35 and chars:
            del chars[min(index, len(chars) - 1)]
        elif roll < 0.6 and chars:
            chars[min(index, len(chars) - 1)] = rng.choice(CHARS)
        else:
            chars.insert(index, rng.choice(CHARS) if rng.random() < 0.7 else rng.choice(JUNK))
    return "".join(chars)


def mutate_request(text: str, rng: random.Random) -> str:
    """A settle request changed as JSON: a top-level, situation or option field set to a hostile value, dropped or
    added (an unknown key, a situation key some ruleset reads); the tiles mutated as text; a ruleset swapped."""
    request = json.loads(text)
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        if roll < 0.2:
            request[rng.choice([*FIELDS, "bogus"])] = copy.deepcopy(rng.choice(HOSTILE))
        elif roll < 0.35 and request:
            del request[rng.choice(sorted(request))]
        elif roll < 0.6:
            situation = request.get("situation")
            if not isinstance(situation, dict):
                situation = request["situation"] = {}
            situation[rng.choice([*KEYS, "discarded_wildcards", "bogus"])] = copy.deepcopy(rng.choice(HOSTILE))
        elif roll < 0.7:
            options = request.get("options")
            if not isinstance(options, dict):
                options = request["options"] = {}
            options[rng.choice(OPTIONS)] = copy.deepcopy(rng.choice(HOSTILE))
        elif roll < 0.8:
            request["rules"] = rng.choice([*RULESETS, "", "MCR", "mcr ", "nope"])
        else:
            field = rng.choice(["hand", "win_tile"])
            request[field] = mutate_text(request.get(field) if isinstance(request.get(field), str) else "", rng)
    encoded = json.dumps(request, ensure_ascii=rng.random() < 0.5, allow_nan=True)
    return mutate_text(encoded, rng) if rng.random() < 0.15 else encoded


def batch(command: str, rules: str, count: int, rng: random.Random) -> list[bytes]:
    """``count`` input lines (bytes, without their newline) for one batch of ``command`` under ``rules``."""
    valid = valid_lines(rules)[command]
    assert valid, f"{command} --rules {rules}: no valid line to start from"
    lines = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.15:
            text = rng.choice(valid)
        elif roll < 0.8:
            text = mutate_request(rng.choice(valid), rng) if command == "settle" and roll < 0.6 else None
            text = text if text is not None else mutate_text(rng.choice(valid), rng)
        else:
            text = rng.choice(JUNK)
        data = text.replace("\n", " ").encode("utf-8", errors="surrogatepass")
        if rng.random() < 0.03:  # bytes that are not UTF-8
            data = data[: rng.randrange(len(data) + 1)] + bytes([rng.randrange(0x80, 0x100)]) + data[len(data) // 2 :]
        lines.append(data.replace(b"\n", b" "))
    return lines


# -- running and checking -----------------------------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not strict JSON")


def check_answers(lines: list[bytes], out: str, what: str) -> tuple[int, int]:
    """Exactly one strict-JSON object per input line; errors name their line and stay short. (answered, refused)"""
    assert out.endswith("\n") or not lines, f"{what}: the last answer has no newline"
    answers = out.split("\n")[:-1]
    assert len(answers) == len(lines), f"{what}: {len(answers)} answers for {len(lines)} lines"
    answered = refused = 0
    for number, (line, answer) in enumerate(zip(lines, answers, strict=True), start=1):
        try:
            data = json.loads(answer, parse_constant=_refuse_constant)
        except ValueError as error:
            raise AssertionError(f"{what} line {number} {line[:80]!r}: answer not strict JSON ({error})") from None
        assert isinstance(data, dict), (what, number, answer[:200])
        if "error" in data:
            refused += 1
            error = data["error"]
            assert isinstance(error, str) and error.startswith(f"line {number}: "), (what, line[:80], error[:200])
            assert len(error) <= MAX_ERROR, f"{what} line {number}: an error of {len(error)} characters"
            assert error.strip() == error and len(error) > len(f"line {number}: ") + 10, (what, error)
        else:
            answered += 1
    return answered, refused


def run_in_process(argv: list[str], lines: list[bytes], capsys: pytest.CaptureFixture[str]) -> str:
    """``main(argv)`` with the lines on a byte-backed stdin, as a pipe gives them; stdout returned."""
    source = io.TextIOWrapper(io.BufferedReader(io.BytesIO(b"".join(line + b"\n" for line in lines))), "utf-8")
    out = io.StringIO()
    started = time.monotonic()
    code = main(argv, stdin=source, stdout=out)
    elapsed = time.monotonic() - started
    err = capsys.readouterr().err
    assert code == 0, (argv, code, out.getvalue()[-300:])
    assert "Traceback" not in err and not err.strip(), (argv, err[-2000:])
    assert elapsed < BATCH_S, f"{argv}: {len(lines)} lines took {elapsed:.1f} s"
    return out.getvalue()


def argv_of(command: str, rules: str) -> list[str]:
    return ["settle"] if command == "settle" else [command, "--rules", rules]


def _fuzz(command: str, count: int, seed: int, capsys) -> dict[str, int]:
    """``count`` lines of ``command``, spread over every ruleset, one batch per ruleset."""
    rng = random.Random(seed)
    totals = {"inputs": 0, "answered": 0, "refused": 0}
    share = -(-count // len(RULESETS))
    for index, rules in enumerate(RULESETS):
        size = min(share, count - index * share)
        if size <= 0:
            break
        lines = batch(command, rules, size, rng)
        answered, refused = check_answers(lines, run_in_process(argv_of(command, rules), lines, capsys), rules)
        totals["inputs"] += len(lines)
        totals["answered"] += answered
        totals["refused"] += refused
    assert totals["inputs"] == count == totals["answered"] + totals["refused"]
    return totals


@pytest.mark.parametrize("command", ["score", "waits", "settle"])
def test_mutated_lines_of_every_ruleset_get_one_answer_each(command, capsys):
    totals = _fuzz(command, 340, 1, capsys)
    assert totals["answered"] > 10 and totals["refused"] > 50, totals  # the mix reaches both ends
    with capsys.disabled():
        print(f"\nfuzz batch {command}: {totals}")


@pytest.mark.slow
@pytest.mark.parametrize("command", ["score", "waits", "settle"])
def test_ten_thousand_mutated_lines_per_command(command, capsys):
    totals = _fuzz(command, 10_000, 2, capsys)
    with capsys.disabled():
        print(f"\nfuzz batch {command} (slow): {totals}")


def test_every_ruleset_has_valid_lines_of_each_command():
    """The fuzzer starts from lines each command answers: otherwise it would only test the refusals. (``score``
    reads the MCR notation, which has no field for the flipped indicator: the wildcard rulesets refuse every line
    there and are scored through ``settle``.)"""
    wild = {"hubei-laizi", "tuidaohu", "wuhan"}
    for rules in RULESETS:
        found = valid_lines(rules)
        assert found["waits"] and found["settle"] and found["score"], rules
        ruleset = get_ruleset(rules, {})
        scored = [line for line in found["score"] if _tries(lambda line=line, r=ruleset: score_line(r, line))]
        assert bool(scored) is (rules not in wild), (rules, len(scored))


def test_the_installed_command_answers_a_mutated_pipe_line_by_line():
    """The same through ``mjtable`` in a subprocess: stdin a pipe, stderr without a traceback; a line of junk after
    a thousand good ones still gets its answer, and so do all of those."""
    rng = random.Random(3)
    good = valid_lines("mcr")["score"][0].encode()
    lines = [good] * 1000 + batch("score", "mcr", 100, rng) + [b"123m456p789s1122z3z|EE1000|\xc2\xb2"]
    started = time.monotonic()
    done = subprocess.run([str(MJTABLE), "score", "--rules", "mcr"], input=b"".join(x + b"\n" for x in lines),
                          capture_output=True, timeout=BATCH_S)  # fmt: skip
    assert time.monotonic() - started < BATCH_S
    assert done.returncode == 0 and b"Traceback" not in done.stderr and not done.stderr.strip(), done.stderr[-2000:]
    check_answers(lines, done.stdout.decode("utf-8"), "mjtable score (subprocess)")


def test_an_in_memory_stream_is_split_on_newlines_only():
    """Embedding ``main`` with a ``StringIO``: a line holding U+2028, a form feed or a carriage return is still one
    line with one answer, as it is from a pipe."""
    lines = ["123m456p789s1122z2z\u2028x", "1\r2", "\x1c", "\x0c5m", "\x85"]
    out = io.StringIO()
    assert main(["score", "--rules", "mcr"], stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out) == 0
    assert len(out.getvalue().split("\n")[:-1]) == len(lines)
