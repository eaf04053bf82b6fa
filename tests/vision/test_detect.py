import cv2
import numpy as np
import pytest

from engine.tiles import tile_code
from vision.calibrate import Calibration
from vision.geometry import apply, seat_angle, seat_to_table
from vision.recognize import Recognizer
from vision.render import Placed, Scene, random_look, render
from vision.simtable import discard_scene


def place(seat: int, tile: int, u: float, v: float, turn: float = 0.0) -> Placed:
    x, y = apply(seat_to_table(seat), np.array([[u, v]]))[0]
    return Placed(tile, float(x), float(y), seat_angle(seat) + turn)


def read(camera, tiles, seed: int = 0):
    rng = np.random.default_rng(seed)
    frame = render(Scene(tuple(tiles)), camera, random_look(rng), rng)
    recognizer = Recognizer(Calibration(camera.homography, camera.width, camera.height), _model())
    return [seen for view in recognizer.read(frame) for seen in view.tiles]


_cache = {}


def _model():
    from vision.classify import load_model

    return _cache.setdefault("model", load_model())


def near(seen, seat, u, v):
    return [s for s in seen if s.seat == seat and abs(s.u - u) < 8 and abs(s.v - v) < 8]


@pytest.mark.parametrize(
    ("seed", "per_seat", "steady"),
    [(0, 6, False), (1, 6, False), (2, 6, False), (3, 9, True), (4, 12, True), (5, 12, True)],
)
def test_discards_of_all_seats_are_found_and_read(camera, seed, per_seat, steady):
    """A river is laid in rows of six; the second row lies close behind the first, touching it. Two rows are read
    in the steady light of a table lamp (the simulated table's); under random light see bench/bench_vision.py."""
    from vision.render import Look

    rng = np.random.default_rng(100 + seed)
    scene, truth = discard_scene(rng, per_seat)
    frame = render(scene, camera, Look() if steady else random_look(rng), rng)
    recognizer = Recognizer(Calibration(camera.homography, camera.width, camera.height), _model())
    seen = [s for view in recognizer.read(frame) for s in view.tiles]
    assert len(seen) == len(truth)  # nothing missed, nothing extra
    wrong = [(tile_code(t), [s.prediction.code for s in near(seen, seat, u, v)]) for seat, u, v, _, t in truth]
    wrong = [w for w in wrong if w[1] != [w[0]]]
    assert len(wrong) <= 1, wrong


def test_touching_tiles_in_a_row_are_separated(camera):
    tiles = [place(0, tile, -60 + 30.2 * i, 160) for i, tile in enumerate((2, 11, 20))]
    seen = read(camera, tiles)
    assert sorted(round(s.u / 10) for s in seen) == [-6, -3, 0]
    assert [s.tile for s in sorted(seen, key=lambda s: s.u)] == [2, 11, 20]


def test_tiles_touching_at_a_corner_are_separated(camera):
    tiles = [place(1, 5, -40, 150), place(1, 24, -10.5, 190.5)]
    seen = read(camera, tiles, seed=3)
    assert len(seen) == 2 and sorted(s.tile for s in seen) == [5, 24]


def test_upside_down_and_sideways_tiles_report_their_turn(camera):
    tiles = [place(2, 7, -60, 160, 180.0), place(2, 28, 10, 165, 90.0)]
    seen = sorted(read(camera, tiles, seed=1), key=lambda s: s.u)
    assert [(s.tile, s.turn) for s in seen] == [(7, 180), (28, 90)]


def test_revealed_hand_is_found_in_the_hand_zone(camera):
    hand = [place(3, tile, -200 + 31 * i, 284) for i, tile in enumerate((0, 1, 2, 9, 9))]
    seen = [s for s in read(camera, hand, seed=2) if s.zone == "hand"]
    assert [s.tile for s in sorted(seen, key=lambda s: s.u)] == [0, 1, 2, 9, 9]


