"""The table MCU simulator: the executable twin of PROTOCOL.md, serving a real pty.

One thread owns the master side of ``os.openpty()``; the host opens the slave path (``sim.path``) with pyserial
as it would open ``/dev/ttyAMA0``. The thread decodes host frames, runs them through the MCU rules of PROTOCOL.md
§3 (sequence, duplicate drop, NAK, handshake, configuration, emergency stop ahead of everything, host-silence
watchdog), drives the mechanism model, and sends snapshots periodically and on change. Line noise is applied in
both directions from the seeded random source, so a run is reproducible from its seed (timing aside).

Like the firmware's simulated boards it has a watchdog of WATCHDOG_S: DIAGNOSTIC 15 (the watchdog test) and
``crash()`` (a hard fault: the outputs made safe first) leave it silent that long, then it boots with reset reason
WATCHDOG. It reads at most READ_BUDGET bytes per pass, so a flood of bytes never holds its timers up.
"""

from __future__ import annotations

import contextlib
import heapq
import logging
import os
import random
import select
import threading
import time
import tty
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from firmware_bridge.errors import ProtocolError
from firmware_bridge.framing import FrameDecoder
from firmware_bridge.messages import (
    DIAG_WATCHDOG,
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    Ack,
    Capability,
    Configure,
    EmergencyStop,
    FaultKind,
    Identify,
    Identity,
    Message,
    MsgType,
    Nak,
    NakReason,
    ResetReason,
    Result,
    Sensor,
    Snapshot,
    StateFlag,
    StatusRequest,
    decode,
    message_class,
)
from hw_tests.faults import NO_FAULTS, QUIET, FaultPlan, Noise
from hw_tests.mechanism import RebootRequested, TableModel, Timings

log = logging.getLogger(__name__)

FIRMWARE = "mjtable-sim 1.0"
CAPABILITIES = Capability.TWO_SETS | Capability.DICE | Capability.LAMPS | Capability.DIAGNOSTIC
CAPABILITIES |= Capability.TILE_COUNT | Capability.JAM_DETECT
IDLE_RESYNC_S = 0.005  # a partial frame that has not grown for this long had a corrupted length
WATCHDOG_S = 1.0  # the emulated watchdog of the firmware's host and qemu boards (the chip's: 0.25 s)
READ_BUDGET = 4096  # bytes read from the host per pass, then the timers and snapshots


@dataclass(frozen=True)
class Executed:
    """One command the MCU ran, for the tests: its sequence number, the message, and when."""

    seq: int
    message: Message
    at: float


