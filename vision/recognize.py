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
from vision.geometry import TILE_H_MM, TILE_W_MM, Rect, apply, zone_to_image

ZONE_PPM = 1.0
"""Rectified zone images at 1 px per mm: about the camera's own resolution, so nothing is invented or lost."""
ZONES = ("discard", "hand")
MAT_HUE = (35, 95)
"""OpenCV hue band (0-180) of the mat: green to teal. A pixel that is neither tile nor mat covers the zone."""
COVERED = 0.03
"""Share of a zone's area not tile and not mat above which something (a hand, an arm) is over it."""
STRAY = 0.5
"""Tile-coloured area, in tiles, not explained by the tiles found, above which something is over the zone."""
GLANCE_CELL = 2
"""Side (px) of the cells a zone's picture is averaged over to tell whether it changed: sensor noise averages down
while a face's strokes (1-2 px at the camera's ~1 px/mm) still show."""
UNCHANGED = 16.0
"""Grey levels: a zone's picture has changed when some cell's mean grey differs from the last read picture by more
than this, once the zone's overall brightness is matched (a uniform light change is no change). Measured on
rendered frames (``python bench/bench_lookout.py --measure``: six tables, ``random_look`` light and the dimmest,
most blurred, noisiest one): camera noise of sigma 1-5 in every channel and the light 3% up or down stay at or
below 11.1; one tile's face changed to any other is at least 23 (6f/7f, 3f/5f, 6s/9s in the farthest zone, dim and
blurred light), 38 for 99% of the changes. 16 sits between, with room on both sides (a false change costs only a
reading)."""


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

    def __len__(self) -> int:
        """How many zones: four seats' worth of each zone name."""
        return len(self._zones)

    def name(self, index: int) -> tuple[int, str]:
        """Seat and zone name of the ``index``-th zone."""
        return self._zones[index][0], self._zones[index][1]

    def indices(self, seats: tuple[int, ...] | None = None) -> list[int]:
        """The zones of ``seats`` (None: all), in order: each seat's in turn."""
        return [index for index, (seat, _, _) in enumerate(self._zones) if seats is None or seat in seats]

    def box(self, index: int) -> tuple[int, int, int, int]:
        """Pixel box (x0, y0, x1, y1) of the frame that holds the ``index``-th zone (empty when out of view)."""
        rect: Rect = self._zones[index][2]
        w, h = (rect.u1 - rect.u0) * ZONE_PPM, (rect.v1 - rect.v0) * ZONE_PPM
        corners = apply(self._matrices[index], np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
        return int(x0), int(y0), int(max(x0, x1)), int(max(y0, y1))

    def locate_zone(self, frame: np.ndarray, index: int) -> tuple[list[Located], bool]:
        """The tiles found in the ``index``-th zone, and whether something covers it."""
        rect: Rect = self._zones[index][2]
        image = self.image(frame, index)
        mask = tile_mask(image)
        detection = find_tiles(image, ZONE_PPM, self._matrices[index], mask)
        located = [
            Located(f, f.centre[0] / ZONE_PPM + rect.u0, f.centre[1] / ZONE_PPM + rect.v0) for f in detection.tiles
        ]
        # Covered: tile-coloured blobs that are not tiles (a hand in warm light), or much of the zone neither
        # mat nor tile (skin, a sleeve).
        stray = detection.stray > STRAY * TILE_W_MM * TILE_H_MM * ZONE_PPM**2
        return located, stray or covered_share(image, mask) > COVERED

    def locate(
        self, frame: np.ndarray, seats: tuple[int, ...] | None = None
    ) -> Iterator[tuple[int, str, list[Located], bool]]:
        """For every zone (of ``seats``; None: all): seat, zone name, the tiles found, and whether something
        covers it."""
        for index in self.indices(seats):
            yield *self.name(index), *self.locate_zone(frame, index)


class Recognizer:
    """Reads the zones of calibrated frames with one model."""

    def __init__(self, calibration: Calibration, model: Model, zones: tuple[str, ...] = ZONES) -> None:
        self.zones = Zones(calibration, zones)
        self.model = model

    def read(self, frame: np.ndarray, seats: tuple[int, ...] | None = None) -> list[ZoneView]:
        """Every zone of the frame (of ``seats``: a caller who knows whose turn it is reads that seat's zone
        alone, a quarter of the work): its tiles, and whether it is covered."""
        return [self.read_zone(frame, index) for index in self.zones.indices(seats)]

    def read_zone(self, frame: np.ndarray, index: int) -> ZoneView:
        """The ``index``-th zone of the frame (``Zones`` order)."""
        seat, zone = self.zones.name(index)
        located, covered = self.zones.locate_zone(frame, index)
        seen = []
        readings = self.model.read([tile.found.crop(frame) for tile in located])  # one network call per zone
        for tile, (prediction, upside_down) in zip(located, readings, strict=True):
            turn = ((270 if tile.found.sideways else 0) + (180 if upside_down else 0)) % 360
            seen.append(Seen(seat, zone, prediction, tile.u, tile.v, turn))
        return ZoneView(seat, zone, tuple(seen), covered)


@dataclass
class _Glance:
    """A zone's picture when it was last read (``GLANCE_CELL`` cells, grey) and what was read in it."""

    picture: np.ndarray
    view: ZoneView


class SkippingRecognizer:
    """A ``Recognizer`` for one camera's stream of frames: a zone whose picture has not changed since it was last
    read (``UNCHANGED``) is not read again, its last view stands. A hand over a zone, a tile laid or taken, a face
    turned change the picture; camera noise and a light change of the whole zone do not. A view with a tile it
    could not read is read again every frame, so that such a tile gets the independent readings the tracker
    waits for. ``zones_read`` and ``zones_skipped`` count the zones read and passed over."""

    def __init__(self, calibration: Calibration, model: Model, zones: tuple[str, ...] = ZONES) -> None:
        self.recognizer = Recognizer(calibration, model, zones)
        self.zones = self.recognizer.zones
        self._boxes = [self.zones.box(index) for index in range(len(self.zones))]
        self._last: list[_Glance | None] = [None] * len(self.zones)
        self.zones_read = 0
        self.zones_skipped = 0

    def read(self, frame: np.ndarray, seats: tuple[int, ...] | None = None) -> list[ZoneView]:
        """As ``Recognizer.read``, the unchanged zones' views being their last."""
        return [self._zone(frame, index) for index in self.zones.indices(seats)]

    def _zone(self, frame: np.ndarray, index: int) -> ZoneView:
        picture = self.glance(frame, index)
        last = self._last[index]
        if last is not None and picture is not None and _settled(last.view) and not changed(last.picture, picture):
            self.zones_skipped += 1
            return last.view
        view = self.recognizer.read_zone(frame, index)
        self._last[index] = None if picture is None else _Glance(picture, view)
        self.zones_read += 1
        return view

    def glance(self, frame: np.ndarray, index: int) -> np.ndarray | None:
        """The frame's box around the zone, averaged over ``GLANCE_CELL`` cells, grey (None: out of the frame)."""
        x0, y0, x1, y1 = self._boxes[index]
        box = frame[y0:y1, x0:x1]
        size = (box.shape[1] // GLANCE_CELL, box.shape[0] // GLANCE_CELL)
        if min(size) == 0:
            return None
        whole = box[: size[1] * GLANCE_CELL, : size[0] * GLANCE_CELL]  # whole cells: OpenCV's fast path, 10x faster
        small = cv2.resize(whole, size, interpolation=cv2.INTER_AREA)
        return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _settled(view: ZoneView) -> bool:
    """Whether every tile of ``view`` was read (else the zone is read again, see ``SkippingRecognizer``)."""
    return all(seen.tile is not None for seen in view.tiles)


def changed(before: np.ndarray, after: np.ndarray) -> bool:
    """Whether two glances at a zone (``SkippingRecognizer.glance``) differ by more than ``UNCHANGED``."""
    return before.shape != after.shape or difference(before, after) > UNCHANGED


def difference(before: np.ndarray, after: np.ndarray) -> float:
    """The largest difference of a cell of two glances of the same size, ``before`` brought to ``after``'s overall
    brightness first."""
    gain = float(after.mean()) / max(float(before.mean()), 1.0)
    return float(cv2.absdiff(before * gain, after).max())
