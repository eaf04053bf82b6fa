"""Tile-face artwork (``vision/faces``, shipped with the package) as multiply layers, so that any tile body colour
and light can be applied.

Styles: ``uni`` (Chinese faces, all 42 kinds: the default model's set), ``riichi`` (Japanese faces, 34 kinds) and
``other`` (riichi faces plus recoloured, heavier uni flowers on an ivory body: a stand-in for a physical set the
default model has never seen, used to test enrollment).

Beyond the engine's tiles, every style draws the other faces of ``vision.kinds``, by index only (``Faces``): the red
fives (the riichi artwork's own ``Man5-Dora`` ...; uni's fives recoloured in red ink) and 十万's tens, which no
artwork has and ``_tens`` composes from the style's own strokes.
"""

from __future__ import annotations

import csv
import functools
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from engine.errors import NotationError
from engine.tiles import Tile
from vision.errors import ImageError, LabelsError
from vision.kinds import FIVES, RED_FIVES, TENS, Face, parse_face

FACE_W, FACE_H = 96, 128
"""Artwork layers are this size: the top face of a 30 x 40 mm tile."""
STYLES = ("uni", "riichi", "other")


def default_artwork_dir() -> Path:
    """The artwork shipped inside the package (``vision/faces``, its licences and credit beside it), so that an
    installed mjtable renders its simulated camera with nothing beside it. Setuptools installs packages as plain
    files, so the resource is a folder on disk that OpenCV can read by path."""
    faces = resources.files("vision") / "faces"
    if not isinstance(faces, Path):
        raise ImageError(f"the tile artwork {faces} is not a folder on disk; install mjtable unzipped")
    return faces


def parse_class_code(code: str) -> Face:
    """A face from a ``CLASSES.csv`` code (``RD``, ``F1``), compact notation (``7z``, ``5f``) or a face code of
    ``vision.kinds`` (``0m`` a red five, ``10m`` 十万)."""
    return parse_face(code)


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


def _riichi(folder: Path, red: bool = False) -> dict[Face, np.ndarray]:
    """The riichi faces; ``red``: only the red fives (``Man5-Dora`` ...), as the faces ``RED_FIVES``."""
    faces: dict[Face, np.ndarray] = {}
    for png, tile in _labels(folder):
        if ("Dora" in png.name) != red:
            continue
        image = _read(png).astype(np.float32) / 255
        alpha = image[..., 3:]
        faces[RED_FIVES[FIVES.index(tile)] if red else tile] = _fit(image[..., :3] * alpha + (1 - alpha), 0.0)
    return faces


def _restyled(face: np.ndarray) -> np.ndarray:
    """Heavier strokes in another ink: what a different manufacturer's flower tiles might look like."""
    ink = 1 - face.min(axis=2)
    heavy = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    colour = np.array([0.15, 0.2, 0.75], np.float32)  # BGR ink: a warm red-brown
    return 1 - heavy[..., None] * (1 - colour)


class Faces(dict[Face, np.ndarray]):
    """A style's layers by face: iterating, ``len`` and ``in`` see the engine's tiles that the style draws (what
    training and the tests' sets of kinds go through); the extra faces of ``vision.kinds`` (red fives, tens) are
    there by index only, made on first use (what ``vision.render`` draws)."""

    def __init__(self, faces: dict[Face, np.ndarray], extra: functools.partial[dict[Face, np.ndarray]]) -> None:
        super().__init__(faces)
        self._extra = extra

    def __missing__(self, face: Face) -> np.ndarray:
        extra = self._extra()
        if face not in extra:
            raise KeyError(face)
        return extra[face]

    def extra(self) -> dict[Face, np.ndarray]:
        """The red fives and the tens of this style."""
        return dict(self._extra())


INK_RED = np.array([0.22, 0.2, 0.86], np.float32)
"""BGR of red ink, as the red fives of the riichi artwork are printed."""


def _ink(face: np.ndarray) -> np.ndarray:
    """How dark each pixel of a layer is (0 blank, 1 black), whatever its colour."""
    return 1 - face.min(axis=2)


def _inked(ink: np.ndarray, colour: np.ndarray) -> np.ndarray:
    return (1 - ink[..., None] * (1 - colour)).astype(np.float32)


def _reddened(face: np.ndarray) -> np.ndarray:
    """The same face printed in red ink: a red five of a set whose artwork has none."""
    return _inked(_ink(face), INK_RED)


def _bands(ink: np.ndarray, axis: int) -> list[tuple[int, int]]:
    """Runs of rows (``axis`` 1) or columns (``axis`` 0) holding ink, as (start, end)."""
    inked = (ink > 0.2).any(axis=axis)
    edges = np.flatnonzero(np.diff(np.r_[0, inked.astype(np.int8), 0]))
    return list(zip(edges[::2], edges[1::2], strict=True))


