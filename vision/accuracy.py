"""How well a reader reads the real photos: a set it never saw, and a set after enrolling a few photos per kind
(enrolment photos and test photos never the same). Shared by the tests and ``bench/bench_reader.py``.

Figures: ``top1`` the share whose best reading is right (unknown or not), ``right`` the share answered right
(unknown counts as wrong), ``precision`` the share of the answers that are not unknown that are right.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from engine.tiles import Tile, tile_code
from vision.classify import Model
from vision.detect import face_crop
from vision.enroll import enroll
from vision.errors import LabelsError
from vision.features import CROP_H, CROP_W
from vision.kinds import Face
from vision.layout import kinds_for, read_layout
from vision.photos import Sample

SUITS_AND_HONOURS = 34
"""Tile ids below this are the 34 kinds every set has; flowers and seasons differ from set to set."""


@dataclass(frozen=True)
class Score:
    count: int
    top1: float
    right: float
    precision: float
    misreads: tuple[tuple[str, str, int], ...]
    """(truth, answer, count) of the wrong answers that were not unknown, most frequent first."""

    def to_dict(self) -> dict:
        return {
            "n": self.count,
            "top1": round(self.top1, 4),
            "right": round(self.right, 4),
            "precision": round(self.precision, 4),
            "misreads": [list(m) for m in self.misreads[:8]],
        }


def score(model: Model, crops: list[np.ndarray], truth: list[Tile]) -> Score:
    """The model's readings of ``crops`` against ``truth``."""
    readings = [prediction for prediction, _ in model.read(crops)]
    best = np.array([p.choices[0][0] if p.choices else -1 for p in readings])
    answered = np.array([p.tile is not None for p in readings])
    right = np.array([p.tile == t for p, t in zip(readings, truth, strict=True)])
    wrong = Counter((tile_code(t), p.code) for p, t in zip(readings, truth, strict=True) if p.tile not in (None, t))
    return Score(
        len(truth),
        float(np.mean(best == np.array(truth))) if truth else 0.0,
        float(right.mean()) if truth else 0.0,
        float(right[answered].mean()) if answered.any() else 1.0,
        tuple((a, b, n) for (a, b), n in wrong.most_common()),
    )


def sample_crops(samples: list[Sample]) -> tuple[list[np.ndarray], list[Tile]]:
    return [s.crop((CROP_W, CROP_H)) for s in samples], [s.tile for s in samples]


def never_seen(model: Model, samples: list[Sample], faces: list[tuple[np.ndarray, Tile]]) -> Score:
    """The 34 kinds of held-out scene tiles and face-on photos (as ``face_crop`` cuts them)."""
    crops, truth = sample_crops([s for s in samples if s.tile < SUITS_AND_HONOURS])
    kept = [(face_crop(image), tile) for image, tile in faces if tile < SUITS_AND_HONOURS]
    return score(model, crops + [c for c, _ in kept], truth + [t for _, t in kept])


def enrolment_split(samples: list[Sample], per_kind: int) -> tuple[list[Sample], list[Sample]]:
    """``per_kind`` tiles of each kind to enrol, from as few photos as a greedy choice finds, and every tile of the
    other photos to test on."""
    photos: dict[str, list[Sample]] = {}
    for sample in samples:
        photos.setdefault(sample.photo, []).append(sample)
    need = Counter({tile: per_kind for tile in {s.tile for s in samples}})
    chosen: list[str] = []
    while +need:
        gain = {
            name: sum(min(n, need[t]) for t, n in Counter(s.tile for s in tiles).items())
            for name, tiles in photos.items()
            if name not in chosen
        }
        name = max(sorted(gain), key=gain.__getitem__)
        if gain[name] == 0:
            break
        chosen.append(name)
        need -= Counter(s.tile for s in photos[name])
    enrol, have = [], Counter()
    for name in chosen:
        for sample in photos[name]:
            if have[sample.tile] < per_kind:
                enrol.append(sample)
                have[sample.tile] += 1
    return enrol, [s for s in samples if s.photo not in chosen]


TABLE_VIEW = "overhead"
"""The view (``vision.scenes``) of the photos a set is enrolled from and, by default, tested on: the table's camera
looks down on tiles lying face up at the table's distance. Standing hands are seen from the side, and close-ups have
a few tiles fill the frame."""

LAYOUT_ROWS = {34: (9, 9, 9, 7), 42: (9, 9, 9, 7, 8)}
"""The rows a set of this many kinds is laid out in for ``vision enroll --layout`` (``vision.layout.LAYOUTS``)."""
LAYOUT_FACE = (36, 48)
"""Px of a tile's top face in a composed layout: about what a photo's box holds (``vision.photos.PATCH_H`` / 2)."""
MAT = (52, 96, 40)
"""BGR of the green mat a composed layout lies on."""
WHITE = 215.0
"""Grey level of a composed layout's brightest tile body: one photo has one light, its tiles' photos had many."""


