"""Face classification by nearest templates: cosine similarity of the crop's features to stored face templates,
best template per kind, softmax with a "none of these" alternative for the confidence.

Why templates rather than a trained network: a table sees one physical set through one fixed camera, so the best
reference for a kind is that set's own face as that camera sees it. Enrollment is then just adding templates (no
training run on the Pi), the default model is the same thing built from artwork, and a crop classifies in well
under a millisecond on one core. The reject alternative makes "unknown" the answer for a face unlike any template
(a tile back, a hand, a tile of another set) instead of a confident guess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.errors import MjtableError
from engine.tiles import NUM_TILE_IDS, Tile, parse_tile, tile_code
from vision.errors import ModelError
from vision.features import HALF_TURN, features

PER_KIND = 12
"""Templates kept per kind. Beyond ~500 templates in all, OpenBLAS turns the per-tile product multi-threaded, which
is ten times slower on a busy Pi; k-means centres of many renders or photos lose next to nothing."""
DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "default"
UNKNOWN = "unknown"
FORMAT = 2


@dataclass(frozen=True)
class Prediction:
    """A kind and how sure; ``tile`` is None ("unknown") when the confidence is below the model's threshold."""

    tile: Tile | None
    confidence: float
    similarity: float

    @property
    def code(self) -> str:
        return UNKNOWN if self.tile is None else tile_code(self.tile)

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.code, "confidence": round(self.confidence, 4), "similarity": round(self.similarity, 4)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Prediction:
        tile = None if data["tile"] == UNKNOWN else parse_tile(data["tile"])
        return cls(tile, float(data["confidence"]), float(data["similarity"]))


@dataclass(frozen=True)
class Model:
    """Templates with their kinds. Features are compared after ``projection``, a linear discriminant map (LDA)
    that weighs what tells kinds apart (the numeral above 萬) over what they share (the 萬 itself); templates are
    unit rows in that space. ``temperature`` sharpens the softmax, ``reject`` (one per tile id: some faces, like
    a framed white dragon, vary more than others) is the similarity of the "none of these" alternative and
    ``threshold`` the confidence below which the answer is unknown."""

    projection: np.ndarray
    templates: np.ndarray
    labels: np.ndarray
    temperature: float = 40.0
    reject: np.ndarray = field(default_factory=lambda: np.full(NUM_TILE_IDS, 0.5, np.float32))
    threshold: float = 0.5
    description: str = ""

    @property
    def kinds(self) -> list[Tile]:
        return sorted({int(label) for label in self.labels})

    def project(self, rows: np.ndarray) -> np.ndarray:
        """Feature rows in template space, unit length."""
        projected = rows @ self.projection
        return projected / (np.linalg.norm(projected, axis=1, keepdims=True) + 1e-9)

    def kind_scores(self, rows: np.ndarray) -> np.ndarray:
        """Best similarity of each feature row to each kind's templates (-1 for kinds with no template)."""
        similarity = self.project(rows) @ self.templates.T
        scores = np.full((len(rows), NUM_TILE_IDS), -1.0, np.float32)
        np.maximum.at(scores.T, self.labels, similarity.T)
        return scores

    def predict(self, rows: np.ndarray) -> list[Prediction]:
        """One prediction per feature row."""
        scores = self.kind_scores(rows)
        best = scores.argmax(axis=1)
        top = scores[np.arange(len(rows)), best]
        logits = self.temperature * (scores - top[:, None])
        rejected = np.exp(np.minimum(self.temperature * (self.reject[best] - top), 50.0))
        confidence = 1.0 / (np.exp(logits).sum(axis=1) + rejected)
        return [
            Prediction(int(tile) if conf >= self.threshold else None, float(conf), float(sim))
            for tile, conf, sim in zip(best, confidence, top, strict=True)
        ]

    def classify(self, crop: np.ndarray) -> tuple[Prediction, bool]:
        """The reading of an upright-or-upside-down face crop, and whether it was upside down."""
        row = features(crop)
        upright, turned = self.predict(np.stack([row, row[HALF_TURN]]))
        return (turned, True) if turned.similarity > upright.similarity else (upright, False)

    def with_templates(self, templates: np.ndarray, labels: np.ndarray, description: str) -> Model:
        """This model with the given kinds' templates (already projected) replaced by new ones (an enrolled set)."""
        keep = ~np.isin(self.labels, np.unique(labels))
        return Model(
            self.projection,
            np.vstack([self.templates[keep], templates]).astype(np.float32),
            np.concatenate([self.labels[keep], labels]).astype(np.int16),
            self.temperature,
            self.reject,
            self.threshold,
            description,
        )

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(
            folder / "templates.npz",
            projection=self.projection.astype(np.float32),
            templates=self.templates.astype(np.float16),
            labels=self.labels,
        )
        meta = {
            "format": FORMAT,
            "temperature": self.temperature,
            "reject": {tile_code(tile): round(float(self.reject[tile]), 4) for tile in range(NUM_TILE_IDS)},
            "threshold": self.threshold,
            "description": self.description,
            "kinds": [tile_code(tile) for tile in self.kinds],
        }
        (folder / "model.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")


def condense(
    rows: np.ndarray, labels: np.ndarray, per_kind: int = PER_KIND, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """At most ``per_kind`` templates per kind: the unit-length k-means centres of that kind's feature rows."""
    cv2.setRNGSeed(seed)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 1e-4)
    out_rows, out_labels = [], []
    for kind in np.unique(labels):
        members = rows[labels == kind].astype(np.float32)
        if len(members) > per_kind:
            _, _, members = cv2.kmeans(members, per_kind, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
        out_rows.append(members / np.linalg.norm(members, axis=1, keepdims=True))
        out_labels.append(np.full(len(members), kind, np.int16))
    return np.vstack(out_rows), np.concatenate(out_labels)


def _rejects(data: dict[str, float]) -> np.ndarray:
    levels = np.full(NUM_TILE_IDS, 1.0, np.float32)
    for code, level in data.items():
        levels[parse_tile(code)] = float(level)
    return levels


def load_model(folder: Path | None = None) -> Model:
    """A model directory written by ``Model.save`` (the shipped default model when None)."""
    folder = folder or DEFAULT_MODEL
    try:
        meta = json.loads((folder / "model.json").read_text())
        with np.load(folder / "templates.npz") as data:
            projection = data["projection"].astype(np.float32)
            templates, labels = data["templates"].astype(np.float32), data["labels"].astype(np.int16)
    except FileNotFoundError as error:
        raise ModelError(f"{folder}: not a model directory (no {Path(error.filename).name})") from None
    except (OSError, ValueError, KeyError, MjtableError) as error:
        raise ModelError(f"{folder}: unreadable model ({error})") from None
    if meta.get("format") != FORMAT:
        raise ModelError(f"{folder}/model.json: format {meta.get('format')!r}, expected {FORMAT}")
    return Model(
        projection,
        templates,
        labels,
        float(meta["temperature"]),
        _rejects(meta["reject"]),
        float(meta["threshold"]),
        meta["description"],
    )
