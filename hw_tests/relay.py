"""A line between the Pi side and an MCU's serial port: noisy on demand, and a wire that can be cut.

The firmware builds take no line noise of their own: this relay sits between the Link (which opens ``relay.path``,
a pty of the relay's) and the firmware's port, and applies ``Noise`` as the Python simulator does to its own
traffic — host → MCU: bytes corrupted, frames dropped; MCU → host: frames dropped, corrupted, duplicated or
delayed — drawn from a random source seeded as the simulator's (``seed + 1``). ``silence_host`` drops what the
host sends for a while (a cut wire or a hung host), so the firmware's host-silence watchdog can be seen to trip.
Quiet, it passes bytes through as they come.
"""

from __future__ import annotations

import contextlib
import heapq
import os
import random
import select
import threading
import time
import tty

from firmware_bridge.framing import FrameDecoder
from hw_tests.errors import HarnessError
from hw_tests.faults import QUIET, Noise


class NoisyLine:
    """Relays bytes between ``relay.path`` (for the Link) and the MCU port ``mcu_path``; ``close()`` ends it."""

    def __init__(self, mcu_path: str, noise: Noise = QUIET, seed: int = 0) -> None:
        try:
            self._mcu = os.open(mcu_path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError as exc:
            raise HarnessError(f"the MCU's port {mcu_path!r}: {exc.strerror}") from None
        with contextlib.suppress(OSError):
            tty.setraw(self._mcu)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self._rng = random.Random(seed + 1)
        self._lock = threading.Lock()
        self._noise = noise
        self._silent_until = 0.0
        self._to_mcu = FrameDecoder()
        self._to_host = FrameDecoder()
        self._delayed: list[tuple[float, int, bytes]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="noisy-line", daemon=True)
        self._thread.start()

    def set_noise(self, noise: Noise) -> None:
        with self._lock:
            self._noise = noise

    def silence_host(self, seconds: float) -> None:
        """Nothing the host sends reaches the MCU for ``seconds`` (0 reconnects at once)."""
        with self._lock:
            self._silent_until = time.monotonic() + seconds

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        for fd in (self._master, self._slave, self._mcu):
            with contextlib.suppress(OSError):
                os.close(fd)

    # -- the relay thread ------------------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            wait = 0.05
            if self._delayed:
                wait = min(wait, max(self._delayed[0][0] - time.monotonic(), 0.0))
            try:
                readable, _, _ = select.select([self._master, self._mcu], [], [], wait)
            except (OSError, ValueError):
                return
            with self._lock:
                if self._master in readable:
                    self._from_host(self._read(self._master))
                if self._mcu in readable:
                    self._from_mcu(self._read(self._mcu))
                self._flush_delayed()

    def _read(self, fd: int) -> bytes:
        try:
            return os.read(fd, 4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:  # the other end went away: the relay ends with it
            self._stop.set()
            return b""

    def _from_host(self, data: bytes) -> None:
        if time.monotonic() < self._silent_until:
            return
        noise = self._noise
        if noise.quiet:
            self._write(self._mcu, data)
            return
        for frame in self._to_mcu.feed(data):
            if noise.drop and self._rng.random() < noise.drop:
                continue
            self._write(self._mcu, self._corrupt(frame.encode()))

    def _from_mcu(self, data: bytes) -> None:
        noise = self._noise
        if noise.quiet:
            self._write(self._master, data)
            return
        rng = self._rng
        for frame in self._to_host.feed(data):
            if rng.random() < noise.drop:
                continue
            out = self._corrupt(frame.encode())
            if rng.random() < noise.duplicate:
                out += out
            if rng.random() < noise.delay:
                heapq.heappush(self._delayed, (time.monotonic() + noise.delay_s, len(self._delayed), out))
                continue
            self._write(self._master, out)

    def _corrupt(self, data: bytes) -> bytes:
        rate = self._noise.corrupt
        if not rate:
            return data
        out = bytearray(data)
        for index in range(len(out)):
            if self._rng.random() < rate:
                out[index] ^= self._rng.randrange(1, 256)
        return bytes(out)

    def _flush_delayed(self) -> None:
        now = time.monotonic()
        while self._delayed and self._delayed[0][0] <= now:
            self._write(self._master, heapq.heappop(self._delayed)[2])

    def _write(self, fd: int, data: bytes) -> None:
        with contextlib.suppress(OSError):  # nobody reading: a UART drops what it cannot send
            os.write(fd, data)
