"""The reader's embedder on the table: the ONNX network that ``vision.learn`` trained, run by OpenCV's own
``cv2.dnn`` (no other runtime on the Pi). A face crop becomes a unit vector; nearest templates do the rest.

``prepare`` is shared with training, so that what the network learned on is exactly what it is given.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.errors import ModelError
from vision.features import CROP_H, CROP_W

CONTRAST_FLOOR = 12.0
"""Grey levels added to a crop's spread before it is divided out, so that a blank face (a white dragon, an empty
mat) is not blown up to noise."""


def prepare(crops: list[np.ndarray]) -> np.ndarray:
    """A float32 N x 3 x CROP_H x CROP_W blob of BGR crops: each resized to the canonical crop if it is not, minus
    its mean and over its spread (light level and contrast cancel; the ink's colour stays)."""
    blob = np.empty((len(crops), CROP_H, CROP_W, 3), np.float32)
    for index, crop in enumerate(crops):
        if crop.shape[:2] != (CROP_H, CROP_W):
            crop = cv2.resize(crop, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
        blob[index] = crop
    flat = blob.reshape(len(crops), -1)
    flat -= flat.mean(axis=1, keepdims=True)
    flat /= flat.std(axis=1, keepdims=True) + CONTRAST_FLOOR
    return np.ascontiguousarray(blob.transpose(0, 3, 1, 2))


class Embedder:
    """The network of ``path`` (ONNX), one thread: the table's other work has the other cores."""

    def __init__(self, path: Path) -> None:
        try:
            self._net = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as error:
            message = str(error).strip().splitlines()[-1] if str(error).strip() else "cv2.error"
            raise ModelError(f"{path}: not a network OpenCV can read ({message})") from None
        self.path = path

    def __call__(self, crops: list[np.ndarray]) -> np.ndarray:
        """Unit embedding rows of BGR face crops."""
        self._net.setInput(prepare(crops))
        rows = self._net.forward()
        return rows / (np.linalg.norm(rows, axis=1, keepdims=True) + 1e-9)
