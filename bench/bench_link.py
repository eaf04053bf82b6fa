"""Command round trip and commands per second of the MCU link over a pty, against the wire time of its frames.

The physical limit of one stop-and-wait command at 115200 baud is the time its frame and its ACK take on the
wire (10 bits a byte). A pty moves bytes instantly, so the ratio p99 round trip / wire time says how much the
host stack, the simulator and the scheduler add on top; the issue's target is p99 within 2x the wire time. The
simulator runs in its own process (``python -m hw_tests serve``), as the MCU is its own chip: in the host's
process it would share the GIL and add tails no real table has. A bare echo process (the same bytes bounced back,
no protocol) is measured in the same run as the floor of what the pty and the scheduler allow. A command wakes
three threads (the simulator, the host's reader, the caller) against the echo's two, so on a loaded machine the
p99 shows the scheduler's latency (a few ms) rather than the link's; the load average is printed with the result.

    python bench/bench_link.py [--commands 3000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import tty
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import serial

from firmware_bridge.config import BridgeConfig, LinkConfig
from firmware_bridge.messages import Ack, MsgType, Nop, Result
from firmware_bridge.table import Table

REPO = Path(__file__).resolve().parents[1]
BAUD = 115200
BITS_PER_BYTE = 10
REQUEST = Nop(1).frame(1).encode()
ANSWER = Ack(MsgType.NOP, Result.OK).frame(1).encode()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def serve_echo() -> None:
    """The echo process: a pty whose every request-sized chunk is answered with an ACK-sized one."""
    master, slave = os.openpty()
    tty.setraw(slave)
    print(os.ttyname(slave), flush=True)
    pending = b""
    while True:
        try:
            pending += os.read(master, 256)
        except OSError:
            return
        while len(pending) >= len(REQUEST):
            pending = pending[len(REQUEST) :]
            os.write(master, ANSWER)


def with_process(command: list[str], run: Callable[[str], list[float]]) -> list[float]:
    """Start a process that prints a pty path, run ``run(path)`` against it, then kill the process."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        return run(process.stdout.readline().strip())
    finally:
        process.kill()
        process.wait()


def link_round_trips(path: str, commands: int) -> list[float]:
    with Table.connect(BridgeConfig(link=LinkConfig(port=path))) as table:
        for token in range(100):  # warm up: the RTO estimate and the code paths
            table.nop(token)
        times = []
        for token in range(commands):
            start = time.perf_counter()
            table.nop(token)
            times.append(time.perf_counter() - start)
    return times


def echo_round_trips(path: str, commands: int) -> list[float]:
    port = serial.Serial(path, BAUD, timeout=1.0)
    times = []
    try:
        for _ in range(commands):
            start = time.perf_counter()
            port.write(REQUEST)
            port.read(len(ANSWER))
            times.append(time.perf_counter() - start)
    finally:
        port.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        serve_echo()
        return
    wire_s = (len(REQUEST) + len(ANSWER)) * BITS_PER_BYTE / BAUD
    simulator = [sys.executable, "-m", "hw_tests", "serve", "--speed", "20"]
    link = with_process(simulator, lambda path: link_round_trips(path, args.commands))
    echo = with_process([sys.executable, __file__, "--echo-server"], lambda path: echo_round_trips(path, args.commands))
    p99 = percentile(link, 0.99)
    result = {
        "commands": args.commands,
        "frame_bytes": len(REQUEST) + len(ANSWER),
        "wire_ms": round(wire_s * 1000, 3),
        "rtt_p50_ms": round(percentile(link, 0.5) * 1000, 3),
        "rtt_p99_ms": round(p99 * 1000, 3),
        "p99_over_wire": round(p99 / wire_s, 3),
        "commands_per_s": round(len(link) / sum(link)),
        "wire_limit_per_s": round(1 / wire_s),
        "rate_over_wire_limit": round(wire_s * len(link) / sum(link), 3),
        "echo_p99_ms": round(percentile(echo, 0.99) * 1000, 3),
        "p99_over_echo_p99": round(p99 / percentile(echo, 0.99), 2),
        "target_met": p99 <= 2 * wire_s,
        "load_avg_1m": round(os.getloadavg()[0], 2),  # the tail follows the machine's load: three wakeups a trip
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
