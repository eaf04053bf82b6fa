"""The typed Table API against the simulator: calls complete on confirmation and fail with clear errors."""

import logging
import time

import pytest

from firmware_bridge.config import McuConfig
from firmware_bridge.errors import BridgeTimeout, CommandRejected, TableFault
from firmware_bridge.messages import Ack, LampPattern, Mechanism, MsgType, Phase, Sensor, Snapshot, StateFlag
from hw_tests.faults import FaultPlan, Jam
from hw_tests.harness import simulated_table


def test_a_full_cycle_builds_both_sets_in_turn():
    with simulated_table(seed=1, speed=50) as (_sim, table):
        sets = []
        for _ in range(2):
            assert table.open_hatch().sensors & Sensor.HATCH_OPEN
            table.close_hatch()
            table.shuffle()
            walls = table.build_walls()
            assert walls.counts == walls.targets == (34, 34, 34, 34)
            sets.append(walls.built_set)
            lifted = table.lift_walls()
            assert lifted.sensors & 0x0F == 0x0F
            first, second = table.roll_dice()
            assert 1 <= first <= 6 and 1 <= second <= 6
            assert table.lower_platforms().phase is Phase.IDLE
        assert sets == [1, 0]


def test_the_used_set_goes_in_above_the_built_walls_before_they_lift():
    """PROTOCOL.md §4, the two-set cycle: the hatch opens in WALLS_READY, a lift is refused until it is shut."""
    with simulated_table(seed=11, speed=50) as (_sim, table):
        table.shuffle()
        built = table.build_walls()
        assert table.open_hatch().phase is Phase.INTAKE_OPEN
        with pytest.raises(CommandRejected, match=r"LIFT_WALLS refused .*BUSY \(phase INTAKE_OPEN, hatch not closed\)"):
            table.lift_walls()
        with pytest.raises(CommandRejected, match=r"SHUFFLE refused by the MCU: BUSY"):
            table.shuffle()
        closed = table.close_hatch()
        assert closed.phase is Phase.WALLS_READY and closed.built_set == built.built_set
        assert closed.counts == built.counts == (34, 34, 34, 34)
        assert table.lift_walls().phase is Phase.LIFTED
        assert table.lower_platforms().phase is Phase.IDLE
        table.shuffle()  # the set just taken in, while the lifted walls are played
        assert table.build_walls().built_set != built.built_set


def test_dice_follow_the_seed():
    rolls = []
    for _ in range(2):
        with simulated_table(seed=42, speed=50) as (_sim, table):
            rolls.append([table.roll_dice() for _ in range(3)])
    assert rolls[0] == rolls[1]


@pytest.mark.parametrize(
    ("plan", "code"),
    [
        (FaultPlan(jams=(Jam(Mechanism.STACKER, 2, 4),)), "JAM/STACKER/side2"),
        (FaultPlan(short_side=1), "MISCOUNT/STACKER/side1"),
    ],
)
def test_build_faults_raise_with_the_code(plan, code):
    with simulated_table(seed=2, speed=50, faults=plan) as (sim, table):
        table.shuffle()
        with pytest.raises(TableFault, match=code) as caught:
            table.build_walls()
        assert caught.value.code == code
        assert not table.state.flags & StateFlag.MOTORS_ON
        with pytest.raises(CommandRejected, match=f"FAULTED \\(fault {code} latched: clear_fault\\(\\) first\\)"):
            table.build_walls()
        sim.inject(FaultPlan())
        table.clear_fault()
        assert table.build_walls().counts == (34, 34, 34, 34)


def test_jam_is_detected_within_k_learned_intervals():
    with simulated_table(seed=3, speed=20, faults=FaultPlan(jams=(Jam(Mechanism.STACKER, 0, 5),))) as (sim, table):
        table.shuffle()
        with pytest.raises(TableFault):
            table.build_walls()
        faulted = time.monotonic()
        started = next(item.at for item in sim.executed if item.message.TYPE is MsgType.BUILD_WALLS)
        interval = 1.2 / 20
        # five stacks at the nominal interval, then the sensor stays dark for jam_factor (3) x the learned interval
        assert table.state.counts[0] == 10
        assert sim.model.learned[0] == pytest.approx(interval, rel=0.25)
        assert 6 * interval < faulted - started < 10 * interval + 0.1


def test_lift_travel_timeout():
    with simulated_table(seed=4, speed=50, faults=FaultPlan(jams=(Jam(Mechanism.LIFT, 3),))) as (_sim, table):
        table.shuffle()
        table.build_walls()
        with pytest.raises(TableFault) as caught:
            table.lift_walls()
        assert caught.value.code == "TRAVEL_TIMEOUT/LIFT/side3"
        assert table.state.phase is Phase.WALLS_READY


