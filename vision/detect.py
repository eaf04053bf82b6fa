"""Tiles in a zone: segment the light, unsaturated tile bodies from the coloured mat, take rotated rectangles,
split runs of touching tiles, and give each tile's face corners in the camera image for both ways up.

Segmentation uses saturation and a floor on brightness rather than a brightness threshold alone, so a dim or
shadowed table still separates (the mat is saturated green whatever the light; tile bodies are not). Ink strokes
are saturated too: holes are filled by taking outer contours only.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.features import warp_face
from vision.geometry import TILE_H_MM, TILE_W_MM, apply

MAX_SATURATION = 0.35
MIN_BRIGHTNESS = 55


@dataclass(frozen=True)
class Found:
    """One tile: its face corners in the source image (top-left first, as if it stood upright for the zone's seat,
    or lay turned a quarter clockwise when ``sideways``; it may still be upside down), and its centre in the zone's
    rectified image."""

    quad: np.ndarray
    centre: tuple[float, float]
    sideways: bool

    def crop(self, frame: np.ndarray) -> np.ndarray:
        return warp_face(frame, self.quad)


def tile_mask(image: np.ndarray) -> np.ndarray:
    """255 where a pixel looks like tile body: bright enough and nearly grey."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, (0, 0, MIN_BRIGHTNESS), (180, round(255 * MAX_SATURATION), 255))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _pieces(rect: tuple, area: float, tile_area: float) -> list[tuple[np.ndarray, float, float, bool]]:
    """Centre, long and short side, and sideways flag of each tile in one blob; a run of k touching tiles is cut in k
    equal parts along its long axis. A blob that is not a whole number of tiles gives nothing."""
    (cx, cy), (w, h), angle = rect
    count = max(1, round(area / tile_area))
    if not 0.7 * count * tile_area < area < 1.3 * count * tile_area:
        return []
    theta = np.deg2rad(angle)
    axis_w = np.array([np.cos(theta), np.sin(theta)])
    axis_h = np.array([-np.sin(theta), np.cos(theta)])
    length, across, axis = (w, h, axis_w) if w >= h else (h, w, axis_h)
    step = length / count
    pieces = []
    for i in range(count):
        centre = np.array([cx, cy]) + axis * (i - (count - 1) / 2) * step
        long_side, short_side = max(step, across), min(step, across)
        if not 1.1 < long_side / short_side < 1.75:
            return []
        long_axis = axis if step >= across else np.array([-axis[1], axis[0]])
        pieces.append((centre, long_side, short_side, abs(long_axis[0]) > abs(long_axis[1])))
    return pieces


def _quad(centre: np.ndarray, up: np.ndarray, long_side: float, short_side: float) -> np.ndarray:
    right = np.array([-up[1], up[0]])
    top, side = up * long_side / 2, right * short_side / 2
    return np.array([centre + top - side, centre + top + side, centre - top + side, centre - top - side])


def find_tiles(zone: np.ndarray, ppm: float, to_image: np.ndarray | None = None) -> list[Found]:
    """Tiles in a zone's rectified image (``ppm`` px per mm). ``to_image`` maps zone pixels to the camera image
    so that crops come straight from the full-resolution frame; None means the zone image itself."""
    mask = tile_mask(zone)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    tile_area = TILE_W_MM * TILE_H_MM * ppm * ppm
    found = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < 0.6 * tile_area:
            continue
        for centre, long_side, short_side, sideways in _pieces(cv2.minAreaRect(contour), area, tile_area):
            up = np.array([-1.0, 0.0]) if sideways else np.array([0.0, -1.0])
            quad = _quad(centre, up, long_side, short_side)
            if to_image is not None:
                quad = apply(to_image, quad)
            found.append(Found(quad, (float(centre[0]), float(centre[1])), sideways))
    return found


def face_crop(image: np.ndarray) -> np.ndarray:
    """The upright (or upside-down) crop of the one tile in a roughly cropped photo: the largest tile-like blob if
    there is one, else the whole picture (a tight crop has no mat around the tile to segment against)."""
    h, w = image.shape[:2]
    contours, _ = cv2.findContours(tile_mask(image), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    largest = max(contours, key=cv2.contourArea, default=None)
    if largest is None or not 0.15 * w * h < cv2.contourArea(largest) < 0.9 * w * h:
        return warp_face(image, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(largest)
    theta = np.deg2rad(angle)
    axis = np.array([-np.sin(theta), np.cos(theta)]) if rh >= rw else np.array([np.cos(theta), np.sin(theta)])
    return warp_face(image, _quad(np.array([cx, cy]), axis if axis[1] < 0 else -axis, max(rw, rh), min(rw, rh)))
