"""The ``mjtable`` command line. Batch commands read one input per line and answer one JSON line per input
line, in order; a line that cannot be answered gets ``{"error": "..."}`` and the batch goes on."""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import importlib
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TextIO

from controller.errors import ConfigError, TableStopped
from controller.jsonin import read_json
from controller.scoretext import ScoreText, dump
from engine.errors import MissingSituation, MjtableError, TileCountError, quoted
from engine.native import NATIVE
from engine.notation import _MELDS, _SITUATIONS  # the reader's caches of the melds and situations it has read
from engine.rulesets.base import Ruleset, Score, WinContext
from engine.rulesets.registry import all_rulesets, get_ruleset

if TYPE_CHECKING:
    from engine.notation import Hand, Situation

# What a command alone needs is imported by that command, so that `mjtable score` does not load the service, the
# journal, the people's witness, gpiozero or the firmware harness (half a second of start-up); ``_LAZY`` names the
# ones read as attributes of this module (tests replace ``cli.simulate``).
_LAZY = {"simulate": ("engine.simulation", "simulate")}


def __getattr__(name: str) -> Any:
    """``cli.simulate`` and the like, imported when first asked for (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _LAZY[name]
    value = globals()[name] = getattr(importlib.import_module(module), attribute)
    return value


def _lazy(name: str) -> Any:
    return globals()[name] if name in globals() else __getattr__(name)


class _Choices:
    """The choices of a flag, read from the module that owns them only when argparse looks (a given value, the
    help): ``run --firmware`` (hw_tests.firmware.LAUNCHERS, sorted), ``history --format`` ("json", "log", then
    controller.export.WRITERS). Set on the action after ``add_argument``, whose metavar check would read them."""

    def __init__(self, module: str, attribute: str, *first: str) -> None:
        self.module, self.attribute, self.first = module, attribute, first

    def _values(self) -> list[str]:
        owned = getattr(importlib.import_module(self.module), self.attribute)
        return [*self.first, *(sorted(owned) if not self.first else owned)]

    def __contains__(self, value: object) -> bool:
        return value in self._values()

    def __iter__(self) -> Iterator[str]:
        return iter(self._values())

    def __len__(self) -> int:
        return len(self._values())


log = logging.getLogger(__name__)

MAX_SEED = 2**63 - 1
"""Seeds of ``deal`` and ``simulate``: a negative seed would deal as its absolute value (``random.seed``)."""
MAX_HANDS = 1_000_000


Command = Callable[[argparse.Namespace, TextIO], int]


MAX_LINE = 1 << 20
"""The longest batch line read (1 MiB; a hand or a settle request is well under 1 KiB): a longer one is answered
with an error and never held whole, so one endless line neither fills memory nor slows the batch."""
OVERLONG = "\0overlong"
"""The line ``_chunks`` yields in place of one longer than ``MAX_LINE`` (a NUL never reaches a real answer)."""


def _chunks(source: TextIO) -> Iterator[list[str]]:
    """Input lines grouped as they arrive, a pipe buffer at a time: answers are flushed once per chunk, so a
    large batch is not slowed by a write per line and an interactive caller still gets each answer as soon as
    its line is complete. Bytes that are not UTF-8 become a line the batch answers with an error."""
    raw = getattr(getattr(source, "buffer", None), "raw", None)
    if raw is None:  # an in-memory stream (tests, embedding): it is all there already
        text = source.read()
        lines = text.split("\n")  # "\n" only, as from a pipe: str.splitlines also splits at U+2028, \x0c, \x85 ...
        if lines[-1] == "":
            lines.pop()
        yield [line if len(line) <= MAX_LINE else OVERLONG for line in lines]
        return
    pending: list[bytes] = []  # the pieces of the unfinished line (joined once: no quadratic copying)
    size = 0
    overlong = False
    while data := raw.read(1 << 16):
        *complete, rest = data.split(b"\n")
        lines = []
        for piece in complete:
            if overlong or size + len(piece) > MAX_LINE:
                lines.append(OVERLONG)
            else:
                lines.append(b"".join([*pending, piece]).decode("utf-8", errors="replace"))
            pending, size, overlong = [], 0, False
        size += len(rest)
        overlong = overlong or size > MAX_LINE
        pending = [] if overlong else [*pending, rest]
        if lines:
            yield lines
    if overlong:
        yield [OVERLONG]
    elif size:
        yield [b"".join(pending).decode("utf-8", errors="replace")]


def _batch(
    source: TextIO,
    answer: Callable[[str], dict[str, Any] | str],
    out: TextIO,
    *,
    expected: str = "a hand in MCR notation",
    failed: Mapping[str, Any] = MappingProxyType({}),
    chunk: Callable[[list[str]], list[str | None]] | None = None,
) -> None:
    """One JSON line out per line in; errors are answers too, never tracebacks. ``failed`` holds the fields an
    error answer carries beside ``error`` (``mjtable settle`` answers ``"hu": false``). ``answer`` may give its
    answer as JSON text already (``ScoreText``). ``chunk`` answers a chunk of lines at once as text, None where
    ``answer`` must (``waits_compiled``: the compiled core; ``_settle_chunk``: a stage at a time)."""
    if source is sys.stdin:  # a process of its own: what start-up built (modules, tables, the ruleset) lives until
        gc.freeze()  # its end, so the collector's passes over every line skip it (settle 25%, score and waits 5-10%)
    number = 0
    for lines in _chunks(source):
        known = chunk(lines) if chunk else [None] * len(lines)
        answers = [
            text or _answer(number + index, line, answer, expected, failed)
            for index, (line, text) in enumerate(zip(lines, known, strict=True), 1)
        ]
        number += len(lines)
        out.write("\n".join(answers) + "\n")
        out.flush()


_BUGS = (ArithmeticError, LookupError, TypeError, ValueError, RecursionError, MemoryError)
"""What a bug met on one line raises: that line's answer says so, and the batch goes on."""


