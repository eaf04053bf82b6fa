"""The canonical face crop and its feature vector: what detection hands to classification.

Features are a unit vector so that the dot product with a stored template is a cosine similarity: grey-level
shape (local contrast-normalised, so light level and gradients cancel) plus HOG for stroke directions, plus a
coarse ink-colour map (red characters vs blue winds vs green bamboo survive any white balance only as ratios).
``redness`` is the share of a crop's ink that is red: what tells a red five from its five.
"""

from __future__ import annotations

import cv2
import numpy as np

CROP_W, CROP_H = 32, 40
"""A face crop, upright: about what a 1280x720 camera sees of a tile over a 70 cm table."""
_BINS = 8
SHAPE_W, SHAPE_H = CROP_W - 8, CROP_H - 8
_INNER = (slice(4, CROP_H - 4), slice(4, CROP_W - 4))
"""The face without the rim: rims carry the crop's alignment errors, not the tile's identity."""
_rows, _cols = np.indices((CROP_H - 8, CROP_W - 8))
_CELL = ((_rows // ((CROP_H - 8) // 4)) * 4 + _cols // ((CROP_W - 8) // 4)).ravel() * _BINS
"""Orientation-histogram cell (4 x 4 over the inner face) of each inner pixel, times the bin count."""


def warp_face(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The tile whose top face has corners ``quad`` (top-left, top-right, bottom-right, bottom-left, image px),
    warped upright to ``CROP_H`` x ``CROP_W``."""
    target = np.float32([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]])
    matrix = cv2.getPerspectiveTransform(np.float32(quad), target)
    return cv2.warpPerspective(image, matrix, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _orientations(grey: np.ndarray) -> np.ndarray:
    """HOG-like (cv2 5 has no HOGDescriptor): gradient magnitude per unsigned orientation, interpolated between
    neighbouring bins, summed over 4 x 4 cells."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)[_INNER]
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)[_INNER]
    magnitude, angle = cv2.cartToPolar(gx, gy)
    position = (angle.ravel() % np.pi) * (_BINS / np.pi)
    lower = np.floor(position)
    upper_weight = position - lower
    lower = lower.astype(np.intp) % _BINS
    weight = magnitude.ravel()
    size = 16 * _BINS
    return np.bincount(_CELL + lower, weight * (1 - upper_weight), size) + np.bincount(
        _CELL + (lower + 1) % _BINS, weight * upper_weight, size
    )


def _unit(vector: np.ndarray) -> np.ndarray:
    vector = vector - vector.mean()
    return vector / (np.linalg.norm(vector) + 1e-6)


def features(crop: np.ndarray) -> np.ndarray:
    """Unit float32 feature vector of one canonical BGR crop."""
    face = crop.astype(np.float32)
    grey = cv2.GaussianBlur(
        cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), (3, 3), 0.8
    )  # sensor noise would dominate blank faces
    ink = np.clip(grey.max() - grey, 0, None)  # dark strokes on a light body, whatever the light level
    shape = cv2.resize(ink[_INNER], (SHAPE_W, SHAPE_H), interpolation=cv2.INTER_AREA).ravel()
    hog = _orientations(grey)
    total = face.sum(axis=2, keepdims=True) + 1.0
    chroma = (face / total - 1 / 3) * (ink[..., None] / (ink.max() + 1.0))  # colour of the ink, not of the light
    colour = cv2.resize(chroma[_INNER], (4, 5), interpolation=cv2.INTER_AREA).ravel()
    vector = np.concatenate([_unit(shape), 1.3 * _unit(hog), 0.6 * _unit(colour)])
    return (vector / np.linalg.norm(vector)).astype(np.float32)


def _half_turn_order() -> np.ndarray:
    """Index order that turns a feature vector into that of the same crop turned 180 degrees: every part is a grid
    symmetric about the crop's centre, and unsigned gradient orientations do not change under a half turn."""
    parts, offset = [], 0
    for shape in ((SHAPE_H, SHAPE_W), (4, 4, _BINS), (5, 4, 3)):
        size = int(np.prod(shape))
        parts.append((np.arange(size).reshape(shape)[::-1, ::-1] + offset).ravel())
        offset += size
    return np.concatenate(parts)


HALF_TURN = _half_turn_order()
"""``features(crop)[HALF_TURN]`` is ``features(crop[::-1, ::-1])``, without computing it again."""


RED_INK = 0.2
"""A pixel is ink for ``redness`` when it is at least this much darker than the face in some channel."""
RED_SHARE = 0.3
"""An ink pixel is red ink when its red channel stands above the other two by at least this share of its darkness
(red ink about 0.8, black, blue and green ink about 0; a blurred edge between red and black ink in between)."""


def redness(crops: list[np.ndarray]) -> np.ndarray:
    """For each BGR crop, the share of its ink that is red ink (0: black, blue or green ink only; about 1: all red):
    each channel over the face's own white (its 90th percentile, so the light's colour and level cancel), each ink
    pixel weighed by how dark it is. Red ink against dark ink per pixel, so blur (ink mixed with the face) and the
    ink's weight change it little. What tells a red five from a five of the same face: on most sets 5m's 萬 is red
    already (about 0.6 of its ink), its 伍 is not."""
    if not crops:
        return np.zeros(0, np.float32)
    inner = np.stack(
        [(crop if crop.shape[:2] == (CROP_H, CROP_W) else cv2.resize(crop, (CROP_W, CROP_H)))[_INNER] for crop in crops]
    ).astype(np.float32)
    flat = inner.reshape(len(crops), -1, 3)
    nth = int(0.9 * flat.shape[1])
    white = np.partition(flat, nth, axis=1)[:, nth][:, None, :] + 1.0
    norm = np.minimum(flat / white, 1.0)
    ink = 1.0 - norm.min(axis=2)
    red = norm[..., 2] - np.maximum(norm[..., 0], norm[..., 1])
    weight = ink * (ink > RED_INK)
    return ((weight * (red > RED_SHARE * ink)).sum(axis=1) / (weight.sum(axis=1) + 1e-3)).astype(np.float32)
