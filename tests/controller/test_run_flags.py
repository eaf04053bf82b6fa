"""``mjtable run``'s flags and the [service] keys: each number refused alone with its own name and range, the
journal directory checked before anything starts, and a run quiet on stderr unless asked (-v)."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import pytest

from controller.cli import _log_level, build_parser, main
from controller.config import SERVICE_RANGES, Config, load_config
from controller.errors import ConfigError


@pytest.mark.parametrize(
    ("flag", "value", "named"),
    [
        ("--speed", "0", "--speed"),
        ("--speed", "nan", "--speed"),
        ("--speed", "inf", "--speed"),
        ("--hands", "-3", "--hands"),
        ("--hands", "²", "--hands"),
        ("--seed", "-2", "--seed"),
        ("--seed", "1e400", "--seed"),
        ("--seed", "١٢٣", "--seed"),
    ],
)
def test_an_out_of_range_flag_is_refused_naming_only_that_flag(capsys, flag, value, named):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["run", flag, value])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert f"argument {named}: expected" in error
    others = {"--speed", "--hands", "--seed", "think_s"} - {named}
    assert not any(other in error for other in others), error


def test_the_flags_ranges_are_the_file_s_ranges():
    for key, (low, high) in SERVICE_RANGES.items():
        if key in ("hands", "seed", "speed"):
            kind = float if key == "speed" else int
            args = build_parser().parse_args(["run", f"--{key}", str(kind(low)), "--state", "/tmp"])
            assert getattr(args, key) == low
            args = build_parser().parse_args(["run", f"--{key}", str(kind(high))])
            assert getattr(args, key) == high


def test_state_on_a_file_or_under_one_is_named(tmp_path, capsys):
    afile = tmp_path / "journal-here"
    afile.write_text("")
    for state in (afile, afile / "below"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["run", "--state", str(state)])
        assert f"{afile} is a file; expected a directory" in capsys.readouterr().err
    with pytest.raises(ConfigError, match=r"service\.state_dir: .* is a file"):
        Config().with_service(state_dir=str(afile))


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("speed = 0", "service.speed"),
        ("think_s = 61", "service.think_s"),
        ("hands = -3", "service.hands"),
        ("seed = -2", "service.seed"),
        ("claim_window_s = nan", "service.claim_window_s"),
        ("hu_hold_s = inf", "service.hu_hold_s"),
    ],
)
def test_a_file_s_number_out_of_range_is_named_alone(tmp_path, line, named):
    path = tmp_path / "mjtable.toml"
    path.write_text(f"[service]\n{line}\n")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    text = str(error.value)
    assert text.startswith(f"{path}: {named}: expected"), text
    assert not any(f"service.{key}" in text for key in SERVICE_RANGES if f"service.{key}" != named)


@pytest.mark.parametrize(
    ("section", "line", "named"),
    [("mqtt", "queue = 10000000000", "mqtt.queue"), ("mqtt", "keepalive_s = 0", "mqtt.keepalive_s")],
)
def test_every_number_of_the_file_has_an_upper_and_lower_bound(tmp_path, section, line, named):
    path = tmp_path / "mjtable.toml"
    path.write_text(f"[{section}]\n{line}\n")
    with pytest.raises(ConfigError, match=rf"{named}: expected"):
        load_config(path)


def test_verbosity_levels():
    assert [_log_level(n) for n in range(4)] == [logging.WARNING, logging.INFO, logging.DEBUG, logging.DEBUG]


def test_a_run_prints_one_line_per_hand_and_nothing_on_stderr_by_default(tmp_path, capfd):
    """The parlor's terminal shows hands, not 400 state changes; -v brings those back (the systemd unit has it)."""
    root = logging.getLogger()
    handlers = list(root.handlers)
    level = root.level
    try:
        for handler in handlers:  # basicConfig only configures a logger with no handlers (pytest adds its own)
            root.removeHandler(handler)
        out = io.StringIO()
        argv = ["run", "--hands", "2", "--seed", "1", "--speed", "1000", "--http", "off", "--state", str(tmp_path)]
        assert main([*argv, "--rules", "basic"], stdout=out) == 0
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)
    lines = out.getvalue().splitlines()
    assert [line.split(" (")[0] for line in lines[:2]] == ["hand 0", "hand 1"]
    assert json.loads(lines[2])["hands"] == 2 and len(lines) == 3
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("state", ["é" * 300, "a\0b"])
def test_a_state_directory_the_system_cannot_name_is_refused(state):
    with pytest.raises(ConfigError, match=r"^service\.state_dir: "):
        Config().with_service(state_dir=state)


def test_a_configuration_path_no_file_can_have_is_named():
    with pytest.raises(ConfigError, match="NUL"):
        load_config(Path("a\0b.toml"))
