"""The firmware's Cortex-M build (board ``qemu``) running in ``qemu-system-arm -M netduinoplus2``, on two ptys.

QEMU maps its first ``-serial pty`` to USART1 (the host link) and the second to USART2 (the side channel of the
simulated build) and prints ``char device redirected to /dev/pts/N (label serialK)`` for each. Its pty backend
passes bytes only once it has noticed that someone opened the pty, and when the last opener closes it, it stops
again until its next poll (about a second later). So this keeps both ptys open itself for QEMU's whole life (it
never reads them after the start: the link and the side channel do), and ``start`` returns only when the host link
has passed a byte (the firmware's periodic snapshot): a link opened then handshakes at once.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import subprocess
import termios
import time
import tty
from pathlib import Path

from hw_tests.errors import HarnessError

MACHINE = "netduinoplus2"  # STM32F405, Cortex-M4: USART1 at 0x40011000 on the first -serial
PTY_LINE = re.compile(r"char device redirected to (/dev/pts/\d+) \(label serial(\d)\)")
START_TIMEOUT_S = 10.0


class QemuBoard:
    """``qemu-system-arm`` running ``elf``; ``path`` is the host link's pty, ``side_path`` the side channel's."""

    def __init__(self, elf: Path, *, timeout_s: float = START_TIMEOUT_S) -> None:
        self.elf = elf
        self.timeout_s = timeout_s
        self.path = ""
        self.side_path = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._holders: list[int] = []
        self._said = b""  # what QEMU printed so far

    @property
    def process(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            raise HarnessError("QEMU is not running: start() it first")
        return self._process

    def command(self) -> list[str]:
        qemu = shutil.which("qemu-system-arm")
        if qemu is None:
            raise HarnessError("qemu-system-arm not found: install Debian's qemu-system-arm")
        return [qemu, "-M", MACHINE, "-nographic", "-nodefaults", "-monitor", "none",
                "-serial", "pty", "-serial", "pty", "-kernel", str(self.elf)]  # fmt: skip

    def start(self) -> QemuBoard:
        if not self.elf.is_file():
            raise HarnessError(f"the QEMU firmware {self.elf} is missing: build it with make -C firmware qemu")
        self._process = subprocess.Popen(
            self.command(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + self.timeout_s
            paths = self._pty_paths(deadline)
            self.path, self.side_path = paths[0], paths[1]
            for path in (self.path, self.side_path):
                self._hold(path)
            self._first_byte(self._holders[0], deadline)
        except BaseException:
            self.close()
            raise
        return self

    def _output(self, wait_s: float = 0.0) -> str:
        """What QEMU printed so far (read from its pipe for up to ``wait_s``; it prints little after its ptys)."""
        pipe = self.process.stdout
        assert pipe is not None
        while select.select([pipe], [], [], wait_s)[0]:
            chunk = os.read(pipe.fileno(), 4096)
            if not chunk:
                break
            self._said += chunk
            wait_s = 0.0
        return self._said.decode(errors="replace")

    def _pty_paths(self, deadline: float) -> dict[int, str]:
        while True:
            found = {int(m.group(2)): m.group(1) for m in PTY_LINE.finditer(self._output(0.02))}
            if len(found) == 2:
                return found
            self._check_running()
            if time.monotonic() > deadline:
                raise HarnessError(f"qemu-system-arm printed no pty paths within {self.timeout_s:.0f} s")

    def _hold(self, path: str) -> None:
        """Open a pty so QEMU sees it connected, in raw mode at once (a fresh pty echoes what it receives)."""
        try:
            fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError as exc:
            self._check_running()  # gone with QEMU: say why QEMU went
            raise HarnessError(f"QEMU's pty {path}: {exc.strerror}") from None
        self._holders.append(fd)
        with contextlib.suppress(termios.error):  # QEMU gone meanwhile: _first_byte says why
            tty.setraw(fd)

    def _check_running(self) -> None:
        """QEMU that exited (an image it cannot load, a machine it does not know) is one line: its last."""
        process = self.process
        if process.poll() is not None:
            lines = [line for line in self._output().splitlines() if line.strip() and not PTY_LINE.search(line)]
            said = next((line for line in lines if line.startswith("qemu")), lines[-1] if lines else "no output")
            raise HarnessError(f"qemu-system-arm exited with status {process.returncode}: {said}")

    def _first_byte(self, fd: int, deadline: float) -> None:
        """Wait until the firmware's bytes come through the host link's pty (its snapshots every 200 ms)."""
        while time.monotonic() < deadline:
            self._check_running()
            readable, _, _ = select.select([fd], [], [], 0.05)
            if readable:
                with contextlib.suppress(BlockingIOError):
                    if os.read(fd, 4096):
                        return
        raise HarnessError(f"the QEMU firmware sent nothing on {self.path} within {self.timeout_s:.0f} s")

    def close(self) -> None:
        """Stop QEMU (SIGTERM, then SIGKILL after 5 s) and release the ptys."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for fd in self._holders:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._holders = []
        if process is not None and process.stdout is not None:
            process.stdout.close()

    def __enter__(self) -> QemuBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
