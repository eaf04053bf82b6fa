"""How well a reader reads the real photos: a set it never saw, and a set after enrolling a few photos per kind
(enrolment photos and test photos never the same). Shared by the tests and ``bench/bench_reader.py``.

Figures: ``top1`` the share whose best reading is right (unknown or not), ``right`` the share answered right
(unknown counts as wrong), ``precision`` the share of the answers that are not unknown that are right.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from engine.tiles import Tile, tile_code
from vision.classify import Model
from vision.detect import face_crop
from vision.enroll import enroll
from vision.features import CROP_H, CROP_W
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


def enrolled(
    model: Model, samples: list[Sample], per_kind: int = 5, views: tuple[str, ...] = (TABLE_VIEW,)
) -> tuple[Score, int]:
    """The model after enrolling ``per_kind`` tiles per kind of one set from its ``TABLE_VIEW`` photos, on the set's
    other photos of ``views``; and how many kinds were enrolled."""
    enrol, _ = enrolment_split([s for s in samples if s.view == TABLE_VIEW], per_kind)
    used = {s.photo for s in enrol}
    test = [s for s in samples if s.view in views and s.photo not in used]
    crops, truth = sample_crops(enrol)
    model = enroll(model, list(zip(crops, truth, strict=True)))
    return score(model, *sample_crops(test)), len(set(truth))
