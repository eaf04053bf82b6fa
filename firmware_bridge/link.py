"""The reliable host side of the MCU link (PROTOCOL.md §3): sequence/ack, retransmit, handshake, heartbeat.

Two threads of its own: the *reader* decodes every byte the MCU sends and resolves waiting commands, and the
*keeper* sends heartbeats when the line is quiet, notices a silent MCU and re-handshakes (and reconfigures) after
an MCU reset. Commands run stop-and-wait in the caller's thread under one lock, so they reach the MCU in call
order; the emergency stop takes only the write lock and so never waits behind a command being retransmitted.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from firmware_bridge.config import LinkConfig, McuConfig
from firmware_bridge.errors import BridgeError, CommandRejected, LinkDown, McuReset, ProtocolError
from firmware_bridge.framing import DecoderStats, FrameDecoder
from firmware_bridge.messages import (
    PROTOCOL_MAJOR,
    Ack,
    Configure,
    EmergencyStop,
    Identify,
    Identity,
    Message,
    MsgType,
    Nak,
    NakReason,
    Ping,
    Result,
    Snapshot,
    StateFlag,
    StatusRequest,
    decode,
)

log = logging.getLogger(__name__)

# The retransmit timeout grows by half after each try that timed out (not after a NAK or a broken frame, which
# call for an immediate retransmit): gentler than TCP's doubling, because on a serial line a missing ACK is noise
# more often than a busy MCU, yet enough that a starved MCU or host thread is not declared dead within 30 tries.
BACKOFF = 1.5
HANDSHAKE_TRIES_FACTOR = 4  # an IDENTITY is five times longer than an ACK, so it is lost more often on a noisy line

Clock = Callable[[], float]


class Port(Protocol):
    """What the link needs of a serial port; ``serial.Serial`` on a device or a pty is one."""

    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...
    def close(self) -> None: ...

    @property
    def in_waiting(self) -> int: ...


def open_port(path: str, baud: int = 115200) -> Port:
    """Open a serial device (``/dev/serial/by-id/...``, ``/dev/ttyAMA0``, a pty) the way the link reads it."""
    import serial  # imported here so the codec and the tests of it need no pyserial

    try:
        return serial.Serial(path, baud, timeout=0.01, write_timeout=1.0, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise LinkDown(f"serial port {path!r}: {exc}") from None


@dataclass
class LinkStats:
    """Counters a technician reads to judge the line: retransmits, NAKs, resets, round trips."""

    sent: int = 0
    acked: int = 0
    retransmits: int = 0
    naks: int = 0
    resets: int = 0
    link_downs: int = 0
    bad_messages: int = 0
    rtts: deque[float] = field(default_factory=lambda: deque(maxlen=100_000))


@dataclass
class _Pending:
    seq: int
    command: MsgType
    result: Result | None = None
    nudged: bool = False
    reset: bool = False


class Link:
    """A reliable, ordered command channel to the table MCU over ``port``; ``start()`` handshakes and configures."""

    def __init__(
        self,
        port: Port,
        link: LinkConfig,
        mcu: McuConfig,
        clock: Clock = time.monotonic,
        reopen: Callable[[], Port] | None = None,
    ) -> None:
        """``reopen`` opens the port again after it failed (a USB table unplugged and plugged back)."""
        self._port = port
        self._reopen = reopen
        self._config = link
        self._configure = mcu.message()
        self._clock = clock
        self._decoder = FrameDecoder()
        self.stats = LinkStats()
        self._cv = threading.Condition()
        self._cmd_lock = threading.Lock()
        self._tx_lock = threading.Lock()
        self._stop = threading.Event()
        self._wake_keeper = threading.Event()
        self._pending: _Pending | None = None
        self._identity_nonce = 0
        self._identity: Identity | None = None  # the last answered IDENTIFY's, kept while the next is asked
        self._handshaking = False  # an unconfigured snapshot is expected until the handshake's configured one
        self._estop_acked = threading.Event()
        self._snapshot: Snapshot | None = None
        self._acks = 0
        """Commands acknowledged so far; ``_snapshot_acks`` is what it was when the snapshot in hand arrived."""
        self._snapshot_acks = 0
        self._listeners: list[Callable[[Snapshot], None]] = []
        self._next_seq = 1
        self._up = False
        self._needs_handshake = True
        self._srtt: float | None = None
        self._rttvar = 0.0
        now = clock()
        self._last_rx = now
        self._last_tx = now
        self._last_frame_tx = now
        self._threads: list[threading.Thread] = []

    # -- life cycle ------------------------------------------------------------------------------------------

    def start(self) -> Identity:
        """Start the reader and keeper threads and handshake; the MCU is configured when this returns."""
        self._threads = [
            threading.Thread(target=self._read_loop, name="mcu-reader", daemon=True),
            threading.Thread(target=self._keep_loop, name="mcu-keeper", daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        try:
            with self._cmd_lock:
                return self._handshake()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Stop both threads and close the port; safe to call twice."""
        self._stop.set()
        self._wake_keeper.set()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=2.0)
        self._threads = []
        self._port.close()

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what callers use ------------------------------------------------------------------------------------

    @property
    def identity(self) -> Identity | None:
        return self._identity

    @property
    def is_up(self) -> bool:
        return self._up

    @property
    def snapshot(self) -> Snapshot | None:
        return self._snapshot

    @property
    def decoder_stats(self) -> DecoderStats:
        """Frames the reader threw away (CRC errors, bad lengths, garbage bytes): line quality at a glance."""
        return self._decoder.stats

    def add_listener(self, callback: Callable[[Snapshot], None]) -> None:
        """Call ``callback(snapshot)`` from the reader thread on every snapshot; it must not block."""
        self._listeners.append(callback)

    def remove_listener(self, callback: Callable[[Snapshot], None]) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(callback)

    @property
    def last_frame_at(self) -> float:
        """When the host last wrote a whole frame (a command, a PING...): what feeds the MCU's host-silence watchdog."""
        return self._last_frame_tx

    def write_raw(self, data: bytes) -> None:
        """Bytes as they are, for line tests (a flood of garbage). They count as sent, so no heartbeat goes out
        while they flow: the MCU hears the host talk but not one valid frame."""
        with self._tx_lock:
            try:
                self._port.write(data)
            except (OSError, ValueError) as exc:
                raise LinkDown(f"writing to the serial port failed: {exc}") from None
            self._last_tx = self._clock()

    def wait_snapshot(
        self, predicate: Callable[[Snapshot], bool], timeout: float, *, since_ack: bool = False
    ) -> Snapshot | None:
        """The first snapshot (the current one included) that satisfies ``predicate``, or None after ``timeout``.

        ``since_ack`` takes only a snapshot that arrived after the last acknowledged command: what the table did
        with it. The one in hand at the ACK may predate the command (the MCU need not send one between two ACKs, and
        a noisy line loses some), and after a clear it would still show the fault."""
        with self._cv:
            acks = self._acks if since_ack else 0

            def seen() -> bool:
                return self._snapshot is not None and self._snapshot_acks >= acks and predicate(self._snapshot)

            return self._snapshot if self._cv.wait_for(seen, timeout) else None

    def command(self, message: Message) -> Result:
        """Send a sequenced command; return the MCU's result once acknowledged (exactly once, in call order)."""
        if not message.SEQUENCED:
            raise ProtocolError(f"{message.TYPE.name} is not a sequenced command")
        with self._cmd_lock:
            if self._needs_handshake:
                self._handshake()
            return self._exchange(message)

    @property
    def configuration(self) -> Configure:
        """The CONFIGURE the MCU gets after every reset."""
        return self._configure

    def reconfigure(self, message: Configure) -> Result:
        """Send a new configuration (a new tile set applies from the next cycle); kept for reconnects."""
        with self._cmd_lock:
            if self._needs_handshake:
                self._handshake()
            result = self._exchange(message)
            if result is Result.OK:
                self._configure = message
                log.info("MCU reconfigured (checksum %08x)", message.checksum)
        return result

    def emergency_stop(self, timeout: float = 1.0) -> float:
        """Stop every motor now, ahead of any command in flight; returns the seconds until the MCU confirmed."""
        started = self._clock()
        frame = EmergencyStop().frame().encode()
        self._estop_acked.clear()
        rto = self._config.min_rto_s
        while self._clock() - started < timeout:
            self._write(frame)
            if self._estop_acked.wait(rto):
                log.info("emergency stop confirmed by the MCU")
                return self._clock() - started
            rto = min(rto * 2, self._config.max_rto_s)
        raise LinkDown(f"the MCU did not confirm the emergency stop within {timeout:.2f} s")

    # -- sending ---------------------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._stop.is_set():
            raise LinkDown("the link was closed")

    def _write(self, data: bytes) -> None:
        with self._tx_lock:
            try:
                self._port.write(data)
            except (OSError, ValueError) as exc:
                raise LinkDown(f"writing to the serial port failed: {exc}") from None
            self._last_tx = self._last_frame_tx = self._clock()

    def _rto(self) -> float:
        if self._srtt is None:
            return self._config.min_rto_s * 4
        return min(max(self._srtt + 4 * self._rttvar, self._config.min_rto_s), self._config.max_rto_s)

    def _sample_rtt(self, rtt: float) -> None:
        self.stats.rtts.append(rtt)
        if self._srtt is None:
            self._srtt, self._rttvar = rtt, rtt / 2
        else:
            self._rttvar = 0.75 * self._rttvar + 0.25 * abs(self._srtt - rtt)
            self._srtt = 0.875 * self._srtt + 0.125 * rtt

    def _exchange(self, message: Message) -> Result:
        """Stop-and-wait: (re)send until acknowledged; the caller holds the command lock."""
        seq = self._next_seq
        self._next_seq = seq % 255 + 1
        frame = message.frame(seq).encode()
        pending = _Pending(seq, message.TYPE)
        with self._cv:
            self._pending = pending
        rto = self._rto()
        self.stats.sent += 1
        try:
            for attempt in range(self._config.max_tries):
                self._check_open()
                if attempt:
                    self.stats.retransmits += 1
                sent_at = self._clock()
                self._write(frame)
                with self._cv:
                    self._cv.wait_for(lambda: pending.result is not None or pending.nudged or pending.reset, rto)
                    nudged, pending.nudged = pending.nudged, False
                if pending.reset:
                    raise McuReset(f"the MCU rebooted while {message.TYPE.name} (seq {seq}) was in flight")
                if pending.result is not None:
                    if attempt == 0:
                        self._sample_rtt(self._clock() - sent_at)
                    self.stats.acked += 1
                    return pending.result
                if not nudged:
                    rto = min(rto * BACKOFF, self._config.max_rto_s)
                if self._clock() - self._last_rx > self._config.silence_s:
                    break
            raise self._link_down(f"{message.TYPE.name} (seq {seq}) not acknowledged after {attempt + 1} tries")
        finally:
            with self._cv:
                self._pending = None

    def _mcu_heard_lately(self) -> bool:
        """Bytes arrived recently: the MCU is alive, and an unanswered IDENTIFY was lost to noise."""
        return self._clock() - self._last_rx < self._config.silence_s / 3

    def _link_down(self, why: str) -> LinkDown:
        """Mark the link down (the next command handshakes first) and return the error for the caller to raise."""
        self.stats.link_downs += 1
        self._needs_handshake = True
        if self._up:
            log.warning("MCU link down: %s", why)
        self._up = False
        self._wake_keeper.set()
        return LinkDown(f"MCU link down: {why}")

    def _handshake(self) -> Identity:
        """IDENTIFY until answered, check the protocol version, configure an unconfigured or changed MCU."""
        with self._cv:
            self._identity_nonce = self._identity_nonce % 0xFFFF + 1
            nonce = self._identity_nonce
            self._handshaking = True
        try:
            return self._identify_and_configure(nonce)
        finally:
            self._handshaking = False

    def _identify_and_configure(self, nonce: int) -> Identity:
        frame = Identify(PROTOCOL_MAJOR, nonce).frame().encode()
        rto = self._config.min_rto_s * 4
        for _ in range(self._config.max_tries * HANDSHAKE_TRIES_FACTOR):
            self._check_open()
            self._write(frame)
            with self._cv:
                if self._cv.wait_for(lambda: self._identity is not None and self._identity.nonce == nonce, rto):
                    break
            if not self._mcu_heard_lately():
                rto = min(rto * BACKOFF, self._config.max_rto_s)
            if self._clock() - self._last_rx > self._config.silence_s:
                raise self._link_down(f"no answer to IDENTIFY for {self._config.silence_s:.1f} s")
        else:
            raise self._link_down("no IDENTITY in answer to IDENTIFY")
        identity = self._identity
        assert identity is not None
        if identity.protocol_major != PROTOCOL_MAJOR:
            raise ProtocolError(
                f"IDENTITY.protocol_major: the MCU speaks version {identity.protocol_major}, this host {PROTOCOL_MAJOR}"
            )
        self._next_seq = identity.next_seq
        self._needs_handshake = False
        if not identity.configured or identity.config_checksum != self._configure.checksum:
            result = self._exchange(self._configure)
            if result is not Result.OK:
                self._needs_handshake = True
                raise CommandRejected(f"CONFIGURE rejected by the MCU: {result.name}")
            log.info("MCU configured (checksum %08x)", self._configure.checksum)
        self._await_configured_snapshot()
        if not self._up:
            log.info(
                "MCU link up: %s board %s, protocol %d.%d, last reset %s",
                identity.firmware,
                identity.board_id,
                identity.protocol_major,
                identity.protocol_minor,
                identity.reset_reason.name,
            )
        self._up = True
        return identity

    def _await_configured_snapshot(self) -> None:
        """Ask for snapshots until one shows this configuration, so callers never see the pre-handshake state."""
        checksum = self._configure.checksum
        request = StatusRequest().frame().encode()
        rto = self._rto()
        for _ in range(self._config.max_tries):
            if self.wait_snapshot(lambda s: s.config_checksum == checksum and bool(s.flags & StateFlag.CONFIGURED), 0):
                return
            self._write(request)
            self.wait_snapshot(lambda s: s.config_checksum == checksum, rto)
        raise self._link_down("no snapshot with the new configuration")

    # -- receiving (reader thread) ---------------------------------------------------------------------------

    def _read_loop(self) -> None:
        decoder = self._decoder
        while not self._stop.is_set():
            try:
                data = self._port.read(self._port.in_waiting or 1)
            except (OSError, ValueError, TypeError) as exc:  # pyserial raises SerialException(OSError)
                if not self._stop.is_set():
                    self._recover_port(exc)
                continue
            broken = decoder.stats.broken_frames
            frames = decoder.feed(data) if data else decoder.idle()
            if data:
                self._last_rx = self._clock()
            for frame in frames:
                try:
                    self._dispatch(frame.seq, decode(frame))
                except ProtocolError as exc:
                    self.stats.bad_messages += 1
                    log.debug("dropped a frame: %s", exc)
            if decoder.stats.broken_frames != broken:
                self._nudge()  # the corrupted frame may have been our ACK: retransmit now, the MCU re-acks a duplicate

    def _recover_port(self, error: Exception) -> None:
        """The port failed: the link is down until ``reopen`` gives a working port again (backing off to 5 s)."""
        if self._up or not self._needs_handshake:
            self.stats.link_downs += 1
            log.warning("serial port failed (%s); %s", error, "reopening it" if self._reopen else "retrying")
        self._up = False
        self._needs_handshake = True
        delay = 0.1
        while not self._stop.wait(delay):
            if self._reopen is None:
                return  # read the same port again
            try:
                port = self._reopen()
            except (BridgeError, OSError, ValueError):
                delay = min(delay * 2, 5.0)
                continue
            with self._tx_lock:
                old, self._port = self._port, port
            with contextlib.suppress(OSError, ValueError):
                old.close()
            log.info("serial port reopened; handshaking")
            self._last_rx = self._clock()
            self._wake_keeper.set()
            return

    def _nudge(self) -> None:
        with self._cv:
            if self._pending is not None:
                self._pending.nudged = True
                self._cv.notify_all()

    def _dispatch(self, seq: int, message: Message) -> None:
        if isinstance(message, Ack):
            self._on_ack(seq, message)
        elif isinstance(message, Nak):
            self.stats.naks += 1
            if message.reason is NakReason.UNSYNCED:
                self._on_reset("the MCU asks for a handshake")
            else:
                self._nudge()
        elif isinstance(message, Identity):
            self._on_identity(message)
        elif isinstance(message, Snapshot):
            self._on_snapshot(message)

    def _on_ack(self, seq: int, ack: Ack) -> None:
        if ack.command is MsgType.EMERGENCY_STOP:
            self._estop_acked.set()
            return
        with self._cv:
            pending = self._pending
            if pending is not None and pending.seq == seq and pending.command is ack.command:
                pending.result = ack.result
                self._acks += 1
                self._cv.notify_all()

    def _on_identity(self, identity: Identity) -> None:
        with self._cv:
            if identity.nonce and identity.nonce == self._identity_nonce:
                self._identity = identity
                self._cv.notify_all()
                return
        if identity.nonce == 0:
            self._on_reset(f"the MCU announced a boot ({identity.reset_reason.name})")

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        with self._cv:
            previous = self._snapshot
            self._snapshot, self._snapshot_acks = snapshot, self._acks
            self._cv.notify_all()
        if previous is None or previous.phase is not snapshot.phase:
            log.info("table phase %s", snapshot.phase.name)
        if (previous.fault_code if previous else "") != snapshot.fault_code:
            log.info("table fault %s", snapshot.fault_code or "cleared")
        if self._up and not snapshot.flags & StateFlag.CONFIGURED and not (self._needs_handshake or self._handshaking):
            log.warning("the MCU reports itself unconfigured; handshaking again")
            self._needs_handshake = True
            self._wake_keeper.set()
        for callback in self._listeners:
            try:
                callback(snapshot)
            except Exception:  # a listener's bug must not stop the reader, and with it the link
                log.exception("snapshot listener %r failed", callback)

    def _on_reset(self, why: str) -> None:
        with self._cv:
            if self._needs_handshake and self._pending is None:
                return
            self._needs_handshake = True
            self.stats.resets += 1
            if self._pending is not None:
                self._pending.reset = True
            self._cv.notify_all()
        log.warning("MCU reset: %s; reconfiguring", why)
        self._wake_keeper.set()

    # -- keeper thread ---------------------------------------------------------------------------------------

    def _keep_loop(self) -> None:
        period = self._config.heartbeat_s
        ping = Ping().frame().encode()
        while not self._stop.is_set():
            self._wake_keeper.wait(period)
            self._wake_keeper.clear()
            if self._stop.is_set():
                break
            try:
                if self._needs_handshake:
                    if self._cmd_lock.acquire(timeout=period):
                        try:
                            if self._needs_handshake:
                                self._handshake()
                        finally:
                            self._cmd_lock.release()
                elif self._clock() - self._last_tx >= period * 0.8:
                    self._write(ping)
                if self._up and self._clock() - self._last_rx > self._config.silence_s:
                    raise self._link_down(f"nothing heard from the MCU for {self._config.silence_s:.1f} s")
            except (LinkDown, ProtocolError, CommandRejected, McuReset) as exc:
                log.debug("keeper: %s", exc)
