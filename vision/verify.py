"""Whether a detection is a tile: the reader's own check on the detector's proposals.

The detector finds tile-coloured blobs of a tile's size; on a photo of a table it never saw, some are not a tile (a
rack's edge, a hand, a crop across two tiles, a tile's side). The reader's network already embeds every proposal to
read it, so the check costs one dot product: a logistic regression on the embedding and the reader's own
similarities (best face, best "no tile" template), fitted on the detector's proposals of labelled photos (those that
match a labelled tile are tiles, the others are not). It keeps a proposal whose probability of being a tile is at
least its ``level``: the level that keeps ``KEEP`` of the fitting photos' tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.classify import Model

KEEP = 0.995
"""Share of the fitting photos' tiles the level keeps: a tile dropped is a tile not seen."""
PENALTY = 1.0
"""L2 penalty on the weights (the features are unit-scaled), against the few hundred proposals that are not tiles."""
FILE = "tilecheck.npz"


def features(model: Model, crops: list[np.ndarray]) -> np.ndarray:
    """One row per crop: its embedding (the first view), its best face similarity and its best "no tile"
    similarity."""
    if not crops:
        return np.zeros((0, 0), np.float32)
    rows, turned = model.embed(crops)
    scores, _, nothing = model.scores(rows, turned)
    return np.hstack([rows[:, 0], scores.max(axis=1)[:, None], nothing[:, None]]).astype(np.float32)


@dataclass(frozen=True)
class TileCheck:
    """A logistic regression (``weights``, ``bias``) of "is a tile" on ``features``, and the level it keeps."""

    weights: np.ndarray
    bias: float
    level: float

    def probability(self, rows: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.clip(rows @ self.weights + self.bias, -50, 50)))

    def keep(self, rows: np.ndarray) -> np.ndarray:
        """Whether each row is a tile."""
        return self.probability(rows) >= self.level if len(rows) else np.zeros(0, bool)

    def save(self, folder: Path) -> None:
        np.savez(folder / FILE, weights=self.weights.astype(np.float32), bias=self.bias, level=self.level)

    @classmethod
    def load(cls, folder: Path) -> TileCheck | None:
        path = folder / FILE
        if not path.is_file():
            return None
        with np.load(path) as data:
            return cls(data["weights"].astype(np.float32), float(data["bias"]), float(data["level"]))


def fit(rows: np.ndarray, is_tile: np.ndarray, keep: float = KEEP, penalty: float = PENALTY) -> TileCheck:
    """The check fitted on proposals (``features`` rows, whether each is a tile): Newton's method on the
    class-balanced, L2-penalised log loss (deterministic), its level the one that keeps ``keep`` of the tiles."""
    x = np.hstack([rows.astype(np.float64), np.ones((len(rows), 1))])
    y = is_tile.astype(np.float64)
    positives = max(float(y.sum()), 1.0)
    negatives = max(float(len(y) - y.sum()), 1.0)
    weight = np.where(y > 0, 0.5 / positives, 0.5 / negatives)
    ridge = np.full(x.shape[1], penalty / len(y))
    ridge[-1] = 0.0
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -50, 50)))
        gradient = x.T @ (weight * (p - y)) + ridge * beta
        hessian = (x * (weight * p * (1 - p))[:, None]).T @ x + np.diag(ridge + 1e-9)
        delta = np.linalg.solve(hessian, gradient)
        beta -= delta
        if np.abs(delta).max() < 1e-8:
            break
    check = TileCheck(beta[:-1].astype(np.float32), float(beta[-1]), 0.0)
    tiles = check.probability(rows[is_tile])
    level = float(np.quantile(tiles, 1.0 - keep)) if len(tiles) else 0.5
    return TileCheck(check.weights, check.bias, level)
