"""Face classification by nearest templates: a crop becomes a unit vector (an embedding), its cosine similarity to
stored face templates gives each kind a score (its best template), and a softmax with a "none of these"
alternative gives the confidence and the ranked choices.

Why templates: a table sees one physical set through one fixed camera, so the best reference for a kind is that
set's own face as that camera sees it. Enrolment is then just adding templates (no training run on the Pi), and
the default model is the same thing: its templates are the trained classifier's rows. The reject alternative
makes "unknown" the answer for a face unlike any template (a tile back, a hand, a tile of another set) instead of
a confident guess, and templates of "no tile" (mat, hands, a crop across two tiles) raise it where it counts.

Faces, not tiles: the kinds are the faces of ``vision.kinds`` (the engine's 42 tiles, riichi's red fives ``0m 0p 0s``,
十万's tens ``10m 10p 10s``); ``Prediction.tile`` is a face and ``Prediction.code`` its code, and a table maps a
face to its ruleset's tile with ``vision.kinds.table_tile`` after restricting the model to the faces its set shows
(``Model.only(table_faces(ruleset))``). The embedding reads shape; a red five is the same face in red ink, so a
five and its red five are told apart by colour: ``vision.features.redness`` of the crop against the model's level
for that suit (``red_levels``: a default, or the middle between the enrolled fives and red fives of the set).

Two embedders read crops: the network (``vision.net``, format 3, the shipped reader) and the hand-made features
with a discriminant map (``vision.features``, format 2: the previous template reader, still read so that sets
enrolled with it keep working and benchmarks can compare).
"""

from __future__ import annotations

import functools
import json
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from engine.errors import MjtableError
from vision.errors import ImageError, ModelError
from vision.features import CROP_H, CROP_W, HALF_TURN, features, redness
from vision.kinds import FIVES, NUM_FACES, RED_FIVES, SUITS, Face, face_code, parse_face
from vision.net import Embedder
from vision.verify import TileCheck

PER_KIND = 12
"""Templates kept per kind (and way up) when enrolling: k-means centres of many photos lose next to nothing, and
beyond ~500 templates in all the per-tile product gets slow on a busy Pi."""
DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "default"
NETWORK_FILE = "reader.onnx"
SPARE_FILE = "spare.npz"
"""Beside the templates: the spare templates (``Model.spare``), copied into every set enrolled from the model."""
CREDIT_FILE = "CREDIT.txt"
"""Beside the network: the credit of the photos it learned from, which travels with every copy (an enrolled set)."""
UNKNOWN = "unknown"
NOTHING = -1
"""Label of a "no tile here" template."""
CHOICES = 3
"""Ranked choices kept with every prediction: the table heals a misread with the next legal one."""
FORMATS = (2, 3)
"""2: hand-made features and a discriminant map; 3: the network."""
CHUNK = 256
"""Crops embedded per network call: large batches of enrolment photos stay in bounded memory."""
FLAT = 1.0
"""A crop whose grey levels spread less than this (standard deviation) shows no face: unknown, whatever the
embedder makes of it. (The network sees a flat crop as the ivory set's blank white dragon, whose photos spread
3 levels or more: their edges, shadows and grain.)"""
RED_LEVELS = (0.74, 0.5, 0.5)
"""Default ``redness`` above which a five of 万, 饼, 条 is its red five: between the riichi artwork's fives (up to
0.66, 0.10, 0.31 in rendered crops: 5m's 萬 is red on most sets) and its red fives (from 0.92, 0.96, 0.90), where
the uni artwork's fives and recoloured fives (thin strokes, a weaker cue) are least confused (about 1.5%).
Enrolling a set's fives and red fives replaces it with that set's own."""
RED_WIDTH = 0.04
"""Redness over which the colour's say goes from even to about 92% sure (a logistic of this scale)."""
SECOND_LOOK = 0.8
"""Confidence below which a crop is read again from the mean of its own embedding and those of ``LOOKS`` (issue 29:
a set never seen, the detector's cut off by a pixel or two, a tile seen squashed from the side). Only the unsure
crops pay for it, so a table that reads its own enrolled set confidently runs as before."""
LOOKS = (
    *((1.0, 1.0, dx, dy) for dx, dy in ((-1.5, 0.0), (1.5, 0.0), (0.0, -2.0), (0.0, 2.0))),
    (0.9, 0.9, 0.0, 0.0),
    (1.1, 1.1, 0.0, 0.0),
    (1.12, 1.0, 0.0, 0.0),
    (1.0, 1.12, 0.0, 0.0),
)
"""(x scale, y scale, x shift px, y shift px) of the second look's views of a ``CROP_W`` x ``CROP_H`` crop: moved,
rescaled by 10% and stretched by 12% either way (each kind of view alone: 0.917-0.919 top-1 on the hk set never
seen, all of them 0.926, none 0.903)."""


