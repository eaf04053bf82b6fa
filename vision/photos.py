"""The real photographs in ``shared/photos``: labelled tiles of table scenes and face-on photos of whole sets, as the
reader's training, enrolment and test material.

The scenes come with no set labels, so the sets are told apart by the photo series (the file name) and were
checked by eye on crops of the same kinds side by side (``SERIES``): the ``IMG_2023...`` series is one ivory set
in a black tray on grey wood (blank white dragon, black 發), the ``IMG_27..`` series one white set with black
winds and black-framed white dragon on a pink table, the numbered series (``3...._n_jpg``) and the screenshots one
Hong Kong set (red/green/blue ink, corner indices, blue-framed white dragon, flowers and seasons) on green mats
and racks, and ``hand_...`` a few small sets mixed. Holding out a whole series holds out a whole set.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.errors import NotationError
from engine.tiles import Tile
from vision.artwork import parse_class_code
from vision.errors import ImageError, LabelsError
from vision.images import load_image
from vision.labels import read_labels
from vision.scenes import LOOSE, Box, lies_sideways, overlap, read_boxes, read_views, tile_size, turned_quads

SERIES = (("IMG_2023", "ivory"), ("IMG_27", "pink"), ("Screenshot", "hk"), ("hand_", "mixed"))
"""File-name prefix -> set; any other name (the numbered series) is the ``hk`` set."""
MISLABELLED = frozenset(f"IMG_{n}_JPG" for n in (2778, 2779, 2780, 2781, 2783, 2786, 2788))
"""Photos (name before ``.rf.``) whose every tile is labelled 1p (``sd1``) although they show rows of all kinds
(checked by eye): their labels are left out."""
RELABELLED = {
    ("393862359_1016644659388196_9121892287557604620_n_jpg", 3): "3z",  # labelled 1z: 西 with its W index
    ("395368434_1753592458387634_7405461030797290030_n_jpg", 9): "4s",  # labelled 2s: four sticks, index 4
    ("395465309_716860696650128_7891072760470949603_n_jpg", 19): "5m",  # labelled 5p: 伍萬, index 5
    ("395943457_352951880638020_6708737081433333054_n_jpg", 14): "1z",  # labelled 3z: 東 with its E index
    ("396615245_1012553140002307_5358505426230168323_n_jpg", 6): "5s",  # labelled 9s: five sticks, index 5
}
"""Single tiles labelled as another kind (photo name before ``.rf.``, the box's line in its label file counting
from 0) -> the kind they show, checked by eye on the crop, its printed index and its ink: the reader's misreads
on the hk set's other photos after enrolment were 8, of which these 5."""
MIN_BOX = 4
"""Px a labelled box must measure each way to be a tile's crop (a thinner one is a slip of the labelling tool)."""
FACE_SETS = ("kch3coo", "cyfef")
CONTEXT = 2.0
"""A scene tile's patch reaches this many times its box around the box centre, so that training can move, turn and
rescale the crop without running out of picture."""
PATCH_H = 96
"""Height (px) of a stored patch: the box is ``PATCH_H / CONTEXT`` px high in it, more than a table camera gives."""


def default_photos_dir() -> Path:
    """``$MJTABLE_SHARED/photos``, else ``shared/photos`` beside the checkout: the trainer's and the benches' real
    photographs (25 MB, not shipped). The table never reads them: its reader and artwork are package data."""
    shared = os.environ.get("MJTABLE_SHARED")
    return Path(shared) / "photos" if shared else Path(__file__).resolve().parents[2] / "shared" / "photos"


def set_of(name: str) -> str:
    """The set a scene photo shows, from its file name."""
    return next((label for prefix, label in SERIES if name.startswith(prefix)), "hk")


