"""Build the default model from the artwork: render each kind many times as the camera would see it (scale,
rotation, perspective, light, blur, noise, neighbours touching, detector misalignment) and keep the feature
vectors as templates.

    python -m vision.train --out vision/models/default [--per-class 40] [--seed 0] [--style uni]
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import Tile
from vision.artwork import STYLES, load_faces
from vision.classify import DEFAULT_MODEL, PER_KIND, Model, condense
from vision.features import features, warp_face
from vision.geometry import TILE_H_MM, TILE_W_MM
from vision.render import PATCH_SPOT, Placed, Scene, patch_camera, random_look, render

PATCH = 64


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
            camera = patch_camera(rng, (PATCH, PATCH))
            frame = render(Scene((placed, *neighbours), markers=False, style=style), camera, random_look(rng), rng)
            corners = cv2.perspectiveTransform(tile_corners(placed)[None], camera.homography)[0]
            yield tile, warp_face(frame, corners + rng.normal(0, 0.6, corners.shape))


def feature_matrix(style: str, tiles: list[Tile], per_class: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    labels, rows = zip(*((tile, features(crop)) for tile, crop in crops(style, tiles, per_class, rng)), strict=True)
    return np.array(rows), np.array(labels)


def calibrate(model: Model, rows: np.ndarray, labels: np.ndarray) -> Model:
    """Reject level just below the held-out faces' usual similarity, and the softmax temperature that best
    predicts their kinds (least negative log-likelihood)."""
    scores = model.kind_scores(rows)
    top = scores.max(axis=1)
    reject = float(np.percentile(top, 0.5) - 0.08)
    truth = scores[np.arange(len(rows)), labels]

    def loss(temperature: float) -> float:
        norm = np.log(np.exp(temperature * (scores - top[:, None])).sum(axis=1) + np.exp(temperature * (reject - top)))
        return float(np.mean(norm - temperature * (truth - top)))

    temperature = min(np.arange(10.0, 400.0, 10.0), key=loss)
    return Model(model.templates, model.labels, float(temperature), reject, model.threshold, model.description)


def build(style: str, per_class: int, seed: int) -> Model:
    """Templates from ``per_class`` renders of every kind of the style, calibrated on other renders."""
    kinds = sorted(load_faces(style))
    rows, labels = condense(*feature_matrix(style, kinds, per_class, seed), seed=seed)
    model = Model(
        rows, labels, description=f"{style} artwork: {per_class} renders per kind in {PER_KIND} templates, seed {seed}"
    )
    held_rows, held_labels = feature_matrix(style, kinds, max(4, per_class // 4), seed + 1)
    return calibrate(model, held_rows, held_labels)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--per-class", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--style", choices=STYLES, default="uni")
    args = parser.parse_args(argv)
    model = build(args.style, args.per_class, args.seed)
    model.save(args.out)
    print(f"{args.out}: {len(model.labels)} templates, temperature {model.temperature}, reject {model.reject:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
