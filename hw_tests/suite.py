"""The hardware test suite: checks a technician runs against a table (or the simulator), one line each.

Each check gets a ``Bench`` (the table, the simulator when there is one, the fault codes seen) and raises
``AssertionError`` (or a bridge error) to fail. Checks that move motors are skipped on a real table unless
``--allow-motion``; checks that inject faults need the simulator and are skipped on a real table.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge.config import McuConfig
from firmware_bridge.errors import BridgeError, CommandRejected, McuReset, TableFault
from firmware_bridge.messages import (
    WIND_LAMP,
    BuildWalls,
    Configure,
    FaultKind,
    LampPattern,
    Mechanism,
    Phase,
    Shuffle,
    Snapshot,
    StateFlag,
)
from firmware_bridge.table import Table
from hw_tests.faults import QUIET, FaultPlan, Jam, Noise, ResetDuring
from hw_tests.simulator import McuSimulator


@dataclass
class Bench:
    """What a check works with; ``faults_seen`` collects every fault code a snapshot showed during the check."""

    table: Table
    sim: McuSimulator | None
    faults_seen: list[str] = field(default_factory=list)

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
    dice = table.roll_dice()
    assert all(1 <= value <= 6 for value in dice), f"dice {dice}"
    table.lower_platforms()
    return f"walls {'/'.join(map(str, walls.counts))} of set {walls.built_set}, dice {dice[0]}+{dice[1]}"


def _emergency_stop(bench: Bench) -> str:
    table = bench.table
    table.link.command(Shuffle())  # not waiting for the mix: the stop must catch the disc turning
    moving = table.link.wait_snapshot(lambda s: bool(s.flags & StateFlag.MOTORS_ON), 2.0)
    assert moving is not None, "the disc did not start"
    latency = table.emergency_stop()
    state = table.link.wait_snapshot(lambda s: s.fault is FaultKind.EMERGENCY_STOP, 1.0)
    assert state is not None, "no EMERGENCY_STOP fault latched"
    assert not state.flags & StateFlag.MOTORS_ON, "motors still on"
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
    bench.recover()
    return f"latched {code}"


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
)


def run_suite(table: Table, sim: McuSimulator | None, allow_motion: bool) -> list[Outcome]:
    """Run every check in order; a failing check does not stop the others."""
    bench = Bench(table, sim)
    table.link.add_listener(bench.observe)
    outcomes = []
    for check in CHECKS:
        if check.simulator_only and sim is None:
            outcomes.append(Outcome(check.name, "SKIP", 0.0, (), "needs the simulator"))
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
