"""Enrollment of the table's own tile set: labelled photos of its faces (or crops taken live by the table camera,
``Guide``) become the templates of their kinds (kinds not pictured keep the default model's templates).

Each photo also gives jittered copies (position, turn, scale, stretch, light, blur, noise) so that a handful of
photos per kind covers how the same face will look in play.

The kinds are faces of ``vision.kinds``: a set's red fives (``0m 0p 0s``) and 十万's tens (``10m 10p 10s``) are
enrolled like any face. A set whose fives and red fives of a suit are both enrolled also gets its own level of
``redness`` for that suit (``Model.red_levels``): the middle between its fives' and its red fives' ink.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.classify import Model, checked_crop, condense
from vision.errors import ImageError, LabelsError
from vision.features import CROP_H, CROP_W, redness
from vision.images import load_image  # noqa: F401  (vision.photos imports it from here; moving)
from vision.kinds import FIVES, RED_FIVES, Face, face_code, face_name_zh
from vision.labels import read_labels  # noqa: F401  (as above)
from vision.recognize import Zones

log = logging.getLogger(__name__)


STRETCH = 0.15
"""A jittered copy's width against its height changes by up to this share either way (another detection's cut, a
tile seen a little from the side), besides its size (``SCALE``) and place (``SHIFT``, px, standard deviation): one
look of a kind must stand for the others (``COPIES``)."""
SCALE = 0.08
SHIFT = 1.2


def jitter(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The crop as a slightly different frame could show it: moved, turned, scaled, stretched, lit, blurred, noisy."""
    matrix = cv2.getRotationMatrix2D((CROP_W / 2, CROP_H / 2), rng.uniform(-3, 3), 1.0)
    matrix[:, :2] *= rng.uniform(1 - SCALE, 1 + SCALE) * np.array([rng.uniform(1 - STRETCH, 1 + STRETCH), 1.0])
    centre = np.array([CROP_W / 2, CROP_H / 2])
    matrix[:, 2] = centre - matrix[:, :2] @ centre + rng.normal(0, SHIFT, 2)
    moved = cv2.warpAffine(crop, matrix, (CROP_W, CROP_H), borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    lit = moved * rng.uniform(0.7, 1.25) * rng.uniform(0.92, 1.08, 3).astype(np.float32)
    blurred = cv2.GaussianBlur(lit, (0, 0), rng.uniform(0.3, 0.9))
    return np.clip(blurred + rng.normal(0, rng.uniform(1, 4), blurred.shape), 0, 255).astype(np.uint8)


def _own_similarity(rows: np.ndarray, labels: np.ndarray, photos: np.ndarray) -> np.ndarray:
    """For each photo of a kind photographed more than once: its best similarity to the other photos of that kind
    (with their copies), i.e. how alike this set's faces of one kind look to this camera."""
    out = []
    for i in np.flatnonzero(np.r_[True, photos[1:] != photos[:-1]]):
        others = (labels == labels[i]) & (photos != photos[i])
        if others.any():
            out.append(float((rows[others] @ rows[i]).max()))
    return np.array(out)


COPIES = 24
"""Jittered copies of each photo (fewer where a kind has many: ``COPIES_PER_KIND``). One photo of a kind (a layout)
is one look of it, and its copies stand for the others (issue 29: a reader that never saw the hk set, enrolled from
one layout photo and tested on 631 tiles of its other overhead photos, enrolment seeds 0, 1, 2: the jitter before it
with 8 copies 0.943, 0.957, 0.968 top-1; with 16 0.976; ``jitter`` with 16 copies 0.978, 0.981, 0.973, with 24
0.989, 0.976, 0.986, with 32 or 48 no better; five photos a kind 0.995-0.997 either way)."""
COPIES_PER_KIND = 96
"""Jittered copies stop once a kind has this many rows: many photos of a kind need no copies, and 10,000 crops at
once stay within a minute and bounded memory."""


RED_QUANTILE = 0.1
"""A set's red level lies between its fives' redness at 1 - this and its red fives' at this quantile (the copies
included): the middle of the gap, or of the overlap, not of two means a few faint crops could drag."""


def red_levels(model: Model, crops: list[np.ndarray], labels: list[Face]) -> tuple[float, float, float]:
    """The model's red levels, each suit whose fives and red fives are both among the crops replaced by this set's."""
    kinds = np.array(labels)
    levels = list(model.red_levels)
    for suit, (five, red) in enumerate(zip(FIVES, RED_FIVES, strict=True)):
        if (kinds == five).any() and (kinds == red).any():
            plain = redness([crop for crop, kind in zip(crops, labels, strict=True) if kind == five])
            inked = redness([crop for crop, kind in zip(crops, labels, strict=True) if kind == red])
            high, low = float(np.quantile(plain, 1 - RED_QUANTILE)), float(np.quantile(inked, RED_QUANTILE))
            levels[suit] = (high + low) / 2
    return levels[0], levels[1], levels[2]


def enroll(model: Model, faces: Sequence[tuple[np.ndarray, Face]], copies: int = COPIES, seed: int = 0) -> Model:
    """The model with the pictured kinds' templates replaced by templates from these upright face crops (from
    ``face_crop`` of a photo, or from the table camera). The reject level is lowered, if needed, below how alike
    this set's faces of one kind are. A crop that is not an image raises ``ImageError`` naming its place."""
    if not faces:
        raise LabelsError("enrolment: no pictures")
    rng = np.random.default_rng(seed)
    per_kind = Counter(tile for _, tile in faces)
    crops, labels, photos = [], [], []
    for number, (crop, tile) in enumerate(faces):
        try:
            crop = checked_crop(crop)
        except ImageError as error:
            raise ImageError(f"picture {number + 1} of {len(faces)} ({face_code(tile)}): {error}") from None
        if crop.shape[:2] != (CROP_H, CROP_W):
            crop = cv2.resize(crop, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
        extra = int(np.clip(COPIES_PER_KIND // per_kind[tile] - 1, 0, copies))
        for variant in [crop, *(jitter(crop, rng) for _ in range(extra))]:
            crops.append(variant)
            labels.append(tile)
            photos.append(number)
    rows, _ = model.embed(crops)
    kinds, turned = np.array(labels, np.int16), np.zeros(len(crops), bool)
    own = _own_similarity(rows[:, 0], kinds, np.array(photos))
    matrix = rows[:, 0]
    if rows.shape[1] == 1:  # the reader compares a crop only as it is: templates of both ways up
        upside, _ = model.embed([np.ascontiguousarray(crop[::-1, ::-1]) for crop in crops])
        matrix, kinds, turned = np.vstack([matrix, upside[:, 0]]), np.tile(kinds, 2), np.r_[turned, ~turned]
    reject = np.minimum(model.reject, float(np.percentile(own, 2)) - 0.05) if len(own) else model.reject
    templates, keys = condense(matrix, kinds.astype(np.int32) * 2 + turned, seed=seed)
    description = f"enrolled: {len(faces)} pictures of {len(per_kind)} kinds"
    enrolled = model.with_templates(templates, (keys // 2).astype(np.int16), keys % 2 == 1, description)
    return replace(enrolled, reject=reject, red_levels=red_levels(model, crops, labels))


ARTWORK_PHOTOS = 3
"""Rendered photos per face for ``artwork_set``: three make a 十万 table read its 34 faces (1.000 top-1 on rendered
crops, the shipped model 0.912: it never learned a ten) in about a second."""


def artwork_set(
    model: Model, faces: Sequence[Face], style: str = "uni", photos: int = ARTWORK_PHOTOS, seed: int = 0
) -> Model:
    """The model enrolled from rendered photos of a style's artwork and restricted to these faces (a table's,
    ``vision.kinds.table_faces``): what the simulated camera's table reads, tens and red fives included."""
    from vision.detect import face_crop  # rendering is for the simulated table only
    from vision.render import tile_photo

    rng = np.random.default_rng(seed)
    shots = [(face_crop(tile_photo(face, style, rng)), face) for face in faces for _ in range(photos)]
    return enroll(model, shots, seed=seed).only(list(faces))


@dataclass
class Guide:
    """Live enrollment with the table camera: for each kind in turn, ask for it, wait until one tile lies still in
    seat 0's discard zone, keep ``shots`` crops of it from successive frames, then wait for the zone to be cleared.

    Feed it frames with ``see``; it returns what to tell the player, and ``faces`` holds what was kept.
    """

    zones: Zones
    """Discard zones only: the first is seat 0's."""
    kinds: list[Face]
    shots: int = 3
    stable: int = 3
    faces: list[tuple[np.ndarray, Face]] = field(default_factory=list, init=False)
    _still: int = field(default=0, init=False)
    _place: tuple[float, float] | None = field(default=None, init=False)
    _kept: int = field(default=0, init=False)
    _clearing: bool = field(default=False, init=False)

    @property
    def done(self) -> bool:
        return not self.kinds

    def first_prompt(self) -> dict[str, str]:
        return _ask(self.kinds[0])

    def see(self, frame: np.ndarray) -> list[dict[str, str | int]]:
        if self.done:
            return []
        _, _, located, covered = next(self.zones.locate(frame))  # seat 0, the first zone
        if covered:
            return []
        if self._clearing:
            self._still = self._still + 1 if not located else 0
            if self._still < self.stable:
                return []
            self._clearing, self._still = False, 0
            return [_ask(self.kinds[0])]
        if len(located) != 1:
            self._still, self._place = 0, None
            return []
        tile = located[0]
        moved = self._place is None or abs(self._place[0] - tile.u) + abs(self._place[1] - tile.v) > 6
        self._still = 1 if moved else self._still + 1
        self._place = (tile.u, tile.v)
        if self._still < self.stable:
            return []
        self.faces.append((tile.found.crop(frame), self.kinds[0]))
        self._kept += 1
        if self._kept < self.shots:
            return []
        kind = self.kinds.pop(0)
        self._kept, self._still, self._place, self._clearing = 0, 0, None, True
        log.info("enrolled %s from %d frames", face_code(kind), self.shots)
        return [
            {"enrolled": face_code(kind), "shots": self.shots},
            *([{"prompt": "take the tile away"}] if self.kinds else []),
        ]


def _ask(face: Face) -> dict[str, str]:
    return {"prompt": f"place {face_code(face)} ({face_name_zh(face)}) face up, upright, in seat 0's discard zone"}
