"""How fast the record readers read real games (``shared/records``, or wherever ``MJTABLE_SHARED`` points), as a
ratio to a plain parse of the same bytes measured in the same run: ``xml.etree.ElementTree.fromstring`` for an
mjlog, ``json.loads`` for a tenhou.net/6 log, ``str.splitlines`` + ``split`` for a Botzone text. The readers do
more (every move checked, the neutral form built), so the ratio says what that costs; the per-hand time says
whether a game reads in a few milliseconds.

    python bench/bench_records.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.records import record_groups  # noqa: E402
from bench.timing import median_ms  # noqa: E402
from engine.records import parse  # noqa: E402


def _plain(path: Path, data: bytes) -> object:
    if path.suffix == ".mjlog":
        return ElementTree.fromstring(data)
    if path.suffix == ".json":
        return json.loads(data)
    return [line.split() for line in data.decode().splitlines()]


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeat", type=int, default=20)
    repeat = options.parse_args().repeat
    groups = record_groups()
    print(f"{'format':8} {'files':>5} {'hands':>6} {'reader ms':>10} {'plain ms':>9} {'ratio':>6} {'ms/10 hands':>12}")
    for name, paths in groups.items():
        contents = [(path, path.read_bytes()) for path in paths]
        hands = sum(len(parse(data).hands) for _, data in contents)
        reader = median_ms(lambda contents=contents: [parse(data) for _, data in contents], repeat)
        plain = median_ms(lambda contents=contents: [_plain(path, data) for path, data in contents], repeat)
        print(
            f"{name:8} {len(paths):>5} {hands:>6} {reader:>10.2f} {plain:>9.2f} {reader / plain:>6.1f}"
            f" {10 * reader / hands:>12.2f}"
        )


if __name__ == "__main__":
    main()