@pytest.mark.parametrize(("count", "pitch"), [(17, 30.0), (16, 31.9)], ids=["17 touching", "16 with 2 mm gaps"])
def test_a_row_across_the_whole_hand_zone_is_cut_where_its_tiles_meet(camera, count, pitch):
    """17 touching tiles and 16 with gaps make runs of the same length (510 mm): the seams tell them apart."""
    tiles = [int(t) for t in np.random.default_rng(count).integers(0, 42, count)]
    row = [place(seat, tile, pitch * (i - (count - 1) / 2), 284) for seat in (0, 1) for i, tile in enumerate(tiles)]
    seen = [s for s in read(camera, row, seed=count) if s.zone == "hand"]
    for seat in (0, 1):
        assert [s.tile for s in sorted((s for s in seen if s.seat == seat), key=lambda s: s.u)] == tiles


@pytest.mark.parametrize("tint", [(1.0, 1.0, 1.0), (1.12, 1.0, 0.88)], ids=["white light", "warm light"])
def test_a_hand_over_a_zone_covers_it_and_an_empty_zone_is_clear(camera, tint):
    from vision.render import Hand, Look

    x, y = apply(seat_to_table(2), np.array([[0.0, 190.0]]))[0]
    rng = np.random.default_rng(4)
    scene = Scene((place(2, 3, -60, 150),), (Hand(float(x), float(y) - 25, 90.0),))
    frame = render(scene, camera, Look(tint=tint), rng)
    recognizer = Recognizer(Calibration(camera.homography, camera.width, camera.height), _model())
    covered = {(view.seat, view.zone): view.covered for view in recognizer.read(frame)}
    assert covered[(2, "discard")]
    assert not covered[(0, "discard")] and not covered[(1, "discard")]


def test_tiles_parted_at_a_seam_keep_their_whole_bodies_and_leave_no_stray_tile_colour(camera):
    """Two rows of a river laid touching: each pair is parted at its seam, which left each tile's shaded rim to the
    mat. The rims counted as stray tile colour (three pairs made a zone look covered by a hand, and the simulated
    table's discards went unread) and the tiles came out short. A white dragon's printed frame is an edge inside
    its face."""
    from vision.detect import find_tiles
    from vision.recognize import ZONE_PPM, Zones
    from vision.render import Look

    kinds = (31, 4, 13, 22, 27, 33)  # the white dragon first
    tiles = [
        place(seat, kinds[2 * column + row], -103 + 34.5 * column, 147 + 40.5 * row)
        for seat in range(4)
        for column in range(3)
        for row in range(2)
    ]
    lone = [place(seat, 9, 80, 150) for seat in range(4)]
    frame = render(Scene((*tiles, *lone)), camera, Look(), np.random.default_rng(0))
    zones = Zones(Calibration(camera.homography, camera.width, camera.height), ("discard",))
    for index in range(len(zones)):
        located, covered = zones.locate_zone(frame, index)
        assert len(located) == 7 and not covered
        detection = find_tiles(zones.image(frame, index), ZONE_PPM)
        assert detection.stray == 0
        sides = np.array(
            [[np.linalg.norm(t.quad[1] - t.quad[0]), np.linalg.norm(t.quad[2] - t.quad[1])] for t in detection.tiles]
        )
        assert np.all(np.abs(sides - [30, 40]) <= [1.5, 2.5]), sides  # a tile's body: 30 x 40 mm, at 1 px per mm


def test_a_straight_run_one_tile_wide_is_cut_in_equal_parts_one_per_tile_side():
    """``detect._run`` (a column of thick tiles in a photo): 14 sideways tiles (40 x 30 px at 1 px per mm, each
    showing a 10 px side) end to end; not a run two tiles wide, nor one laid at a slant, nor two tiles."""
    from vision import detect

    column = np.zeros((460, 80), np.uint8)
    column[10:430, 15:65] = 255
    pieces = detect._run(column, 1200.0)
    assert len(pieces) == 14
    assert np.allclose(sorted(piece[0][1] for piece in pieces), 10 + 15 + 30 * np.arange(14), atol=1)
    assert all(piece[3] and np.isclose(piece[2], 30, atol=0.1) for piece in pieces)  # sideways: 30 px along
    block = np.zeros((460, 140), np.uint8)
    block[10:430, 15:115] = 255
    assert detect._run(block, 1200.0) == []
    slanted = np.zeros((460, 460), np.uint8)
    cv2.fillConvexPoly(slanted, cv2.boxPoints(((230, 230), (420, 50), 30)).astype(np.int32), 255)
    assert detect._run(slanted, 1200.0) == []
    assert detect._run(column[:75], 1200.0) == []