@dataclass(frozen=True)
class Prediction:
    """A face (``vision.kinds``) and how sure; ``tile`` is None ("unknown") when the confidence is below the
    model's threshold. ``choices`` ranks the most likely faces, best first, with their probabilities (the first is
    the best reading even when it was not sure enough to be the answer)."""

    tile: Face | None
    confidence: float
    similarity: float
    choices: tuple[tuple[Face, float], ...] = ()

    @property
    def code(self) -> str:
        """The face's code (``5m``, ``0m`` a red five, ``10m`` 十万) or ``unknown``."""
        return UNKNOWN if self.tile is None else face_code(self.tile)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tile": self.code,
            "confidence": round(self.confidence, 4),
            "similarity": round(self.similarity, 4),
            "choices": [[face_code(tile), round(p, 4)] for tile, p in self.choices],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Prediction:
        tile = None if data["tile"] == UNKNOWN else parse_face(data["tile"])
        choices = tuple((parse_face(code), float(p)) for code, p in data.get("choices", ()))
        return cls(tile, float(data["confidence"]), float(data["similarity"]), choices)


class Reader(Protocol):
    """Crops to unit rows: ``views`` gives, for each crop, the rows of the ways up it is compared in, with whether
    that view is the crop turned half."""

    def views(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]: ...

    def save(self, folder: Path) -> dict[str, Any]: ...


