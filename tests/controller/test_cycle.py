"""The table cycle in the order of a real two-set table, as the MCU sees it (controller/service/cycle.py): at the
end of a hand the used set goes in through the hatch, and only then the set built during the hand lifts."""

from controller.config import Config
from controller.service.cycle import lowered_since_lift
from controller.service.journal import Journal
from controller.service.service import Service, journal_path
from controller.service.tableside import open_table
from firmware_bridge.messages import Hatch, Mechanism, Message, MsgType
from hw_tests.faults import NO_FAULTS, FaultPlan, Jam

MOTION = (MsgType.HATCH, MsgType.SHUFFLE, MsgType.BUILD_WALLS, MsgType.LIFT_WALLS, MsgType.LOWER_PLATFORMS)


def _name(message: Message) -> str:
    if isinstance(message, Hatch):
        return "hatch open" if message.open else "hatch close"
    return message.TYPE.name.lower()


def test_every_hand_takes_the_used_set_in_before_the_built_walls_lift(tmp_path):
    """The brief's real order: hatch open, intake, hatch close, lift, lower, then dice and play, while the set
    just taken in is shuffled and built; the first hand, with nothing built, builds before its lift."""
    config = Config().with_service(http="off", state_dir=str(tmp_path), seed=2, hands=3, speed=1000.0)
    with Journal(journal_path(config)) as journal, open_table(config) as side:
        Service(config, side, journal, lambda line: None).run()
        executed = [item.message for item in side.simulator.executed]
    seen = [_name(message) for message in executed if message.TYPE in MOTION]
    intake = ["hatch open", "hatch close"]
    building = ["shuffle", "build_walls"]
    dealing = ["lift_walls", "lower_platforms"]
    assert seen == [
        *intake, *building, *dealing, *building,  # hand 0: nothing built yet
        *intake, *dealing, *building,  # hand 1: hand 0's set in, then the walls built during hand 0 up
        *intake, *dealing, *building,  # hand 2
    ]  # fmt: skip
    rolls = [index for index, message in enumerate(executed) if message.TYPE is MsgType.ROLL_DICE]
    lowers = [index for index, message in enumerate(executed) if message.TYPE is MsgType.LOWER_PLATFORMS]
    assert len(rolls) == 3 and all(lower < roll for lower, roll in zip(lowers, rolls, strict=True))


def test_a_lift_jammed_after_the_intake_waits_for_the_technician_then_lifts_without_a_second_intake(tmp_path):
    """PROTOCOL.md §4 faults: LIFTING falls back to WALLS_READY; with ``on_fault = "wait"`` the fault is shown with
    its side and hint, and after the repair the lift is repeated, the used set already in."""
    config = Config().with_service(http="off", state_dir=str(tmp_path), seed=2, hands=2, speed=1000.0, on_fault="wait")
    lines: list[dict] = []
    steps: list[str] = []
    with Journal(journal_path(config)) as journal, open_table(config) as side:

        def jam_after_intake(hand, event, verdict) -> None:
            if hand.record.number == 1 and event.kind == "table":
                steps.append(event.data["step"])
                if event.data["step"] == "intake":
                    side.simulator.inject(FaultPlan(jams=(Jam(Mechanism.LIFT, 1),)))

        def repair(line: dict) -> None:
            lines.append(line)
            if "fault" in line:
                assert side.simulator.model.phase.name == "WALLS_READY"  # the stable phase before the lift
                side.simulator.inject(NO_FAULTS)  # the technician takes the tile from under plate 1 ...
                service.resume.set()  # ... and resumes

        service = Service(config, side, journal, repair, listeners=(jam_after_intake,))
        service.run()
    fault = lines[1]
    assert fault["fault"] == "TRAVEL_TIMEOUT/LIFT/side1" and "lift plate of side 1" in fault["hint"]
    assert steps == ["hatch_open", "intake", "lifted", "lowered", "next:shuffled", "next:walls_built"]
    clean = Config().with_service(http="off", state_dir=str(tmp_path / "clean"), seed=2, hands=2, speed=1000.0)
    reference: list[dict] = []
    with Journal(journal_path(clean)) as journal, open_table(clean) as side:
        Service(clean, side, journal, reference.append).run()
    assert [line for line in lines if "fault" not in line] == reference


def test_the_cycle_goes_on_after_a_lowering_only_when_it_follows_this_hands_lift():
    assert lowered_since_lift(["hatch_open", "intake", "pressed:lift", "lifted", "lowered"])
    assert lowered_since_lift(["lifted", "lowered", "pressed:dice"])
    assert not lowered_since_lift(["hatch_open", "intake", "pressed:lift", "lifted"])  # a restart after the lift
    assert not lowered_since_lift(["lowered", "hatch_open", "intake"])  # the platforms of an interrupted cycle
    assert not lowered_since_lift(["lifted", "lowered", "hatch_open", "intake", "lifted"])