def laid_out(
    faces: list[np.ndarray | None],
    lengths: tuple[int, ...],
    face: tuple[int, int] = LAYOUT_FACE,
    body: tuple[float, float, float] = (WHITE, WHITE, WHITE),
    seed: int = 0,
) -> np.ndarray:
    """A photo of tiles laid out on a green mat in rows of ``lengths`` (centred, 14 px apart), each face resized to
    ``face`` (w, h) inside a 3 px rim of tile body (BGR; None in ``faces``: an empty place)."""
    w, h, gap, margin, rim = face[0] + 6, face[1] + 6, 14, 40, 3
    rng = np.random.default_rng(seed)
    size = (len(lengths) * (h + gap) + 2 * margin, max(lengths) * (w + gap) + 2 * margin)
    canvas = np.full((*size, 3), MAT, np.float64) + rng.normal(0, 4, (1, 1, 3))
    canvas = np.clip(canvas + rng.normal(0, 4, canvas.shape), 0, 255).astype(np.uint8)
    starts = np.cumsum((0, *lengths))
    for row, count in enumerate(lengths):
        for column, image in enumerate(faces[starts[row] : starts[row] + count]):
            if image is None:
                continue
            x = margin + column * (w + gap) + (max(lengths) - count) * (w + gap) // 2
            y = margin + row * (h + gap)
            canvas[y : y + h, x : x + w] = body
            canvas[y + rim : y + h - rim, x + rim : x + w - rim] = cv2.resize(image, face, interpolation=cv2.INTER_AREA)
    return canvas


def typical(samples: list[Sample]) -> Sample:
    """The sample whose crop is nearest the others' (grey, light and contrast cancelled, either way up): no reader
    takes part, and a tile cut askew or half hidden, which no layout photo would show, is not chosen."""
    grey = np.array([cv2.cvtColor(s.crop((CROP_W, CROP_H)), cv2.COLOR_BGR2GRAY).astype(np.float32) for s in samples])
    grey = (grey - grey.mean(axis=(1, 2), keepdims=True)) / (grey.std(axis=(1, 2), keepdims=True) + 1.0)
    turned = grey[:, ::-1, ::-1]
    apart = np.minimum(
        np.abs(grey[:, None] - grey[None]).mean(axis=(2, 3)), np.abs(grey[:, None] - turned[None]).mean(axis=(2, 3))
    )
    return samples[int(apart.sum(axis=1).argmin())]


def one_light(crop: np.ndarray) -> np.ndarray:
    """The crop lit as a layout photo's tiles are: its brightest tenth at ``WHITE``."""
    level = float(np.percentile(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), 90))
    return np.clip(crop.astype(np.float32) * (WHITE / max(level, 1.0)), 0, 255).astype(np.uint8)


def layout_faces(samples: list[Sample]) -> list[tuple[np.ndarray, Face]]:
    """What ``vision enroll --layout`` takes from one photo of a set laid out, that photo composed of one tile of
    each kind among ``samples`` (the ``typical`` one), as the detector finds them at the given tile size."""
    by_kind: dict[Face, list[Sample]] = {}
    for sample in samples:
        by_kind.setdefault(sample.tile, []).append(sample)
    lengths = LAYOUT_ROWS.get(len(by_kind))
    if lengths is None or set(by_kind) != set(kinds_for(lengths)):
        raise LabelsError(f"a set of {len(by_kind)} kinds: no layout (expected the 34 kinds, or all 42)")
    faces = [one_light(typical(by_kind[kind]).crop(LAYOUT_FACE)) for kind in kinds_for(lengths)]
    image = laid_out(faces, lengths)
    return read_layout(image, LAYOUT_FACE[0]).faces(image)


def enrolled(
    model: Model,
    samples: list[Sample],
    per_kind: int = 5,
    views: tuple[str, ...] = (TABLE_VIEW,),
    layout: bool = False,
) -> tuple[Score, int]:
    """The model after enrolling ``per_kind`` tiles per kind of one set from its ``TABLE_VIEW`` photos (``layout``:
    one of each kind, laid out in one composed photo, ``layout_faces``), on the set's other photos of
    ``views``; and how many kinds were enrolled. Both ways test on the same photos."""
    enrol, _ = enrolment_split([s for s in samples if s.view == TABLE_VIEW], per_kind)
    used = {s.photo for s in enrol}
    test = [s for s in samples if s.view in views and s.photo not in used]
    crops, truth = sample_crops(enrol)
    faces = layout_faces(enrol) if layout else list(zip(crops, truth, strict=True))
    model = enroll(model, faces)
    return score(model, *sample_crops(test)), len(set(truth))