@dataclass(frozen=True)
class Sample:
    """One labelled tile: ``patch`` around it (portrait: a face lying sideways is turned a quarter), ``quad`` the
    face's corners in the patch (top-left first, clockwise): its box's, or in a photo of loose boxes its turned
    face's (``vision.scenes.turned_quads``); its kind, its photo, set and view (``vision.scenes``: ``overhead``,
    ``standing``, ``close-up`` or ``heap``)."""

    patch: np.ndarray
    quad: np.ndarray
    tile: Tile
    photo: str
    set: str
    view: str

    def crop(self, size: tuple[int, int]) -> np.ndarray:
        """The box warped to ``size`` (w, h)."""
        w, h = size
        target = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        matrix = cv2.getPerspectiveTransform(self.quad.astype(np.float32), target)
        return cv2.warpPerspective(self.patch, matrix, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _classes(folder: Path) -> list[Tile]:
    path = folder / "classes.csv"
    try:
        with path.open(newline="") as handle:
            return [parse_class_code(row["code"]) for row in csv.DictReader(handle)]
    except OSError as error:
        raise LabelsError(f"{path}: cannot read ({error.strerror})") from None
    except (KeyError, NotationError) as error:
        raise LabelsError(f"{path}: bad class table ({error})") from None


def _box_corners(box: Box, size: tuple[float, float]) -> np.ndarray:
    """A tight box's corners, top-left first and clockwise, turned portrait: a box that holds a face lying sideways
    (``lies_sideways``, in a photo whose upright face is ``size`` px) has its right side made the top."""
    x, y = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
    unit = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]])
    if lies_sideways(box, size):
        return np.float32([x, y]) + unit[:, ::-1] * np.float32([-box.width / 2, box.height / 2])
    return np.float32([x, y]) + unit * np.float32([box.width / 2, box.height / 2])


def _patch(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The portrait patch around one face (its corners, top-left first and clockwise) and the face's quad in it."""
    corners = np.float32(corners)
    long_side, short_side = np.linalg.norm(corners[3] - corners[0]), np.linalg.norm(corners[1] - corners[0])
    scale = PATCH_H / (CONTEXT * long_side)
    size = (max(1, round(CONTEXT * short_side * scale)), PATCH_H)
    centre = corners.mean(axis=0)
    outer = centre + (corners - centre) * CONTEXT
    target = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    matrix = cv2.getPerspectiveTransform(outer, target)
    patch = cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return patch, cv2.perspectiveTransform(corners[None], matrix)[0]


def scene_samples(folder: Path | None = None) -> list[Sample]:
    """Every labelled tile of ``scenes/``, in file order."""
    scenes = (folder or default_photos_dir()) / "scenes"
    classes = _classes(scenes)
    views = read_views()
    out = []
    for path in sorted((scenes / "images").glob("*.jpg")):
        if path.name.split(".rf.")[0] in MISLABELLED:
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ImageError(f"{path}: not an image OpenCV can read")
        height, width = image.shape[:2]
        boxes = read_boxes(scenes / "labels" / f"{path.stem}.txt", width, height)
        for box in boxes:
            if not 0 <= box.kind < len(classes):
                raise LabelsError(f"{scenes}/labels/{path.stem}.txt: class {box.kind} not in classes.csv")
        kept = [(number, box) for number, box in enumerate(boxes) if min(box.width, box.height) >= MIN_BOX]
        tight = [box for _, box in kept]
        if not tight:
            continue
        if overlap(tight) > LOOSE:
            faces = turned_quads(tight)
        else:
            size = tile_size(tight)
            faces = [_box_corners(box, size) for box in tight]
        for (number, box), corners in zip(kept, faces, strict=True):
            patch, quad = _patch(image, corners)
            view = views.get(path.name, "heap")
            relabelled = RELABELLED.get((path.name.split(".rf.")[0], number))
            tile = classes[box.kind] if relabelled is None else parse_class_code(relabelled)
            out.append(Sample(patch, quad, tile, path.name, set_of(path.name), view))
    return out


def face_sets(folder: Path | None = None) -> dict[str, list[tuple[np.ndarray, Tile]]]:
    """The face-on photos of ``sets/``: per set, (photo, kind) in the order of its labels."""
    root = (folder or default_photos_dir()) / "sets"
    return {
        name: [(load_image(path), tile) for path, tile in read_labels(root / name / "labels.csv", root / name)]
        for name in FACE_SETS
    }
