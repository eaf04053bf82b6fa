"""The wall's faces on the simulated table and the camera (issue 25): each face the table turns up is laid at its
spot in the wall zone of the seat whose wall holds it (``controller.people.camera.wall_spots``), rendered, and read
back by the lookout as a wall sight of its place; a ready declaration's discard lies sideways and is read so."""

from __future__ import annotations

import numpy as np
import pytest

from controller.people.camera import discard_place, wall_placed, wall_spots
from controller.people.lookout import Lookout
from controller.people.sights import Sight, SightKind
from engine.referee import Referee
from engine.rulesets.registry import get_ruleset
from tests.controller.test_lookout import CAMERA, Scripted, view
from vision.calibrate import Calibration
from vision.capture import Frame
from vision.classify import Prediction, load_model
from vision.geometry import DEFAULT_LAYOUT, TILE_H_MM, TILE_W_MM, WALL_STACKS, Layout, seat_to_table
from vision.recognize import Recognizer, Seen, ZoneView
from vision.render import Look, Placed, Scene, render

RIICHI = get_ruleset("riichi")


@pytest.fixture(scope="module")
def calibration():
    return Calibration(CAMERA.homography, CAMERA.width, CAMERA.height, DEFAULT_LAYOUT)


def test_every_face_of_the_dead_wall_has_a_spot_of_its_own_inside_its_seats_wall_zone():
    for seed in range(8):
        state = Referee.deal(RIICHI, seed, seed % 4).wall.state
        spots = wall_spots(state)
        assert len(spots) == 2 * WALL_STACKS
        for place, (seat, u, v) in spots.items():
            assert seat == state.positions[place].wall_of_seat
            rect = DEFAULT_LAYOUT.wall
            assert rect.u0 <= u - TILE_W_MM / 2 and u + TILE_W_MM / 2 <= rect.u1
            assert rect.v0 <= v - TILE_H_MM / 2 and v + TILE_H_MM / 2 <= rect.v1
        centres = [seat_to_table(seat) @ np.array([u, v, 1.0]) for seat, u, v in spots.values()]
        gaps = [abs(a[:2] - b[:2]).max() for i, a in enumerate(centres) for b in centres[i + 1 :]]
        assert min(gaps) >= TILE_W_MM + 2, "tiles laid at two spots never touch"


def test_faces_turned_up_outside_the_dead_wall_take_the_extra_spots_of_their_seats_wall_zone():
    """Issue 26: Hubei's indicator after the deal, Changsha's birds at a win lie far from the dead wall."""
    state = Referee.deal(get_ruleset("hubei-laizi"), 1, 0).wall.state
    dead = wall_spots(state)
    head = [place for place in range(len(state.faces)) if place not in dead]
    by_seat: dict[int, list[int]] = {}
    for place in head:
        by_seat.setdefault(state.positions[place].wall_of_seat, []).append(place)
    seat, (first, second, third) = next((seat, places[:3]) for seat, places in by_seat.items() if len(places) > 2)
    spots = wall_spots(state, up=[first, second])
    rect = DEFAULT_LAYOUT.wall
    (_, u1, _), (_, u2, _) = spots[first], spots[second]
    assert spots[first][0] == spots[second][0] == seat and u1 > u2  # the right end first, then the left
    dead_u = [u for s, u, _ in dead.values() if s == seat]
    assert u1 - TILE_W_MM / 2 <= rect.u1 and rect.u0 <= u2 - TILE_W_MM / 2
    assert all(abs(u - other) >= TILE_W_MM + 2 for u in (u1, u2) for other in [*dead_u, *({u1, u2} - {u})])
    assert wall_placed(state, first, 5, [first]) == wall_placed(state, first, 5, [first, second])  # order kept
    with pytest.raises(ValueError, match=f"seat {seat}'s wall zone has no spot left"):
        wall_spots(state, up=[first, second, third])


def test_a_layout_saved_before_the_wall_zone_reads_back_with_the_default_one():
    data = DEFAULT_LAYOUT.to_dict()
    assert Layout.from_dict(data) == DEFAULT_LAYOUT
    del data["wall"]
    assert Layout.from_dict(data).wall == DEFAULT_LAYOUT.wall


