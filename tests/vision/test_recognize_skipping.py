"""vision.recognize.SkippingRecognizer: a zone's picture unchanged since it was last read is not read again. On
rendered frames with camera noise in every channel (``vision.render`` draws its own noise into one channel only)
and drifting light, the unchanged zones are skipped; a face changed, a hand over a zone, are read."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.tiles import parse_tiles
from vision.calibrate import Calibration
from vision.geometry import DEFAULT_LAYOUT
from vision.recognize import Recognizer, SkippingRecognizer, ZoneView
from vision.render import Camera, Hand, Look, Scene, random_look, render
from vision.simtable import discard_scene

PER_SEAT = 6
SEAT = 2
"""The zone changed: seat 2's discards, the farthest from the camera (fewest pixels to a face)."""
DIM = Look(gain=0.65, blur=1.0, noise=5.0)
"""The darkest, most blurred and noisiest light ``random_look`` gives: the faintest change of a face."""


def frame(scene: Scene, camera: Camera, look: Look, rng: np.random.Generator) -> np.ndarray:
    """``scene`` through ``camera`` with sensor noise of ``look.noise`` in every channel."""
    image = render(scene, camera, replace(look, noise=0.0), rng).astype(np.float32)
    image += rng.normal(0.0, look.noise, image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def calibration(camera) -> Calibration:
    return Calibration(camera.homography, camera.width, camera.height, DEFAULT_LAYOUT)


def tiles_of(views: list[ZoneView]) -> list[list]:
    """Each zone's readings, in a fixed order (the detector's order may differ between frames)."""
    return [sorted((seen.tile for seen in view.tiles), key=str) for view in views]


def with_face(scene: Scene, index: int, tile: int) -> Scene:
    tiles = list(scene.tiles)
    tiles[index] = replace(tiles[index], tile=tile)
    return replace(scene, tiles=tuple(tiles))


def test_noise_and_light_drift_over_an_unchanged_table_are_skipped(calibration, camera, model):
    rng = np.random.default_rng(3)
    scene, _ = discard_scene(rng, PER_SEAT)
    recognizer = SkippingRecognizer(calibration, model)
    look = replace(random_look(rng), noise=5.0)
    first = recognizer.read(frame(scene, camera, look, rng))
    assert (recognizer.zones_read, recognizer.zones_skipped) == (8, 0)
    assert sum(len(tiles) for tiles in tiles_of(first)) == 4 * PER_SEAT
    for gain in (1.0, 1.03, 0.97, 1.2):  # the camera's exposure drifting, then jumping
        views = recognizer.read(frame(scene, camera, replace(look, gain=look.gain * gain), rng))
        assert views == first
    assert (recognizer.zones_read, recognizer.zones_skipped) == (8, 4 * 8)


@pytest.mark.parametrize(("before", "after"), [("3m", "2m"), ("5f", "3f"), ("9s", "6s")])
def test_one_face_changed_in_the_far_zone_in_dim_light_is_read_again(calibration, camera, model, before, after):
    """The faintest face changes measured (see vision.recognize.UNCHANGED)."""
    rng = np.random.default_rng(5)
    scene, _ = discard_scene(rng, PER_SEAT)
    index = SEAT * PER_SEAT + 3
    scene = with_face(scene, index, parse_tiles(before)[0])
    recognizer = SkippingRecognizer(calibration, model)
    recognizer.read(frame(scene, camera, DIM, rng))
    changed = with_face(scene, index, parse_tiles(after)[0])
    image = frame(changed, camera, DIM, rng)
    views = recognizer.read(image)
    assert (recognizer.zones_read, recognizer.zones_skipped) == (9, 7)
    fresh = Recognizer(calibration, model).read(image)
    assert views[2 * SEAT] == fresh[2 * SEAT]  # read again; the others as they were read before
    assert tiles_of(views) == tiles_of(fresh)
    assert parse_tiles(after)[0] in tiles_of(views)[2 * SEAT]


def test_a_hand_over_a_zone_is_read_and_the_zone_read_again_once_it_has_gone(calibration, camera, model):
    """Seat 2 reaches into its discard zone: its arm over its hand zone too."""
    rng = np.random.default_rng(4)
    scene, _ = discard_scene(rng, PER_SEAT)
    over = scene.tiles[SEAT * PER_SEAT + 2]
    recognizer = SkippingRecognizer(calibration, model)
    first = recognizer.read(frame(scene, camera, Look(), rng))
    covered = recognizer.read(frame(replace(scene, hands=(Hand(over.x, over.y, 90.0),)), camera, Look(), rng))
    assert [view.covered for view in covered] == [view.seat == SEAT for view in covered]
    assert recognizer.zones_read == 8 + 2
    gone = recognizer.read(frame(scene, camera, Look(), rng))
    assert recognizer.zones_read == 8 + 2 + 2
    assert not any(view.covered for view in gone)
    assert tiles_of(gone) == tiles_of(first)


def test_a_zone_with_a_tile_it_cannot_read_is_read_every_frame(calibration, camera, model):
    """So that the tracker's readings of such a tile stay independent. A model that reads no face: every discard
    zone is read every frame, the empty hand zones once."""
    rng = np.random.default_rng(6)
    scene, _ = discard_scene(rng, PER_SEAT)
    recognizer = SkippingRecognizer(calibration, replace(model, threshold=1.01))
    image = frame(scene, camera, Look(), rng)
    for _ in range(3):
        views = recognizer.read(image)
    assert [len(view.tiles) for view in views] == [PER_SEAT, 0] * 4
    assert (recognizer.zones_read, recognizer.zones_skipped) == (3 * 4 + 4, 2 * 4)
