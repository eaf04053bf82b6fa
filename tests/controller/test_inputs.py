"""Seat buttons, the lift switch and the dice keys as journaled events (issue 6, "The service": "Events from ...
seat buttons (claim, hu, dice, lift) and the MCU go to the referee; every verdict ... is shown, never dropped"),
and the hand lifecycle with two tile sets ("while one is played, the other is shuffled and built")."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from controller.config import Config
from controller.display.view import TableView
from controller.errors import TableStopped
from controller.service.inputs import VOID_HOLD_S, Button, Press, SeatInputs
from controller.service.journal import Journal
from controller.service.records import hand_log, run_records
from controller.service.service import Service, journal_path, serve
from controller.service.tableside import open_table
from firmware_bridge.config import GpioConfig
from firmware_bridge.gpio import Panel
from firmware_bridge.messages import Mechanism
from hw_tests.faults import NO_FAULTS, FaultPlan, Jam
from hw_tests.simulator import McuSimulator

HOLD = 1.0


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def wired():
    factory, clock, gpio = MockFactory(), Clock(), GpioConfig()
    panel = Panel(gpio, factory, clock)
    inputs = SeatInputs(panel, clock, HOLD)
    yield factory, clock, gpio, inputs
    panel.close()


def _press(factory, clock, pin, held_s: float) -> None:
    clock.now += 1.0
    factory.pin(pin).drive_low()
    clock.now += held_s
    factory.pin(pin).drive_high()


def _all(inputs: SeatInputs) -> list[Press]:
    presses = []
    while (press := inputs.take()) is not None:
        presses.append(press)
    return presses


def test_a_short_press_claims_a_held_one_declares_hu_and_the_lift_switch_is_the_dealers(wired):
    factory, clock, gpio, inputs = wired
    inputs.dealer = 2
    _press(factory, clock, gpio.seat_buttons[1], 0.2)
    _press(factory, clock, gpio.seat_buttons[3], HOLD)  # held exactly the hold time: hu
    _press(factory, clock, gpio.seat_buttons[0], HOLD - 0.01)
    _press(factory, clock, gpio.lift_switch, 0.1)
    assert _all(inputs) == [
        Press(Button.CLAIM, 1),
        Press(Button.HU, 3),
        Press(Button.CLAIM, 0),
        Press(Button.LIFT, 2),
    ]


def test_the_lift_switch_held_three_seconds_is_the_dealers_void(wired):
    factory, clock, gpio, inputs = wired
    inputs.dealer = 1
    _press(factory, clock, gpio.lift_switch, VOID_HOLD_S - 0.01)
    _press(factory, clock, gpio.lift_switch, VOID_HOLD_S)
    assert _all(inputs) == [Press(Button.LIFT, 1), Press(Button.VOID, 1)]


def test_contact_bounce_makes_one_press_and_a_stray_release_none(wired):
    factory, clock, gpio, inputs = wired
    pin = factory.pin(gpio.seat_buttons[2])
    clock.now += 1.0
    pin.drive_low()
    clock.now += 0.005
    pin.drive_high()  # the contact bounces open and shut within the debounce time
    clock.now += 0.005
    pin.drive_low()
    clock.now += 0.3
    pin.drive_high()
    assert _all(inputs) == [Press(Button.CLAIM, 2)]


FAST = {"speed": 1000.0}


def _config(tmp_path, **service) -> Config:
    return Config().with_service(http="off", state_dir=str(tmp_path), **{**FAST, **service})


def _journal(config: Config) -> list[list]:
    with Journal(journal_path(config)) as journal:
        (run,) = journal.runs()
        return [journal.events(hand.id) for hand, _ in journal.hands(run.id)]


def _step(event) -> str:
    return f"pressed:{event.data['button']}" if event.kind == "button" else event.data["step"]


def test_claims_and_hu_come_by_the_seat_buttons_lift_and_dice_by_the_dealer(tmp_path):
    config = _config(tmp_path, seed=1, hands=2)
    lines: list[dict] = []
    serve(config, lines.append)
    hands = _journal(config)
    for events, result in zip(hands, lines, strict=False):
        actions = [e.data for e in events if e.kind == "action"]
        pressed = [a for a in actions if a["action"]["kind"] in ("chi", "pung", "kong", "hu")]
        assert pressed and {(a["source"], a["button"]) for a in pressed} <= {("button", "claim"), ("button", "hu")}
        assert all(a["button"] == "hu" for a in pressed if a["action"]["kind"] == "hu")
        assert [a["action"]["seat"] for a in pressed if a["action"]["kind"] == "hu"] == [
            w["seat"] for w in result["wins"]
        ]
        assert {a["source"] for a in actions if a not in pressed} == {"bot"}
        lift, dice = [e for e in events if e.kind == "button"]
        assert lift.data == {"button": "lift", "seat": result["dealer"]}
        assert dice.data == {"button": "dice", "seat": result["dealer"]}


def test_the_other_set_is_built_while_the_hand_is_played(tmp_path):
    """DESIGN.md 'Data flow': one set is played while the other is shuffled and built; each step confirmed."""
    config = _config(tmp_path, seed=2, hands=2)
    serve(config, lambda line: None)
    first, second = _journal(config)
    steps = [[_step(e) for e in events if e.kind in ("table", "button")] for events in (first, second)]
    building = ["next:shuffled", "next:walls_built"]
    dealing = ["pressed:lift", "lifted", "lowered", "pressed:dice"]
    assert steps[0] == ["hatch_open", "intake", "shuffled", "walls_built", *dealing, *building]
    assert steps[1] == ["hatch_open", "intake", *dealing, *building]  # hand 0's set in, hand 1's walls up
    for events in (first, second):
        kinds = [e.kind.value if e.kind != "table" else e.data["step"] for e in events]
        assert kinds.index("next:walls_built") < len(kinds) - 1 - kinds[::-1].index("action"), "built after play"
    built = [e.data for events in (first, second) for e in events if e.kind == "table" and "set" in e.data]
    assert [b["set"] for b in built] == [1, 0, 1]  # the two sets take turns
    assert all(b["counts"] == [34] * 4 for b in built)


def _jam_during_hand_0(side):
    """Inject a stacker jam once hand 0 is dealt: it hits the walls being built under the table."""

    def listen(hand, event, verdict):
        if event.kind == "table" and event.data["step"] == "lowered" and hand.record.number == 0:
            side.simulator.inject(FaultPlan(jams=(Jam(Mechanism.STACKER, 2, 4),)))

    return listen


def test_a_jam_while_the_next_walls_are_built_is_shown_and_the_hand_plays_on_then_the_run_stops(tmp_path):
    config = _config(tmp_path, seed=3, hands=2)
    lines: list[dict] = []
    with Journal(journal_path(config)) as journal, open_table(config) as side:
        service = Service(config, side, journal, lines.append, listeners=(_jam_during_hand_0(side),))
        with pytest.raises(TableStopped) as stopped:
            service.run()
    assert stopped.value.code == "JAM/STACKER/side2"
    fault, result = lines
    assert fault == {"fault": "JAM/STACKER/side2", "hint": stopped.value.hint, "hand": 0}
    assert result["hand"] == 0  # the hand above the jam was played to its end and recorded
    (events,) = _journal(config)
    kinds = [e.kind.value for e in events]
    assert kinds.index("fault") < len(kinds) - 1 - kinds[::-1].index("action")  # shown while play went on
    resumed: list[dict] = []
    serve(config, resumed.append)  # the technician cleared the jam and restarted the service
    clean: list[dict] = []
    serve(_config(tmp_path / "clean", seed=3, hands=2), clean.append)
    assert [result, *resumed[:-1]] == clean[:-1] and resumed[-1]["scores"] == clean[-1]["scores"]


def test_with_on_fault_wait_a_jam_under_the_table_waits_for_the_technician(tmp_path):
    config = _config(tmp_path, seed=3, hands=2, on_fault="wait")
    lines: list[dict] = []
    view = TableView()
    with Journal(journal_path(config)) as journal, open_table(config) as side:
        jam = _jam_during_hand_0(side)

        def repair(line: dict) -> None:
            lines.append(line)
            view.on_line(line)
            if "fault" in line:
                assert view.snapshot()["fault"]["code"] == "JAM/STACKER/side2"
                side.simulator.inject(NO_FAULTS)  # the technician clears the jam ...
                service.resume.set()  # ... and presses resume on the display

        service = Service(config, side, journal, repair, listeners=(jam, view.on_event))
        service.run()
    assert lines[0] == {
        "fault": "JAM/STACKER/side2",
        "hint": lines[0]["hint"],
        "hand": 0,
        "waiting": "POST /api/resume",
    }
    clean: list[dict] = []
    serve(_config(tmp_path / "clean", seed=3, hands=2), clean.append)
    assert lines[1:] == clean
    first, _ = _journal(config)
    steps = [_step(e) for e in first if e.kind in ("table", "button")]
    assert steps[-1] == "next:walls_built" and steps.count("next:walls_built") == 1


def _pressing(side, presses: list[tuple[int, bool]], at_move: int = 20):
    """A listener that, after the ``at_move``-th bot move, presses seats' buttons (seat offset from the mover,
    held for hu) as people would who have not called anything."""
    moves = []

    def listen(hand, event, verdict):
        if event.kind == "action" and event.data["source"] != "button":
            moves.append(event)
            if len(moves) == at_move:
                for offset, hu in presses:
                    side.hands.seat((event.data["action"]["seat"] + offset) % 4, hu=hu)

    return listen


def _run_watched(config: Config, presses: list[tuple[int, bool]]) -> tuple[list[dict], list[dict]]:
    """The run's lines and every state of the display, read by a slow page (every 7th change only)."""
    view = TableView()
    seen: list[dict] = []
    lines: list[dict] = []

    def sample(hand, event, verdict):
        if view.snapshot()["version"] % 7 == 0:
            seen.append(view.snapshot())

    def show(line: dict) -> None:
        view.on_line(line)
        lines.append(line)

    with Journal(journal_path(config)) as journal, open_table(config) as side:
        listeners = (_pressing(side, presses), view.on_event, sample)
        Service(config, side, journal, show, listeners=listeners).run()
    return lines, [*seen, view.snapshot()]


