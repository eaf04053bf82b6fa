"""The simulated table where bots play as people (issue 6, the table service with people seated): what it shows
follows controller.people.tablemodel's procedure, presses reach the pins before the next frame, and a world killed
mid-hand resumes from its state file to the same end. Rendering is replaced by a stand-in here; the frames are
read back by the lookout in test_lookout.py."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from controller.people.peopletable import PeopleTable, PeopleTableError
from controller.people.renderer import Renderer
from controller.people.sights import Sight, SightKind
from controller.people.tablemodel import TableModel
from controller.service.inputs import Button, Press, SeatInputs, SimHands
from controller.service.players import next_action
from engine.referee import Phase, Referee
from engine.rulesets.registry import get_ruleset
from firmware_bridge.config import GpioConfig
from firmware_bridge.gpio import Panel
from vision.geometry import DEFAULT_LAYOUT
from vision.render import Look, Scene, default_camera
from vision.simtable import laid_beside

HOLD = 1.0
DEAL = {"dealer": 1, "dice": (3, 5), "round_wind": 0, "consecutive_dealer": 1}
ZONE = 12
"""Discards a zone holds before it is swept (controller.people.camera.ROW), written out: the test's own model of it."""


class StandInRenderer:
    """Renders nothing (a 2x2 black frame) and counts what it was asked: the tests of play, not of pictures."""

    camera = default_camera(DEFAULT_LAYOUT)

    def __init__(self) -> None:
        self.rendered: list[Scene] = []

    def reseed(self, seed: object) -> None:
        pass

    def render(self, scene: Scene, look: Look) -> np.ndarray:
        self.rendered.append(scene)
        return np.zeros((2, 2, 3), np.uint8)


@dataclass
class World:
    """A people's table with the seat buttons wired to a SeatInputs, as the service has them."""

    table: PeopleTable
    inputs: SeatInputs

    def presses(self) -> list[Press]:
        taken = []
        while (press := self.inputs.take()) is not None:
            taken.append(press)
        return taken


def make_world(
    rules: str, options: dict, renderer: Renderer | StandInRenderer, state_file: Path | None = None, **kwargs
) -> World:
    factory, gpio = MockFactory(), GpioConfig()
    hands = SimHands(factory, gpio, lambda seat, held: None, HOLD)
    inputs = SeatInputs(Panel(gpio, factory, hands.clock), hands.clock, HOLD)
    table = PeopleTable(get_ruleset(rules, options), renderer, hands, state_file, **kwargs)  # type: ignore[arg-type]
    return World(table, inputs)


def told(rules: str, options: dict, hand_seed: int) -> list[list[Sight | Press]]:
    """Each bot move's happenings, from a referee and a TableModel of the test's own (not the table's)."""
    referee = Referee.deal(get_ruleset(rules, options), hand_seed, DEAL["dealer"], DEAL["dice"], round_wind=0)
    model = TableModel()
    steps = [model.show_deal(referee)]
    while referee.phase is not Phase.OVER:
        verdict, happenings = model.play(referee, next_action(referee, hand_seed))
        assert verdict.ok
        steps.append(happenings)
    return steps


def with_sweeps(sights: list[Sight]) -> list[Sight]:
    """``sights`` as the camera sees them: before a seat's discard into a full zone, every tile still in it is
    taken out (a sweep: two full rows of six, controller.people.peopletable's module doc; a claimed discard's place
    is the next one's)."""
    zones: list[list] = [[] for _ in range(4)]
    out: list[Sight] = []
    for sight in sights:
        if sight.kind is SightKind.DISCARD:
            zone = zones[sight.seat]
            if len(zone) >= ZONE:
                out += [Sight(SightKind.TAKEN, sight.seat, (tile,)) for tile in zone]
                zone.clear()
            zone.append(sight.tiles[0])
        elif sight.kind is SightKind.TAKEN:
            zone = zones[sight.seat]
            del zone[max(i for i, tile in enumerate(zone) if tile == sight.tiles[0])]
        out.append(sight)
    return out


