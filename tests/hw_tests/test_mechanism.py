"""The mechanism model alone, on a virtual clock: phases, timings, jams, miscounts, the cycle boundary."""

import random

import pytest

from firmware_bridge.messages import (
    BuildWalls,
    ClearFault,
    Configure,
    FaultKind,
    Hatch,
    LiftWalls,
    LowerPlatforms,
    Mechanism,
    Phase,
    Result,
    RollDice,
    Sensor,
    Shuffle,
    StateFlag,
)
from hw_tests.errors import HarnessError
from hw_tests.faults import NO_FAULTS, FaultPlan, Jam, Noise
from hw_tests.mechanism import TableModel, Timings

CONFIG_136 = Configure.build((34, 34, 34, 34), 30, 1000, 200)


def model(faults=NO_FAULTS, seed=0):
    table = TableModel(random.Random(seed), Timings(), faults)
    assert table.configure(CONFIG_136, first=True) is Result.OK
    return table


def run(table, message, now):
    assert table.execute(message, now) is Result.OK


def build(table, now=0.0):
    run(table, Shuffle(), now)
    run(table, BuildWalls(), now)
    table.advance(now + 60)


def test_a_cycle_takes_realistic_time():
    table = model()
    run(table, Shuffle(), 0.0)
    run(table, BuildWalls(), 0.0)
    table.advance(7.0)
    assert table.phase is Phase.SHUFFLING  # 8 s ± 10 % of mixing first
    table.advance(9.0)
    table.advance(8.8 + 17 * 1.2 * 0.88)
    assert table.phase is Phase.STACKING
    table.advance(9.0 + 17 * 1.2 * 1.1 + 0.5)
    assert table.phase is Phase.WALLS_READY  # four sides side by side: 17 stacks, 18-35 s in all
    assert table.counts == [34, 34, 34, 34]
    run(table, LiftWalls(), 40.0)
    table.advance(42.0)
    assert table.phase is Phase.LIFTING
    table.advance(43.0)
    assert table.phase is Phase.LIFTED


def test_phase_rules():
    table = model()
    assert table.execute(LiftWalls(), 0) is Result.BUSY
    assert table.execute(Hatch(False), 0) is Result.BUSY
    run(table, Hatch(True), 0)
    assert table.execute(Shuffle(), 0.1) is Result.BUSY
    table.advance(2)
    run(table, Hatch(False), 2)
    assert table.execute(Shuffle(), 2.1) is Result.BUSY  # the hatch is still closing
    table.advance(4)
    run(table, Shuffle(), 4)


def test_jam_after_k_times_the_learned_interval():
    table = model(FaultPlan(jams=(Jam(Mechanism.STACKER, 3, 4),)))
    run(table, Shuffle(), 0)
    table.advance(10)
    run(table, BuildWalls(), 10)
    table.advance(10 + 4 * 1.2 * 1.1 + 2.9 * 1.2 * 0.9)
    assert table.fault.kind is FaultKind.NONE
    table.advance(10 + 4 * 1.2 * 1.1 + 3 * 1.2 * 1.1)
    assert (table.fault.kind, table.fault.mechanism, table.fault.side) == (FaultKind.JAM, Mechanism.STACKER, 3)
    assert table.counts[3] == 8 and not table.motors_on
    assert table.phase is Phase.SHUFFLING


def test_miscount_names_the_short_side():
    table = model(FaultPlan(short_side=2))
    build(table)
    assert (table.fault.kind, table.fault.side) == (FaultKind.MISCOUNT, 2)
    assert table.counts == [34, 34, 33, 34]


def test_fault_refuses_motion_until_cleared():
    table = model()
    table.stop_all(FaultKind.OVERCURRENT, Mechanism.DISC)
    assert table.execute(Shuffle(), 0) is Result.FAULTED
    table.stop_all(FaultKind.JAM)  # the first fault wins
    assert table.fault.kind is FaultKind.OVERCURRENT
    run(table, ClearFault(), 0)
    run(table, Shuffle(), 0)


def test_new_tile_count_applies_at_the_next_shuffle():
    table = model()
    run(table, Shuffle(), 0)
    assert table.configure(Configure.build((36, 36, 36, 36), 30, 1000, 200), first=False) is Result.OK
    assert table.flags & StateFlag.MODE_PENDING
    run(table, BuildWalls(), 0)
    table.advance(60)
    assert table.counts == [34, 34, 34, 34]
    run(table, LiftWalls(), 60)
    table.advance(70)
    run(table, LowerPlatforms(), 70)
    table.advance(80)
    build(table, 80)
    assert table.counts == [36, 36, 36, 36] and not table.flags & StateFlag.MODE_PENDING


