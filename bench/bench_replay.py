"""How fast ``mjtable replay`` replays real games (``shared/records``, or wherever ``MJTABLE_SHARED`` points) through
the referee, as a ratio to reading the same records (``engine.records.parse``) measured in the same run: the replay
deals each hand from a stacked wall and has the referee check every move, so the ratio says what that costs beside
the reading; hands per second and the time of a 10-hand game say whether a game streams in well under a second.

    python bench/bench_replay.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.records import record_groups  # noqa: E402
from bench.timing import median_ms  # noqa: E402
from engine.records import parse  # noqa: E402
from engine.records.replay import replay_record  # noqa: E402


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeat", type=int, default=5)
    repeat = options.parse_args().repeat
    groups = record_groups()
    head = f"{'format':8} {'hands':>6} {'agree':>6} {'replay ms':>10} {'read ms':>8} {'ratio':>6} {'hands/s':>8}"
    print(f"{head} {'ms/10 hands':>12}")
    for name, paths in groups.items():
        contents = [(path.name, path.read_bytes()) for path in paths]
        answers = [answer for file, data in contents for answer in replay_record(parse(data), file)]
        replay = median_ms(lambda c=contents: [list(replay_record(parse(data), file)) for file, data in c], repeat)
        read = median_ms(lambda c=contents: [parse(data) for _, data in c], repeat)
        hands, agree = len(answers), sum(answer.agrees for answer in answers)
        print(
            f"{name:8} {hands:>6} {agree:>6} {replay:>10.1f} {read:>8.1f} {replay / read:>6.1f}"
            f" {1000 * hands / replay:>8.0f} {10 * replay / hands:>12.1f}"
        )


if __name__ == "__main__":
    main()
