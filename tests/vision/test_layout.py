"""Enrolment from one photo of the set laid out: a rendered table and a layout composed of real face-on photos."""

import csv
import io
import json

import cv2
import numpy as np
import pytest

from engine.tiles import tile_code
from tests.paths import PHOTOS, needs_photos
from vision.accuracy import laid_out
from vision.artwork import default_artwork_dir, parse_class_code
from vision.calibrate import Calibration, save
from vision.cli import main
from vision.geometry import apply
from vision.images import load_image
from vision.labels import read_labels
from vision.layout import CLASS_ORDER, LayoutError, read_layout
from vision.render import Look, Placed, Scene, default_camera, render

FACES = PHOTOS / "sets" / "kch3coo"


def run(argv):
    out = io.StringIO()
    code = main(["vision", *argv], out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_order_is_that_of_classes_csv():
    with (default_artwork_dir() / "CLASSES.csv").open(newline="") as handle:
        assert tuple(row["code"] for row in csv.DictReader(handle)) == CLASS_ORDER


@pytest.fixture(scope="module")
def rendered():
    """The whole set of 42 rendered on the table in rows of 9, 9, 9, 7, 8, and where each tile lies (px)."""
    camera = default_camera()
    placed, k = [], 0
    for row, count in enumerate((9, 9, 9, 7, 8)):
        for column in range(count):
            placed.append(Placed(parse_class_code(CLASS_ORDER[k]), (column - (count - 1) / 2) * 36.0, (row - 2) * 50.0))
            k += 1
    image = render(Scene(tuple(placed)), camera, Look(), np.random.default_rng(1))
    where = apply(camera.homography, np.array([[p.x, p.y] for p in placed]))
    return image, camera, placed, where


def compose(skip: int | None = None) -> tuple[np.ndarray, list]:
    """The 34 face-on photos of kch3coo on a green mat in rows of 9, 9, 9, 7, a tile body round each face, and
    the kinds in reading order (``skip``: leave that one out)."""
    by_kind = {tile: path for path, tile in read_labels(FACES / "labels.csv", FACES)}
    kinds = [parse_class_code(code) for code in CLASS_ORDER[:34]]
    faces = [None if k == skip else load_image(by_kind[kind]) for k, kind in enumerate(kinds)]
    return laid_out(faces, (9, 9, 9, 7), face=(60, 82), body=(200, 215, 220)), kinds


def test_a_rendered_layout_gives_every_tile_its_kind_by_place(rendered):
    image, _, placed, where = rendered
    layout = read_layout(image)
    assert len(layout.tiles) == 42 and layout.kinds == [p.tile for p in placed]
    for found, centre in zip(layout.tiles, where, strict=True):
        assert np.linalg.norm(found.quad.mean(axis=0) - centre) < 5


@needs_photos
def test_a_layout_of_real_photos_gives_every_tile_its_kind_by_place():
    image, kinds = compose()
    layout = read_layout(image)
    assert layout.kinds == kinds
    centres = [tile.quad.mean(axis=0) for tile in layout.tiles]
    rows = [round((c[1] - 40 - 44) / 102) for c in centres]
    assert rows == [0] * 9 + [1] * 9 + [2] * 9 + [3] * 7


@needs_photos
def test_a_missing_tile_or_a_wrong_grid_is_refused_with_what_was_found():
    image, _ = compose(skip=30)
    with pytest.raises(
        LayoutError, match=r"found 33 tiles in rows of 9, 9, 9, 6: expected rows of 9, 9, 9, 7, 8"
    ) as error:
        read_layout(image)
    assert len(error.value.tiles) == 33
    blank = np.full((300, 400, 3), (52, 96, 40), np.uint8)
    with pytest.raises(LayoutError, match="found no tiles"):
        read_layout(blank, 30)


@needs_photos
def test_enroll_layout_writes_the_model_and_the_checked_picture(tmp_path):
    image, _ = compose()
    photo = tmp_path / "layout.jpg"
    cv2.imwrite(str(photo), image)
    code, lines = run(["enroll", "--layout", str(photo), "--out", str(tmp_path / "set")])
    assert code == 0 and lines[0]["pictures"] == 34 and lines[0]["kinds"] == 34
    assert lines[0]["annotated"] == str(tmp_path / "set" / "layout.png")
    assert load_image(tmp_path / "set" / "layout.png").shape == image.shape
    faces = sorted(FACES.glob("*.jpg"))
    code, lines = run(["classify", "--model", str(tmp_path / "set"), *map(str, faces)])
    truth = {str(path): tile_code(tile) for path, tile in read_labels(FACES / "labels.csv", FACES)}
    assert sum(line["tile"] == truth[line["file"]] for line in lines) >= 32


@needs_photos
def test_enroll_layout_refuses_and_still_draws_what_it_found(tmp_path):
    image, _ = compose(skip=3)
    photo = tmp_path / "layout.png"
    cv2.imwrite(str(photo), image)
    picture = tmp_path / "checked.png"
    code, lines = run(["enroll", "--layout", str(photo), "--out", str(tmp_path / "set"), "--annotated", str(picture)])
    assert code == 2 and "found 33 tiles in rows of 8, 9, 9, 7" in lines[0]["error"]
    assert f"(see {picture})" in lines[0]["error"] and picture.exists()
    assert not (tmp_path / "set" / "model.json").exists()
    code, lines = run(["enroll", "--layout", str(photo), "--out", str(tmp_path / "s"), "--annotated", "x.txt"])
    assert code == 2 and "no image format" in lines[0]["error"]


def test_enroll_layout_camera_takes_a_frame_and_the_calibrated_tile_size(rendered, tmp_path):
    image, camera, _, _ = rendered
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), image)
    save(Calibration(camera.homography, camera.width, camera.height), tmp_path / "vision.toml")
    argv = ["enroll", "--layout-camera", "--source", str(frames), "--calibration", str(tmp_path / "vision.toml")]
    code, lines = run([*argv, "--out", str(tmp_path / "set")])
    assert code == 0 and lines[0]["pictures"] == 42
    code, lines = run(["enroll", "--layout-camera", "--out", str(tmp_path / "x")])
    assert code == 2 and "give --source SOURCE" in lines[0]["error"]
