"""The labelled real photos of ``shared/photos/scenes``: their tile boxes, how each photo was taken, the tile size a
calibration would give for it, and detections matched to the labels. For measuring the detector on real photos.

Which photos are overhead is ``scenes_views.csv`` beside this module, judged by eye from the pictures alone, before
any detector ran on them (one view per photo):

- ``overhead``: tiles lie face up, flat, none on another, and the camera looks down on them, so each labelled box
  holds one tile's top face: rows and grids on the mat, trays of a set, layouts on a table (touching or not).
- ``standing``: tiles stand on their edge (a player's hand on the table or on a rack, a wall seen edge-on, tiles
  stood up one by one) and the camera sees their faces from the side: the box holds the face, not the tile's top.
- ``close-up``: a few tiles fill the frame (a box as wide as the photo).
- ``heap``: tiles lie on each other, tilted, partly hidden.

The export stretched every photo to 640 x 640 from its camera's aspect ratio, so a tile's proportions in a photo
depend on the photo; ``tile_size`` gives the size of an upright tile's face in that photo's own pixels, which is what
a calibration measures (the table's homography includes any stretch): its width along x and height along y, which
differ from 3:4 by the photo's stretch (``mjtable vision detect --tile-px W,H`` takes both).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import LabelsError
from vision.geometry import TILE_H_MM, TILE_W_MM

VIEWS_FILE = Path(__file__).resolve().parent / "scenes_views.csv"
VIEWS = ("overhead", "standing", "close-up", "heap")
LOOSE = 0.2
"""Mean share of a box covered by its most-overlapping neighbour above which a photo's boxes are loose: axis-aligned
boxes around tiles turned at an angle (a row laid diagonally), which overlap where tiles touch. On the overhead
photos the shares fall in two groups: at most 0.11 (tight boxes of touching tiles, a row turned a few degrees, a
grid seen in perspective) and at least 0.24 (rows turned 20 to 45 degrees)."""
IOU = 0.5


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in image pixels, with the class index of the label (-1 for a detection)."""

    x0: float
    y0: float
    x1: float
    y1: float
    kind: int = -1

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def area(self) -> float:
        return self.width * self.height

    def overlap(self, other: Box) -> float:
        """The area (px²) the two boxes share."""
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        return max(w, 0.0) * max(h, 0.0)

    def iou(self, other: Box) -> float:
        inter = self.overlap(other)
        union = self.area + other.area - inter
        return inter / union if union > 0 else 0.0


def read_boxes(path: Path, width: int, height: int) -> list[Box]:
    """The boxes of a YOLO label file (``class x_centre y_centre width height``, fractions of the image; a line of
    more numbers is a polygon, taken as its bounding box)."""
    boxes = []
    try:
        lines = path.read_text().splitlines()
    except OSError as error:
        raise LabelsError(f"{path}: cannot read ({error.strerror})") from None
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            continue
        try:
            kind, values = int(fields[0]), [float(v) for v in fields[1:]]
        except ValueError:
            raise LabelsError(f"{path} line {number}: expected a class and numbers") from None
        if len(values) == 4:
            x, y, w, h = values
            x0, y0, x1, y1 = x - w / 2, y - h / 2, x + w / 2, y + h / 2
        elif len(values) >= 6 and len(values) % 2 == 0:
            x0, x1, y0, y1 = min(values[::2]), max(values[::2]), min(values[1::2]), max(values[1::2])
        else:
            raise LabelsError(f"{path} line {number}: expected 4 numbers or a polygon, found {len(values)}")
        boxes.append(Box(x0 * width, y0 * height, x1 * width, y1 * height, kind))
    return boxes


def read_views(path: Path = VIEWS_FILE) -> dict[str, str]:
    """Photo file name -> view (one of ``VIEWS``)."""
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    bad = [row for row in rows if row.get("view") not in VIEWS]
    if bad:
        raise LabelsError(f"{path}: unknown view {bad[0].get('view')!r} for {bad[0].get('photo')!r}")
    return {row["photo"]: row["view"] for row in rows}


SERIES = (
    ("red mat", r"IMG_27\d\d_"),
    ("trays", r"IMG_2023"),
    ("green mat", r"\d+_\d+_\d+_n_"),
    ("hands", r"hand_"),
)
"""The photos' series by file name, each of one set on one table (or a few sets by one photographer): a red mat
with a set of thick tiles, trays of a small set on a wooden table, a green mat or a tray with a wooden rim, tiles
on a hand. A fair figure for photos never tuned on holds out whole series."""


def series(name: str) -> str:
    """The series (``SERIES``) a photo belongs to, ``other`` if none."""
    return next((label for label, pattern in SERIES if re.match(pattern, name)), "other")


