"""The mechanism model alone, on a virtual clock: phases, timings, jams, miscounts, the cycle boundary."""

import random

import pytest

from firmware_bridge.messages import (
    NO_SIDE,
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
from hw_tests.mechanism import Motor, TableModel, Timings

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
    with pytest.raises(HarnessError, match=r"Jam\.side: expected 0-3 for STACKER, got 4"):
        Jam(Mechanism.STACKER, 4)
    with pytest.raises(HarnessError, match=r"Jam\.mechanism: the simulator jams STACKER, .*DICE, not RING"):
        Jam(Mechanism.RING, 0)
    with pytest.raises(HarnessError, match=r"Jam\.side: DISC has no sides, got 0"):
        Jam(Mechanism.DISC, 0)
    with pytest.raises(HarnessError, match=r"FaultPlan\.overcurrent: the drivers are those of HATCH, DISC, STACKER, "):
        FaultPlan(overcurrent=(Mechanism.DICE,))


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


# -- motion limits, driver faults, clearing (issue 28) ------------------------------------------------------------


def fault_of(table):
    return table.fault.kind, table.fault.mechanism, table.fault.side


def lifted(table):
    """Built, hatch cycled, lifted: the table with its walls up."""
    build(table)
    run(table, LiftWalls(), 100)
    table.advance(110)
    assert table.phase is Phase.LIFTED and not table.motors_on


def test_a_hatch_whose_switch_never_closes_stops_at_k_times_its_travel():
    table = model(FaultPlan(jams=(Jam(Mechanism.HATCH),)))
    run(table, Hatch(True), 0)
    table.advance(3 * 1.5 - 0.01)
    assert table.motors_on and table.fault.kind is FaultKind.NONE
    table.advance(3 * 1.5)
    assert fault_of(table) == (FaultKind.TRAVEL_TIMEOUT, Mechanism.HATCH, NO_SIDE) and not table.motors_on
    assert table.phase is Phase.INTAKE_OPEN


def test_a_disc_whose_index_never_counts_and_dice_that_never_settle_are_run_timeouts():
    table = model(FaultPlan(jams=(Jam(Mechanism.DISC),)))
    run(table, Shuffle(), 0)
    table.advance(3 * 8.0 - 0.01)
    assert table.motors_on
    table.advance(3 * 8.0)
    assert fault_of(table) == (FaultKind.RUN_TIMEOUT, Mechanism.DISC, NO_SIDE) and table.phase is Phase.IDLE
    table = model(FaultPlan(jams=(Jam(Mechanism.DICE),)))
    run(table, RollDice(), 0)
    table.advance(3 * 1.2)
    assert fault_of(table) == (FaultKind.RUN_TIMEOUT, Mechanism.DICE, NO_SIDE)


def test_a_lowering_plate_whose_switch_never_closes_is_named():
    table = model()
    lifted(table)
    table.faults = FaultPlan(jams=(Jam(Mechanism.LIFT, 2),))
    run(table, LowerPlatforms(), 200)
    table.advance(200 + 2.0)
    assert table.motor[Motor.lift(0)] == 0 and table.motor[Motor.lift(2)] == -1  # each stops at its switch
    table.advance(200 + 3 * 2.0)
    assert fault_of(table) == (FaultKind.TRAVEL_TIMEOUT, Mechanism.LIFT, 2) and table.phase is Phase.LIFTED


def test_with_a_large_jam_factor_the_step_limit_stops_a_stepper_first():
    table = model(FaultPlan(jams=(Jam(Mechanism.HATCH),)))
    assert table.configure(Configure.build((34, 34, 34, 34), 60, 1000, 200), first=False) is Result.OK
    run(table, Hatch(True), 0)
    table.advance(4 * 1.5 - 0.01)
    assert table.motors_on
    table.advance(4 * 1.5)  # four travels' steps, before k = 6 travels' time
    assert fault_of(table) == (FaultKind.OVERTRAVEL, Mechanism.HATCH, NO_SIDE)


def test_a_driver_fault_at_rest_latches_and_keeps_the_fault_until_it_is_gone():
    table = model(FaultPlan(driver_faults=(Mechanism.LIFT,)))
    table.advance(0.1)
    assert fault_of(table) == (FaultKind.DRIVER_FAULT, Mechanism.LIFT, NO_SIDE)
    assert table.execute(ClearFault(), 0.2) is Result.DRIVER_FAULT
    table.faults = NO_FAULTS
    run(table, ClearFault(), 0.3)
    assert table.fault.kind is FaultKind.NONE


def test_over_current_names_the_running_mechanism():
    table = model(FaultPlan(overcurrent=(Mechanism.DISC, Mechanism.HATCH)))
    table.advance(0.1)
    assert table.fault.kind is FaultKind.NONE  # the hatch at rest draws nothing
    run(table, Shuffle(), 0.2)
    table.advance(0.2)
    assert fault_of(table) == (FaultKind.OVERCURRENT, Mechanism.DISC, NO_SIDE) and not table.motors_on
    run(table, ClearFault(), 0.3)  # at rest the over-current is gone


def test_clearing_is_refused_while_end_switches_contradict():
    table = model()
    table.stop_all(FaultKind.EMERGENCY_STOP)
    table.sensors |= Sensor.HATCH_OPEN  # and HATCH_CLOSED
    assert table.execute(ClearFault(), 0) is Result.SENSOR_CONFLICT
    table.sensors &= ~Sensor.HATCH_OPEN
    table.sensors |= Sensor.lift_up(1)  # and LIFT_DOWN_1
    assert table.execute(ClearFault(), 0) is Result.SENSOR_CONFLICT
    table.sensors &= ~Sensor.lift_up(1)
    run(table, ClearFault(), 0)