def test_wrong_phase_is_refused_by_name():
    with simulated_table(seed=5, speed=50) as (_sim, table), pytest.raises(CommandRejected, match=r"LIFT_WALLS .*BUSY"):
        table.lift_walls()


def test_timeout_names_the_goal_and_the_phase():
    with simulated_table(seed=6, speed=1) as (_sim, table):
        table.time_scale = 1.0
        with pytest.raises(BridgeTimeout, match=r"SHUFFLE: not tiles mixed within 0\.20 s \(phase SHUFFLING\)"):
            table.shuffle(timeout=0.2)
        table.emergency_stop()


def test_diagnostic_mode_refuses_motion_and_shows_the_test_number():
    with simulated_table(seed=7, speed=50) as (sim, table):
        table.diagnostic(5)
        assert [sim.model.lamps[seat][0] for seat in range(4)] == [
            LampPattern.OFF, LampPattern.STEADY, LampPattern.OFF, LampPattern.STEADY,
        ]  # fmt: skip
        assert table.link.wait_snapshot(lambda s: bool(s.flags & StateFlag.DIAGNOSTIC), 1.0)
        with pytest.raises(CommandRejected, match="DIAGNOSTIC"):
            table.open_hatch()
        table.diagnostic(0)
        table.open_hatch()


def test_lamps_and_dealer_reach_the_mcu():
    with simulated_table(seed=8, speed=50) as (sim, table):
        table.set_lamp(4, LampPattern.BLINK, 0.5)
        assert sim.model.lamps[4] == (LampPattern.BLINK, 500)
        table.set_dealer(3, 1)
        assert sim.model.dealer == (3, 1)
        with pytest.raises(CommandRejected, match="lamp 7 does not exist"):
            table.set_lamp(7, LampPattern.STEADY)
        with pytest.raises(CommandRejected, match="BAD_ARGUMENT"):
            table.set_lamp(1, LampPattern.BLINK, 0.01)


def test_tile_count_change_waits_for_the_cycle_boundary():
    with simulated_table(seed=9, speed=50) as (sim, table):
        table.shuffle()
        table.reconfigure(McuConfig(tile_set="144"))
        assert table.link.wait_snapshot(lambda s: bool(s.flags & StateFlag.MODE_PENDING), 1.0)
        assert table.build_walls().counts == (34, 34, 34, 34)
        table.lift_walls()
        table.lower_platforms()
        table.shuffle()
        assert table.build_walls().counts == (36, 36, 36, 36)
        sim.reset()  # and a reset now restores the new configuration, not the old one
        assert table.link.wait_snapshot(lambda s: s.targets == (36,) * 4 and s.flags & StateFlag.CONFIGURED, 3.0)


def test_one_log_line_per_state_change(caplog):
    with simulated_table(seed=10, speed=50) as (_sim, table):
        caplog.set_level(logging.INFO, logger="firmware_bridge")
        table.open_hatch()
        table.close_hatch()
        time.sleep(0.5)  # a few periodic snapshots more, which change nothing
    phases = [record.getMessage() for record in caplog.records if record.getMessage().startswith("table phase")]
    assert phases == ["table phase INTAKE_OPEN", "table phase IDLE"]


def test_a_move_is_judged_by_snapshots_sent_after_its_acknowledgement():
    """The snapshot in hand when a command's ACK arrives may predate the command: the MCU need not send one between
    two commands' ACKs (the firmware, a loaded loop, did not), and a noisy line loses snapshots. After a clear the
    one in hand still shows the fault, and a build sent then was reported stopped by it while the MCU went on
    stacking (the hardware suite failed so on a loaded machine). Here the snapshot after the clear is lost, and
    the reader dwells 0.2 s before the snapshot that follows any other ACK, as a loaded host's would."""
    with simulated_table(seed=3, speed=50) as (sim, table):
        sim.inject(FaultPlan(short_side=3))
        table.shuffle()
        with pytest.raises(TableFault, match="MISCOUNT"):
            table.build_walls()
        sim.inject(FaultPlan())
        link = table.link
        dispatch, last = link._dispatch, None

        def lose_the_snapshot_after_a_clear(seq: int, message: object) -> None:
            nonlocal last
            after, last = last, message
            if isinstance(after, Ack) and isinstance(message, Snapshot):
                if after.command is MsgType.CLEAR_FAULT:
                    return
                time.sleep(0.2)
            dispatch(seq, message)

        link._dispatch = lose_the_snapshot_after_a_clear
        table.clear_fault()
        assert table.state.fault_code == "MISCOUNT/STACKER/side3"  # what the caller holds after the ACK
        walls = table.build_walls()
        assert walls.counts == walls.targets and not walls.fault_code