def frames_to_end(table: PeopleTable) -> Iterator[int]:
    """Frame indices until the hand is over and everything is shown."""
    for frame in table.frames():
        yield frame.index
        if table.referee is not None and table.referee.phase is Phase.OVER and not table.pending:
            return


def deal(world: World, hand_seed: int) -> None:
    world.table.deal(hand_seed, DEAL["dealer"], DEAL["dice"], DEAL["round_wind"], DEAL["consecutive_dealer"])


@pytest.mark.parametrize(("rules", "options", "hand_seed"), [("basic", {}, 3), ("sichuan", {}, 4)])
def test_the_table_shows_what_the_table_model_tells_and_presses_before_the_next_frame(rules, options, hand_seed):
    steps = told(rules, options, hand_seed)
    world = make_world(rules, options, StandInRenderer())
    deal(world, hand_seed)
    pressed: list[Press] = []
    for _ in frames_to_end(world.table):
        pressed += world.presses()
        played = world.table.played + 1  # the deal's flowers are step 0
        assert pressed == [h for step in steps[:played] for h in step if isinstance(h, Press)]
    sights = [h for step in steps for h in step if isinstance(h, Sight)]
    assert world.table.shown == with_sweeps(sights)
    assert any(isinstance(h, Press) for step in steps for h in step)  # the hand has presses to check


@pytest.mark.parametrize("hand_seed", [3, 5])
def test_people_lay_each_discard_against_the_tiles_beside_it_never_over_them(hand_seed):
    """Every discard zone the table showed in a whole hand: each tile lies where ``laid_beside`` leaves it among the
    others (laid as ``vision.simtable.spot`` draws it, a tile lay up to a few tenths of a mm over the row before:
    the camera saw the pair as one blob that is no tile, and lost the discard; test_lookout's QUANJIAO_10)."""
    renderer = StandInRenderer()
    world = make_world("basic", {}, renderer, still_frames=1)
    deal(world, hand_seed)
    zones = 0
    for _ in frames_to_end(world.table):
        zones += sum(1 for zone in world.table._zones if len(zone) > 6)
        for laid in world.table._zones:
            assert [laid_beside(placed, [other for other in laid if other is not placed]) for placed in laid] == laid
    assert zones > 0  # second rows were laid


def test_each_change_of_the_scene_is_shown_for_still_frames_and_rendered_once():
    renderer = StandInRenderer()
    world = make_world("basic", {}, renderer, still_frames=3)
    deal(world, 5)
    frames = list(frames_to_end(world.table))
    assert len(frames) == len(set(frames))  # one index per frame
    assert all(a != b for a, b in pairwise(renderer.rendered))
    # a discard or a row: one new scene, 3 frames; a take: one frame with a hand over it, then 3 frames
    assert len(frames) >= 3 * sum(s.kind is not SightKind.TAKEN for s in world.table.shown)


def test_before_the_deal_and_after_the_hand_the_unchanged_table_is_shown_without_rendering_again():
    renderer = StandInRenderer()
    world = make_world("basic", {}, renderer, fps=4.0)
    idle = world.table.frames()
    before = [next(idle) for _ in range(3)]
    assert [(frame.index, frame.time) for frame in before] == [(0, 0.0), (1, 0.25), (2, 0.5)]
    assert renderer.rendered == [Scene((), (), DEFAULT_LAYOUT, True)]
    deal(world, 5)
    list(frames_to_end(world.table))
    rendered = len(renderer.rendered)
    after = [next(idle) for _ in range(5)]
    assert len(renderer.rendered) == rendered
    assert [b.time - a.time for a, b in pairwise(after)] == [0.25] * 4


