"""Tile-face artwork (``vision/faces``, shipped with the package) as multiply layers, so that any tile body colour
and light can be applied.

Styles: ``uni`` (Chinese faces, all 42 kinds: the default model's set), ``riichi`` (Japanese faces, 34 kinds) and
``other`` (riichi faces plus recoloured, heavier uni flowers on an ivory body: a stand-in for a physical set the
default model has never seen, used to test enrollment).
"""

from __future__ import annotations

import csv
import functools
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from engine.errors import NotationError
from engine.tiles import Tile, parse_tile
from vision.errors import ImageError, LabelsError

FACE_W, FACE_H = 96, 128
"""Artwork layers are this size: the top face of a 30 x 40 mm tile."""
STYLES = ("uni", "riichi", "other")
CLASS_CODES = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "WD": "5z", "GD": "6z", "RD": "7z"}
CLASS_CODES |= {f"S{n}": f"{n}f" for n in range(1, 5)} | {f"F{n}": f"{n + 4}f" for n in range(1, 5)}
"""``vision/faces/CLASSES.csv`` codes that differ from the compact notation (seasons are 1f-4f, flowers 5f-8f)."""


def default_artwork_dir() -> Path:
    """The artwork shipped inside the package (``vision/faces``, its licences and credit beside it), so that an
    installed mjtable renders its simulated camera with nothing beside it. Setuptools installs packages as plain
    files, so the resource is a folder on disk that OpenCV can read by path."""
    faces = resources.files("vision") / "faces"
    if not isinstance(faces, Path):
        raise ImageError(f"the tile artwork {faces} is not a folder on disk; install mjtable unzipped")
    return faces


def parse_class_code(code: str) -> Tile:
    """A tile from a ``CLASSES.csv`` code (``RD``, ``F1``) or from compact notation (``7z``, ``5f``)."""
    text = code.strip()
    return parse_tile(CLASS_CODES.get(text, text))


def _read(path: Path, flags: int = cv2.IMREAD_UNCHANGED) -> np.ndarray:
    image = cv2.imread(str(path), flags)
    if image is None:
        raise ImageError(f"{path}: missing or not an image")
    return image


def _labels(folder: Path) -> list[tuple[Path, Tile]]:
    path = folder / "labels.csv"
    try:
        with path.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        raise LabelsError(f"{path}: cannot read ({error.strerror})") from None
    out = []
    for line, row in enumerate(rows, start=2):
        if row.get("code"):
            try:
                out.append((folder / row["png"], parse_class_code(row["code"])))
            except NotationError as error:
                raise LabelsError(f"{path} line {line}: {error}") from None
    return out


def _fit(layer: np.ndarray, margin: float) -> np.ndarray:
    """Scale a layer into the face, leaving ``margin`` of the face blank on every side."""
    inner_w, inner_h = round(FACE_W * (1 - 2 * margin)), round(FACE_H * (1 - 2 * margin))
    face = np.ones((FACE_H, FACE_W, 3), np.float32)
    x, y = (FACE_W - inner_w) // 2, (FACE_H - inner_h) // 2
    face[y : y + inner_h, x : x + inner_w] = cv2.resize(layer, (inner_w, inner_h), interpolation=cv2.INTER_AREA)
    return face


def _uni(folder: Path) -> dict[Tile, np.ndarray]:
    # White background: the picture itself is the multiply layer.
    return {tile: _fit(_read(png, cv2.IMREAD_COLOR).astype(np.float32) / 255, 0.07) for png, tile in _labels(folder)}


def _riichi(folder: Path) -> dict[Tile, np.ndarray]:
    faces: dict[Tile, np.ndarray] = {}
    for png, tile in _labels(folder):
        if "Dora" in png.name:
            continue  # red fives are a variant of the same kind
        image = _read(png).astype(np.float32) / 255
        alpha = image[..., 3:]
        faces[tile] = _fit(image[..., :3] * alpha + (1 - alpha), 0.0)
    return faces


def _restyled(face: np.ndarray) -> np.ndarray:
    """Heavier strokes in another ink: what a different manufacturer's flower tiles might look like."""
    ink = 1 - face.min(axis=2)
    heavy = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    colour = np.array([0.15, 0.2, 0.75], np.float32)  # BGR ink: a warm red-brown
    return 1 - heavy[..., None] * (1 - colour)


@functools.cache
def load_faces(style: str = "uni", folder: Path | None = None) -> dict[Tile, np.ndarray]:
    """Multiply layers (float32 BGR in [0, 1], ``FACE_H`` x ``FACE_W``) by tile, for one artwork style."""
    root = folder or default_artwork_dir()
    if style == "uni":
        return _uni(root / "uni")
    if style == "riichi":
        return _riichi(root / "riichi")
    if style == "other":
        flowers = {tile: _restyled(face) for tile, face in _uni(root / "uni").items() if tile >= 34}
        return _riichi(root / "riichi") | flowers
    raise ImageError(f"unknown artwork style {style!r}; expected one of {', '.join(STYLES)}")


BODY_COLOURS = {"uni": (236, 242, 244), "riichi": (232, 238, 240), "other": (200, 228, 238)}
"""BGR body colour of each style's tiles (the ``other`` set is ivory)."""
