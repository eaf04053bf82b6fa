"""Shared fixtures: the shipped model, the default camera, and rendered pictures of a differently styled set."""

from __future__ import annotations

import numpy as np
import pytest

from vision.artwork import load_faces
from vision.classify import Model, load_model
from vision.detect import face_crop
from vision.render import Camera, default_camera, tile_photo


@pytest.fixture(scope="session")
def model() -> Model:
    return load_model()


@pytest.fixture(scope="session")
def camera() -> Camera:
    return default_camera()


@pytest.fixture(scope="session")
def other_set() -> dict[str, list]:
    """Face crops of photos of the 'other' set (riichi faces, restyled flowers, ivory body): 3 per kind to enroll,
    3 to test."""
    rng = np.random.default_rng(77)
    kinds = sorted(load_faces("other"))
    photos = {"enroll": [], "test": []}
    for part in photos:
        photos[part] = [(face_crop(tile_photo(tile, "other", rng)), tile) for tile in kinds for _ in range(3)]
    return photos