def test_watched_long_after_their_hand_ended_the_dealer_voids_it_once(tmp_path):
    """The service still watching ``give_up_s`` after the people's hand ended (it no longer follows their play):
    the dealer holds the lift switch, once, and a new deal starts the count again."""
    world = make_world("basic", {}, StandInRenderer(), fps=10.0, give_up_s=2.0)
    world.inputs.dealer = DEAL["dealer"]
    deal(world, 5)
    frames = world.table.frames()
    for _ in frames_to_end(world.table):
        pass
    world.presses()
    idle = [next(frames) for _ in range(19)]
    assert world.presses() == [] and len(idle) == 19
    next(frames)
    assert world.presses() == [Press(Button.VOID, DEAL["dealer"])]
    for _ in range(40):
        next(frames)
    assert world.presses() == []


def test_a_world_killed_mid_hand_resumes_the_same_scene_and_ends_as_an_uninterrupted_one(tmp_path):
    state = tmp_path / "people-table.json"
    whole = make_world("basic", {"tile_set": 144}, StandInRenderer())
    deal(whole, 7)
    list(frames_to_end(whole.table))

    first = make_world("basic", {"tile_set": 144}, StandInRenderer(), state)
    deal(first, 7)
    for _ in first.table.frames():  # to a step with a press, well into the hand
        assert first.table.referee.phase is not Phase.OVER
        if first.table.played >= 20 and first.table.last_presses:
            break
    scene, played, last = first.table.scene(), first.table.played, first.table.last_presses
    first.presses()
    del first  # killed: nothing is closed or saved on the way out

    again = make_world("basic", {"tile_set": 144}, StandInRenderer(), state)
    deal(again, 7)
    assert again.table.scene() == scene
    assert again.table.played == played
    assert again.presses() == last  # a press the service may have missed is pressed again
    list(frames_to_end(again.table))
    assert again.table.referee.history == whole.table.referee.history
    assert again.table.scene() == whole.table.scene()
    assert not list(tmp_path.glob("*.tmp"))  # written by replacing, never half


def test_another_hand_starts_afresh_whatever_the_state_file_holds(tmp_path):
    state = tmp_path / "people-table.json"
    world = make_world("basic", {}, StandInRenderer(), state)
    deal(world, 8)
    for _ in world.table.frames():
        if world.table.played >= 10:
            break
    world.table.deal(9, 2, (1, 1), 0, 1)
    assert world.table.played == 0
    assert world.table.scene() == Scene((), (), DEFAULT_LAYOUT, True)


def test_a_state_file_that_is_not_the_tables_is_named(tmp_path):
    state = tmp_path / "people-table.json"
    state.write_text('{"hand_seed": 8, "dealer": 1}')
    world = make_world("basic", {}, StandInRenderer(), state)
    with pytest.raises(PeopleTableError, match=r"people-table\.json: not a people's table state \(KeyError"):
        deal(world, 8)


@pytest.mark.parametrize("quiet_s", [0.0, 0.5])
def test_people_wait_out_the_claim_window_after_a_discard_nobody_claims(quiet_s):
    """With ``quiet_s`` the service's claim window passes on unchanged frames before the next seat's discard."""
    world = make_world("basic", {}, StandInRenderer(), still_frames=1, quiet_s=quiet_s)
    deal(world, 5)
    first_shown: dict[int, int] = {}  # index in ``shown`` -> the frame it was first shown in
    for index in frames_to_end(world.table):
        for number in range(len(first_shown), len(world.table.shown)):
            first_shown[number] = index
    shown = world.table.shown
    gaps = {
        first_shown[i + 1] - first_shown[i]
        for i in range(len(shown) - 1)
        if shown[i].kind is SightKind.DISCARD and shown[i + 1].kind is SightKind.DISCARD
    }
    assert gaps == {1 + round(quiet_s * 10)}


def test_a_state_file_with_more_moves_than_the_hand_has_is_named(tmp_path):
    state = tmp_path / "people-table.json"
    world = make_world("basic", {}, StandInRenderer(), state)
    deal(world, 8)
    moves = len(told("basic", {}, 8)) - 1
    state.write_text(state.read_text().replace('"played": 0', f'"played": {moves + 1}'))
    with pytest.raises(PeopleTableError, match=rf"played: {moves + 1} moves, but the hand is over after {moves}"):
        deal(make_world("basic", {}, StandInRenderer(), state), 8)