def _text(line: str, expected: str) -> str:
    """The line without its CR, or ``MjtableError`` for one that is too long, not UTF-8 or empty."""
    text = line.rstrip("\r")
    if text == OVERLONG:
        raise MjtableError(f"longer than {MAX_LINE:,} bytes: expected {expected}")
    if "\ufffd" in text:
        raise MjtableError("the line is not valid UTF-8 text")
    if not text.strip():
        raise MjtableError(f"empty line: expected {expected}")
    return text


def _answer(
    number: int,
    line: str,
    answer: Callable[[str], dict[str, Any] | str],
    expected: str,
    failed: Mapping[str, Any],
) -> str:
    """One line's answer text. A bug met on one line is that line's answer (and one log line), so the lines after
    it are still answered."""
    try:
        result = answer(_text(line, expected))
    except MjtableError as error:
        result = {**failed, "error": f"line {number}: {error}"}
    except _BUGS as error:
        log.error("line %d: %s: %s", number, type(error).__name__, error)
        problem = f"{type(error).__name__}: {quoted(str(error))}"
        result = {**failed, "error": f"line {number}: could not be answered ({problem}); please report it"}
    return result if isinstance(result, str) else dump(result)


def win_context(hand: Hand) -> WinContext:
    """The situation a hand in MCR notation states. The notation has no seats: the dealer is seat 0, the winner
    sits at his seat wind, and a discard comes from his 上家 (the one seat every ruleset lets him chi from)."""
    return _win_context(hand.context, hand.flower_count)


@functools.lru_cache(maxsize=4096)
def _win_context(situation: Situation, flowers: int) -> WinContext:
    """One ``WinContext`` (immutable, checked when built) per situation block and flower count: a batch meets a
    few hundred of them, so each is built and checked once."""
    winner = situation.seat_wind
    self_drawn = situation.self_drawn
    return WinContext(
        winner=winner,
        dealer=0,
        discarder=None if self_drawn else (winner + 3) % 4,
        round_wind=situation.prevalent_wind,
        after_kong=situation.kong_related and self_drawn,
        robbing_kong=situation.kong_related and not self_drawn,
        last_tile=situation.last_tile,
        fourth_tile=situation.fourth_tile,
        flowers=flowers,
    )


def score_of(ruleset: Ruleset, text: str) -> Score:
    """One winning hand scored in the ruleset's own tiles (``Ruleset.parse_hand``)."""
    hand = ruleset.parse_hand(text)
    if hand.win_tile is None:
        raise TileCountError("a waiting hand has no winning tile to score; use 'mjtable waits'")
    try:
        return ruleset.evaluate(hand, win_context(hand))
    except MissingSituation as error:  # MCR notation has no place for it; settle takes every situation field
        raise MjtableError(f"{error}; MCR notation cannot say it: send the hand to 'mjtable settle'") from None