def test_a_claim_press_with_no_meld_called_is_answered_shown_and_changes_nothing(tmp_path):
    lines, states = _run_watched(_config(tmp_path, seed=4, hands=1), [(1, False)])
    logged = {v["n"]: v for state in states for v in state["verdicts"]}
    refused = [v for v in logged.values() if v.get("ok") is False]
    assert [(v["event"]["kind"], v["event"]["button"]) for v in refused] == [("button", "claim")]
    assert "claims nothing" in refused[0]["reason"]
    with Journal(journal_path(_config(tmp_path))) as journal:
        log = hand_log(run_records(journal)[0])  # the floor manager's readable hand log shows the presses
    assert "pressed lift" in log and "pressed dice" in log
    assert "pressed claim: ILLEGAL: seat" in log and "button  seat" in log
    clean: list[dict] = []
    serve(_config(tmp_path / "clean", seed=4, hands=1), clean.append)
    assert lines == clean


def test_a_false_hu_by_the_button_is_penalised_and_every_verdict_reaches_the_page(tmp_path):
    """rules-A.md 诈和 (false win): declaring a win that does not meet the rules; MCR penalises it and play goes on.
    The page reads the state only now and then, and still sees every verdict in the numbered log."""
    lines, states = _run_watched(_config(tmp_path, seed=4, hands=1), [(2, True)])
    logged = {v["n"]: v for state in states for v in state["verdicts"]}
    assert sorted(logged) == list(range(1, max(logged) + 1)), "a verdict fell between two reads"
    (false_hu,) = [v for v in logged.values() if v.get("event", {}).get("button") == "hu" and "false" in str(v)]
    assert false_hu["ok"] and any("false win" in event for event in false_hu["events"])
    assert logged[max(logged)]["result"] == {"drawn": lines[0]["drawn"], "wins": lines[0]["wins"]}
    clean: list[dict] = []
    serve(_config(tmp_path / "clean", seed=4, hands=1), clean.append)
    assert lines[0]["payments"] != clean[0]["payments"]  # the penalty was paid


