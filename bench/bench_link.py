"""Command round trip and commands per second of the MCU link over a pty, against the wire time of its frames.

The physical limit of one stop-and-wait command at 115200 baud is the time its frame and its ACK take on the
wire (10 bits a byte). A pty moves bytes instantly, so the ratio p99 round trip / wire time says how much the
host stack, the simulator and the scheduler add on top; the issue's target is p99 within 2x the wire time. A
bare pty echo (the same bytes bounced back by a thread, no protocol) is measured in the same run as the floor
of what any Python stack can do here.

    python bench/bench_link.py [--commands 3000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import serial

from firmware_bridge.messages import Ack, MsgType, Nop, Result
from hw_tests.harness import simulated_table

BAUD = 115200
BITS_PER_BYTE = 10


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def link_round_trips(commands: int) -> list[float]:
    with simulated_table(seed=0) as (_sim, table):
        for token in range(100):  # warm up: the RTO estimate and the code paths
            table.nop(token)
        times = []
        for token in range(commands):
            start = time.perf_counter()
            table.nop(token)
            times.append(time.perf_counter() - start)
    return times


def echo_round_trips(commands: int, request: bytes, answer: bytes) -> list[float]:
    """The same exchange as bytes only: a thread reads the request on the master side and writes the answer."""
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def echo() -> None:
        while not stop.is_set():
            got = b""
            while len(got) < len(request) and not stop.is_set():
                try:
                    got += os.read(master, len(request) - len(got))
                except OSError:
                    return
            os.write(master, answer)

    port = serial.Serial(os.ttyname(slave), BAUD, timeout=1.0)
    thread = threading.Thread(target=echo, daemon=True)
    thread.start()
    times = []
    try:
        for _ in range(commands):
            start = time.perf_counter()
            port.write(request)
            port.read(len(answer))
            times.append(time.perf_counter() - start)
    finally:
        stop.set()
        port.write(request)  # wake the echo thread so it sees the stop
        thread.join(1.0)
        port.close()
        os.close(master)
        os.close(slave)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    request = Nop(1).frame(1).encode()
    answer = Ack(MsgType.NOP, Result.OK).frame(1).encode()
    wire_s = (len(request) + len(answer)) * BITS_PER_BYTE / BAUD
    link = link_round_trips(args.commands)
    echo = echo_round_trips(args.commands, request, answer)
    result = {
        "commands": args.commands,
        "frame_bytes": len(request) + len(answer),
        "wire_ms": round(wire_s * 1000, 3),
        "rtt_p50_ms": round(percentile(link, 0.5) * 1000, 3),
        "rtt_p99_ms": round(percentile(link, 0.99) * 1000, 3),
        "p99_over_wire": round(percentile(link, 0.99) / wire_s, 3),
        "commands_per_s": round(len(link) / sum(link)),
        "wire_limit_per_s": round(1 / wire_s),
        "rate_over_wire_limit": round(wire_s * len(link) / sum(link), 3),
        "echo_p99_ms": round(percentile(echo, 0.99) * 1000, 3),
        "p99_over_echo_p99": round(percentile(link, 0.99) / percentile(echo, 0.99), 2),
        "target_met": percentile(link, 0.99) <= 2 * wire_s,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