def score_line(ruleset: Ruleset, text: str) -> dict[str, Any]:
    """``mjtable score``'s answer to one line, as a dictionary."""
    return score_of(ruleset, text).to_dict()


def waits_line(ruleset: Ruleset, text: str) -> dict[str, Any]:
    """Waits of a 13 - 3k tile hand in the ruleset's own tiles and shapes (``Ruleset.parse_hand``, ``waits_of``); a
    last tile without the trailing space is read as a standing tile too."""
    hand = ruleset.parse_hand(text)
    standing = [*hand.standing, *([] if hand.win_tile is None else [hand.win_tile])]
    expected = 13 - 3 * len(hand.melds)
    if len(standing) != expected:
        raise TileCountError(f"{len(standing)} standing tiles beside {len(hand.melds)} melds; expected {expected}")
    found, steps = ruleset.waits_of(hand.melds, standing)
    return {"waits": [ruleset.tile_code(tile) for tile in found], "shanten": steps}


def waits_compiled(ruleset: Ruleset) -> Callable[[list[str]], list[str | None]] | None:
    """The compiled core's ``waits_line`` for whole chunks of lines (parse, check, shanten, waits and the answer's
    text in one call, None where the pure path must answer), for a ruleset that reads, checks and analyses a hand
    as ``Ruleset`` does over four copies of each playing kind; None where there is no core or no such ruleset."""
    kind = type(ruleset)
    if NATIVE is None or not ruleset.tile_set.four_of_each_kind:
        return None
    if any(getattr(kind, name) is not getattr(Ruleset, name) for name in ("parse_hand", "tile_code", "waits_of")):
        return None
    code = ruleset.shape_rules.native_code
    return lambda lines: NATIVE.waits_answers(lines, code, _MELDS, _SITUATIONS)


def _settle(text: str) -> dict[str, Any]:
    from engine.settle.answer import settle_object  # once imported, a dictionary lookup a line

    return settle_object(read_json(text, "request"))


SETTLE_EXPECTED = "a JSON request object"


def _settle_chunk(lines: list[str]) -> list[str | None]:
    """``_settle``'s answer texts for a chunk of lines, a stage at a time over the chunk (decode every line, settle
    every request, encode every answer, each stage's code and data kept warm: 2-3% less time a line measured); None
    for a line any stage refuses, which ``_answer`` then answers, error and log line, as it would. A riichi request
    of the plain shape is settled and written at once by the compiled core (``engine.rulesets.riichi.line``)."""
    from engine.rulesets.riichi.line import settle_text
    from engine.settle.answer import settle_object

    compiled = settle_text or _no_text
    requests = [_staged(lambda line: read_json(_text(line, SETTLE_EXPECTED), "request"), line) for line in lines]
    answers = [
        request if request is _REFUSED else compiled(request) or _staged(settle_object, request) for request in requests
    ]
    return [None if answer is _REFUSED else answer if type(answer) is str else dump(answer) for answer in answers]


def _no_text(request: Any) -> None:
    """No compiled core: every request goes to the Python path."""


_REFUSED: Any = object()
"""A stage's mark for a line it could not answer (None is a JSON value)."""


def _staged(work: Callable[[Any], Any], value: Any) -> Any:
    try:
        return work(value)
    except (MjtableError, *_BUGS):
        return _REFUSED