def overlap(boxes: list[Box]) -> float:
    """Mean share of each box covered by the one box that overlaps it most."""
    if len(boxes) < 2:
        return 0.0
    a = np.array([(b.x0, b.y0, b.x1, b.y1) for b in boxes])
    w = np.clip(np.minimum(a[:, None, 2], a[None, :, 2]) - np.maximum(a[:, None, 0], a[None, :, 0]), 0, None)
    h = np.clip(np.minimum(a[:, None, 3], a[None, :, 3]) - np.maximum(a[:, None, 1], a[None, :, 1]), 0, None)
    inter = w * h
    np.fill_diagonal(inter, 0)
    return float(np.mean(inter.max(axis=1) / ((a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]))))


NEAR_SQUARE = 1.22
"""A photo whose median box is this close to square (either way) shows its tiles upright: a portrait photo
stretched to square makes an upright face's box square, as a landscape one would a sideways face's, so the boxes
alone cannot tell. By eye, all 47 photos of ``scenes/`` with such boxes (tight ones) show upright faces."""
SQUASHED = 1 / 3
"""A photo whose median box is flatter than this (height over width) shows its tiles upright too: a tall strip of a
row stretched to square (the 28 close-ups, their boxes 0.08 to 0.11 as high as wide, all upright faces by eye)."""


def tile_size(boxes: list[Box]) -> tuple[float, float]:
    """The width and height (px) of an upright tile's face in a photo, as a calibration would measure them, from the
    labelled boxes: tight boxes (tiles square to the frame) give the median box's short and long side, measured
    along x and y as most boxes stand (a stretched photo's tiles are wider or narrower than 3:4; near-square and
    squashed boxes are upright faces: ``NEAR_SQUARE``, ``SQUASHED``).
    Loose boxes (``LOOSE``) are tiles turned at an angle in a stretched photo: solved from each box and the step to
    its nearest neighbour in the row (``turned_size``)."""
    widths = np.array([b.width for b in boxes])
    heights = np.array([b.height for b in boxes])
    if overlap(boxes) > LOOSE:
        return turned_size(boxes)
    ratio = float(np.median(heights / widths))
    if abs(np.log(ratio)) < np.log(NEAR_SQUARE) or ratio < SQUASHED:
        return float(np.median(widths)), float(np.median(heights))
    short, long = float(np.median(np.minimum(widths, heights))), float(np.median(np.maximum(widths, heights)))
    if np.count_nonzero(heights >= widths) >= len(boxes) / 2:
        return short, long
    # Most tiles lie sideways: ``long`` px along x is 40 mm, ``short`` px along y is 30 mm.
    return long * TILE_W_MM / TILE_H_MM, short * TILE_H_MM / TILE_W_MM


def lies_sideways(box: Box, size: tuple[float, float]) -> bool:
    """Whether a tight box holds a face lying sideways, in a photo whose upright face is ``size`` (w, h) px: its
    proportions are closer to a sideways face's in that photo (``4/3 w`` by ``3/4 h``) than to an upright one's."""
    width, height = size
    k = TILE_H_MM / TILE_W_MM
    aspect = np.log(box.height / box.width)
    return abs(aspect - np.log(height / k / (width * k))) < abs(aspect - np.log(height / width))


def turned_size(boxes: list[Box]) -> tuple[float, float]:
    """The width and height (px) of an upright face in a photo of turned rows (``turned_fit``)."""
    a, b, _ = turned_fit(boxes)
    return a, b


