"""Build the default model from the artwork, with no download: render each kind many times as the camera would see
it (close-ups with scale, turn, tilt, light, blur, noise, touching neighbours and the detector's corner error, and
whole rendered tables cropped by the real detector), learn a linear discriminant map from those features, keep
k-means centres per kind as templates, then set the per-kind reject levels and the softmax temperature on other
rendered tables. About a minute on one core; the result is a few hundred kB.

    python -m vision.train [--out vision/models/default] [--per-class 60] [--scenes 80] [--seed 0] [--style uni]
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import NUM_TILE_IDS, Tile
from vision.artwork import STYLES, load_faces
from vision.calibrate import Calibration
from vision.classify import DEFAULT_MODEL, PER_KIND, Model, condense
from vision.features import HALF_TURN, features, warp_face
from vision.geometry import TILE_H_MM, TILE_W_MM
from vision.recognize import Zones
from vision.render import PATCH_SPOT, Placed, Scene, default_camera, patch_camera, random_look, render
from vision.simtable import COLUMNS, discard_scene

PATCH = 64
LDA_RIDGE = 10.0
REJECT_MARGIN = 0.1
REJECT_RANGE = (0.45, 0.8)
"""A kind's reject level stays in this range whatever a few badly cut crops in its held-out set say."""


def tile_corners(placed: Placed) -> np.ndarray:
    """Table-frame corners of a placed tile's top face, top-left first, clockwise as the tile sees itself."""
    a = np.deg2rad(placed.angle)
    right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    half_w, half_h = right * TILE_W_MM / 2, down * TILE_H_MM / 2
    centre = np.array([placed.x, placed.y])
    return np.array(
        [centre - half_w - half_h, centre + half_w - half_h, centre + half_w + half_h, centre - half_w + half_h]
    )


def crops(style: str, tiles: list[Tile], per_class: int, rng: np.random.Generator) -> Iterator[tuple[Tile, np.ndarray]]:
    """``per_class`` camera-like crops of each tile kind, with the detector's corner error."""
    kinds = sorted(load_faces(style))
    x, y = PATCH_SPOT
    for tile in tiles:
        for _ in range(per_class):
            placed = Placed(tile, x, y, float(rng.uniform(-3, 3)))
            sides = [side for side in (-1, 1) if rng.random() < 0.5]
            neighbours = tuple(
                Placed(
                    int(rng.choice(kinds)),
                    x + side * (TILE_W_MM + rng.uniform(0, 2)),
                    y + rng.normal(0, 1),
                    rng.normal(0, 2),
                )
                for side in sides
            )
            camera = patch_camera(rng, (PATCH, PATCH), (0.8, 1.15))
            frame = render(Scene((placed, *neighbours), markers=False, style=style), camera, random_look(rng), rng)
            corners = cv2.perspectiveTransform(tile_corners(placed)[None], camera.homography)[0]
            yield tile, warp_face(frame, corners + rng.normal(0, 0.6, corners.shape))