def _glyph(face: np.ndarray, row: int = 0, column: int = 0) -> np.ndarray:
    """The picture in the ``row``-th band of ink from the top and its ``column``-th from the left, cut tight."""
    ink = _ink(face)
    top, bottom = _bands(ink, 1)[row]
    left, right = _bands(ink[top:bottom], 0)[column]
    return face[top:bottom, left:right]


def _place(face: np.ndarray, glyph: np.ndarray, box: tuple[float, float, float, float]) -> None:
    """Draw ``glyph`` fitted into ``box`` (x, y, w, h in face px, aspect kept, centred) over ``face``."""
    x, y, w, h = box
    scale = min(w / glyph.shape[1], h / glyph.shape[0])
    gw, gh = max(1, round(glyph.shape[1] * scale)), max(1, round(glyph.shape[0] * scale))
    gx, gy = round(x + (w - gw) / 2), round(y + (h - gh) / 2)
    part = cv2.resize(glyph, (gw, gh), interpolation=cv2.INTER_AREA)
    np.minimum(face[gy : gy + gh, gx : gx + gw], part, out=face[gy : gy + gh, gx : gx + gw])


def _grid(glyph: np.ndarray, rows: tuple[int, ...], margin: float) -> np.ndarray:
    """Copies of a glyph in centred rows of the given lengths, filling the face inside ``margin``."""
    face = np.ones((FACE_H, FACE_W, 3), np.float32)
    x0, y0 = FACE_W * margin, FACE_H * margin
    cell_w, cell_h = FACE_W * (1 - 2 * margin) / max(rows), FACE_H * (1 - 2 * margin) / len(rows)
    for r, count in enumerate(rows):
        left = x0 + (max(rows) - count) * cell_w / 2
        for c in range(count):
            _place(face, glyph, (left + c * cell_w + 1, y0 + r * cell_h + 1, cell_w - 2, cell_h - 2))
    return face


def _tens(faces: dict[Face, np.ndarray], margin: float) -> dict[Face, np.ndarray]:
    """十万's tens made from the style's own strokes (no artwork has them): 十萬 (the 一 of 1m crossed by itself
    turned upright, over 1m's 萬), ten dots (2p's dot in rows of 3, 4, 3), ten bamboo (2s's stick in two rows of 5)."""
    one = faces[0]
    (top, bottom), (below, _) = _bands(_ink(one), 1)[:2]
    character = one.copy()
    character[top:bottom] = 1.0  # 一 out, 萬 kept
    stroke = _glyph(one)
    height = stroke.shape[1]  # the upright stroke as tall as 一 is wide
    y = max(0.0, (top + bottom) / 2 - height / 2)
    numeral = (FACE_W / 2 - height / 2, y, height, min(height, below - 3 - y))  # clear of 萬
    cross = np.ones((height, height, 3), np.float32)
    _place(cross, stroke, (0, 0, height, height))
    _place(cross, np.ascontiguousarray(np.rot90(stroke)), (0, 0, height, height))
    _place(character, cross, numeral)
    dots = _grid(_glyph(faces[10]), (3, 4, 3), margin)
    sticks = _grid(_glyph(faces[19]), (5, 5), margin)
    return dict(zip(TENS, (character, dots, sticks), strict=True))


def _extra(style: str, root: Path) -> dict[Face, np.ndarray]:
    base = load_faces(style, root)
    reds = _riichi(root / "riichi", red=True) if style in ("riichi", "other") else {}
    reds = reds or {red: _reddened(base[five]) for red, five in zip(RED_FIVES, FIVES, strict=True)}
    return reds | _tens(base, 0.07 if style == "uni" else 0.04)


_extra_cached = functools.cache(_extra)


@functools.cache
def load_faces(style: str = "uni", folder: Path | None = None) -> Faces:
    """Multiply layers (float32 BGR in [0, 1], ``FACE_H`` x ``FACE_W``) by face, for one artwork style: the
    engine's tiles the style draws, and by index the faces of ``vision.kinds`` beyond them (``Faces``)."""
    root = folder or default_artwork_dir()
    if style == "uni":
        faces = _uni(root / "uni")
    elif style == "riichi":
        faces = _riichi(root / "riichi")
    elif style == "other":
        flowers = {tile: _restyled(face) for tile, face in _uni(root / "uni").items() if tile >= 34}
        faces = _riichi(root / "riichi") | flowers
    else:
        raise ImageError(f"unknown artwork style {style!r}; expected one of {', '.join(STYLES)}")
    return Faces(faces, functools.partial(_extra_cached, style, root))


BODY_COLOURS = {"uni": (236, 242, 244), "riichi": (232, 238, 240), "other": (200, 228, 238)}
"""BGR body colour of each style's tiles (the ``other`` set is ivory)."""