def _until(condition, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {seconds} s"
        time.sleep(0.01)


def test_people_at_a_real_table_lift_the_walls_and_throw_the_dice_themselves(tmp_path):
    """``service.wait_for_dealer``: on a table with a serial port the service waits for the dealer's lift switch
    (a Pi pin) and dice key (wired to the MCU) instead of lifting and throwing itself."""
    with McuSimulator(seed=3, speed=1000) as sim:
        data = {"bridge": {"link": {"port": sim.path}}, "service": {"wait_for_dealer": True}}
        config = Config.from_dict(data).with_service(http="off", state_dir=str(tmp_path), seed=5, hands=1, speed=1000.0)
        seen: list = []
        dealers: list[int] = []

        def listen(hand, event, verdict) -> None:
            seen.append(event)
            dealers.append(hand.record.dealer)

        with open_table(config) as side:
            assert side.hands is None  # nobody simulated presses anything

            def play() -> None:  # the journal belongs to the thread that plays
                with Journal(journal_path(config)) as journal:
                    Service(config, side, journal, lambda line: None, listeners=(listen,)).run()

            runner = threading.Thread(target=play)
            runner.start()
            try:
                steps = lambda: [_step(e) for e in seen if e.kind in ("table", "button")]  # noqa: E731
                _until(lambda: "walls_built" in steps(), "walls built")
                time.sleep(0.3)
                assert steps()[-1] == "walls_built"  # waiting for the lift switch
                pin = side.panel.lift_switch.button.pin
                pin.drive_low()
                pin.drive_high()
                _until(lambda: "lifted" in steps(), "lift")
                time.sleep(0.3)
                assert "pressed:dice" not in steps() and not any(e.kind == "dice" for e in seen)
                dealer = dealers[0]
                sim.press_key(dealer, True)
                _until(lambda: any(e.kind == "dice" for e in seen), "dice")
                sim.press_key(dealer, False)
            finally:
                runner.join(60)
        assert not runner.is_alive()
    assert steps()[:8] == ["hatch_open", "intake", "shuffled", "walls_built", "pressed:lift", "lifted", "lowered",
                           "pressed:dice"]  # fmt: skip
    assert [e.data for e in seen if e.kind == "button"][:2] == [
        {"button": "lift", "seat": dealer},
        {"button": "dice", "seat": dealer},
    ]