@dataclass(frozen=True)
class NetworkReader:
    """The network's embedding of the crop as it is: templates exist for both ways up of every face."""

    embedder: Embedder

    def views(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        rows = np.vstack([self.embedder(crops[i : i + CHUNK]) for i in range(0, len(crops), CHUNK)])
        return rows[:, None, :], np.zeros((len(crops), 1), bool)

    def save(self, folder: Path) -> dict[str, Any]:
        target = folder / NETWORK_FILE
        if target.resolve() != self.embedder.path.resolve():
            shutil.copyfile(self.embedder.path, target)
            credit = self.embedder.path.parent / CREDIT_FILE
            if credit.is_file():
                shutil.copyfile(credit, folder / CREDIT_FILE)
        return {"network": NETWORK_FILE}


@dataclass(frozen=True)
class FeatureReader:
    """Hand-made features in a linear discriminant map (LDA); templates are upright faces only, so a crop is
    compared both as it is and turned half (an index permutation of its features)."""

    projection: np.ndarray

    def views(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        rows = np.array([features(crop) for crop in crops]).reshape(len(crops), -1)
        both = np.stack([rows, rows[:, HALF_TURN]], axis=1) @ self.projection
        both /= np.linalg.norm(both, axis=2, keepdims=True) + 1e-9
        return both, np.tile([False, True], (len(crops), 1))

    def save(self, folder: Path) -> dict[str, Any]:
        return {"projection": self.projection.astype(np.float32)}


def checked_crop(crop: object) -> np.ndarray:
    """A BGR uint8 crop from what detection or a photo gave (grey or with alpha is converted), or an
    ``ImageError`` saying what is wrong with it."""
    if not isinstance(crop, np.ndarray) or crop.dtype != np.uint8:
        raise ImageError(f"crop: expected an 8-bit image array, got {getattr(crop, 'dtype', type(crop).__name__)}")
    if crop.ndim == 2:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    elif crop.ndim == 3 and crop.shape[2] == 4:
        crop = cv2.cvtColor(crop, cv2.COLOR_BGRA2BGR)
    if crop.ndim != 3 or crop.shape[2] != 3:
        raise ImageError(f"crop: expected a grey, BGR or BGRA image, got shape {crop.shape}")
    if min(crop.shape[:2]) < 2:
        raise ImageError(f"crop: {crop.shape[1]}x{crop.shape[0]} px is too small to show a face")
    return crop


@dataclass(frozen=True)
class Model:
    """Templates (unit rows in the reader's space) with their kinds (``NOTHING`` for "no tile") and whether each is
    the face turned half. ``temperature`` sharpens the softmax, ``reject`` (one per face: some faces vary more
    than others) is the similarity of the "none of these" alternative and ``threshold`` the confidence below which
    the answer is unknown. ``red_levels`` (万 饼 条) is the ``redness`` above which a five is its red five, when
    the model has templates of both."""

    reader: Reader
    templates: np.ndarray
    labels: np.ndarray
    turned: np.ndarray
    temperature: float = 40.0
    reject: np.ndarray = field(default_factory=lambda: np.full(NUM_FACES, 0.5, np.float32))
    threshold: float = 0.5
    description: str = ""
    red_levels: tuple[float, float, float] = RED_LEVELS
    spare: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(default=None, compare=False)
    """Templates, faces and ways up of faces the model does not read unless a table asks for them (``only``): the
    shipped model's red fives, from the artwork (``SPARE_FILE``)."""
    check: TileCheck | None = field(default=None, compare=False)
    """Whether a detector's proposal in a photo is a tile (``vision.verify``, ``vision.verify.FILE``): kept by an
    enrolled set, which reads with the same network."""
    second_look: float = field(default=SECOND_LOOK, compare=False)
    """Confidence below which a crop is read again from several views of it (``SECOND_LOOK``; 0: never)."""

    @property
    def kinds(self) -> list[Face]:
        return sorted({int(label) for label in self.labels if label != NOTHING})

    @functools.cached_property
    def _pairs(self) -> tuple[tuple[int, Face, Face], ...]:
        """(suit, five, red five) of every suit whose five and red five both have templates."""
        kinds = set(self.kinds)
        return tuple(
            (i, five, red)
            for i, (five, red) in enumerate(zip(FIVES, RED_FIVES, strict=True))
            if five in kinds and red in kinds
        )

    def only(self, faces: list[Face]) -> Model:
        """This model reading only these faces (a table's: ``vision.kinds.table_faces``); its "no tile" templates
        stay. A face among them without templates of its own takes the model's spare ones (the shipped model's red
        fives, from the artwork); a red five with neither gets its five's: the colour alone tells them
        apart (``red_levels``)."""
        wanted = set(faces)
        templates, labels, turned = self.templates, self.labels, self.turned
        if self.spare is not None:
            missing = np.isin(self.spare[1], [face for face in wanted if not (labels == face).any()])
            templates = np.vstack([templates, self.spare[0][missing]])
            labels = np.concatenate([labels, self.spare[1][missing].astype(labels.dtype)])
            turned = np.concatenate([turned, self.spare[2][missing]])
        for five, red in zip(FIVES, RED_FIVES, strict=True):
            if red in wanted and five in wanted and not (labels == red).any():
                copy = labels == five
                templates = np.vstack([templates, templates[copy]])
                labels = np.concatenate([labels, np.full(int(copy.sum()), red, labels.dtype)])
                turned = np.concatenate([turned, turned[copy]])
        keep = np.isin(labels, [*wanted, NOTHING])
        return replace(self, templates=templates[keep], labels=labels[keep], turned=turned[keep])

    def embed(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Every crop's views as unit rows (crops x views x size) and whether each view is turned half."""
        return self.reader.views([checked_crop(crop) for crop in crops])

    def scores(self, rows: np.ndarray, turned: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each crop (its views' rows, whether each view is turned half): each kind's best similarity (-1 for
        kinds with no template), whether the best match of all has the face upside down, and the best "no tile"
        similarity (-1 without such templates)."""
        count, views, size = rows.shape
        similarity = (rows.reshape(count * views, size) @ self.templates.T).reshape(count, views, -1)
        view = similarity.argmax(axis=1)[:, None]  # per crop and template, the view that matches it best
        best = np.take_along_axis(similarity, view, axis=1)[:, 0]
        flipped = np.take_along_axis(turned[:, :, None] ^ self.turned[None, None, :], view, axis=1)[:, 0]
        kinds = self.labels != NOTHING
        scores = np.full((count, NUM_FACES), -1.0, np.float32)
        np.maximum.at(scores.T, self.labels[kinds], best[:, kinds].T)
        winner = best[:, kinds].argmax(axis=1)
        upside_down = flipped[:, kinds][np.arange(count), winner]
        nothing = best[:, ~kinds].max(axis=1) if (~kinds).any() else np.full(count, -1.0, np.float32)
        return scores, upside_down, nothing

    def read(self, crops: list[np.ndarray]) -> list[tuple[Prediction, bool]]:
        """The reading of each upright-or-upside-down face crop, and whether it was upside down; a crop read with
        less confidence than ``second_look`` is read again from the mean of its ``LOOKS``."""
        if not crops:
            return []
        crops = [checked_crop(crop) for crop in crops]
        rows, turned = self.reader.views(crops)
        out = self._readings(crops, rows, turned)
        unsure = [i for i, (prediction, _) in enumerate(out) if prediction.confidence < self.second_look]
        if unsure:
            views = self.reader.views([look for i in unsure for look in looks(crops[i])])[0]
            mean = rows[unsure] + views.reshape(len(unsure), len(LOOKS), *rows.shape[1:]).sum(axis=1)
            mean /= np.linalg.norm(mean, axis=2, keepdims=True) + 1e-9
            again = self._readings([crops[i] for i in unsure], mean, turned[unsure])
            for i, reading in zip(unsure, again, strict=True):
                out[i] = reading
        return out

    def _readings(self, crops: list[np.ndarray], rows: np.ndarray, turned: np.ndarray) -> list[tuple[Prediction, bool]]:
        """The readings of crops whose views are these rows."""
        scores, upside_down, nothing = self.scores(rows, turned)
        if self._pairs:
            self._colour(scores, crops)
        order = np.argsort(-scores, axis=1)[:, :CHOICES]
        top = scores[np.arange(len(crops)), order[:, 0]]
        alternative = np.maximum(self.reject[order[:, 0]], nothing)
        flat = np.array([float(crop.std()) < FLAT for crop in crops])
        alternative[flat] = top[flat] + 50.0 / self.temperature  # "none of these" wins outright
        weights = np.exp(self.temperature * (scores - top[:, None]))
        weights[scores < -0.5] = 0.0
        total = weights.sum(axis=1) + np.exp(np.minimum(self.temperature * (alternative - top), 50.0))
        out = []
        for i, ranked in enumerate(order):
            choices = tuple((int(t), float(weights[i, t] / total[i])) for t in ranked if scores[i, t] > -0.5)
            confidence = choices[0][1] if choices else 0.0
            tile = int(ranked[0]) if confidence >= self.threshold else None
            prediction = Prediction(tile, confidence, float(top[i]), choices)
            out.append((prediction, bool(upside_down[i])))
        return out

    def _colour(self, scores: np.ndarray, crops: list[np.ndarray]) -> None:
        """Where a five or its red five is (about) the best reading, the pair's best similarity is shared between
        the two by the crop's redness: ``log p / temperature`` added to each, so the softmax gives the pair the
        same weight as one face and splits it by colour."""
        top = scores.max(axis=1)
        for suit, five, red in self._pairs:
            pair = np.maximum(scores[:, five], scores[:, red])
            rows = np.flatnonzero(pair >= top - 0.15)
            if not len(rows):
                continue
            level = redness([crops[i] for i in rows])
            p = 1.0 / (1.0 + np.exp(-(level - self.red_levels[suit]) / RED_WIDTH))
            p = np.clip(p, 1e-6, 1 - 1e-6)
            scores[rows, red] = pair[rows] + np.log(p) / self.temperature
            scores[rows, five] = pair[rows] + np.log1p(-p) / self.temperature

    def classify(self, crop: np.ndarray) -> tuple[Prediction, bool]:
        """The reading of one upright-or-upside-down face crop, and whether it was upside down."""
        return self.read([crop])[0]

    def with_templates(self, templates: np.ndarray, labels: np.ndarray, turned: np.ndarray, description: str) -> Model:
        """This model with the given kinds' templates replaced by new ones (an enrolled set)."""
        keep = ~np.isin(self.labels, np.unique(labels))
        return replace(
            self,
            templates=np.vstack([self.templates[keep], templates]).astype(np.float32),
            labels=np.concatenate([self.labels[keep], labels]).astype(np.int16),
            turned=np.concatenate([self.turned[keep], turned]).astype(bool),
            description=description,
        )

    def save(self, folder: Path) -> None:
        """Write the model directory (``model.json``, ``templates.npz``, the network if any); an ``OSError`` is
        the caller's to report with the flag that named the folder."""
        folder.mkdir(parents=True, exist_ok=True)
        extra = self.reader.save(folder)
        arrays = {key: value for key, value in extra.items() if isinstance(value, np.ndarray)}
        np.savez_compressed(
            folder / "templates.npz",
            templates=self.templates.astype(np.float16),
            labels=self.labels,
            turned=self.turned,
            **arrays,
        )
        meta = {
            "format": 3 if isinstance(self.reader, NetworkReader) else 2,
            **{key: value for key, value in extra.items() if not isinstance(value, np.ndarray)},
            "temperature": self.temperature,
            "reject": {face_code(face): round(float(self.reject[face]), 4) for face in range(NUM_FACES)},
            "threshold": self.threshold,
            "red_levels": dict(zip(SUITS, (round(float(level), 4) for level in self.red_levels), strict=True)),
            "description": self.description,
            "kinds": [face_code(face) for face in self.kinds],
        }
        (folder / "model.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
        if self.spare is not None:
            save_spare(folder, self.spare)
        if self.check is not None:
            self.check.save(folder)


def looks(crop: np.ndarray) -> list[np.ndarray]:
    """The crop at ``CROP_W`` x ``CROP_H`` as ``LOOKS`` move, rescale and stretch it about its centre."""
    if crop.shape[:2] != (CROP_H, CROP_W):
        crop = cv2.resize(crop, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
    centre = np.array([CROP_W / 2, CROP_H / 2])
    out = []
    for sx, sy, dx, dy in LOOKS:
        matrix = np.array([[sx, 0.0, centre[0] * (1 - sx) + dx], [0.0, sy, centre[1] * (1 - sy) + dy]])
        out.append(cv2.warpAffine(crop, matrix, (CROP_W, CROP_H), borderMode=cv2.BORDER_REPLICATE))
    return out


def condense(
    rows: np.ndarray, labels: np.ndarray, per_kind: int = PER_KIND, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """At most ``per_kind`` templates per label: the unit-length k-means centres of that label's rows. Rows that
    are not finite or have no length (a blank crop's features) are left out; a label left with none has none."""
    cv2.setRNGSeed(seed)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 1e-4)
    rows = rows.astype(np.float32)
    norms = np.linalg.norm(rows, axis=1)
    usable = np.isfinite(rows).all(axis=1) & (norms > 1e-6)
    out_rows, out_labels = [np.zeros((0, rows.shape[1]), np.float32)], [np.zeros(0, labels.dtype)]
    for label in np.unique(labels[usable]):
        members = rows[usable & (labels == label)]
        if len(members) > per_kind:
            _, _, members = cv2.kmeans(members, per_kind, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
        members = members / np.maximum(np.linalg.norm(members, axis=1, keepdims=True), 1e-9)
        out_rows.append(members)
        out_labels.append(np.full(len(members), label, labels.dtype))
    return np.vstack(out_rows), np.concatenate(out_labels)


def _rejects(data: dict[str, float]) -> np.ndarray:
    """One level per face; faces a model saved before them has no level for (red fives, tens) get the median."""
    given = {parse_face(code): float(level) for code, level in data.items()}
    levels = np.full(NUM_FACES, float(np.median(list(given.values()))) if given else 1.0, np.float32)
    for face, level in given.items():
        levels[face] = level
    return levels


def save_spare(folder: Path, spare: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    """Write a model directory's spare templates (``Model.spare``), leaving its other files as they are."""
    templates, labels, turned = spare
    np.savez_compressed(
        folder / SPARE_FILE, templates=templates.astype(np.float16), labels=labels.astype(np.int16), turned=turned
    )


def _spare(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    if not path.is_file():
        return None
    with np.load(path) as data:
        spare = data["templates"].astype(np.float32), data["labels"].astype(np.int16), data["turned"].astype(bool)
    if not len(spare[0]) == len(spare[1]) == len(spare[2]) or spare[0].ndim != 2:
        raise ValueError(f"{path.name}: templates, labels and turned do not line up")
    return spare


def _red_levels(data: object) -> tuple[float, float, float]:
    if data is None:
        return RED_LEVELS
    if not isinstance(data, dict) or set(data) != set(SUITS):
        raise ValueError(f"red_levels: expected an object with keys m, p, s, got {data!r}")
    return tuple(float(data[suit]) for suit in SUITS)  # type: ignore[return-value]


def _reader(folder: Path, meta: dict[str, Any], data: Any) -> Reader:
    if meta.get("format") == 3:
        path = folder / str(meta.get("network", NETWORK_FILE))
        if not path.is_file():
            raise ModelError(f"{folder}: not a model directory (no {path.name})")
        return NetworkReader(Embedder(path))
    return FeatureReader(data["projection"].astype(np.float32))


def load_model(folder: Path | None = None) -> Model:
    """A model directory written by ``Model.save`` (the shipped default model when None)."""
    folder = folder or DEFAULT_MODEL
    try:
        meta = json.loads((folder / "model.json").read_text())
        if not isinstance(meta, dict) or meta.get("format") not in FORMATS:
            found = meta.get("format") if isinstance(meta, dict) else meta
            raise ModelError(f"{folder}/model.json: format {found!r}, expected one of {FORMATS}")
        with np.load(folder / "templates.npz") as data:
            reader = _reader(folder, meta, data)
            templates, labels = data["templates"].astype(np.float32), data["labels"].astype(np.int16)
            turned = data["turned"].astype(bool) if "turned" in data else np.zeros(len(labels), bool)
        model = Model(
            reader,
            templates,
            labels,
            turned,
            float(meta["temperature"]),
            _rejects(meta["reject"]),
            float(meta["threshold"]),
            str(meta["description"]),
            _red_levels(meta.get("red_levels")),
            _spare(folder / SPARE_FILE),
            TileCheck.load(folder) if meta.get("format") == 3 else None,
        )
    except FileNotFoundError as error:
        raise ModelError(f"{folder}: not a model directory (no {Path(error.filename).name})") from None
    except NotADirectoryError:
        raise ModelError(f"{folder}: not a model directory") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, MjtableError) as error:
        if isinstance(error, ModelError):
            raise
        raise ModelError(f"{folder}: unreadable model ({error})") from None
    if not len(templates) == len(labels) == len(turned) or templates.ndim != 2:
        raise ModelError(f"{folder}/templates.npz: templates, labels and turned do not line up")
    return model
