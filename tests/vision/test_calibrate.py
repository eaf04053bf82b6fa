import numpy as np
import pytest

from vision import calibrate
from vision.errors import CalibrationError
from vision.geometry import apply
from vision.render import Scene, random_look, render


def frame(camera, markers: bool = True, seed: int = 2):
    rng = np.random.default_rng(seed)
    return render(Scene(markers=markers), camera, random_look(rng), rng)


def test_calibration_from_markers_matches_the_camera_and_survives_toml(camera, tmp_path):
    found = calibrate.from_markers(frame(camera))
    path = tmp_path / "vision.toml"
    calibrate.save(found, path)
    again = calibrate.load(path)
    assert np.array_equal(again.homography, found.homography) and again.layout == found.layout
    probe = np.array([[0.0, 190.0], [190.0, 0.0], [-250.0, -280.0]])
    assert np.abs(apply(again.homography, probe) - apply(camera.homography, probe)).max() < 1.5


def test_calibration_from_given_corners(camera):
    corners = apply(camera.homography, calibrate.DEFAULT_LAYOUT.marker_centres())
    found = calibrate.from_corners(corners, camera.width, camera.height)
    assert np.allclose(
        found.homography / found.homography[2, 2], camera.homography / camera.homography[2, 2], atol=1e-6
    )


def test_annotated_image_shows_the_zones(camera):
    image = frame(camera)
    drawn = calibrate.annotate(image, calibrate.from_markers(image))
    assert drawn.shape == image.shape and (drawn != image).any(axis=2).mean() > 0.005


def test_missing_markers_are_named(camera):
    with pytest.raises(CalibrationError, match=r"markers \[0, 1, 2, 3\] not found"):
        calibrate.from_markers(frame(camera, markers=False))


def test_degenerate_corners_are_refused():
    with pytest.raises(CalibrationError, match="almost no area"):
        calibrate.from_corners(np.array([[0, 0], [10, 10], [20, 20], [30, 30]]), 1280, 720)
    with pytest.raises(CalibrationError, match="expected 4 points"):
        calibrate.from_corners(np.zeros((3, 2)), 1280, 720)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not toml [", "not TOML"),
        ("[other]\nx = 1\n", r"no \[vision.calibration\] table"),
        ("[vision.calibration]\nwidth = 1\n", "missing field 'homography'"),
        ("[vision.calibration]\nhomography = [[1, 2], [3, 4]]\nwidth = 1\nheight = 1\nlayout = {}\n", "3 rows of 3"),
    ],
)
def test_bad_calibration_files_say_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "vision.toml"
    path.write_text(text)
    with pytest.raises(CalibrationError, match=message):
        calibrate.load(path)
    with pytest.raises(CalibrationError, match="cannot read"):
        calibrate.load(tmp_path / "absent.toml")