@pytest.mark.parametrize("seed", range(3))
def test_the_faces_laid_at_their_spots_are_read_back_there_and_a_sideways_discard_as_turned(calibration, seed):
    state = Referee.deal(RIICHI, seed, seed % 4).wall.state
    spots = wall_spots(state)
    rng = np.random.default_rng(seed)
    laid = [wall_placed(state, place, state.faces[place]) for place in spots]  # type: ignore[arg-type]
    sideways = Placed(5, *discard_place(1, 0, rng, sideways=True))
    image = render(Scene((*laid, sideways), (), DEFAULT_LAYOUT, True), CAMERA, Look(), rng)
    views = Recognizer(calibration, load_model(), ("wall", "discard", "hand")).read(image)
    for zone in (one for one in views if one.zone == "wall"):
        expected = sorted((u, state.faces[place]) for place, (seat, u, _) in spots.items() if seat == zone.seat)
        assert [tile for _, tile in expected] == [seen.tile for seen in sorted(zone.tiles, key=lambda s: s.u)]
    assert [(seen.tile, seen.turn in (90, 270)) for v in views if v.zone == "discard" for seen in v.tiles] == [
        (5, True)
    ]
    assert not any(v.tiles for v in views if v.zone == "hand"), "nothing of the wall zone is read as a row"


def wall_view(seat: int, u: float, v: float, *ranked: tuple[int, float]) -> ZoneView:
    prediction = Prediction(ranked[0][0], ranked[0][1], 0.9, tuple(ranked))
    return ZoneView(seat, "wall", (Seen(seat, "wall", prediction, u, v, 0),), False)


def looked(calibration, frames: list[list[ZoneView]], spots) -> list[Sight]:
    lookout = Lookout(calibration, load_model(), stable=3)
    lookout.recognizer = Scripted(frames)  # type: ignore[assignment]
    lookout.expect_spots(spots)
    image = np.zeros((CAMERA.height, CAMERA.width, 3), np.uint8)
    return [sight for index in range(len(frames)) for sight in lookout.look(Frame(image, index, index / 10))]


def test_a_face_read_steadily_at_a_spot_is_one_wall_sight_of_its_place_and_told_again_only_when_it_changes(
    calibration,
):
    spots = {101: (2, 0.0, 333.0), 102: (2, 32.0, 333.0)}
    five, six = (4, 0.9), (5, 0.08)
    steady = [[wall_view(2, 1.0, 334.0, five, six)]] * 5
    assert looked(calibration, steady, spots) == [Sight(SightKind.WALL, 2, (4,), place=101)]
    (sight,) = looked(calibration, steady, spots)
    assert sight.choices == (((4, 0.9), (5, 0.08)),)
    flicker = [[wall_view(2, 0.0, 333.0, five)], [wall_view(2, 0.0, 333.0, six)]] * 3
    assert looked(calibration, flicker, spots) == [], "never the same reading three frames running"
    changed = [*steady, *[[wall_view(2, 0.0, 333.0, (5, 0.9))]] * 3]
    assert [sight.tiles for sight in looked(calibration, changed, spots)] == [(4,), (5,)]
    elsewhere = [[wall_view(2, 64.0, 333.0, five)]] * 5 + [[wall_view(1, 0.0, 333.0, five)]] * 5
    assert looked(calibration, elsewhere, spots) == [], "no spot there, or another seat's zone"


def test_a_discard_read_turned_a_quarter_is_a_sideways_discard_sight(calibration):
    turned = ZoneView(1, "discard", (Seen(1, "discard", Prediction(7, 0.99, 0.9), 0.0, 150.0, 270),), False)
    frames = [[turned]] * 4
    (sight,) = looked(calibration, frames, {})
    assert sight.kind is SightKind.DISCARD and sight.sideways and sight.tiles == (7,)
    (upright,) = looked(calibration, [[view(1, (7, 0.0))]] * 4, {})
    assert not upright.sideways