def turned_fit(boxes: list[Box]) -> tuple[float, float, bool]:
    """The width and height (px) of an upright tile's face in a photo whose tiles lie turned at an angle in rows,
    the photo stretched by some factor along x and y (``a`` px per tile width along x, ``b`` along y): from each
    box and the step from its centre to its nearest neighbour's, the next tile of its row. A tile turned by ``t``
    lying against its neighbour along its side of ``m`` tile widths (the other side ``n``) has a box of
    ``a (m |cos t| + n |sin t|)`` by ``b (m |sin t| + n |cos t|)`` px, and the step to its neighbour is
    ``m (a cos t, b sin t)``: the step and the box give ``a cos t``, ``a sin t``, ``b cos t`` and ``b sin t``, so
    ``a``, ``b``, and the angle twice. Tiles side by side (``m`` = 1, as rows are laid) or end to end (``m`` = 4/3):
    whichever gives the two angles that agree best (the third value: end to end). The medians over the boxes."""
    k = TILE_H_MM / TILE_W_MM
    centres = np.array([((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2) for b in boxes])
    sizes = np.array([(b.width, b.height) for b in boxes])
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(distance, np.inf)
    nearest = distance.argmin(axis=1)
    dx, dy = np.abs(centres[nearest] - centres).T
    width, height = ((sizes + sizes[nearest]) / 2).T  # the pair's mean box
    fits = []
    for end_to_end, (m, n) in enumerate(((1.0, k), (k, 1.0))):
        a_cos, a_sin = dx / m, np.clip(width - dx, 0, None) / n
        b_sin, b_cos = dy / m, np.clip(height - dy, 0, None) / n
        disagree = float(np.median(np.abs(np.arctan2(a_sin, a_cos) - np.arctan2(b_sin, b_cos))))
        a, b = float(np.median(np.hypot(a_cos, a_sin))), float(np.median(np.hypot(b_cos, b_sin)))
        fits.append((disagree, a, b * k, bool(end_to_end)))
    return min(fits)[1:]


def pairs(found: list[Box], labels: list[Box], threshold: float = IOU) -> dict[int, int]:
    """Detection index -> the labelled box it matches at IoU >= ``threshold``, each used once (greedy, best
    first)."""
    ranked = sorted(
        ((f.iou(lab), i, j) for i, f in enumerate(found) for j, lab in enumerate(labels)),
        reverse=True,
    )
    matched: dict[int, int] = {}
    used_label = set()
    for iou, i, j in ranked:
        if iou < threshold:
            break
        if i not in matched and j not in used_label:
            matched[i] = j
            used_label.add(j)
    return matched


def match(found: list[Box], labels: list[Box], threshold: float = IOU) -> int:
    """How many labelled boxes a detection matches at IoU >= ``threshold``, each used once (greedy, best first)."""
    return len(pairs(found, labels, threshold))


ROW_NEIGHBOURS = 2
"""Nearest boxes that give a loose box its row's direction (``turned_quads``): its neighbours either side."""


def turned_quads(boxes: list[Box]) -> list[np.ndarray]:
    """The face corners (4 x 2 px, top-left first and clockwise, upright or upside down) of each tile of a photo
    whose boxes are loose (``LOOSE``: tiles turned at an angle in rows): the crop a detector's turned rectangle
    gives, where the box itself takes in the corners of the next tiles. The photo's upright face is ``a`` x ``b`` px
    (``turned_fit``). A box's row runs through its centre and its nearest neighbours' (``ROW_NEIGHBOURS``, their
    principal direction with the stretch taken out); its tiles lie along it side to side, or end to end if the
    photo's fit says so (one answer for the photo: one box's proportions tell it badly where boxes overlap most)."""
    a, b, end_to_end = turned_fit(boxes)
    stretch = np.array([a / TILE_W_MM, b / TILE_H_MM])
    centres = np.array([((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2) for box in boxes])
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (TILE_W_MM / 2, TILE_H_MM / 2)  # a face in mm
    quads = []
    for i in range(len(boxes)):
        row = centres[np.argsort(distance[i])[: ROW_NEIGHBOURS + 1]] / stretch
        direction = np.linalg.svd(row - row.mean(axis=0))[2][0] if len(row) > 1 else np.array([1.0, 0.0])
        turn = float(np.arctan2(direction[1], direction[0])) + (np.pi / 2 if end_to_end else 0.0)
        quads.append(centres[i] + (unit @ _axes(turn)) * stretch)
    return quads


def _axes(turn: float) -> np.ndarray:
    """The unit width and height axes (rows) of a face turned by ``turn`` radians, clockwise as the image shows it."""
    c, s = np.cos(turn), np.sin(turn)
    return np.array([[c, s], [-s, c]])


@dataclass(frozen=True)
class Detected:
    """A detector's figures on one photo: its labelled tiles, those a detection matches, and its detections."""

    labelled: int
    matched: int
    detections: int


def detected(folder: Path, name: str, find: Callable[[np.ndarray, float, float], list[np.ndarray]]) -> Detected:
    """How ``find`` (photo, tile width, tile height -> face corners, 4 x 2 px each) does on one labelled photo of
    ``folder`` (``images/``, ``labels/``), given the tile size a calibration would (``tile_size``)."""
    image = cv2.imread(str(folder / "images" / name), cv2.IMREAD_COLOR)
    if image is None:
        raise LabelsError(f"{folder / 'images' / name}: not an image OpenCV can read")
    labels = read_boxes(folder / "labels" / f"{Path(name).stem}.txt", image.shape[1], image.shape[0])
    quads = find(image, *tile_size(labels))
    boxes = [Box(*quad.min(axis=0), *quad.max(axis=0)) for quad in quads]
    return Detected(len(labels), match(boxes, labels), len(boxes))
