"""The hardware test suite: checks a technician runs against a table (or the simulator), one line each.

Each check gets a ``Bench`` (the table, the simulator when there is one, the fault codes seen) and raises
``AssertionError`` (or a bridge error) to fail. Checks that move motors are skipped on a real table unless
``--allow-motion``. Checks that inject a fault (a sensor that never fires, a driver at fault, over-current, a stalled
main loop) do it through the simulator; on a real table they are skipped unless ``--allow-injection``, and then the
technician makes the fault by hand when asked (a switch unplugged, a driver's fault pin grounded), or the MCU makes
it itself (DIAGNOSTIC 15, its watchdog test). A check that can only be injected in a simulated board (a hard fault)
is skipped on a real table.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from firmware_bridge.config import McuConfig
from firmware_bridge.errors import BridgeError, CommandRejected, McuReset, TableFault
from firmware_bridge.messages import (
    DIAG_WATCHDOG,
    WIND_LAMP,
    BuildWalls,
    Configure,
    FaultKind,
    LampPattern,
    Mechanism,
    Phase,
    ResetReason,
    Shuffle,
    Snapshot,
    StateFlag,
)
from firmware_bridge.table import Table
from hw_tests.faults import NO_FAULTS, QUIET, FaultPlan, Jam, Noise, ResetDuring
from hw_tests.firmware import FirmwareMcu
from hw_tests.flood import SYNC_AND_LONGEST, SnapshotTimes, flood, until_quiet
from hw_tests.simulator import McuSimulator

Simulated = McuSimulator | FirmwareMcu
Prompt = Callable[[str], None]


@dataclass
class Bench:
    """What a check works with; ``faults_seen`` collects every fault code a snapshot showed during the check.
    ``prompt`` asks the technician to do something by hand and returns when it is done (a real table's
    injections)."""

    table: Table
    sim: Simulated | None
    faults_seen: list[str] = field(default_factory=list)
    prompt: Prompt | None = None

    @contextlib.contextmanager
    def injected(self, plan: FaultPlan, by_hand: str, undo: str) -> Iterator[None]:
        """The fault ``plan`` for the block: through the simulator, or on a real table ``by_hand`` (and ``undo``
        after it) by the technician."""
        if self.sim is not None:
            self.sim.inject(plan)
        else:
            assert self.prompt is not None, "a real table's injection needs the technician (--allow-injection)"
            self.prompt(by_hand)
        try:
            yield
        finally:
            if self.sim is not None:
                self.sim.inject(NO_FAULTS)
            elif self.prompt is not None:
                self.prompt(undo)

    def outputs_off(self) -> None:
        """A simulated board's motors really stopped (its outputs, not the core's idea of them); a real table's
        motors are seen by the technician."""
        if self.sim is not None:
            on = self.sim.outputs_on
            assert not on, f"the snapshot says the motors stopped but outputs {on:#06x} are still driven"

    def observe(self, snapshot: Snapshot) -> None:
        code = snapshot.fault_code
        if code and code not in self.faults_seen:
            self.faults_seen.append(code)

    def recover(self) -> None:
        """Back to a clean IDLE table after a check that faulted on purpose: finish the interrupted cycle."""
        table = self.table
        table.clear_fault()
        steps = {
            Phase.INTAKE_OPEN: table.close_hatch,
            Phase.SHUFFLING: table.build_walls,
            Phase.WALLS_READY: table.lift_walls,
            Phase.LIFTED: table.lower_platforms,
        }
        for _ in range(len(steps)):
            state = table.state
            if state is None or state.phase not in steps:
                return
            steps[state.phase]()


@dataclass(frozen=True)
class Check:
    name: str
    run: Callable[[Bench], str]
    motion: bool = False
    simulator_only: bool = False
    injection: bool = False


@dataclass(frozen=True)
class Outcome:
    name: str
    status: str  # PASS, FAIL, SKIP
    seconds: float
    faults: tuple[str, ...]
    detail: str

    def to_dict(self) -> dict[str, object]:
        return {**self.__dict__, "faults": list(self.faults)}


def _handshake(bench: Bench) -> str:
    identity = bench.table.identity
    assert identity is not None, "no IDENTITY"
    assert identity.protocol_major == 1, f"protocol {identity.protocol_major}"
    return f"{identity.firmware}, board {identity.board_id}, reset {identity.reset_reason.name}"


def _round_trip(bench: Bench) -> str:
    link = bench.table.link
    times = []
    for token in range(200):
        start = time.perf_counter()
        bench.table.nop(token)
        times.append(time.perf_counter() - start)
    times.sort()
    return (
        f"200 commands, p50 {times[100] * 1000:.2f} ms, p99 {times[198] * 1000:.2f} ms, {link.stats.retransmits} resent"
    )


def _lamps(bench: Bench) -> str:
    for lamp in range(WIND_LAMP + 1):
        for pattern in (LampPattern.STEADY, LampPattern.BLINK, LampPattern.OFF):
            bench.table.set_lamp(lamp, pattern, 0.5)
    bench.table.set_dealer(2, 1)
    if bench.sim is not None:
        lamps = bench.sim.model.lamps
        assert lamps[2][0] is LampPattern.STEADY and lamps[0][0] is LampPattern.OFF, f"lamps {lamps}"
    return "5 lamps × steady/blink/off, dealer seat 2"


def _diagnostic(bench: Bench) -> str:
    bench.table.diagnostic(7)
    try:
        bench.table.shuffle()
    except CommandRejected as exc:
        assert "DIAGNOSTIC" in str(exc), str(exc)
    else:
        raise AssertionError("motion was accepted in diagnostic mode")
    finally:
        bench.table.diagnostic(0)
    return "test 7 entered, motion refused, left"


def _cycle(bench: Bench) -> str:
    """The two-set cycle as the service runs it (PROTOCOL.md "The two-set cycle"): a set is taken in and built,
    then the set just played goes in through the hatch above the built walls (WALLS_READY), then the lift."""
    table = bench.table
    table.open_hatch()
    table.close_hatch()
    table.shuffle()
    walls = table.build_walls()
    assert walls.counts == walls.targets, f"counted {walls.counts}, expected {walls.targets}"
    table.open_hatch()
    table.close_hatch()
    table.lift_walls()
    _at_rest(bench, "lifted")
    dice = table.roll_dice()
    assert all(1 <= value <= 6 for value in dice), f"dice {dice}"
    table.lower_platforms()
    _at_rest(bench, "lowered")
    return f"walls {'/'.join(map(str, walls.counts))} of set {walls.built_set}, dice {dice[0]}+{dice[1]}"


def _at_rest(bench: Bench, what: str) -> None:
    """Once a motion has ended, nothing runs: each plate stopped at its switch, no fault on the way."""
    state = bench.table.link.wait_snapshot(lambda s: not s.flags & StateFlag.MOTORS_ON, 1.0)
    assert state is not None, f"motors still on once {what}"
    assert state.fault is FaultKind.NONE, f"fault {state.fault_code} once {what}"
    bench.outputs_off()


def _emergency_stop(bench: Bench) -> str:
    table = bench.table
    table.link.command(Shuffle())  # not waiting for the mix: the stop must catch the disc turning
    moving = table.link.wait_snapshot(lambda s: bool(s.flags & StateFlag.MOTORS_ON), 2.0)
    assert moving is not None, "the disc did not start"
    latency = table.emergency_stop()
    state = table.link.wait_snapshot(lambda s: s.fault is FaultKind.EMERGENCY_STOP, 1.0)
    assert state is not None, "no EMERGENCY_STOP fault latched"
    assert not state.flags & StateFlag.MOTORS_ON, "motors still on"
    bench.outputs_off()
    bench.recover()
    return f"confirmed in {latency * 1000:.1f} ms"


def _expect_fault(bench: Bench, faults: FaultPlan, action: Callable[[Table], object], code: str) -> str:
    assert bench.sim is not None
    bench.sim.inject(faults)
    try:
        action(bench.table)
    except TableFault as exc:
        assert exc.code == code, f"fault {exc.code}, expected {code}"
    else:
        raise AssertionError(f"no fault, expected {code}")
    finally:
        bench.sim.inject(FaultPlan())
    bench.outputs_off()
    bench.recover()
    return f"latched {code}"


def _latches(bench: Bench, action: Callable[[Table], object], code: str) -> float:
    """Run ``action`` (a motion that waits for its end) and require it stopped by fault ``code``; its seconds."""
    table = bench.table
    start = time.monotonic()
    try:
        action(table)
    except TableFault as exc:
        assert exc.code == code, f"fault {exc.code}, expected {code}"
    else:
        raise AssertionError(f"no fault, expected {code}")
    state = table.state
    assert state is not None and not state.flags & StateFlag.MOTORS_ON, "motors still on after the fault"
    bench.outputs_off()
    return time.monotonic() - start


def _reconfigured(table: Table, jam_factor_tenths: int) -> contextlib.AbstractContextManager[None]:
    """The table with another jam factor k for the block (every time limit is k × the motion's nominal time)."""

    @contextlib.contextmanager
    def scope() -> Iterator[None]:
        original = table.link.configuration
        table.link.reconfigure(
            Configure.build(original.wall_tiles, jam_factor_tenths, original.host_timeout_ms, original.snapshot_ms)
        )
        try:
            yield
        finally:
            table.link.reconfigure(original)

    return scope()


_UNPLUG_HATCH = "unplug the hatch's open switch (HATCH_OPEN, PD8)", "plug the hatch's open switch (PD8) back in"


def _dead_hatch(bench: Bench) -> str:
    """A hatch switch that never closes: the hatch stops at k × its travel time, TRAVEL_TIMEOUT/HATCH."""
    with bench.injected(FaultPlan(jams=(Jam(Mechanism.HATCH),)), *_UNPLUG_HATCH):
        took = _latches(bench, lambda t: t.open_hatch(timeout=60), "TRAVEL_TIMEOUT/HATCH")
    bench.recover()
    return f"TRAVEL_TIMEOUT/HATCH after {took:.2f} s, motors off"


def _step_limit(bench: Bench) -> str:
    """With k = 6 the time limit comes after the board's step limit (four travels): OVERTRAVEL/HATCH."""
    with _reconfigured(bench.table, 60), bench.injected(FaultPlan(jams=(Jam(Mechanism.HATCH),)), *_UNPLUG_HATCH):
        took = _latches(bench, lambda t: t.open_hatch(timeout=60), "OVERTRAVEL/HATCH")
    bench.recover()
    return f"OVERTRAVEL/HATCH after {took:.2f} s (k = 6), motors off"


def _dead_disc(bench: Bench) -> str:
    """The disc's index sensor never counts: the disc stops at k × its mixing time, RUN_TIMEOUT/DISC."""
    plan = FaultPlan(jams=(Jam(Mechanism.DISC),))
    with bench.injected(plan, "unplug the disc's index sensor (DISC_INDEX, PD11)", "plug the index sensor back in"):
        took = _latches(bench, lambda t: t.shuffle(timeout=120), "RUN_TIMEOUT/DISC")
    bench.recover()
    return f"RUN_TIMEOUT/DISC after {took:.2f} s, motors off"


def _dead_lowering(bench: Bench) -> str:
    """A plate's bottom switch never closes: the lowering stops at k × its travel, TRAVEL_TIMEOUT/LIFT/side2."""
    _lift(bench.table)
    plan = FaultPlan(jams=(Jam(Mechanism.LIFT, 2),))
    by_hand = "unplug the bottom switch of lift plate 2 (LIFT_DOWN 2, PD6)", "plug that switch (PD6) back in"
    with bench.injected(plan, *by_hand):
        took = _latches(bench, lambda t: t.lower_platforms(timeout=60), "TRAVEL_TIMEOUT/LIFT/side2")
    bench.recover()
    return f"TRAVEL_TIMEOUT/LIFT/side2 after {took:.2f} s, the other plates down"


def _driver_fault(bench: Bench) -> str:
    """A driver at fault with its motor stopped latches DRIVER_FAULT; CLEAR_FAULT is refused until it is gone."""
    table = bench.table
    plan = FaultPlan(driver_faults=(Mechanism.HATCH,))
    by_hand = "connect the hatch driver's nFAULT (PC4) to GND", "remove the wire from PC4"
    with bench.injected(plan, *by_hand):
        state = table.link.wait_snapshot(lambda s: s.fault is not FaultKind.NONE, 5.0)
        assert state is not None, "a driver at fault latched nothing"
        assert state.fault_code == "DRIVER_FAULT/HATCH", f"fault {state.fault_code}, expected DRIVER_FAULT/HATCH"
        try:
            table.clear_fault()
        except CommandRejected as exc:
            assert "DRIVER_FAULT" in str(exc), str(exc)
        else:
            raise AssertionError("the fault was cleared with the driver still at fault")
    bench.recover()
    return "DRIVER_FAULT/HATCH latched at rest, clearing refused until the driver recovered"


def _overcurrent(bench: Bench) -> str:
    """A driver reporting a fault while its motor runs (over-current) stops everything: OVERCURRENT/DISC."""
    plan = FaultPlan(overcurrent=(Mechanism.DISC,))
    by_hand = (
        "after Enter the disc turns: while it does, connect the disc driver's nFAULT (PB0) to GND for a second",
        "make sure PB0 is free again",
    )
    with bench.injected(plan, *by_hand):
        took = _latches(bench, lambda t: t.shuffle(timeout=60), "OVERCURRENT/DISC")
    bench.recover()
    return f"OVERCURRENT/DISC after {took:.2f} s, motors off"


def _after_reset(table: Table, since: float, timeout: float) -> Snapshot:
    """The first configured snapshot showing MCU_RESET after a reboot; its IDENTITY said WATCHDOG."""
    state = table.link.wait_snapshot(
        lambda s: s.fault is FaultKind.MCU_RESET and bool(s.flags & StateFlag.CONFIGURED), timeout
    )
    assert state is not None, f"no reset {time.monotonic() - since:.1f} s later"
    identity = table.identity
    assert identity is not None and identity.reset_reason is ResetReason.WATCHDOG, (
        f"reset reason {identity.reset_reason.name if identity else None}, expected WATCHDOG"
    )
    return state


def _stalled_loop(bench: Bench) -> str:
    """DIAGNOSTIC 15 stops the MCU's main loop: its watchdog must reset it (reason WATCHDOG, MCU_RESET latched)."""
    table = bench.table
    resets = table.link.stats.resets
    start = time.monotonic()
    table.diagnostic(DIAG_WATCHDOG)
    _after_reset(table, start, 10.0)
    took = time.monotonic() - start
    assert table.link.stats.resets > resets, "the link saw no reboot"
    bench.recover()
    return f"reset by its watchdog {took:.2f} s later, MCU_RESET latched"


def _hard_fault(bench: Bench) -> str:
    """A hard fault while the disc turns: the handler makes the outputs safe before the watchdog's reset."""
    sim, table = bench.sim, bench.table
    assert sim is not None
    before = sim.resets_with_outputs_on
    with bench.injected(FaultPlan(jams=(Jam(Mechanism.DISC),)), "", ""):
        table.link.command(Shuffle())
        moving = table.link.wait_snapshot(lambda s: bool(s.flags & StateFlag.MOTORS_ON), 2.0)
        assert moving is not None, "the disc did not start"
        start = time.monotonic()
        sim.crash()
        _after_reset(table, start, 10.0)
    after = sim.resets_with_outputs_on
    assert after == before, "the disc was still driven when the watchdog reset the MCU: the outputs were not made safe"
    bench.recover()
    return f"outputs safe at the fault, reset {time.monotonic() - start:.2f} s later"


FLOOD_S = 2.0  # of 7E 3C, then as long of random bytes
MAX_SNAPSHOT_GAP_S = 0.3  # on the MCU's own clock (a simulated board's side channel): the snapshot period is 0.2 s
MAX_ARRIVAL_GAP_S = 0.6  # as the host saw them arrive: its threads share a loaded machine with the flood
LINE_RATE = 115200 / 10  # bytes a second: the flood as fast as the link's 115200-baud line carries it


def _flood(bench: Bench) -> str:
    """A flood of 7E 3C (a 61-byte CRC every two bytes), then of random bytes, with the disc turning and no valid
    frame from the host: snapshots keep coming (gaps under 0.3 s) and HOST_SILENT latches on time."""
    table, link = bench.table, bench.table.link
    timeout_s = link.configuration.host_timeout_ms / 1000
    plan = FaultPlan(jams=(Jam(Mechanism.DISC),))  # the simulated disc turns until a limit stops it
    trips = len(bench.sim.watchdog_silences) if bench.sim is not None else 0
    times = SnapshotTimes(link)
    try:
        with _reconfigured(table, 100), contextlib.ExitStack() as stack:
            if bench.sim is not None:
                stack.enter_context(bench.injected(plan, "", ""))
            link.command(Shuffle())
            assert link.wait_snapshot(lambda s: bool(s.flags & StateFlag.MOTORS_ON), 2.0), "the disc did not start"
            last_frame = link.last_frame_at
            if bench.sim is not None:
                bench.sim.gaps(reset=True)
            start = time.monotonic()
            sent = flood(link, SYNC_AND_LONGEST, seconds=FLOOD_S, rate=LINE_RATE)
            middle = time.monotonic()
            sent += flood(link, None, seconds=FLOOD_S, seed=1, rate=LINE_RATE)
            end = time.monotonic()
            mcu_gaps = bench.sim.gaps() if bench.sim is not None else None
            drained = until_quiet(link)
        latched = times.first(lambda s: s.fault is FaultKind.HOST_SILENT)
        gaps = times.max_gap(start, middle), times.max_gap(middle, end)
    finally:
        times.close()
    assert latched is not None, "no HOST_SILENT under the flood"
    bench.outputs_off()
    silent = latched - last_frame
    # as seen on arrival: the firmware's own clock (below) is the tight bound; a starved main loop latched only once
    # the flood was over (2 s and more here)
    assert timeout_s * 0.9 < silent < timeout_s + 0.8, f"HOST_SILENT arrived {silent:.2f} s after the last frame"
    assert max(gaps) < MAX_ARRIVAL_GAP_S, f"snapshots arrived {gaps[0]:.2f} s (7E 3C), {gaps[1]:.2f} s (random) apart"
    on_mcu = ""
    if mcu_gaps is not None:
        assert bench.sim is not None
        snapshot_gap, poll_gap = mcu_gaps
        silences = bench.sim.watchdog_silences[trips:]
        assert silences, "the MCU's side channel reported no host-silence trip"
        assert snapshot_gap < MAX_SNAPSHOT_GAP_S, f"the MCU sent snapshots {snapshot_gap:.3f} s apart (its clock)"
        assert silences[0] < timeout_s + 0.15, f"HOST_SILENT after {silences[0]:.3f} s of silence (the MCU's clock)"
        on_mcu = (
            f"; on the MCU's clock: snapshots {snapshot_gap:.3f} s apart at most, polls {poll_gap * 1000:.0f} ms, "
            f"HOST_SILENT after {silences[0]:.3f} s"
        )
    bench.recover()
    return (
        f"{sent} bytes at 115200 baud; on arrival: HOST_SILENT {silent:.2f} s after the last frame, snapshots "
        f"{gaps[0]:.2f} s (7E 3C), {gaps[1]:.2f} s (random) apart{on_mcu}; line quiet {drained:.1f} s after"
    )


def _build(table: Table) -> None:
    table.shuffle()
    table.build_walls()


def _lift(table: Table) -> None:
    _build(table)
    table.lift_walls()


def _jam(bench: Bench) -> str:
    return _expect_fault(bench, FaultPlan(jams=(Jam(Mechanism.STACKER, 1, 6),)), _build, "JAM/STACKER/side1")


def _miscount(bench: Bench) -> str:
    return _expect_fault(bench, FaultPlan(short_side=3), _build, "MISCOUNT/STACKER/side3")


def _travel(bench: Bench) -> str:
    return _expect_fault(bench, FaultPlan(jams=(Jam(Mechanism.LIFT, 0),)), _lift, "TRAVEL_TIMEOUT/LIFT/side0")


def _reset(bench: Bench) -> str:
    assert bench.sim is not None
    bench.sim.inject(FaultPlan(reset=ResetDuring(Phase.STACKING, 0.05)))
    try:
        _build(bench.table)
    except (McuReset, TableFault):
        pass
    else:
        raise AssertionError("the build finished through an MCU reset")
    expected = bench.table.link.configuration.checksum
    state = bench.table.link.wait_snapshot(lambda s: bool(s.flags & StateFlag.CONFIGURED), 3.0)
    assert state is not None and state.config_checksum == expected, "configuration not restored"
    bench.recover()
    return f"reconfigured (checksum {expected:08x}) after the reset"


def _silence(bench: Bench) -> str:
    assert bench.sim is not None
    sim, table = bench.sim, bench.table
    original = table.link.configuration
    quick = Configure.build(original.wall_tiles, original.jam_factor_tenths, 100, original.snapshot_ms)
    table.shuffle()
    table.link.reconfigure(quick)  # a 100 ms watchdog, so it trips while the walls are still being stacked
    try:
        table.link.command(BuildWalls())
        sim.silence_host(1.0)
        state = table.link.wait_snapshot(lambda s: s.fault is FaultKind.HOST_SILENT, 1.0)
        assert state is not None, "the MCU kept its motors running with a silent host"
        assert not state.flags & StateFlag.MOTORS_ON, "motors still on"
        bench.outputs_off()
    finally:
        sim.silence_host(0)
        table.link.reconfigure(original)
    bench.recover()
    return f"motors stopped, HOST_SILENT latched ({sim.watchdog_trips} trip)"


def _noise(bench: Bench) -> str:
    assert bench.sim is not None
    sim = bench.sim
    start = len(sim.tokens())
    sim.set_noise(Noise(corrupt=0.05, drop=0.1))
    try:
        for token in range(200):
            bench.table.nop(token)
    finally:
        sim.set_noise(QUIET)
    tokens = sim.tokens()[start:]
    assert tokens == list(range(200)), "commands lost, repeated or reordered"
    return f"200 commands exactly once in order, {bench.table.link.stats.retransmits} resent"


def _mode_change(bench: Bench) -> str:
    table = bench.table
    original = table.link.configuration
    other = McuConfig(tile_set="136" if sum(original.wall_tiles) == 144 else "144")
    table.shuffle()
    table.reconfigure(other)
    try:
        walls = table.build_walls()
        assert walls.targets == original.wall_tiles, f"the new tile count applied mid-cycle: {walls.targets}"
        table.lift_walls()
        table.lower_platforms()
        table.shuffle()
        walls = table.build_walls()
        assert walls.counts == other.wall_tiles, f"next cycle built {walls.counts}, expected {other.wall_tiles}"
        table.lift_walls()
        table.lower_platforms()
    finally:
        table.link.reconfigure(original)
    return f"{sum(original.wall_tiles)} → {other.tile_set} tiles applied at the next cycle"


CHECKS = (
    Check("handshake", _handshake),
    Check("link round trip", _round_trip),
    Check("dealer lamps", _lamps),
    Check("diagnostic mode", _diagnostic, motion=True),
    Check("full cycle", _cycle, motion=True),
    Check("emergency stop", _emergency_stop, motion=True),
    Check("tile-count change", _mode_change, motion=True),
    Check("stacker jam", _jam, motion=True, simulator_only=True),
    Check("miscount", _miscount, motion=True, simulator_only=True),
    Check("lift travel timeout", _travel, motion=True, simulator_only=True),
    Check("MCU reset mid-build", _reset, motion=True, simulator_only=True),
    Check("host-silence watchdog", _silence, motion=True, simulator_only=True),
    Check("noisy line", _noise, simulator_only=True),
    Check("hatch switch never closes", _dead_hatch, motion=True, injection=True),
    Check("stepper step limit", _step_limit, motion=True, injection=True),
    Check("disc index never counts", _dead_disc, motion=True, injection=True),
    Check("lowering switch never closes", _dead_lowering, motion=True, injection=True),
    Check("driver fault at rest", _driver_fault, injection=True),
    Check("over-current", _overcurrent, motion=True, injection=True),
    Check("stalled main loop", _stalled_loop, injection=True),
    Check("hard fault", _hard_fault, motion=True, simulator_only=True),
    Check("line flood", _flood, motion=True),
)
CHECK_NAMES = tuple(check.name for check in CHECKS)


def run_suite(
    table: Table,
    sim: Simulated | None,
    allow_motion: bool,
    *,
    allow_injection: bool = False,
    prompt: Prompt | None = None,
    only: tuple[str, ...] = (),
) -> list[Outcome]:
    """Run every check in order (or those named in ``only``); a failing check does not stop the others.
    ``prompt`` asks the technician for a fault by hand (a real table with ``allow_injection``)."""
    bench = Bench(table, sim, prompt=prompt)
    table.link.add_listener(bench.observe)
    outcomes = []
    for check in CHECKS:
        if only and check.name not in only:
            continue
        if check.simulator_only and sim is None:
            why = "needs the simulator"
            if check.name == "hard fault":
                why = "needs a simulated board: a hard fault is injected through its side channel"
            outcomes.append(Outcome(check.name, "SKIP", 0.0, (), why))
            continue
        if check.injection and sim is None and not (allow_injection and prompt is not None):
            why = "injects a fault: pass --allow-injection (you make it by hand when asked, or the MCU resets itself)"
            outcomes.append(Outcome(check.name, "SKIP", 0.0, (), why))
            continue
        if check.motion and not allow_motion:
            outcomes.append(Outcome(check.name, "SKIP", 0.0, (), "moves motors: pass --allow-motion"))
            continue
        bench.faults_seen = []
        start = time.monotonic()
        try:
            status, detail = "PASS", check.run(bench)
        except (AssertionError, BridgeError) as exc:
            status, detail = "FAIL", f"{type(exc).__name__}: {exc}"
            with contextlib.suppress(BridgeError):
                bench.recover()
        outcomes.append(Outcome(check.name, status, time.monotonic() - start, tuple(bench.faults_seen), detail))
    return outcomes


def format_table(outcomes: list[Outcome]) -> str:
    """The pass/fail table a technician reads."""
    rows = [("check", "result", "time", "fault codes seen", "detail")]
    rows += [(o.name, o.status, f"{o.seconds:.2f}s", ", ".join(o.faults) or "-", o.detail) for o in outcomes]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True)) + "  " + row[4]
             for row in rows]  # fmt: skip
    passed = sum(o.status == "PASS" for o in outcomes)
    failed = sum(o.status == "FAIL" for o in outcomes)
    lines.insert(1, "-" * len(lines[0]))
    lines.append(f"{passed} passed, {failed} failed, {len(outcomes) - passed - failed} skipped")
    return "\n".join(lines)
