"""Command line of the hardware harness: the suite (default), the link soak and the simulator on a pty.

Every number has a range, and a value outside it is one ``error:`` line naming the flag and the range (exit 2),
as is a failure of the link or the firmware build: never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
from collections.abc import Callable
from typing import NoReturn

from firmware_bridge.config import BridgeConfig, LinkConfig, McuConfig
from firmware_bridge.errors import BridgeError
from firmware_bridge.table import Table
from hw_tests.errors import HarnessError
from hw_tests.firmware import LAUNCHERS, FirmwareMcu
from hw_tests.harness import simulated_table
from hw_tests.simulator import McuSimulator
from hw_tests.soak import MAX_LOSS, soak
from hw_tests.suite import CHECK_NAMES, format_table, run_suite

MIN_SPEED, MAX_SPEED = 0.01, 1000.0
MAX_COMMANDS = 1_000_000
MAX_SEED = 2**32 - 3  # the firmware's mechanism is seeded with seed + 2, one 32-bit word


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors as one line: ``error: --speed: expected ...``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def _number(kind: type[int] | type[float], low: float, high: float) -> Callable[[str], float]:
    """An argparse type: ``kind`` (int or float) from ``low`` to ``high`` inclusive."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number from {low:g} to {high:g}, got {text!r}") from None
        if not low <= value <= high:  # also refuses nan
            raise argparse.ArgumentTypeError(f"expected a number from {low:g} to {high:g}, got {text}")
        return value

    return parse


def _add_common(parser: argparse.ArgumentParser, default_speed: float | None) -> None:
    parser.add_argument("--seed", type=_number(int, 0, MAX_SEED), default=0, help="simulator seed")
    if default_speed is not None:
        parser.add_argument(
            "--speed",
            type=_number(float, MIN_SPEED, MAX_SPEED),
            default=default_speed,
            help=f"speed factor of the simulated mechanism ({MIN_SPEED:g}-{MAX_SPEED:g})",
        )
    parser.add_argument(
        "--firmware",
        choices=sorted(LAUNCHERS),
        help="run a build of firmware/ (C) for this board instead of the Python simulator",
    )


def _suite_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m hw_tests", description="Hardware test suite (or: soak, serve).")
    parser.add_argument("--port", help="serial device of a real table; default: the simulator on a pty")
    parser.add_argument("--allow-motion", action="store_true", help="on a real table, run the checks that move")
    parser.add_argument(
        "--allow-injection",
        action="store_true",
        help="on a real table, run the checks that inject a fault: you make it by hand when asked (a switch "
        "unplugged, a driver's fault pin grounded), or the MCU resets itself (its watchdog test)",
    )
    parser.add_argument(
        "--check", action="append", choices=CHECK_NAMES, metavar="NAME", help="run only this check (repeatable)"
    )
    parser.add_argument("--tile-set", default="136", help="tile set the table is configured for (136, 144, 108, 112)")
    _add_common(parser, 20.0)
    parser.add_argument("--json", action="store_true", help="one JSON object per check instead of the table")
    parser.add_argument("-v", "--verbose", action="store_true", help="log state changes to stderr")
    return parser


def _soak_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m hw_tests soak", description="Link soak over a noisy pty.")
    parser.add_argument("--commands", type=_number(int, 1, MAX_COMMANDS), default=1000)
    loss = _number(float, 0.0, MAX_LOSS)
    parser.add_argument("--corrupt", type=loss, default=0.0, help=f"per-byte corruption rate (0-{MAX_LOSS:g})")
    parser.add_argument("--drop", type=loss, default=0.0, help=f"per-frame loss rate, both directions (0-{MAX_LOSS:g})")
    parser.add_argument("--duplicate", type=_number(float, 0.0, 1.0), default=0.0, help="per-frame duplication rate")
    parser.add_argument("--delay", type=_number(float, 0.0, 1.0), default=0.0, help="per-frame 20 ms delay rate")
    _add_common(parser, None)
    parser.add_argument("--json", action="store_true", help="print one JSON object (the default is key: value lines)")
    return parser


def _serve_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m hw_tests serve",
        description="Run the simulated table MCU on a pty: prints the device path, serves until stdin closes.",
    )
    _add_common(parser, 1.0)
    return parser


def serve(args: argparse.Namespace) -> int:
    """A simulator other programs (``mjtable``, a bench, a technician's terminal) open by its pty path."""
    mcu: McuSimulator | FirmwareMcu
    if args.firmware:
        mcu = FirmwareMcu(args.firmware, seed=args.seed, speed=args.speed)
    else:
        mcu = McuSimulator(seed=args.seed, speed=args.speed)
    with mcu as sim:
        print(sim.path, flush=True)
        sys.stdin.read()
    return 0


def _ask(text: str) -> None:
    """A fault made by hand on a real table: say what to do, wait for Enter (stdout keeps the results)."""
    print(f"\n>>> {text}, then press Enter", file=sys.stderr, flush=True)
    if not sys.stdin.readline():
        raise HarnessError("stdin closed while waiting for the technician")


def _suite(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(name)s: %(message)s")
    mcu = McuConfig(tile_set=args.tile_set)
    only = tuple(args.check or ())
    if args.port:
        with Table.connect(BridgeConfig(link=LinkConfig(port=args.port), mcu=mcu)) as table:
            outcomes = run_suite(
                table, None, args.allow_motion, allow_injection=args.allow_injection, prompt=_ask, only=only
            )
    else:
        config = BridgeConfig(mcu=mcu)
        with simulated_table(config, seed=args.seed, speed=args.speed, firmware=args.firmware) as (sim, table):
            outcomes = run_suite(table, sim, allow_motion=True, only=only)
    if args.json:
        for outcome in outcomes:
            print(json.dumps(outcome.to_dict()))
    else:
        print(format_table(outcomes))
    return 1 if any(outcome.status == "FAIL" for outcome in outcomes) else 0


def _soak(args: argparse.Namespace) -> int:
    result = soak(args.commands, args.corrupt, args.drop, args.seed, args.duplicate, args.delay, firmware=args.firmware)
    print(json.dumps(result) if args.json else "\n".join(f"{key}: {value}" for key, value in result.items()))
    return 0 if result["lost"] == 0 and result["duplicates"] == 0 else 1


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    json_errors = "--json" in argv
    try:
        if argv[:1] == ["serve"]:
            return serve(_serve_parser().parse_args(argv[1:]))
        if argv[:1] == ["soak"]:
            return _soak(_soak_parser().parse_args(argv[1:]))
        return _suite(_suite_parser().parse_args(argv))
    except (BridgeError, HarnessError) as exc:
        print(json.dumps({"error": str(exc)}) if json_errors else f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader left (`... --json | head`): no traceback, and no pass for a suite cut short
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
