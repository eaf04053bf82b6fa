"""Command line of the hardware harness: the suite (default) and the link soak."""

from __future__ import annotations

import argparse
import json
import logging
import sys

from firmware_bridge.config import BridgeConfig, LinkConfig, McuConfig
from firmware_bridge.errors import BridgeError
from firmware_bridge.table import Table
from hw_tests.harness import simulated_table
from hw_tests.simulator import McuSimulator
from hw_tests.soak import soak
from hw_tests.suite import format_table, run_suite


def _rate(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a rate from 0 to 1, got {text}")
    return value


def _suite_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m hw_tests", description="Hardware test suite (or: soak).")
    parser.add_argument("--port", help="serial device of a real table; default: the simulator on a pty")
    parser.add_argument("--allow-motion", action="store_true", help="on a real table, run the checks that move")
    parser.add_argument("--tile-set", default="136", help="tile set the table is configured for (136, 144, 108, 112)")
    parser.add_argument("--seed", type=int, default=0, help="simulator seed")
    parser.add_argument("--speed", type=float, default=20.0, help="simulator speed factor")
    parser.add_argument("--json", action="store_true", help="one JSON object per check instead of the table")
    parser.add_argument("-v", "--verbose", action="store_true", help="log state changes to stderr")
    return parser


def _soak_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m hw_tests soak", description="Link soak over a noisy pty.")
    parser.add_argument("--commands", type=int, default=1000)
    parser.add_argument("--corrupt", type=_rate, default=0.0, help="per-byte corruption rate, both directions")
    parser.add_argument("--drop", type=_rate, default=0.0, help="per-frame loss rate, both directions")
    parser.add_argument("--duplicate", type=_rate, default=0.0, help="per-frame duplication rate")
    parser.add_argument("--delay", type=_rate, default=0.0, help="per-frame 20 ms delay rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object (the default is key: value lines)")
    return parser


def _serve_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m hw_tests serve",
        description="Run the simulated table MCU on a pty: prints the device path, serves until stdin closes.",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed", type=float, default=1.0, help="speed factor of the mechanism")
    return parser


def serve(args: argparse.Namespace) -> int:
    """A simulator other programs (``mjtable``, a bench, a technician's terminal) open by its pty path."""
    with McuSimulator(seed=args.seed, speed=args.speed) as sim:
        print(sim.path, flush=True)
        sys.stdin.read()
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:
        return serve(_serve_parser().parse_args(argv[1:]))
    if argv[:1] == ["soak"]:
        args = _soak_parser().parse_args(argv[1:])
        result = soak(args.commands, args.corrupt, args.drop, args.seed, args.duplicate, args.delay)
        print(json.dumps(result) if args.json else "\n".join(f"{key}: {value}" for key, value in result.items()))
        return 0 if result["lost"] == 0 and result["duplicates"] == 0 else 1
    args = _suite_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(name)s: %(message)s")
    try:
        mcu = McuConfig(tile_set=args.tile_set)
        if args.port:
            with Table.connect(BridgeConfig(link=LinkConfig(port=args.port), mcu=mcu)) as table:
                outcomes = run_suite(table, None, args.allow_motion)
        else:
            with simulated_table(BridgeConfig(mcu=mcu), seed=args.seed, speed=args.speed) as (sim, table):
                outcomes = run_suite(table, sim, allow_motion=True)
    except BridgeError as exc:
        print(json.dumps({"error": str(exc)}) if args.json else f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        for outcome in outcomes:
            print(json.dumps(outcome.to_dict()))
    else:
        print(format_table(outcomes))
    return 1 if any(outcome.status == "FAIL" for outcome in outcomes) else 0
