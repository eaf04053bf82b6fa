"""One frame to the tiles in every zone: rectify each seat's zone, find the tiles, classify each from the full
frame in both ways up and keep the better reading."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from engine.tiles import Tile
from vision.calibrate import Calibration
from vision.classify import Model, Prediction
from vision.detect import find_tiles
from vision.geometry import Rect, zone_to_image

ZONE_PPM = 1.0
"""Rectified zone images at 1 px per mm: about the camera's own resolution, so nothing is invented or lost."""
ZONES = ("discard", "hand")


@dataclass(frozen=True)
class Seen:
    """A tile read in a seat's zone: its reading, its centre in the seat's frame (mm), and how it lies (degrees
    turned from upright for that seat: 0, 90, 180 or 270)."""

    seat: int
    zone: str
    prediction: Prediction
    u: float
    v: float
    turn: int

    @property
    def tile(self) -> Tile | None:
        return self.prediction.tile

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "zone": self.zone,
            **self.prediction.to_dict(),
            "u": round(self.u, 1),
            "v": round(self.v, 1),
            "turn": self.turn,
        }


class Recognizer:
    """Reads the zones of calibrated frames with one model."""

    def __init__(self, calibration: Calibration, model: Model, zones: tuple[str, ...] = ZONES) -> None:
        self.calibration = calibration
        self.model = model
        self._zones = [(seat, zone, getattr(calibration.layout, zone)) for seat in range(4) for zone in zones]
        self._matrices = [zone_to_image(calibration.homography, seat, rect, ZONE_PPM) for seat, _, rect in self._zones]

    def zone_image(self, frame: np.ndarray, index: int) -> np.ndarray:
        rect: Rect = self._zones[index][2]
        size = (round((rect.u1 - rect.u0) * ZONE_PPM), round((rect.v1 - rect.v0) * ZONE_PPM))
        return cv2.warpPerspective(frame, self._matrices[index], size, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)

    def read(self, frame: np.ndarray) -> list[Seen]:
        """Every tile in every zone of the frame."""
        seen = []
        for index, (seat, zone, rect) in enumerate(self._zones):
            for found in find_tiles(self.zone_image(frame, index), ZONE_PPM, self._matrices[index]):
                prediction, upside_down = self.model.classify(found.crop(frame))
                turn = (90 if found.sideways else 0) + (180 if upside_down else 0)
                u, v = found.centre[0] / ZONE_PPM + rect.u0, found.centre[1] / ZONE_PPM + rect.v0
                seen.append(Seen(seat, zone, prediction, u, v, turn))
        return seen
