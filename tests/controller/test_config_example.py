"""examples/mjtable.toml: every key of the configuration is there, with its default, and says what it does
(issue 6, "an example file with every key commented"; DESIGN.md Conventions: "every key documented")."""

import re
import tomllib
from dataclasses import fields

from controller.config import Config
from tests.paths import REPO

EXAMPLE = REPO / "examples" / "mjtable.toml"
KEY = re.compile(r"^(\w+)\s*=")


def _keys(section) -> set[str]:
    return {item.name for item in fields(section)}


def test_the_example_holds_every_key_of_every_section():
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    config = Config()
    for name in ("service", "journal", "http", "mqtt", "systemd", "camera", "voice"):
        assert set(data[name]) == _keys(getattr(config, name)), name
    for name in ("link", "mcu", "gpio"):
        assert set(data["bridge"][name]) == _keys(getattr(config.bridge, name)), f"bridge.{name}"


def test_every_key_of_the_example_has_a_comment():
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    bare = [line for line in lines if KEY.match(line) and "#" not in line]
    assert bare == []


def test_the_header_names_every_option_of_run_that_overrides_a_key():
    """A flag added to `mjtable run` that overrides the file must be listed where the file's reader looks first."""
    from controller.cli import build_parser

    run = build_parser()._subparsers._group_actions[0].choices["run"]
    not_keys = {"-h", "--config", "--json", "-v", "--verbose", "--help"}
    flags = {flag for action in run._actions for flag in action.option_strings} - not_keys
    header = EXAMPLE.read_text(encoding="utf-8").split("\n[")[0]  # the comment above the first section
    missing = sorted(flag for flag in flags if not re.search(rf"{flag}\b", header))
    assert flags and missing == []
