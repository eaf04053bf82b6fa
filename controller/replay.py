"""``mjtable replay FILE [FILE...] [--json]``: recorded games (Tenhou mjlog, tenhou.net/6 JSON, Botzone MCR text)
replayed hand by hand through the table's referee (``engine.records.replay``), each hand's score changes beside the
record's. Streams: a hand is written as soon as it is replayed. A file that cannot be read, a damaged hand and a move
the referee refuses are answers too, never tracebacks; the exit status is 1 when any hand disagrees or fails."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from engine.records import RecordError, parse_games
from engine.records.replay import HandReplay, replay_record

STDIN = "-"


def add_parser(commands: Any) -> None:
    """Register the command with the ``mjtable`` sub-parsers."""
    replay = commands.add_parser("replay", help="recorded games through the referee: its score changes vs the record's")
    replay.add_argument(
        "files", nargs="+", metavar="FILE", help="a Tenhou mjlog, tenhou.net/6 JSON or Botzone MCR text; - = stdin"
    )
    replay.add_argument("--json", action="store_true", help="one JSON line per hand, for programs")


def _read(name: str, stdin: TextIO) -> bytes | str:
    if name == STDIN:
        return stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read()
    try:
        return Path(name).read_bytes()
    except OSError as error:
        raise RecordError(f"cannot be read ({error.strerror or error})") from None


def replays(names: list[str], stdin: TextIO) -> Iterator[HandReplay]:
    """Every hand of every game of every file in order; a file that cannot be read or is no record, and a game of a
    file of several that cannot be read, is one failed answer. Answers of a file of several games say which."""
    for name in names:
        try:
            games = list(parse_games(_read(name, stdin)))
        except RecordError as error:
            yield HandReplay(name, None, error=str(error))
            continue
        several = len(games) > 1
        for number, game in enumerate(games):
            answers = (
                [HandReplay(name, None, error=str(game))]
                if isinstance(game, RecordError)
                else replay_record(game, name)
            )
            for answer in answers:
                yield replace(answer, game=number) if several else answer


def replay(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Every answer as it comes; the summary counts the hands, and the damage outside any hand (a file not read, a
    record's header) apart."""
    hands = agreeing = elsewhere = 0
    if not args.json:
        out.write(f"{'file':<40} {'hand':>4}  {'round':<16} {'result':<8} {'referee':<30} {'record':<30} agrees\n")
    for answer in replays(args.files, stdin):
        hands += answer.hand is not None
        elsewhere += answer.hand is None
        agreeing += answer.agrees
        out.write((json.dumps(answer.to_dict(), ensure_ascii=False) if args.json else _row(answer)) + "\n")
        out.flush()
    if not args.json:
        damage = f", {elsewhere} failed outside any hand" if elsewhere else ""
        out.write(f"{hands} hands, {agreeing} agree{damage}\n")
    return 0 if hands == agreeing and not elsewhere else 1


def _row(answer: HandReplay) -> str:
    hand = "" if answer.hand is None else str(answer.hand)
    if answer.game is not None:  # a file of several games: game.hand
        hand = f"{answer.game}.{hand}"
    start = f"{_short(answer.file):<40} {hand:>4}  {answer.label:<16}"
    if answer.error is not None:
        return f"{start} error: {answer.error}"
    verdict = "yes" if answer.agrees else "NO"
    return f"{start} {answer.result or '':<8} {_scores(answer.deltas):<30} {_scores(answer.record):<30} {verdict}"


def _scores(scores: tuple[int, ...] | None) -> str:
    return "" if scores is None else " ".join(f"{score:+d}" for score in scores)


def _short(name: str) -> str:
    return name if len(name) <= 40 else "…" + name[-39:]

