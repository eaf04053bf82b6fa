"""Fuzz the configuration file: the example file with values swapped for hostile ones of every TOML type, keys
dropped, unknown keys and sections added, and bytes flipped. Each file loads or is refused with one
``ConfigError`` naming the file (never another exception), in bounded time."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from controller.config import Config, load_config
from controller.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mjtable.toml"
VALUES = [
    "0", "-1", "-5", "1", "3", "1e308", "-1e308", "nan", "inf", "-inf", "9" * 30, "0.0", "true", "false",
    '""', '"x"', '"mcr"', '"sichuan"', '"people"', '"sim"', '"wait"', '"/proc/nope"', '"/dev/null"',
    '"0.0.0.0:8080"', '"127.0.0.1:99999"', '"mqtt://h:1883"', '"mqtts://:1"', '"a/b"', "[]", "[1, 2, 3]",
    "{}", '{ minimum = -5 }', '{ base = nan }', '{ base = 1e308 }', "1979-05-27", '"' + "é" * 500 + '"',
]
ASSIGNMENT = re.compile(r"^(\s*)([A-Za-z_][\w]*)(\s*=\s*)(.*?)(\s*(#.*)?)$")


def mutated(rng: random.Random, lines: list[str]) -> str:
    """One to three changes to the example: a value swapped, a key dropped, a stray line, or bytes flipped."""
    out = list(lines)
    for _ in range(rng.randint(1, 3)):
        index = rng.randrange(len(out))
        match = ASSIGNMENT.match(out[index])
        roll = rng.random()
        if match and roll < 0.6:
            out[index] = f"{match[1]}{match[2]}{match[3]}{rng.choice(VALUES)}"
        elif match and roll < 0.75:
            del out[index]
        elif roll < 0.9:
            stray = ["bogus = 1", "[bogus]", "[service.deeper]", "speed = 1", "= 3", "[[service]]", "[service]"]
            out.insert(index, rng.choice(stray))
    text = "\n".join(out) + "\n"
    if rng.random() < 0.1:
        data = bytearray(text.encode())
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return data.decode("utf-8", errors="surrogateescape")
    return text


def _fuzz(count: int, seed: int, tmp_path: Path) -> tuple[int, int]:
    rng = random.Random(seed)
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    loaded = refused = 0
    path = tmp_path / "mjtable.toml"
    for _ in range(count):
        text = mutated(rng, lines)
        path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        started = time.monotonic()
        try:
            config = load_config(path)
        except ConfigError as error:
            refused += 1
            message = str(error)
            assert message.startswith(f"{path}: ") and "\n" not in message.strip() and len(message) < 2000, message
        else:
            loaded += 1
            assert isinstance(config, Config)
        assert time.monotonic() - started < 10, "a hang guard, not a speed measure"
    return loaded, refused


def test_mutated_configuration_files_load_or_are_refused_by_name(tmp_path):
    loaded, refused = _fuzz(400, 1, tmp_path)
    assert loaded > 20 and refused > 100  # the mix reaches both ends


@pytest.mark.slow
def test_ten_thousand_mutated_configuration_files(tmp_path):
    loaded, refused = _fuzz(10_000, 2, tmp_path)
    assert loaded + refused == 10_000
    print(f"fuzz configuration, 10,000 files: {loaded} loaded, {refused} refused by name")
