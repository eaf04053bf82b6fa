"""The table firmware (``firmware/``, C) run for the hardware suite in place of the Python simulator.

``FirmwareMcu`` builds a board with ``make -C firmware <board>``, starts it, finds its two ports (the host link and
the side channel of the simulated mechanism, ``firmware/src/sim/simchan.c``), puts a ``NoisyLine`` in front of the
host link and offers what the suite uses of ``McuSimulator``: ``path``, ``inject``, ``reset``, ``reseed``,
``press_key``, ``silence_host``, ``set_noise``, ``crash``, ``tokens()``, ``watchdog_trips``,
``resets_with_outputs_on``, ``model.lamps``. ``MJTABLE_FIRMWARE_DIR`` names another copy of ``firmware/`` to build
and run (the mutation run's mutants). A board is
started by a launcher of ``LAUNCHERS`` (``host``: a Linux process on two ptys; ``qemu``: the Cortex-M build in
QEMU, ``hw_tests.qemu``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import select
import shutil
import subprocess
import threading
import time
import tty
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.framing import Frame, FrameDecoder
from firmware_bridge.messages import NO_SIDE, LampPattern, MsgType, ResetReason
from hw_tests.errors import HarnessError
from hw_tests.faults import NO_FAULTS, QUIET, FaultPlan, Noise
from hw_tests.qemu import QemuBoard
from hw_tests.relay import NoisyLine

FIRMWARE_DIR = Path(os.environ.get("MJTABLE_FIRMWARE_DIR") or Path(__file__).resolve().parent.parent / "firmware")
START_TIMEOUT_S = 20.0  # QEMU takes a second or two to boot and pass bytes
REQUEST_TIMEOUT_S = 2.0

# The side channel's message types (firmware/src/sim/simchan.c).
SPEED, FAULTS, RESET, KEY, QUERY, SEED, CRASH = 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46
DONE, EXEC, WATCHDOG, STATE = 0xC0, 0xC1, 0xC2, 0xC3
MAX_JAMS = 4
TOP_SPEED = 1000
"""The simulated mechanism's fastest (SPEED takes up to 1,000,000 thousandths)."""
MAX_KEY_WORDS = 32
KEY_WORDS_PER_FRAME = 13


@dataclass
class Launched:
    """A started firmware: its process and the paths of its host link and side channel."""

    process: subprocess.Popen[bytes]
    link_path: str
    sim_path: str
    stop: Callable[[], None] | None = None
    """How to end it, when closing its stdin does not (QEMU); ``stop_process`` otherwise."""


def build(board: str) -> None:
    """``make -C firmware <board>``; a HarnessError carries make's last lines when it fails."""
    if shutil.which("make") is None:
        raise HarnessError("building the firmware: 'make' is not installed (Debian: apt-get install make gcc)")
    done = subprocess.run(["make", "-s", "-C", str(FIRMWARE_DIR), board], capture_output=True, text=True)
    if done.returncode:
        tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        raise HarnessError(f"building the {board} firmware failed: {tail}")


def read_lines(process: subprocess.Popen[bytes], count: int, timeout: float) -> list[str]:
    """The first ``count`` lines the process prints, within ``timeout`` seconds."""
    assert process.stdout is not None
    fd, data, deadline = process.stdout.fileno(), b"", time.monotonic() + timeout
    while data.count(b"\n") < count:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise HarnessError(f"the firmware printed no port within {timeout:.0f} s")
        chunk = os.read(fd, 4096)
        if not chunk:
            raise HarnessError(f"the firmware exited (status {process.wait()}) before printing its ports")
        data += chunk
    return data.decode("ascii", "replace").splitlines()[:count]


def launch_host(board_id: str) -> Launched:
    """The host board: ``firmware/build/host/mjtable-fw`` prints ``link PATH`` and ``sim PATH``."""
    build("host")
    command = [str(FIRMWARE_DIR / "build/host/mjtable-fw"), "--board-id", board_id]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        ports = dict(line.split(" ", 1) for line in read_lines(process, 2, START_TIMEOUT_S))
        return Launched(process, ports["link"], ports["sim"])
    except (HarnessError, KeyError, ValueError) as exc:
        stop_process(process)
        raise HarnessError(f"the host firmware did not start: {exc}") from None


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """End of stdin asks the firmware to exit; a firmware that does not is terminated, then killed."""
    with contextlib.suppress(OSError, ValueError):
        if process.stdin is not None:
            process.stdin.close()
    try:
        process.wait(timeout=2.0)
    except subprocess.TimeoutExpired:
        process.terminate()
        try:
            process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stdout is not None:
        process.stdout.close()


