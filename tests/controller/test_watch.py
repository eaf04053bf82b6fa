"""The real table's camera path of people's play: ``[camera]`` opened as ``mjtable run`` opens it (frames recorded in a
folder stand for the camera; the calibration found from the corner markers of the first frame, the shipped model),
read into sights; and every way that setup can be wrong named by its key."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.config import Config
from controller.errors import ConfigError
from controller.people.camera import discard_place, laid_row
from controller.people.sights import Sight, SightKind
from controller.people.watch import open_table_camera
from engine.tiles import parse_tiles
from vision.render import Look, Placed, Scene, default_camera, render


def _record(folder, scenes: list[Scene], repeat: int = 4) -> None:
    """Each scene rendered ``repeat`` times (a camera's steady frames), written as numbered images."""
    folder.mkdir()
    rng, camera, index = np.random.default_rng(5), default_camera(), 0
    for scene in scenes:
        for _ in range(repeat):
            cv2.imwrite(str(folder / f"{index:03d}.png"), render(scene, camera, Look(), rng))
            index += 1


def _config(**camera: str) -> Config:
    return Config.from_dict({"camera": camera})


def test_the_configured_camera_is_calibrated_from_its_markers_and_read_into_sights(tmp_path):
    rng = np.random.default_rng(2)
    discard = Placed(parse_tiles("7p")[0], *discard_place(2, 0, rng))
    row = laid_row(1, tuple(parse_tiles("555s")), rng)
    frames = tmp_path / "frames"
    _record(frames, [Scene(), Scene((discard,)), Scene((discard, *row))])
    camera = open_table_camera(_config(source=str(frames)), None)
    camera.lookout.prime([[], [], [], []])
    sights = [sight for frame in camera.frames for sight in camera.lookout.look(frame)]
    assert sights == [
        Sight(SightKind.DISCARD, 2, tuple(parse_tiles("7p"))),
        Sight(SightKind.ROW, 1, tuple(parse_tiles("555s"))),
    ]


def test_a_camera_setup_that_cannot_work_is_named_before_play(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ConfigError, match=r"camera: .*empty: no images"):
        open_table_camera(_config(source=str(empty)), None)
    frames = tmp_path / "frames"
    _record(frames, [Scene()], repeat=1)
    with pytest.raises(ConfigError, match=r"camera: .*nowhere\.toml"):
        open_table_camera(_config(source=str(frames), calibration=str(tmp_path / "nowhere.toml")), None)
    with pytest.raises(ConfigError, match=r"camera: .*no-tiles"):
        open_table_camera(_config(source=str(frames), model=str(tmp_path / "no-tiles")), None)
