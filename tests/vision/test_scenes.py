import numpy as np
import pytest

from tests.paths import SHARED
from vision.errors import LabelsError
from vision.scenes import VIEWS, Box, match, overlap, read_boxes, read_views, tile_size


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


def test_every_scene_photo_has_one_view():
    views = read_views()
    photos = {p.name for p in (SHARED / "photos" / "scenes" / "images").glob("*.jpg")}
    assert set(views) == photos and set(views.values()) <= set(VIEWS)


def test_tile_size_of_tight_boxes_follows_the_stretch():
    upright = [Box(x, 0, x + 40, 80) for x in range(0, 400, 41)]
    assert tile_size(upright) == (40, 80)
    sideways = [Box(0, y, 80, y + 40) for y in range(0, 400, 41)]  # 80 px along x is 40 mm: x has 2 px per mm
    assert tile_size(sideways) == pytest.approx((60, 160 / 3))


def test_tile_size_of_loose_boxes_solves_the_turned_tile():
    """A diagonal row: boxes of 30 x 40 tiles turned 30 degrees overlap; the solved short side is 30."""
    angle = np.deg2rad(30)
    w = 30 * np.cos(angle) + 40 * np.sin(angle)
    h = 30 * np.sin(angle) + 40 * np.cos(angle)
    row = [Box(i * 26, i * 15, i * 26 + w, i * 15 + h) for i in range(10)]
    assert overlap(row) > 0.1
    assert tile_size(row) == pytest.approx((30, 40))


def test_match_pairs_each_label_once_at_iou_one_half():
    labels = [Box(0, 0, 10, 10), Box(20, 0, 30, 10)]
    found = [Box(1, 0, 11, 10), Box(1, 1, 10, 10), Box(20, 5, 30, 15)]  # two on the first, one half off the second
    assert match(found, labels) == 1
    assert match([Box(20, 2, 30, 12)], labels) == 1