def feature_matrix(style: str, tiles: list[Tile], per_class: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    labels, rows = zip(*((tile, features(crop)) for tile, crop in crops(style, tiles, per_class, rng)), strict=True)
    return np.array(rows), np.array(labels)


def scene_rows(style: str, scenes: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows of the discards of rendered table scenes as detection crops them (the held-out set the reject
    levels are set on: it carries the detector's own errors, not an imitation of them)."""
    rng = np.random.default_rng(seed)
    camera = default_camera()
    zones = Zones(Calibration(camera.homography, camera.width, camera.height), ("discard",))
    rows, labels = [], []
    for _ in range(scenes):
        scene, truth = discard_scene(rng, COLUMNS, style)
        frame = render(scene, camera, random_look(rng), rng)
        for seat, _, located, _ in zones.locate(frame):
            for tile in located:
                near = [t for t in truth if t[0] == seat and abs(t[1] - tile.u) + abs(t[2] - tile.v) < 10]
                if len(near) == 1:
                    row = features(tile.found.crop(frame))
                    rows.append(row[HALF_TURN] if abs(near[0][3]) > 90 else row)
                    labels.append(near[0][4])
    return np.array(rows), np.array(labels)


def calibrate(model: Model, rows: np.ndarray, labels: np.ndarray) -> Model:
    """Per kind, a reject level just below its held-out faces' usual similarity; then the softmax temperature that
    best predicts their kinds (least negative log-likelihood)."""
    scores = model.kind_scores(rows)
    top = scores.max(axis=1)
    reject = np.full(NUM_TILE_IDS, 1.0, np.float32)
    for kind in np.unique(labels):
        reject[kind] = np.clip(np.percentile(top[labels == kind], 10) - REJECT_MARGIN, *REJECT_RANGE)
    truth = scores[np.arange(len(rows)), labels]
    best = reject[scores.argmax(axis=1)]

    def loss(temperature: float) -> float:
        norm = np.log(np.exp(temperature * (scores - top[:, None])).sum(axis=1) + np.exp(temperature * (best - top)))
        return float(np.mean(norm - temperature * (truth - top)))

    temperature = min(np.arange(10.0, 400.0, 10.0), key=loss)
    return replace(model, temperature=float(temperature), reject=reject)


def discriminant(rows: np.ndarray, labels: np.ndarray, ridge: float = LDA_RIDGE) -> np.ndarray:
    """Linear discriminant analysis: the (kinds - 1) directions that best separate the kinds relative to the spread
    within each kind. ``ridge`` (times the mean within-kind variance) keeps rare directions from dominating, so the
    map still suits sets that differ from the artwork."""
    centre = rows.mean(axis=0)
    size = rows.shape[1]
    within, between = np.zeros((size, size)), np.zeros((size, size))
    kinds = np.unique(labels)
    for kind in kinds:
        members = rows[labels == kind]
        mean = members.mean(axis=0)
        within += (members - mean).T @ (members - mean)
        between += len(members) * np.outer(mean - centre, mean - centre)
    within += ridge * np.trace(within) / size * np.eye(size)
    inverse = np.linalg.inv(np.linalg.cholesky(within))
    _, vectors = np.linalg.eigh(inverse @ between @ inverse.T)
    return (inverse.T @ vectors[:, ::-1][:, : len(kinds) - 1]).astype(np.float32)


def build(style: str, per_class: int, seed: int, scenes: int = 80) -> Model:
    """The discriminant map and templates from ``per_class`` close-up renders of every kind and the discards of
    ``scenes`` rendered tables as detection crops them; reject levels and temperature set on ``scenes`` other
    tables."""
    kinds = sorted(load_faces(style))
    close_rows, close_labels = feature_matrix(style, kinds, per_class, seed)
    table_rows, table_labels = scene_rows(style, scenes, seed + 1)
    rows, labels = np.vstack([close_rows, table_rows]), np.concatenate([close_labels, table_labels]).astype(np.int16)
    projection = discriminant(rows, labels)
    empty = Model(projection, np.zeros((0, projection.shape[1]), np.float32), np.zeros(0, np.int16))
    templates, template_labels = condense(empty.project(rows), labels, seed=seed)
    description = (
        f"{style} artwork: {per_class} close-ups per kind and {scenes} tables in {PER_KIND} templates per kind"
    )
    model = Model(projection, templates, template_labels, description=f"{description}, seed {seed}")
    return calibrate(model, *scene_rows(style, scenes, seed + 2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--per-class", type=int, default=60)
    parser.add_argument("--scenes", type=int, default=80, help="rendered tables the reject levels are set on")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--style", choices=STYLES, default="uni")
    args = parser.parse_args(argv)
    model = build(args.style, args.per_class, args.seed, args.scenes)
    model.save(args.out)
    levels = model.reject[model.kinds]
    summary = f"temperature {model.temperature}, reject {levels.min():.3f}-{levels.max():.3f}"
    print(f"{args.out}: {len(model.labels)} templates, {summary}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