def launch_qemu(board_id: str) -> Launched:
    """The qemu board in ``qemu-system-arm`` (``hw_tests.qemu``); its board id is the firmware's own, QEMU-F405."""
    build("qemu")
    board = QemuBoard(FIRMWARE_DIR / "build/qemu/mjtable-fw.elf").start()
    return Launched(board.process, board.path, board.side_path, board.close)


LAUNCHERS: dict[str, Callable[[str], Launched]] = {"host": launch_host, "qemu": launch_qemu}


def _speed_milli(speed: float) -> bytes:
    """The side channel's SPEED payload."""
    return round(speed * 1000).to_bytes(4, "big")


def seed_words(seed: int | str) -> list[int]:
    """The 32-bit key words CPython's ``random.Random(seed)`` seeds MT19937 with, least significant first."""
    if isinstance(seed, str):
        raw = seed.encode()
        number = int.from_bytes(raw + hashlib.sha512(raw).digest(), "big")
    else:
        number = abs(seed)
    words = [(number >> (32 * index)) & 0xFFFFFFFF for index in range(max(1, (number.bit_length() + 31) // 32))]
    if len(words) > MAX_KEY_WORDS:
        raise HarnessError(f"seed: at most {MAX_KEY_WORDS * 32} bits (a str of at most 64 bytes), got {seed!r}")
    return words


def encode_faults(plan: FaultPlan) -> bytes:
    """The side channel's FAULTS payload of a FaultPlan; a HarnessError names what the firmware cannot take."""
    if len(plan.jams) > MAX_JAMS:
        raise HarnessError(f"FaultPlan.jams: the firmware takes at most {MAX_JAMS} jams, got {len(plan.jams)}")
    payload = bytearray([len(plan.jams)])
    for jam in plan.jams:
        if not 0 <= jam.after_stacks <= 255:
            raise HarnessError(f"Jam.after_stacks: expected 0-255, got {jam.after_stacks}")
        payload += bytes((int(jam.mechanism), jam.side, jam.after_stacks))
    payload += bytes(3 * (MAX_JAMS - len(plan.jams)))
    payload.append(NO_SIDE if plan.short_side is None else plan.short_side)
    reset_ms = 0
    if plan.reset is not None:
        reset_ms = round(plan.reset.after_s * 1000)
        if not 0 <= reset_ms <= 0xFFFF:
            raise HarnessError(f"ResetDuring.after_s: expected 0 to 65.535 s, got {plan.reset.after_s}")
    payload.append(0xFF if plan.reset is None else int(plan.reset.phase))
    payload += reset_ms.to_bytes(2, "big")
    payload.append(FaultPlan(driver_faults=plan.driver_faults).driver_mask())
    payload.append(FaultPlan(overcurrent=plan.overcurrent).driver_mask())
    return bytes(payload)


class SideChannel:
    """The simulated mechanism's side channel: requests answered by DONE, and the firmware's events."""

    def __init__(self, path: str) -> None:
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        except OSError as exc:
            raise HarnessError(f"the firmware's side channel {path!r}: {exc.strerror}") from None
        with contextlib.suppress(OSError):
            tty.setraw(self._fd)
        self._decoder = FrameDecoder()
        self._cv = threading.Condition()
        self._answers: list[Frame] = []
        self._request_lock = threading.Lock()
        self.executed: list[tuple[int, int, int]] = []
        """(seq, type, token) of every sequenced command the firmware ran, in order."""
        self.watchdog_trips = 0
        self.watchdog_at: list[float] = []
        """When each WATCHDOG event arrived (time.monotonic): the trip as seen from outside the firmware."""
        self.watchdog_silences: list[float] = []
        """How long the host had been silent at each trip, in seconds of the firmware's own clock."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fw-sidechannel", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if not select.select([self._fd], [], [], 0.05)[0]:
                    continue
                data = os.read(self._fd, 4096)
            except (OSError, ValueError):
                return
            for frame in self._decoder.feed(data):
                with self._cv:
                    if frame.type == EXEC and len(frame.payload) == 4:
                        token = int.from_bytes(frame.payload[2:4], "big")
                        self.executed.append((frame.payload[0], frame.payload[1], token))
                    elif frame.type == WATCHDOG:
                        self.watchdog_trips += 1
                        self.watchdog_at.append(time.monotonic())
                        self.watchdog_silences.append(int.from_bytes(frame.payload[:2], "big") / 1000)
                    else:
                        self._answers.append(frame)
                    self._cv.notify_all()

    def request(self, kind: int, payload: bytes = b"", timeout: float = REQUEST_TIMEOUT_S, retry_s: float = 0) -> bytes:
        """Send one message and wait for its DONE; a QUERY returns the STATE payload. ``retry_s`` resends it at that
        interval (the first message to a board still booting)."""
        data = Frame(0, kind, payload).encode()
        with self._request_lock:
            deadline = time.monotonic() + timeout
            with self._cv:
                self._answers.clear()
            while True:
                os.write(self._fd, data)
                resend = time.monotonic() + (retry_s or timeout)
                with self._cv:
                    self._cv.wait_for(lambda: self._done(kind), max(min(resend, deadline) - time.monotonic(), 0))
                    done = self._done(kind)
                    if done is not None:
                        state = next((f.payload for f in self._answers if f.type == STATE), b"")
                        self._answers.clear()
                        break
                if time.monotonic() >= deadline:
                    raise HarnessError(f"the firmware did not answer side-channel message 0x{kind:02X} in {timeout} s")
        if done.payload[1]:
            raise HarnessError(f"the firmware refused side-channel message 0x{kind:02X} (result {done.payload[1]})")
        return state

    def _done(self, kind: int) -> Frame | None:
        return next((f for f in self._answers if f.type == DONE and f.payload[:1] == bytes((kind,))), None)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        with contextlib.suppress(OSError):
            os.close(self._fd)


@dataclass(frozen=True)
class FirmwareState:
    """What the firmware's side channel reports beyond the snapshot: lamps, dealer, link counters."""

    lamps: dict[int, tuple[LampPattern, int]]
    dealer: tuple[int, int]
    duplicates_dropped: int
    naks_sent: int
    watchdog_trips: int
    resets_with_outputs_on: int
    """Reboots that found a motor still driven: nothing (the hard-fault handler) made the outputs safe first."""
    max_snapshot_gap_s: float
    """The longest time between two snapshots the firmware sent, on its own clock (since the gaps were reset)."""
    max_poll_gap_s: float
    outputs_on: int
    """The simulated mechanism's motor outputs driven now (1 << motor): what the motors do, not what the core thinks."""

    @classmethod
    def decode(cls, payload: bytes) -> FirmwareState:
        lamps = {
            lamp: (LampPattern(payload[3 * lamp]), int.from_bytes(payload[3 * lamp + 1 : 3 * lamp + 3], "big"))
            for lamp in range(5)
        }
        numbers = [int.from_bytes(payload[index : index + 2], "big") for index in (17, 19, 21, 23, 25, 27, 29)]
        return cls(lamps, (payload[15], payload[16]), *numbers[:4], numbers[4] / 1000, numbers[5] / 1000, numbers[6])


class _ModelView:
    """``sim.model`` of the suite: the lamps and dealer indicator as the firmware holds them, read on access."""

    def __init__(self, mcu: FirmwareMcu) -> None:
        self._mcu = mcu

    @property
    def lamps(self) -> dict[int, tuple[LampPattern, int]]:
        return self._mcu.state().lamps

    @property
    def dealer(self) -> tuple[int, int]:
        return self._mcu.state().dealer


class FirmwareMcu:
    """A firmware board with its simulated mechanism, standing in for ``McuSimulator``; ``start()`` boots it."""

    def __init__(
        self,
        board: str = "host",
        *,
        seed: int = 0,
        speed: float = 1.0,
        faults: FaultPlan = NO_FAULTS,
        noise: Noise = QUIET,
        board_id: str = "FW-SIM-0001",
    ) -> None:
        if board not in LAUNCHERS:
            raise HarnessError(f"firmware board: expected one of {', '.join(sorted(LAUNCHERS))}, got {board!r}")
        if not 0.01 <= speed <= TOP_SPEED:
            raise HarnessError(f"speed: expected a number from 0.01 to {TOP_SPEED}, got {speed}")
        self.board = board
        self.seed = seed
        self.speed = speed
        self.noise = noise
        self._faults = faults
        self._board_id = board_id
        self._launched: Launched | None = None
        self._channel: SideChannel | None = None
        self._line: NoisyLine | None = None
        self.path = ""
        self.model = _ModelView(self)

    # -- life cycle ------------------------------------------------------------------------------------------

    def start(self) -> FirmwareMcu:
        try:
            self._launched = LAUNCHERS[self.board](self._board_id)
            self._channel = SideChannel(self._launched.sim_path)
            self._channel.request(SPEED, _speed_milli(self.speed), timeout=START_TIMEOUT_S, retry_s=0.2)
            self.reseed(self.seed + 2)  # as McuSimulator seeds its mechanism
            self.inject(self._faults)
            self._line = NoisyLine(self._launched.link_path, self.noise, self.seed)
            self.path = self._line.path
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        if self._line is not None:
            self._line.close()
            self._line = None
        if self._channel is not None:
            self._channel.close()
            self._channel = None
        if self._launched is not None:
            if self._launched.stop is not None:
                self._launched.stop()
            else:
                stop_process(self._launched.process)
            self._launched = None

    def __enter__(self) -> FirmwareMcu:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def channel(self) -> SideChannel:
        if self._channel is None:
            raise HarnessError("the firmware is not running: start() it first")
        return self._channel

    # -- what the suite asks of a simulator ------------------------------------------------------------------

    def reset(self, reason: ResetReason = ResetReason.WATCHDOG) -> None:
        """Reboot the firmware now: configuration and sequence state lost, the mechanism where it stands."""
        self.channel.request(RESET, bytes((int(reason),)))

    def reseed(self, seed: int | str) -> None:
        """The mechanism's randomness (dice, timing jitter) as ``random.Random(seed)`` from now on."""
        words = seed_words(seed)
        for index in range(0, len(words), KEY_WORDS_PER_FRAME):
            part = words[index : index + KEY_WORDS_PER_FRAME]
            payload = bytes((len(words), index)) + b"".join(word.to_bytes(4, "big") for word in part)
            self.channel.request(SEED, payload)

    def inject(self, faults: FaultPlan) -> None:
        """Mechanical faults for what the table does next (replaces the previous plan)."""
        self.channel.request(FAULTS, encode_faults(faults))
        self._faults = faults

    @contextlib.contextmanager
    def flat_out(self) -> Iterator[None]:
        """The mechanism at its top speed (1000) and with no fault injected, then as it was: for doing again at once
        what a restarted board forgot (``controller.service.tableside``)."""
        faults = self._faults
        self.channel.request(SPEED, _speed_milli(TOP_SPEED))
        self.channel.request(FAULTS, encode_faults(NO_FAULTS))
        try:
            yield
        finally:
            self.channel.request(SPEED, _speed_milli(self.speed))
            self.inject(faults)

    def crash(self) -> None:
        """A hard fault now (an undefined instruction): the board's handler must make the outputs safe, then its
        watchdog resets it."""
        self.channel.request(CRASH)

    @property
    def resets_with_outputs_on(self) -> int:
        return self.state().resets_with_outputs_on

    @property
    def outputs_on(self) -> int:
        """The motor outputs the simulated mechanism has driven now (1 << motor, as ``hw_tests.mechanism.Motor``)."""
        return self.state().outputs_on

    def press_key(self, seat: int, held: bool = True) -> None:
        if not 0 <= seat < 4:
            raise HarnessError(f"press_key seat: expected 0-3, got {seat}")
        self.channel.request(KEY, bytes((seat, held)))

    def silence_host(self, seconds: float) -> None:
        """Cut the wire from the host for ``seconds``: the firmware's watchdog should trip."""
        self._running_line().silence_host(seconds)

    def set_noise(self, noise: Noise) -> None:
        self.noise = noise
        self._running_line().set_noise(noise)

    def _running_line(self) -> NoisyLine:
        if self._line is None:
            raise HarnessError("the firmware is not running: start() it first")
        return self._line

    def state(self, reset_gaps: bool = False) -> FirmwareState:
        return FirmwareState.decode(self.channel.request(QUERY, b"\x01" if reset_gaps else b""))

    def gaps(self, reset: bool = False) -> tuple[float, float]:
        """The longest gaps between two snapshots and between two polls (seconds, the MCU's own clock) since the
        last reset; ``reset`` starts over after reading them."""
        state = self.state(reset_gaps=reset)
        return state.max_snapshot_gap_s, state.max_poll_gap_s

    @property
    def executed(self) -> list[tuple[int, int, int]]:
        return list(self._caught_up().executed)

    @property
    def execution_counts(self) -> Counter[int]:
        return Counter(seq for seq, _type, _token in self._caught_up().executed)

    def _caught_up(self) -> SideChannel:
        """The side channel once it has read every event the firmware wrote before now. A command's EXEC travels
        on the side channel and its ACK on the host link, so the ACK can arrive first (a soak once counted its last
        NOP as lost); the firmware answers a QUERY after the events it wrote before it, in order."""
        self.channel.request(QUERY)
        return self.channel

    @property
    def watchdog_trips(self) -> int:
        return self._caught_up().watchdog_trips

    @property
    def watchdog_silences(self) -> list[float]:
        """How long the host had been silent at each host-silence trip (seconds, the firmware's clock)."""
        return list(self._caught_up().watchdog_silences)

    @property
    def duplicates_dropped(self) -> int:
        return self.state().duplicates_dropped

    def tokens(self) -> list[int]:
        """The tokens of the NOP commands executed, in order: the link tests compare it with what was sent."""
        return [token for _seq, kind, token in self.executed if kind == MsgType.NOP]