def _deal(args: argparse.Namespace, out: TextIO) -> int:
    from engine.referee import deal_for

    ruleset = get_ruleset(args.rules, _options(args))
    dealt = deal_for(ruleset, args.seed, args.dealer, args.dice, args.dice2)
    state = dealt.wall.state
    stacks: dict[int, dict[int, dict[str, str | None]]] = {seat: {} for seat in range(4)}
    for index, position in enumerate(state.positions):
        face = state.faces[index]
        stack = stacks[position.wall_of_seat].setdefault(position.stack_index, {})
        stack[str(position.tier)] = None if face is None else ruleset.tile_code(face)
    out.write(
        dump(
            {
                "rules": ruleset.id,
                "seed": args.seed,
                "dealer": dealt.dealer,
                "dice": list(dealt.dice),
                "dice2": None if dealt.dice2 is None else list(dealt.dice2),
                "break": dealt.wall_break.to_dict(),
                "walls": {str(seat): [stacks[seat][i] for i in sorted(stacks[seat])] for seat in range(4)},
                "hands": {str(seat): ruleset.format_tiles(sorted(tiles)) for seat, tiles in enumerate(dealt.hands)},  # type: ignore[type-var]
                "flowers": {str(seat): ruleset.format_tiles(tiles) for seat, tiles in enumerate(dealt.flowers)},
                "indicator": None if dealt.indicator is None else ruleset.tile_code(dealt.indicator),
                "next_draw": dealt.wall.next_position().to_dict(),
                "live_remaining": dealt.wall.live_remaining,
            }
        )
        + "\n"
    )
    return 0


def _simulate(args: argparse.Namespace, out: TextIO) -> int:
    from engine.simulation import InvariantViolation

    simulate = _lazy("simulate")
    ruleset = get_ruleset(args.rules, _options(args))
    # A ruleset with a table driver of its own (riichi) plays its hands there; the others under the referee.
    own_table = getattr(ruleset, "simulate_hands", None)
    hands = own_table(args.hands, args.seed) if own_table else simulate(ruleset, args.hands, args.seed)
    started = time.perf_counter()
    wins = drawn = 0
    try:
        for hand in hands:
            data = hand.to_dict()
            out.write(dump(data) + "\n")
            if data["drawn"]:
                drawn += 1
            else:
                wins += 1
    except InvariantViolation as violation:
        out.write(dump({"error": f"invariant violation in hand {wins + drawn}: {violation}"}) + "\n")
        return 1
    elapsed = time.perf_counter() - started
    out.write(dump({"summary": {"hands": args.hands, "won": wins, "drawn": drawn, "invariant_violations": 0}}) + "\n")
    # Timing goes to stderr so that the same seed gives byte-identical stdout.
    rate = args.hands / elapsed if elapsed > 0 else float("inf")
    print(f"{args.hands} hands in {elapsed:.2f} s: {rate:.1f} hands/s", file=sys.stderr)
    return 0


def _rules(args: argparse.Namespace, out: TextIO) -> int:
    """Every ruleset: readable by default, one JSON object a line with ``--json`` (for programs)."""
    for cls in all_rulesets():
        described = cls.describe()
        out.write((dump(described) if args.json else _readable_rules(described)) + "\n")
    return 0


def _readable_rules(described: dict[str, Any]) -> str:
    """One ruleset as a person reads it: id and description, each option with its values and default, its queries."""
    lines = [f"{described['id']} — {described['description']}"]
    for option in described["options"]:
        values = " | ".join(map(_value, option["choices"] or ()))
        if option["choices"] is None:
            values = "any value" if option["range"] is None else "a number {}-{}".format(*map(_value, option["range"]))
        lines.append(f"    {option['key']}: {values} (default {_value(option['default'])})")
        if option["doc"]:
            lines.append(f"        {option['doc']}")
    lines.append(f"    queries: {', '.join(described['queries'])}")
    return "\n".join(lines) + "\n"


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options = read_json(args.options, "--options")
    if not isinstance(options, dict):
        raise MjtableError('--options: expected a JSON object such as \'{"payment_scheme": "半陪"}\'')
    return options


