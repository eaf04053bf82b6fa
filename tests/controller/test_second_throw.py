"""The wall broken by two throws of the dice (Harbin, basic's ``two_throws``): the dealer throws, the seat his throw
points to presses its own dice key and throws again, and that second throw deals the hand. Both throws come from the
table and are journaled, so bots and people play the same hand, and a restart between them asks for the second only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.config import Config
from controller.display.view import TableView
from controller.errors import JournalError
from controller.service.events import Event, EventKind
from controller.service.hand import HandRecord, HandState
from controller.service.journal import Journal
from controller.service.service import journal_path, serve
from engine.actions import Action, ActionKind
from engine.procedure import WallLayout, break_wall
from engine.procedure.dice import dice_seat
from tests.controller.test_journal_integrity import _crash_after
from tests.controller.test_people import _results

HARBIN = Config().with_service(http="off", seed=3, hands=2, speed=1000.0, rules="harbin")


def _serve(config: Config, state: Path) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    serve(config.with_service(state_dir=str(state)), lines.append)
    return _results(lines)


def _events(config: Config, state: Path) -> list[list[Event]]:
    with Journal(journal_path(config.with_service(state_dir=str(state)))) as journal:
        (run,) = journal.runs()
        return [journal.events(record.id) for record, _ in journal.hands(run.id)]


def test_the_seat_the_dealers_throw_points_to_throws_again_and_that_throw_breaks_the_wall(tmp_path):
    results = _serve(HARBIN, tmp_path)
    assert len(results) == 2
    for result, events in zip(results, _events(HARBIN, tmp_path), strict=True):
        dice = [event.data for event in events if event.kind is EventKind.DICE]
        keys = [event.data["seat"] for event in events if event.data.get("button") == "dice"]
        assert [throw["dice"] for throw in dice] == [result["dice"], result["dice2"]]
        dealer = result["dealer"]
        assert keys == [dealer, dice_seat(dealer, sum(result["dice"]))]
        record = HandRecord(result["hand"], result["seed"], dealer, 0, 1, "harbin")
        state = HandState.replay(record, events[: events.index(_second(events)) + 1])
        assert state.referee is not None  # dealt by the second throw: its count alone (Harbin), from the first's wall
        stacks = WallLayout.for_size(112).stack_counts  # Harbin's 112 tiles: 14 stacks a wall
        opened = break_wall(dealer, result["dice"], result["dice2"], "two_throws_second_sum", stacks_per_wall=stacks)
        assert state.referee.wall.state.first_take == opened.first_take


def _second(events: list[Event]) -> Event:
    return [event for event in events if event.kind is EventKind.DICE][1]


def test_a_hand_is_dealt_only_once_both_throws_are_in_and_never_thrown_for_again():
    state = HandState.start(HandRecord(0, 11, 2, 0, 1, "harbin"))
    state.apply(Event.dice((3, 4), 1.0))  # 7: the seat across from the dealer throws again
    assert state.referee is None and state.second_thrower == 0
    with pytest.raises(JournalError, match="hand 0: an action before the dice"):
        state.apply(Event.action(Action(ActionKind.DISCARD, 2, 0), "bot", 2.0))
    state.apply(Event.dice((1, 1), 2.0))
    assert state.referee is not None and state.second_thrower is None
    assert (state.dice, state.dice2, state.referee.dice2) == ((3, 4), (1, 1), (1, 1))
    with pytest.raises(JournalError, match="hand 0: dice thrown after the hand was dealt"):
        state.apply(Event.dice((2, 2), 3.0))
    one_throw = HandState.start(HandRecord(0, 11, 2, 0, 1, "mcr"))
    one_throw.apply(Event.dice((3, 4), 1.0))
    assert one_throw.referee is not None and one_throw.dice2 is None and one_throw.second_thrower is None


def test_the_display_says_whose_dice_key_throws_the_second_throw():
    view = TableView()
    state = HandState.start(HandRecord(0, 11, 1, 0, 1, "harbin"))
    event = Event.dice((6, 3), 1.0)  # 9: the dealer throws again
    state.apply(event)
    view.on_event(state, event, None)
    shown = view.snapshot()
    assert shown["dice"] == [6, 3] and shown["waiting"] == "seat 1's dice key (the second throw)"
    event = Event.dice((2, 5), 2.0)
    state.apply(event)
    view.on_event(state, event, None)
    shown = view.snapshot()
    assert shown["dice"] == [6, 3, 2, 5] and shown["waiting"] is None


@pytest.mark.parametrize("players", ["bots", pytest.param("people", marks=pytest.mark.slow)])
@pytest.mark.parametrize("between", ["throws", "second press and throw"])
def test_a_service_stopped_dead_between_the_throws_deals_the_same_hand(tmp_path, players, between):
    """Stopped right after the dealer's throw is journaled, or after the second thrower's press: the restarted
    service asks for (or takes) the second throw only, the simulated dice give it again, and every hand ends as in
    a run never stopped."""
    config = HARBIN.with_service(players=players)
    reference = _serve(config, tmp_path / "reference")
    events = _events(config, tmp_path / "reference")[0]
    first = next(seq for seq, event in enumerate(events) if event.kind is EventKind.DICE)
    after = first if between == "throws" else events.index(_second(events)) - 1
    assert events[after].kind is (EventKind.DICE if between == "throws" else EventKind.BUTTON)
    crashed = config.with_service(state_dir=str(tmp_path / "crashed"))
    _crash_after(crashed, after)
    assert _serve(config, tmp_path / "crashed") == reference
