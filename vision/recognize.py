"""One frame to the tiles in every zone: rectify each seat's zone, find the tiles, classify each from the full
frame in both ways up and keep the better reading."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from engine.tiles import Tile
from vision.calibrate import Calibration
from vision.classify import Model, Prediction
from vision.detect import Found, find_tiles, tile_mask
from vision.geometry import TILE_H_MM, TILE_W_MM, Rect, zone_to_image

ZONE_PPM = 1.0
"""Rectified zone images at 1 px per mm: about the camera's own resolution, so nothing is invented or lost."""
ZONES = ("discard", "hand")
MAT_HUE = (35, 95)
"""OpenCV hue band (0-180) of the mat: green to teal. A pixel that is neither tile nor mat covers the zone."""
COVERED = 0.03
"""Share of a zone's area not tile and not mat above which something (a hand, an arm) is over it."""
STRAY = 0.5
"""Tile-coloured area, in tiles, not explained by the tiles found, above which something is over the zone."""


@dataclass(frozen=True)
class Seen:
    """A tile read in a seat's zone: its reading, its centre in the seat's frame (mm), and how it lies (degrees
    turned clockwise from upright as its seat sees it: 0, 90, 180 or 270)."""

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


@dataclass(frozen=True)
class ZoneView:
    """What one frame shows of one seat's zone: the tiles read, and whether something covers part of it (then a
    tile not seen there may only be hidden)."""

    seat: int
    zone: str
    tiles: tuple[Seen, ...]
    covered: bool


def covered_share(zone: np.ndarray, tiles: np.ndarray) -> float:
    """Share of the zone that is neither tile body (``tiles`` mask, grown a little to take in rims and ink) nor
    mat-coloured: skin, sleeves, a held tile's shadowed side."""
    hsv = cv2.cvtColor(zone, cv2.COLOR_BGR2HSV)
    mat = cv2.inRange(hsv, (MAT_HUE[0], 60, 0), (MAT_HUE[1], 255, 255))
    grown = cv2.dilate(tiles, np.ones((5, 5), np.uint8))
    foreign = cv2.bitwise_not(cv2.bitwise_or(mat, grown))
    return cv2.countNonZero(cv2.erode(foreign, np.ones((3, 3), np.uint8))) / foreign.size


@dataclass(frozen=True)
class Located:
    """A tile found in a zone, not yet read: where its face is in the frame and where it lies in the seat's frame."""

    found: Found
    u: float
    v: float


class Zones:
    """Finds the tiles in every seat's zones of calibrated frames."""

    def __init__(self, calibration: Calibration, zones: tuple[str, ...] = ZONES) -> None:
        self.calibration = calibration
        self._zones = [(seat, zone, getattr(calibration.layout, zone)) for seat in range(4) for zone in zones]
        self._matrices = [zone_to_image(calibration.homography, seat, rect, ZONE_PPM) for seat, _, rect in self._zones]

    def image(self, frame: np.ndarray, index: int) -> np.ndarray:
        """The ``index``-th zone rectified: ``ZONE_PPM`` px per mm, tiles of its seat upright."""
        rect: Rect = self._zones[index][2]
        size = (round((rect.u1 - rect.u0) * ZONE_PPM), round((rect.v1 - rect.v0) * ZONE_PPM))
        return cv2.warpPerspective(frame, self._matrices[index], size, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)

    def locate(
        self, frame: np.ndarray, seats: tuple[int, ...] | None = None
    ) -> Iterator[tuple[int, str, list[Located], bool]]:
        """For every zone (of ``seats``; None: all): seat, zone name, the tiles found, and whether something
        covers it."""
        for index, (seat, zone, rect) in enumerate(self._zones):
            if seats is not None and seat not in seats:
                continue
            image = self.image(frame, index)
            mask = tile_mask(image)
            detection = find_tiles(image, ZONE_PPM, self._matrices[index], mask)
            located = [
                Located(f, f.centre[0] / ZONE_PPM + rect.u0, f.centre[1] / ZONE_PPM + rect.v0) for f in detection.tiles
            ]
            # Covered: tile-coloured blobs that are not tiles (a hand in warm light), or much of the zone neither
            # mat nor tile (skin, a sleeve).
            stray = detection.stray > STRAY * TILE_W_MM * TILE_H_MM * ZONE_PPM**2
            covered = stray or covered_share(image, mask) > COVERED
            yield seat, zone, located, covered


class Recognizer:
    """Reads the zones of calibrated frames with one model."""

    def __init__(self, calibration: Calibration, model: Model, zones: tuple[str, ...] = ZONES) -> None:
        self.zones = Zones(calibration, zones)
        self.model = model

    def read(self, frame: np.ndarray, seats: tuple[int, ...] | None = None) -> list[ZoneView]:
        """Every zone of the frame (of ``seats``: a caller who knows whose turn it is reads that seat's zone
        alone, a quarter of the work): its tiles, and whether it is covered."""
        views = []
        for seat, zone, located, covered in self.zones.locate(frame, seats):
            seen = []
            for tile in located:
                prediction, upside_down = self.model.classify(tile.found.crop(frame))
                turn = ((270 if tile.found.sideways else 0) + (180 if upside_down else 0)) % 360
                seen.append(Seen(seat, zone, prediction, tile.u, tile.v, turn))
            views.append(ZoneView(seat, zone, tuple(seen), covered))
        return views