class McuSimulator:
    """A simulated table MCU on a pty; ``start()`` boots it, ``close()`` stops its thread and closes the pty."""

    def __init__(
        self,
        *,
        seed: int = 0,
        speed: float = 1.0,
        faults: FaultPlan = NO_FAULTS,
        noise: Noise = QUIET,
        clock: Callable[[], float] = time.monotonic,
        board_id: str = "SIM-0001",
    ) -> None:
        self._noise_rng = random.Random(seed + 1)
        self._clock = clock
        self.noise = noise
        self.board_id = board_id
        self.model = TableModel(random.Random(seed + 2), Timings().scaled(speed), faults)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self._decoder = FrameDecoder()
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._delayed: list[tuple[float, int, bytes]] = []
        self._silent_until = 0.0
        self._stalled_until = 0.0  # the main loop is stuck until the watchdog resets it
        self.resets_with_outputs_on = 0
        """Reboots that found a motor still driven (as the firmware's side channel counts them)."""
        self._gaps = [0.0, 0.0]  # the longest between two snapshots sent, between two passes of the loop
        self._last_snapshot_at = self._last_tick_at = clock()
        self.executed: list[Executed] = []
        self.execution_counts: Counter[int] = Counter()
        self.duplicates_dropped = 0
        self.naks_sent = 0
        self.estop_at: float | None = None
        self.watchdog_trips = 0
        self.watchdog_silences: list[float] = []
        """How long the host had been silent at each host-silence trip (seconds, the simulator's clock)."""
        self._boot(ResetReason.POWER_ON)

    # -- life cycle ------------------------------------------------------------------------------------------

    def start(self) -> McuSimulator:
        self._thread = threading.Thread(target=self._run, name="mcu-sim", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> McuSimulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- fault injection (any thread) ------------------------------------------------------------------------

    def reset(self, reason: ResetReason = ResetReason.WATCHDOG) -> None:
        """Reboot now: motion stops, configuration and sequence state are lost, a boot IDENTITY goes out."""
        with self._lock:
            self._boot(reason)

    def reseed(self, seed: int | str) -> None:
        """Draw the mechanism's randomness (dice, timing jitter) from ``seed`` from now on: a host that ties each
        hand's dice to its own seed gets the same throw again after a restart."""
        with self._lock:
            self.model.rng = random.Random(seed)

    def restore(self, commands: Iterable[Message], dice: tuple[int, int], dice_serial: int) -> Snapshot:
        """Come up as a table that went on while its host restarted: each of ``commands`` run and its motion ended
        at once, in order, with no fault injected (a command the mechanism refuses in its phase is skipped and
        logged), then the last throw showing ``dice``, the ``dice_serial``-th. Meant for a simulator that has done
        nothing since it booted, so that a host resuming from its journal finds the table where the journal left
        it, as a real table's MCU would be. Returns the snapshot it sends at once."""
        with self._lock:
            model, faults = self.model, self.model.faults
            model.faults = NO_FAULTS
            now = self._clock()
            try:
                for command in commands:
                    result = model.execute(command, now)
                    if result is not Result.OK:
                        log.warning("restoring the simulated table: %s refused (%s)", command.TYPE.name, result.name)
                    now = model.complete(now)
            finally:
                model.faults = faults
            model.dice, model.dice_serial = dice, dice_serial
            model.version += 1
            snapshot = self._snapshot()
            self._sent_version = model.version
            self._send(snapshot)
            return snapshot

    def inject(self, faults: FaultPlan) -> None:
        """Mechanical faults for what the table does next (replaces the previous plan)."""
        with self._lock:
            self.model.faults = faults

    def crash(self) -> None:
        """A hard fault now: the handler makes every output safe, then nothing until the watchdog resets the MCU."""
        with self._lock:
            self.model.halt()
            self._stalled_until = self._clock() + WATCHDOG_S
            log.info("simulated hard fault: outputs safe, waiting for the watchdog")

    @property
    def outputs_on(self) -> int:
        """The motor outputs driven now (1 << motor, as ``hw_tests.mechanism.Motor``): the model's motors, which
        stop with every fault as the firmware's outputs must."""
        with self._lock:
            return sum(1 << motor for motor, direction in enumerate(self.model.motor) if direction)

    def gaps(self, reset: bool = False) -> tuple[float, float]:
        """The longest gaps between two snapshots and between two passes of the loop, on the simulator's clock,
        since the last reset (as the firmware's side channel reports them)."""
        with self._lock:
            gaps = (self._gaps[0], self._gaps[1])
            if reset:
                self._gaps = [0.0, 0.0]
            return gaps

    def silence_host(self, seconds: float) -> None:
        """Hear nothing from the host for ``seconds`` (a cut wire or a hung host): the watchdog should trip."""
        with self._lock:
            self._silent_until = self._clock() + seconds

    def set_noise(self, noise: Noise) -> None:
        with self._lock:
            self.noise = noise

    def press_key(self, seat: int, held: bool = True) -> None:
        """A player's dice key on the table edge (wired to the MCU): it shows in the sensor word."""
        with self._lock:
            key = Sensor(1 << (12 + seat))
            self.model.sensors = self.model.sensors | key if held else self.model.sensors & ~key
            self.model.version += 1

    @property
    def configured(self) -> bool:
        return self._config is not None

    @property
    def config(self) -> Configure | None:
        return self._config

    def tokens(self) -> list[int]:
        """The tokens of the NOP commands executed, in order: the link tests compare it with what was sent."""
        with self._lock:
            return [item.message.token for item in self.executed if item.message.TYPE is MsgType.NOP]

    # -- the MCU ---------------------------------------------------------------------------------------------

    def _boot(self, reason: ResetReason) -> None:
        now = self._clock()
        self._config: Configure | None = None
        self._reset_reason = reason
        self._synced = False
        self._expected = 1
        self._last_seq = 0
        self._last_result: tuple[MsgType, Result] | None = None
        self._last_host_rx = now
        self._last_rx_byte = now
        self._snapshot_serial = 0
        self._sent_version = -1
        self._next_snapshot = now
        self._snapshot_period = 0.2
        self._host_timeout = 1.0
        if reason is not ResetReason.POWER_ON:
            if self.model.motors_on:
                self.resets_with_outputs_on += 1
            self.model.reboot()
            log.info("simulated MCU reset (%s)", reason.name)
        self._send(self._identity(0))

    def _identity(self, nonce: int) -> Identity:
        return Identity(
            nonce,
            PROTOCOL_MAJOR,
            PROTOCOL_MINOR,
            FIRMWARE,
            self.board_id,
            CAPABILITIES,
            self._reset_reason,
            self._config is not None,
            self._config.checksum if self._config else 0,
            self._expected,
        )

    def _snapshot(self) -> Snapshot:
        model = self.model
        flags = model.flags | (StateFlag.CONFIGURED if self._config else StateFlag(0))
        self._snapshot_serial = (self._snapshot_serial + 1) % 0x10000
        return Snapshot(
            model.phase,
            flags,
            model.sensors,
            tuple(model.counts),  # type: ignore[arg-type]
            tuple(model.wall_tiles),  # type: ignore[arg-type]
            model.fault.kind,
            model.fault.mechanism,
            model.fault.side,
            model.dice,
            model.dice_serial,
            model.built_set,
            self._last_seq,
            self._snapshot_serial,
            self._config.checksum if self._config else 0,
        )

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                wait = self._next_wake() - self._clock()
            readable, _, _ = select.select([self._master], [], [], min(max(wait, 0.0), 0.05))
            data = b""
            if readable:
                try:
                    data = os.read(self._master, READ_BUDGET)
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    if self._stop.wait(0.01):
                        break
            with self._lock:
                self._tick(data)

    def _next_wake(self) -> float:
        wake = min(self.model.next_due(), self._next_snapshot, self._last_host_rx + self._host_timeout)
        if self._delayed:
            wake = min(wake, self._delayed[0][0])
        if self._decoder.pending:
            wake = min(wake, self._last_rx_byte + IDLE_RESYNC_S)
        if self._stalled_until:
            wake = min(wake, self._stalled_until)
        return wake

    def _tick(self, data: bytes) -> None:
        now = self._clock()
        self._gaps[1] = max(self._gaps[1], now - self._last_tick_at)
        self._last_tick_at = now
        if self._stalled_until:  # stuck: what arrives is lost, as in a UART ring nobody empties
            if now < self._stalled_until:
                return
            self._stalled_until = 0.0
            self._boot(ResetReason.WATCHDOG)
            return
        if data and now < self._silent_until:
            data = b""
        if data:
            self._last_rx_byte = now
            data = self._corrupt(data)
        broken = self._decoder.stats.broken_frames
        if data:
            frames = self._decoder.feed(data)
        elif self._decoder.pending and now - self._last_rx_byte >= IDLE_RESYNC_S:
            frames = self._decoder.idle()
        else:
            frames = []
        if self._decoder.stats.broken_frames != broken:
            self._nak(NakReason.CORRUPT)
        for frame in frames:
            if self.noise.drop and self._noise_rng.random() < self.noise.drop:
                continue
            self._last_host_rx = now
            try:
                message = decode(frame)
            except ProtocolError as exc:
                self._refuse(frame.seq, frame.type, exc)
            else:
                self._handle(frame.seq, message, now)
        try:
            self.model.advance(now)
        except RebootRequested:
            self._boot(ResetReason.WATCHDOG)
        self._watchdog(now)
        if self.model.diagnostic == DIAG_WATCHDOG:  # the watchdog test: the main loop stops here
            self._stalled_until = now + WATCHDOG_S
            return
        self._flush_delayed(now)
        if self.model.version != self._sent_version or now >= self._next_snapshot:
            self._sent_version = self.model.version
            self._next_snapshot = now + self._snapshot_period
            self._gaps[0] = max(self._gaps[0], now - self._last_snapshot_at)
            self._last_snapshot_at = now
            self._send(self._snapshot())

    def _watchdog(self, now: float) -> None:
        """No valid frame from the host for the configured time while a motor runs: stop everything."""
        if now - self._last_host_rx > self._host_timeout and self.model.motors_on:
            self.watchdog_trips += 1
            self.watchdog_silences.append(now - self._last_host_rx)
            log.info("host silent for %.2f s: every motor stopped", now - self._last_host_rx)
            self.model.stop_all(FaultKind.HOST_SILENT)

    def _handle(self, seq: int, message: Message, now: float) -> None:
        if isinstance(message, EmergencyStop):
            self.model.stop_all(FaultKind.EMERGENCY_STOP)
            self.estop_at = now
            self._send(Ack(MsgType.EMERGENCY_STOP, Result.OK).frame(0).encode())
        elif isinstance(message, Identify):
            if not self._synced:
                self._synced, self._expected, self._last_seq = True, 1, 0
            self._send(self._identity(message.nonce))
        elif isinstance(message, StatusRequest):
            self._send(self._snapshot())
        elif message.SEQUENCED:
            self._sequenced(seq, message.TYPE, lambda: self._run_command(seq, message, now))
        # PING only feeds the watchdog; MCU → host types are ignored

    def _refuse(self, seq: int, type_byte: int, error: ProtocolError) -> None:
        """A frame with a good CRC but a bad payload: a sequenced command is answered BAD_ARGUMENT, in order."""
        log.debug("simulator refused a host frame: %s", error)
        kind = message_class(type_byte)
        if seq and kind is not None and kind.SEQUENCED:
            self._sequenced(seq, kind.TYPE, lambda: Result.BAD_ARGUMENT)
        else:
            self._nak(NakReason.CORRUPT)

    def _sequenced(self, seq: int, kind: MsgType, run: Callable[[], Result]) -> None:
        """PROTOCOL.md §3: run the expected number once, re-acknowledge the last one, NAK anything else."""
        if not self._synced:
            self._nak(NakReason.UNSYNCED)
        elif seq == self._last_seq and self._last_result and self._last_result[0] is kind:
            self.duplicates_dropped += 1
            self._send(Ack(*self._last_result).frame(seq).encode())
        elif seq != self._expected:
            self._nak(NakReason.OUT_OF_ORDER)
        else:
            result = run()
            self._last_seq, self._expected = seq, seq % 255 + 1
            self._last_result = (kind, result)
            self._send(Ack(kind, result).frame(seq).encode())

    def _run_command(self, seq: int, message: Message, now: float) -> Result:
        self.executed.append(Executed(seq, message, now))
        self.execution_counts[seq] += 1
        return self._execute(message, now)

    def _execute(self, message: Message, now: float) -> Result:
        if isinstance(message, Configure):
            result = self.model.configure(message, first=self._config is None)
            if result is Result.OK:
                self._config = message
                self._snapshot_period = message.snapshot_ms / 1000
                self._host_timeout = message.host_timeout_ms / 1000
            return result
        if self._config is None and message.TYPE not in (MsgType.NOP, MsgType.LAMP, MsgType.DEALER):
            return Result.UNCONFIGURED
        return self.model.execute(message, now)

    def _nak(self, reason: NakReason) -> None:
        self.naks_sent += 1
        expected = self._expected if self._synced else 0
        self._send(Nak(expected, NakReason.UNSYNCED if not self._synced else reason).frame().encode())

    # -- the wire --------------------------------------------------------------------------------------------

    def _send(self, item: Message | bytes) -> None:
        data = item.frame().encode() if isinstance(item, Message) else item
        noise, rng = self.noise, self._noise_rng
        if not noise.quiet:
            if rng.random() < noise.drop:
                return
            data = self._corrupt(data)
            if rng.random() < noise.duplicate:
                data += data
            if rng.random() < noise.delay:
                heapq.heappush(self._delayed, (self._clock() + noise.delay_s, len(self._delayed), data))
                return
        self._write(data)

    def _corrupt(self, data: bytes) -> bytes:
        rate = self.noise.corrupt
        if not rate:
            return data
        rng = self._noise_rng
        out = bytearray(data)
        for index in range(len(out)):
            if rng.random() < rate:
                out[index] ^= rng.randrange(1, 256)
        return bytes(out)

    def _flush_delayed(self, now: float) -> None:
        while self._delayed and self._delayed[0][0] <= now:
            self._write(heapq.heappop(self._delayed)[2])

    def _write(self, data: bytes) -> None:
        with contextlib.suppress(OSError):  # nobody reading: a UART drops what it cannot send
            os.write(self._master, data)
