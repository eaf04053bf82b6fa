import numpy as np
import pytest

from tests.paths import PHOTOS, needs_photos
from vision.artwork import parse_class_code
from vision.errors import LabelsError
from vision.photos import RELABELLED
from vision.scenes import (
    LOOSE,
    VIEWS,
    Box,
    lies_sideways,
    match,
    overlap,
    read_boxes,
    read_views,
    tile_size,
    turned_quads,
    turned_size,
)


def test_yolo_boxes_and_polygons_become_pixel_boxes(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("3 0.5 0.5 0.1 0.2\n\n7 0.1 0.1 0.3 0.1 0.2 0.4 0.1 0.1\n")
    first, second = read_boxes(path, 200, 100)
    assert (first.kind, first.x0, first.y0, first.x1, first.y1) == pytest.approx((3, 90, 40, 110, 60))
    assert (second.kind, second.x0, second.y0, second.x1, second.y1) == pytest.approx((7, 20, 10, 60, 40))
    path.write_text("3 0.5 0.5 0.1\n")
    with pytest.raises(LabelsError, match="line 1: expected 4 numbers or a polygon"):
        read_boxes(path, 200, 100)
    path.write_text("x 0.5 0.5 0.1 0.1\n")
    with pytest.raises(LabelsError, match="line 1: expected a class and numbers"):
        read_boxes(path, 200, 100)


@needs_photos
def test_every_scene_photo_has_one_view():
    views = read_views()
    photos = {p.name for p in (PHOTOS / "scenes" / "images").glob("*.jpg")}
    assert set(views) == photos and set(views.values()) <= set(VIEWS)


def test_tile_size_of_tight_boxes_follows_the_stretch():
    upright = [Box(x, 0, x + 40, 80) for x in range(0, 400, 41)]
    assert tile_size(upright) == (40, 80)
    sideways = [Box(0, y, 80, y + 40) for y in range(0, 400, 41)]  # 80 px along x is 40 mm: x has 2 px per mm
    assert tile_size(sideways) == pytest.approx((60, 160 / 3))


def _turned_row(angle: float, stretch: tuple[float, float], end_to_end: bool = False) -> list[Box]:
    """The boxes of ten touching 30 x 40 tiles in a row turned ``angle`` degrees, the photo then stretched."""
    turn = np.deg2rad(angle)
    along, across = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    sides = (40, 30) if end_to_end else (30, 40)
    corners = np.array([along * x * sides[0] + across * y * sides[1] for x in (-0.5, 0.5) for y in (-0.5, 0.5)])
    boxes = []
    for i in range(10):
        quad = (corners + along * sides[0] * i) * stretch + 300
        boxes.append(Box(*quad.min(axis=0), *quad.max(axis=0)))
    return boxes


@pytest.mark.parametrize("angle", [25, 30, 45, 60, -35])
@pytest.mark.parametrize("stretch", [(1.0, 1.0), (1.0, 0.75), (0.75, 1.0), (1.2, 1.6)])
def test_tile_size_of_loose_boxes_solves_the_turned_row_and_the_stretch(angle, stretch):
    """A diagonal row in a stretched photo: the boxes overlap, and the size is the upright face's in its pixels."""
    row = _turned_row(angle, stretch)
    assert overlap(row) > LOOSE
    assert tile_size(row) == pytest.approx((30 * stretch[0], 40 * stretch[1]), rel=1e-6)


def test_tile_size_of_a_turned_row_of_tiles_end_to_end():
    for angle in (30, 45, -60):
        assert turned_size(_turned_row(angle, (1.0, 0.8), end_to_end=True)) == pytest.approx((30, 32), rel=1e-6)


def test_match_pairs_each_label_once_at_iou_one_half():
    labels = [Box(0, 0, 10, 10), Box(20, 0, 30, 10)]
    found = [Box(1, 0, 11, 10), Box(1, 1, 10, 10), Box(20, 5, 30, 15)]  # two on the first, one half off the second
    assert match(found, labels) == 1
    assert match([Box(20, 2, 30, 12)], labels) == 1


def _turned_quads(angle: float, stretch: tuple[float, float]) -> list[np.ndarray]:
    """The true face corners of ``_turned_row``'s tiles, as sets of points."""
    turn = np.deg2rad(angle)
    along, across = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    corners = np.array([along * x * 30 + across * y * 40 for x in (-0.5, 0.5) for y in (-0.5, 0.5)])
    return [(corners + along * 30 * i) * stretch + 300 for i in range(10)]


@pytest.mark.parametrize("angle", [25, 40, 60, -35, -50])
@pytest.mark.parametrize("stretch", [(1.0, 1.0), (1.0, 0.75), (1.2, 1.6)])
def test_turned_quads_give_each_loose_box_its_tile_turned_the_right_way(angle, stretch):
    row = _turned_row(angle, stretch)
    for quad, truth in zip(turned_quads(row), _turned_quads(angle, stretch), strict=True):
        gap = np.linalg.norm(quad[:, None] - truth[None], axis=2).min(axis=1)  # each corner to the nearest true one
        assert gap.max() < 1.5, (quad, truth)
        assert np.linalg.norm(quad[0] - quad[3]) > np.linalg.norm(quad[0] - quad[1])  # portrait: left side longer


def test_near_square_and_squashed_boxes_are_upright_faces_and_a_sideways_face_is_told_by_the_photos_stretch():
    square = [Box(x, 0, x + 42, 40) for x in range(0, 400, 43)]  # upright 3:4 faces in a photo squashed to 1:1
    assert tile_size(square) == (42, 40)
    assert not any(lies_sideways(box, (42, 40)) for box in square)
    assert lies_sideways(Box(0, 0, 56, 30), (42, 40))  # the same photo's sideways face: 4/3 as wide, 3/4 as high
    assert not lies_sideways(Box(0, 0, 30, 40), (30, 40)) and lies_sideways(Box(0, 0, 40, 30), (30, 40))
    strip = [Box(0, y, 640, y + 50) for y in range(0, 640, 52)]  # a column of upright faces stretched along x
    assert tile_size(strip) == (640, 50)
    assert not any(lies_sideways(box, (640, 50)) for box in strip)


@needs_photos
def test_each_relabelled_tile_is_a_box_whose_label_file_says_another_kind():
    folder = PHOTOS / "scenes"
    codes = [line.split(",")[2] for line in (folder / "classes.csv").read_text().splitlines()[1:]]
    for (photo, number), kind in RELABELLED.items():
        (label,) = (folder / "labels").glob(f"{photo}.rf.*.txt")
        boxes = read_boxes(label, 640, 640)
        assert parse_class_code(codes[boxes[number].kind]) != parse_class_code(kind), (photo, number)
