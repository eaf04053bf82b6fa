"""Fuzz every ``mjtable`` command's arguments: valid command lines lightly mutated (hostile values, unknown and
repeated flags, missing values). Each answers with a usage error (exit 2), a JSON error line or its normal output:
never a traceback, and in bounded time. What would run for long once accepted (a table, a fleet, thousands of
simulated hands) is stubbed after the arguments are checked: the point is the checking."""

from __future__ import annotations

import contextlib
import io
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import controller.cli as cli
from controller.ops import daemon
from engine.rulesets.registry import all_rulesets

HOSTILE = [
    "", " ", "-1", "-5", "0", "1e400", "nan", "inf", "-inf", "²", "⑴", "١٢٣", "１", "9" * 50, "0x10", "1_0",
    "{", "[]", "null", '{"minimum": -5}', '{"base": NaN}', '{"base": 1e308}', "\x00", "é" * 300, "../../etc",
    "/proc/nope", "127.0.0.1:99999", "mqtt://:0", "mqtts://h:1", "off", "3,5", "7,1", "a,b", "--hands",
]


def _flags(workdir: Path) -> dict[str, list[str]]:
    """The valid values each flag takes, small enough that an accepted command line stays quick."""
    rules = [cls.describe()["id"] for cls in all_rulesets()]
    config = workdir / "ok.toml"
    config.write_text(f'[service]\nstate_dir = "{workdir / "state"}"\n[http]\nlisten = "off"\n')
    return {
        "--rules": rules,
        "--options": ["{}", '{"minimum": 1}'],
        "--seed": ["0", "7"],
        "--hands": ["1", "2"],
        "--speed": ["1000", "20"],
        "--dice": ["3,5"],
        "--dice2": ["1,6"],
        "--dealer": ["0", "3"],
        "--state": [str(workdir / "state")],
        "--http": ["off"],
        "--mqtt": ["mqtt://127.0.0.1:1"],
        "--camera": ["off", "sim"],
        "--players": ["bots", "people"],
        "--config": [str(config), str(workdir / "missing.toml"), str(workdir)],
        "--run": ["1"],
        "--hand": ["0"],
    }


COMMANDS: dict[str, list[str]] = {
    "rules": [],
    "score": ["--rules", "--options"],
    "waits": ["--rules", "--options"],
    "settle": [],
    "deal": ["--rules", "--options", "--seed", "--dice", "--dice2", "--dealer"],
    "simulate": ["--rules", "--options", "--hands", "--seed"],
    "run": [
        "--config",
        "--rules",
        "--hands",
        "--seed",
        "--speed",
        "--state",
        "--http",
        "--mqtt",
        "--camera",
        "--players",
    ],
    "history": ["--config", "--state", "--run", "--hand"],
    "fleet": ["--mqtt", "--http", "--config"],
    "doctor": ["--config"],
}
SWITCHES = {"run": ["--json", "-v", "-vv"], "history": ["--log"], "rules": ["--json"]}


def mutated_argv(rng: random.Random, flags: dict[str, list[str]]) -> list[str]:
    command = rng.choice(sorted(COMMANDS))
    argv = [command]
    for flag in COMMANDS[command]:
        roll = rng.random()
        if roll < 0.3:
            continue
        value = rng.choice(flags[flag]) if roll < 0.8 else rng.choice(HOSTILE)
        argv += [flag, value]
    argv += [switch for switch in SWITCHES.get(command, []) if rng.random() < 0.3]
    roll = rng.random()
    if roll < 0.1 and len(argv) > 1:  # a flag without its value
        argv.pop()
    elif roll < 0.2:
        argv += [rng.choice(["--bogus", "-x", "extra", "--rules"]), rng.choice(HOSTILE)]
    elif roll < 0.25:
        argv[0] = rng.choice(HOSTILE)
    return argv


@contextlib.contextmanager
def stubbed_long_runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A table, a fleet and long simulations stop once their arguments are accepted."""

    class QuickDaemon:
        def __init__(self, config, emit) -> None:  # the configuration was built and checked by then
            self.config = config

        def run(self) -> None:
            return None

    monkeypatch.setattr(daemon, "TableDaemon", QuickDaemon)
    from controller.fleet import parlor

    monkeypatch.setattr(parlor, "serve_fleet", lambda *args, **kwargs: None)
    real_simulate = cli.simulate
    monkeypatch.setattr(cli, "simulate", lambda ruleset, hands, seed: real_simulate(ruleset, min(hands, 1), seed))
    yield


def answer(argv: list[str]) -> tuple[int, str]:
    """Exit code and stdout of one command line, in this process (argparse's usage errors exit 2)."""
    out = io.StringIO()
    try:
        code = cli.main(argv, stdin=io.StringIO(""), stdout=out)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 2
    return code, out.getvalue()


def check(argv: list[str], capsys: pytest.CaptureFixture[str]) -> int:
    """The exit code of one command line, once its answer is checked."""
    started = time.monotonic()
    code, out = answer(argv)
    err = capsys.readouterr().err
    assert code in (0, 1, 2, 3), (argv, code)
    assert "Traceback" not in err and "Traceback" not in out, (argv, err[-2000:])
    if code != 2 or not err:  # the command's own answers are JSON lines (or its readable table/log)
        for line in out.splitlines():
            if line.startswith("{"):
                json.loads(line)
    if code == 2 and not out:
        assert err.strip(), f"{argv}: refused without a word"
    assert time.monotonic() - started < 30, f"{argv}: a hang guard, not a speed measure"
    return code


def _fuzz(count: int, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> dict[int, int]:
    """Exit codes of ``count`` mutated command lines, run in ``tmp_path`` (a relative --state is made there, never in
    the checkout)."""
    rng = random.Random(seed)
    flags = _flags(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    codes: dict[int, int] = {}
    with stubbed_long_runs(monkeypatch):
        for _ in range(count):
            code = check(mutated_argv(rng, flags), capsys)
            codes[code] = codes.get(code, 0) + 1
    return codes


def test_mutated_command_lines_are_answered_never_a_traceback(tmp_path, monkeypatch, capsys):
    codes = _fuzz(300, 1, tmp_path, monkeypatch, capsys)
    assert sum(codes.values()) == 300 and codes.get(0) and codes.get(2)  # both accepted and refused lines ran


@pytest.mark.slow
def test_ten_thousand_mutated_command_lines(tmp_path, monkeypatch, capsys):
    codes = _fuzz(10_000, 2, tmp_path, monkeypatch, capsys)
    with capsys.disabled():
        print("\nfuzz arguments, 10,000 command lines, exit codes:", dict(sorted(codes.items())))


def test_the_fuzzer_reaches_every_command_and_both_answers(tmp_path):
    """The mix is worth running: every command is drawn, and both accepted and refused lines occur."""
    rng = random.Random(1)
    flags = _flags(tmp_path)
    drawn = [mutated_argv(rng, flags) for _ in range(300)]
    assert set(COMMANDS) <= {argv[0] for argv in drawn}
    assert any(value in HOSTILE for argv in drawn for value in argv[1:])
    assert any(all(value not in HOSTILE for value in argv[1:]) for argv in drawn)
