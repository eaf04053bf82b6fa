"""``mjtable doctor``'s camera check on real OpenCV: a calibration written by ``mjtable vision calibrate`` from a
rendered frame of the simulated table, frames recorded in a folder as the source (the Replay source)."""

import io
import json
import re

import cv2
import numpy as np
import pytest

from controller.cli import main
from controller.config import load_config
from controller.errors import ConfigError
from tests.controller.test_doctor import _doctor
from vision.classify import load_model
from vision.geometry import DEFAULT_LAYOUT, apply
from vision.render import Scene, default_camera, random_look, render


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A folder with one rendered frame of the table, and its calibration by 'mjtable vision calibrate'."""
    root = tmp_path_factory.mktemp("camera")
    frames = root / "frames"
    frames.mkdir()
    rng = np.random.default_rng(3)
    image = render(Scene(), default_camera(), random_look(rng), rng)
    cv2.imwrite(str(frames / "000.png"), image)
    calibration = root / "vision.toml"
    code, lines = _vision(["calibrate", "--source", str(frames), "--out", str(calibration)])
    assert code == 0, lines
    return {"frames": frames, "calibration": calibration, "image": image}


def _vision(argv):
    out = io.StringIO()
    code = main(["vision", *argv], stdout=out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def _camera(tmp_path, camera: str) -> dict:
    """The doctor's camera answer for a configuration with this [camera] section (display off, own state)."""
    config = tmp_path / "mjtable.toml"
    config.write_text(f'[service]\nstate_dir = "{tmp_path / "state"}"\n[http]\nlisten = "off"\n[camera]\n{camera}')
    code, answers = _doctor(config)
    (answer,) = [answer for answer in answers if answer["check"] == "camera"]
    assert code == (0 if answer["ok"] else 1) and all(a["ok"] for a in answers if a["check"] != "camera")
    return answer


def test_a_calibrated_camera_with_an_enrolled_model_passes(tmp_path, table):
    tiles = tmp_path / "tiles"
    load_model().save(tiles)  # an enrolled set is a model directory like the shipped one
    answer = _camera(
        tmp_path, f'source = "{table["frames"]}"\ncalibration = "{table["calibration"]}"\nmodel = "{tiles}"\n'
    )
    assert answer["ok"], answer
    assert "1280x720 frame" in answer["detail"] and "all 8 zones inside" in answer["detail"]
    assert f"model {tiles}: 42 kinds" in answer["detail"]


def test_without_a_calibration_file_the_markers_of_the_frame_calibrate(tmp_path, table):
    answer = _camera(tmp_path, f'source = "{table["frames"]}"\n')
    assert answer["ok"] and "the markers in the frame: all 8 zones inside" in answer["detail"], answer


def test_a_missing_calibration_file_is_named(tmp_path, table):
    absent = tmp_path / "absent.toml"
    answer = _camera(tmp_path, f'source = "{table["frames"]}"\ncalibration = "{absent}"\n')
    assert not answer["ok"]
    assert answer["detail"].startswith(f"camera.calibration: {absent}: cannot read")


def test_a_zone_outside_a_too_small_frame_is_named(tmp_path, table):
    """Cut the frame between the far edge of seat 0's discard zone and that of its hand zone (geometry.py: seat
    0 sits at the bottom of the frame; the render camera's own homography says where those edges are), so seat
    0's hand zone is the only one that leaves the frame: every other zone ends nearer the centre."""
    layout, camera = DEFAULT_LAYOUT, default_camera()
    other_zones_end = max(layout.discard.v1, layout.hand.u1)  # seats 1 and 3's hands reach hand.u1 towards seat 0
    rows = apply(camera.homography, np.array([[0.0, other_zones_end], [0.0, layout.hand.v1]]))[:, 1]
    height = int(rows.mean())
    frames = tmp_path / "cropped"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), table["image"][:height])
    answer = _camera(tmp_path, f'source = "{frames}"\ncalibration = "{table["calibration"]}"\n')
    assert not answer["ok"]
    assert (
        f"zones outside the 1280x{height} frame of '{frames}': seat 0 hand (calibrated on a 1280x720"
        in (answer["detail"])
    )


def test_a_frame_of_another_size_than_the_calibration_is_named(tmp_path, table):
    frames = tmp_path / "bigger"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), cv2.copyMakeBorder(table["image"], 0, 80, 0, 80, cv2.BORDER_REPLICATE))
    answer = _camera(tmp_path, f'source = "{frames}"\ncalibration = "{table["calibration"]}"\n')
    assert not answer["ok"] and "was made on a 1280x720 frame" in answer["detail"]
    assert "gives 1360x800" in answer["detail"]


def test_a_source_with_no_frames_is_named(tmp_path, table):
    empty = tmp_path / "no-frames"
    empty.mkdir()
    answer = _camera(tmp_path, f'source = "{empty}"\ncalibration = "{table["calibration"]}"\n')
    assert not answer["ok"] and answer["detail"].startswith(f"camera.source: {empty}: no images")
    answer = _camera(tmp_path, f'source = "{tmp_path / "absent"}"\n')
    assert not answer["ok"] and "camera.source: source" in answer["detail"] and "absent" in answer["detail"]


def test_an_unreadable_model_is_named_with_the_other_problems(tmp_path, table):
    tiles = tmp_path / "tiles"
    tiles.mkdir()
    (tiles / "model.json").write_text("{half a file")
    absent = tmp_path / "absent.toml"
    answer = _camera(tmp_path, f'source = "{table["frames"]}"\ncalibration = "{absent}"\nmodel = "{tiles}"\n')
    assert not answer["ok"]
    problems = answer["detail"].split("; ")
    assert [problem.split(":")[0] for problem in problems] == ["camera.calibration", "camera.model"]
    assert problems[1].startswith(f"camera.model: {tiles}: unreadable model")


def test_camera_keys_are_validated_by_name(tmp_path):
    config = tmp_path / "mjtable.toml"
    for text, message in (
        ('[camera]\ncalibration = "vision.toml"\n', "camera.source: empty, yet camera.calibration"),
        ('[camera]\nsorce = "0"\n', "camera.sorce: unknown key; known: calibration, model, source"),
        ("[camera]\nsource = 0\n", "camera.source: expected str, got 0"),
    ):
        config.write_text(text)
        with pytest.raises(ConfigError, match=re.escape(f"{config}: {message}")):
            load_config(config)