def _ascii_whole(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits (``str.isdigit`` also takes '²' and '١'), else ``None``."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 30:
        return None
    return int(digits)


def _whole(low: int, high: int) -> Callable[[str], int]:
    """The type of a whole-number flag with its range (``--seed``, ``--hands``)."""

    def parse(text: str) -> int:
        value = _ascii_whole(text)
        if value is None or not low <= value <= high:
            from controller.config import span

            raise argparse.ArgumentTypeError(f"expected a whole number {span(low, high)}, found {quoted(text)}")
        return value

    return parse


def _dice(text: str) -> tuple[int, int]:
    values = [_ascii_whole(part) for part in text.split(",")]
    if len(values) != 2 or not all(value is not None and 1 <= value <= 6 for value in values):
        raise argparse.ArgumentTypeError(f"expected two dice values 1-6 such as 3,5; found {quoted(text)}")
    return values[0], values[1]  # type: ignore[return-value]


def _seat(text: str) -> int:
    value = _ascii_whole(text)
    if value is None or not 0 <= value <= 3:
        raise argparse.ArgumentTypeError(f"expected a seat 0-3, found {quoted(text)}")
    return value


def _service_number(kind: type[int] | type[float], key: str) -> Callable[[str], float]:
    """The type of a flag that overrides ``[service] key``: the same range as the file's key, named as the flag."""

    def parse(text: str) -> float:
        from controller.config import SERVICE_RANGES, span

        low, high = SERVICE_RANGES[key]
        try:
            value = kind(text) if text.isascii() else None
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {kind.__name__} {span(low, high)}, got {text[:40]!r}")
        return value

    return parse


def _state_dir(text: str) -> str:
    from controller.config import check_state_dir

    try:
        check_state_dir("--state", text)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--state: ")) from None
    return text


def _log_level(verbose: int) -> int:
    """One line per hand (stdout) and warnings by default; ``-v`` every state change, ``-vv`` everything."""
    return (logging.WARNING, logging.INFO, logging.DEBUG)[min(verbose, 2)]


LIGHT_COMMANDS = ("score", "waits", "settle")
"""The batch commands, whose start-up counts: their parser is built without ``replay`` (whose module loads the
record readers and the referee), which a command already named cannot need (its help and its errors are its own
sub-parser's)."""


def build_parser(light: bool = False) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mjtable", description="Automatic mahjong table: rules engine and tools.")
    commands = parser.add_subparsers(dest="command", required=True)

    def with_rules(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("--rules", default="basic", help="ruleset id (see 'mjtable rules')")
        sub.add_argument("--options", default="{}", help="ruleset options as a JSON object")
        return sub

    rules = commands.add_parser("rules", help="every ruleset with a one-line description, its options and queries")
    rules.add_argument("--json", action="store_true", help="one JSON object per ruleset, for programs")
    commands.add_parser("vision", help="camera tools: enroll, classify, watch, calibrate (mjtable vision -h)")
    with_rules("score", "score hands in MCR notation read from stdin, one JSON line each")
    with_rules("waits", "waits and shanten of 13-3k-tile hands read from stdin")
    commands.add_parser(
        "settle", help="settle JSON requests read from stdin, one JSON answer per line (any ruleset, any query)"
    )
    deal = with_rules("deal", "the wall, dice, break and dealt hands of one seeded hand")
    deal.add_argument("--seed", type=_whole(0, MAX_SEED), required=True, help=f"0-{MAX_SEED}")
    deal.add_argument("--dice", type=_dice, help="the dealer's throw, e.g. 3,5 (thrown from the seed if absent)")
    deal.add_argument("--dice2", type=_dice, help="the second throw of the two-throw break")
    deal.add_argument("--dealer", type=_seat, default=0)
    sim = with_rules("simulate", "four bots play N hands under the referee")
    sim.add_argument("--hands", type=_whole(1, MAX_HANDS), default=10, help=f"1-{MAX_HANDS:,} (default 10)")
    sim.add_argument("--seed", type=_whole(0, MAX_SEED), default=0, help=f"0-{MAX_SEED} (default 0)")
    run = commands.add_parser("run", help="the table service: hands on the table, the simulated one by default")
    run.add_argument("--config", type=Path, help="TOML configuration (see examples/mjtable.toml)")
    run.add_argument("--rules", help="ruleset id (default mcr)")
    run.add_argument("--hands", type=_service_number(int, "hands"), help="stop after N hands (default: until stopped)")
    run.add_argument("--seed", type=_service_number(int, "seed"), help="the run's seed (default: a fresh one)")
    run.add_argument("--speed", type=_service_number(float, "speed"), help="simulation time factor (default 20)")
    run.add_argument("--state", type=_state_dir, help="journal directory (default ~/.local/share/mjtable)")
    run.add_argument(
        "--firmware",
        help="the simulated table's MCU is this build of firmware/ (C) instead of the Python simulator",
    ).choices = _Choices("hw_tests.firmware", "LAUNCHERS")  # set after add_argument, which would read them
    run.add_argument("-v", "--verbose", action="count", default=0, help="log every state change (-vv: every message)")
    run.add_argument("--http", help="HOST:PORT of the display (default 127.0.0.1:8080), or off")
    run.add_argument("--json", action="store_true", help="one JSON line per hand result, then the summary")
    run.add_argument("--mqtt", help="the parlor's broker, mqtt://HOST:PORT or mqtts://; credentials in [mqtt]")
    run.add_argument(
        "--camera",
        choices=("off", "sim"),
        help="sim: the bots' discards are read by the simulated camera (default: off)",
    )
    run.add_argument(
        "--players",
        choices=("bots", "people"),
        help="people: the service sees only the camera and the seat buttons; on the simulated table the bots play "
        "as people, unseen (default: bots)",
    )
    if not light:
        from controller.replay import add_parser as add_replay_parser

        add_replay_parser(commands)
    history = commands.add_parser("history", help="the journaled hands of a run: JSON records or readable logs")
    history.add_argument("--config", type=Path, help="TOML configuration (for its state directory)")
    history.add_argument("--state", help="journal directory (default: the configuration's)")
    history.add_argument("--run", type=int, help="run id (default: the latest)")
    history.add_argument("--hand", type=int, help="only this hand number")
    history.add_argument("--log", action="store_true", help="the readable hand log instead of JSON")
    history.add_argument(
        "--format",
        help="json (default), log (= --log), or the run's games as tenhou6 (riichi) or botzone (MCR) records",
    ).choices = _Choices("controller.export", "WRITERS", "json", "log")
    fleet = commands.add_parser("fleet", help="the parlor's page: every table's state from the MQTT broker")
    fleet.add_argument(
        "--mqtt",
        help="the broker, mqtt://HOST:PORT or mqtts:// (default: [mqtt] url); one that cannot be reached is said on "
        "stderr and on the page, and tried again every few seconds",
    )
    fleet.add_argument("--http", default="127.0.0.1:8090", help="HOST:PORT of the page (default 127.0.0.1:8090)")
    fleet.add_argument("--config", type=Path, help="TOML configuration (its [mqtt] credentials and TLS)")
    doctor = commands.add_parser("doctor", help="check the configuration and the hardware it points at")
    doctor.add_argument("--config", type=Path, help="TOML configuration (default: the simulated table)")
    return parser


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from controller.config import load_config
    from controller.service.records import describe_result

    config = load_config(args.config).with_service(
        http=args.http,
        rules=args.rules,
        hands=args.hands,
        seed=args.seed,
        speed=args.speed,
        state_dir=args.state,
        camera=args.camera,
        players=args.players,
        mqtt=args.mqtt,
        firmware=args.firmware,
    )
    logging.basicConfig(level=_log_level(args.verbose), stream=sys.stderr, format="%(asctime)s %(name)s: %(message)s")

    def emit(line: dict[str, Any]) -> None:
        text = describe_result(line) if "wins" in line and not args.json else dump(line)
        out.write(text + "\n")
        out.flush()

    from controller.ops.daemon import TableDaemon  # paho-mqtt and the signal handling: loaded for the service only
    from controller.service.shutdown import Terminated

    try:
        TableDaemon(config, emit).run()
    except TableStopped as stop:
        out.write(dump({"error": str(stop), "fault": stop.code, "hint": stop.hint}) + "\n")
        return 3
    except KeyboardInterrupt:  # Ctrl-C: everything applied is journaled, the next start resumes
        out.write(dump({"stopped": "interrupted; the same command resumes the run from the journal"}) + "\n")
        return 130
    except Terminated:  # SIGTERM (systemctl stop): the table was stopped safely; a clean exit for systemd
        out.write(dump({"stopped": "terminated; the next start resumes the run from the journal"}) + "\n")
        return 0
    return 0


def _history(args: argparse.Namespace, out: TextIO) -> int:
    """Read-only: a missing journal is named, nothing is created; an older journal is migrated in memory only."""
    from controller.config import load_config
    from controller.export import WRITERS, export_run
    from controller.service.journal import Journal
    from controller.service.records import hand_log, run_records
    from controller.service.service import journal_path

    config = load_config(args.config).with_service(state_dir=args.state)
    with Journal(journal_path(config), readonly=True) as journal:
        if journal.lost is not None:
            print(f"mjtable history: warning: {journal.lost}", file=sys.stderr)
        if args.format in WRITERS:
            if args.hand is not None or args.log:
                raise MjtableError(f"--format {args.format} writes whole games: not with --hand or --log")
            out.writelines(game.rstrip("\n") + "\n" for game in export_run(journal, args.run, args.format))
            return 0
        records = run_records(journal, args.run)
    if args.hand is not None:
        records = [record for record in records if record["number"] == args.hand]
        if not records:
            raise MjtableError(f"--hand {args.hand}: the run has no such hand")
    for record in records:
        try:
            text = hand_log(record) if args.log or args.format == "log" else dump(record)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            where = f"hand {record['number']}, column result"
            raise MjtableError(f"{journal.path}: {where}: not a result the service writes ({error!r})") from None
        out.write(text + "\n")
    return 0


def _fleet(args: argparse.Namespace, out: TextIO) -> int:
    from controller.config import load_config

    config = load_config(args.config).with_service(mqtt=args.mqtt)
    if not config.mqtt.url:
        raise MjtableError("fleet: no broker; give --mqtt mqtt://HOST:PORT or [mqtt] url in --config")
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s: %(message)s")
    from threading import Event

    from controller.fleet.parlor import serve_fleet  # paho-mqtt is loaded for the fleet and the service only
    from controller.service.shutdown import Terminated, terminate_on_sigterm

    def announce(url: str) -> None:
        out.write(dump({"fleet": url, "broker": config.mqtt.url}) + "\n")
        out.flush()

    try:
        with terminate_on_sigterm():
            serve_fleet(config.mqtt, config.mqtt.url, args.http, announce, Event())
    except (KeyboardInterrupt, Terminated):
        pass
    return 0


def _doctor(args: argparse.Namespace, out: TextIO) -> int:
    from controller.ops.doctor import checks

    failed = False
    for answer in checks(args.config):
        failed |= not answer["ok"]
        out.write(dump(answer) + "\n")
        out.flush()
    return 1 if failed else 0


def _command(args: argparse.Namespace, commands: Mapping[str, Command], source: TextIO, out: TextIO) -> int:
    if args.command in commands:
        return commands[args.command](args, out)
    if args.command == "settle":
        _batch(source, _settle, out, expected=SETTLE_EXPECTED, failed={"hu": False}, chunk=_settle_chunk)
        return 0
    ruleset = get_ruleset(args.rules, _options(args))
    if args.command == "score":
        from engine.rulesets.mcr.line import score_lines  # MCR's whole line in its compiled core, where built

        text_of = ScoreText()
        _batch(source, lambda text: text_of(score_of(ruleset, text)), out, chunk=score_lines(ruleset))
    else:
        _batch(source, lambda text: waits_line(ruleset, text), out, chunk=waits_compiled(ruleset))
    return 0


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["vision"]:
            from vision.cli import main as vision_main  # OpenCV is loaded only for the camera commands

            code = vision_main(argv, stdout)
            (stdout or sys.stdout).flush()  # inside the try, as below
            return code
        return _main(argv, stdin, stdout)
    except BrokenPipeError:  # the reader left (`mjtable rules | head`): nothing more to say, and no traceback
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _replay(args: argparse.Namespace, source: TextIO, out: TextIO) -> int:
    from controller.replay import replay

    return replay(args, source, out)


def _main(argv: list[str], stdin: TextIO | None, stdout: TextIO | None) -> int:
    light = bool(argv) and argv[0] in LIGHT_COMMANDS
    args, unknown = build_parser(light=True).parse_known_args(argv) if light else (None, [])
    if not light or unknown:  # the whole parser, whose usage names every command, refuses what it must
        args = build_parser().parse_args(argv)
    source, out = stdin or sys.stdin, stdout or sys.stdout
    commands = {
        "rules": _rules,
        "deal": _deal,
        "simulate": _simulate,
        "run": _run,
        "history": _history,
        "doctor": _doctor,
        "fleet": _fleet,
        "replay": lambda args, out: _replay(args, source, out),
    }
    try:
        code = _command(args, commands, source, out)
        out.flush()  # here, so that a reader gone is met inside the try, not at the interpreter's exit
        return code
    except MjtableError as error:
        out.write(dump({"error": str(error)}) + "\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