def test_odd_walls_end_in_a_half_stack():
    table = model()
    assert table.configure(Configure.build((27, 27, 27, 27), 30, 1000, 200), first=True) is Result.OK
    build(table)
    assert table.phase is Phase.WALLS_READY and table.counts == [27, 27, 27, 27]


def test_bad_configuration_is_refused():
    table = model()
    broken = Configure((34, 34, 34, 34), 30, 1000, 200, 1234)
    assert table.configure(broken, first=False) is Result.BAD_CHECKSUM
    assert table.configure(Configure.build((34, 34, 34, 90), 30, 1000, 200), first=False) is Result.BAD_ARGUMENT


def test_same_seed_same_dice_and_timings():
    def trace(seed):
        table = model(seed=seed)
        rolls = []
        for step in range(5):
            run(table, RollDice(), step * 2.0)
            table.advance(step * 2.0 + 1.5)
            rolls.append(table.dice)
        return rolls

    assert trace(7) == trace(7)
    assert trace(7) != trace(8)


def test_noise_rates_are_checked():
    with pytest.raises(HarnessError, match=r"Noise\.drop: expected a rate from 0 to 1, got 1\.5"):
        Noise(drop=1.5)


def test_jam_settings_are_checked():
    with pytest.raises(HarnessError, match=r"Jam\.side: expected 0-3, got 4"):
        Jam(Mechanism.STACKER, 4)
    with pytest.raises(HarnessError, match=r"Jam\.mechanism: the simulator jams STACKER or LIFT, not DICE"):
        Jam(Mechanism.DICE, 0)


def test_the_hatch_opens_above_the_built_walls_and_closes_back_to_them():
    """PROTOCOL.md §4, the two-set cycle: the used set goes in while the built one waits below, then it lifts."""
    table = model()
    build(table)
    built = table.built_set
    run(table, Hatch(True), 60)
    assert table.phase is Phase.INTAKE_OPEN
    for refused in (LiftWalls(), Shuffle(), BuildWalls(), LowerPlatforms(), Hatch(True)):
        assert table.execute(refused, 60.1) is Result.BUSY, refused
    table.advance(62)
    assert table.sensors & Sensor.HATCH_OPEN
    run(table, Hatch(False), 62)
    assert table.phase is Phase.WALLS_READY
    assert table.execute(LiftWalls(), 62.1) is Result.BUSY  # the hatch is still closing
    table.advance(64)
    assert table.sensors & Sensor.HATCH_CLOSED and table.counts == [34] * 4 and table.built_set == built
    run(table, LiftWalls(), 64)
    table.advance(70)
    assert table.phase is Phase.LIFTED
    run(table, LowerPlatforms(), 70)
    table.advance(73)
    run(table, Hatch(True), 73)  # the next intake from IDLE closes back to IDLE, not to the lifted walls
    table.advance(75)
    run(table, Hatch(False), 75)
    assert table.phase is Phase.IDLE


@pytest.mark.parametrize("phase", [Phase.SHUFFLING, Phase.STACKING, Phase.LIFTED])
def test_the_hatch_stays_shut_while_tiles_or_plates_move(phase):
    table = model()
    run(table, Shuffle(), 0)
    if phase is not Phase.SHUFFLING:
        run(table, BuildWalls(), 0)
        table.advance(10)
    if phase is Phase.LIFTED:
        table.advance(60)
        run(table, LiftWalls(), 60)
        table.advance(70)
    assert table.phase is phase
    assert table.execute(Hatch(True), 70) is Result.BUSY


def test_a_stop_while_the_hatch_closes_above_the_walls_keeps_them_and_a_reopen_recovers():
    """PROTOCOL.md §4: a fault stops every motor; the hatch stays half-way in its phase and HATCH repeats the move."""
    table = model()
    build(table)
    run(table, Hatch(True), 60)
    table.advance(62)
    run(table, Hatch(False), 62)
    table.advance(62.5)
    table.stop_all(FaultKind.EMERGENCY_STOP)
    assert table.phase is Phase.WALLS_READY and not table.motors_on
    assert not table.sensors & (Sensor.HATCH_OPEN | Sensor.HATCH_CLOSED)
    run(table, ClearFault(), 63)
    assert table.execute(LiftWalls(), 63) is Result.BUSY  # never through a half-shut hatch
    run(table, Hatch(True), 63)
    table.advance(65)
    run(table, Hatch(False), 65)
    table.advance(67)
    run(table, LiftWalls(), 67)
    table.advance(75)
    assert table.phase is Phase.LIFTED
