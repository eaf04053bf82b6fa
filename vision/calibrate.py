"""Table calibration: the homography from table millimetres to camera pixels, found from the four ArUco markers
at the corners of the table area (or from four given corner points), stored with the zone layout as TOML.

The stored form is a ``[vision.calibration]`` table, so it can live in the service's configuration file.
"""

from __future__ import annotations

import logging
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import CalibrationError
from vision.geometry import DEFAULT_LAYOUT, TILE_W_MM, Layout, Rect, apply, seat_to_table

MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Calibration:
    """Where the table is in the image: ``homography`` maps table mm to pixels of a ``width`` x ``height`` frame."""

    homography: np.ndarray
    width: int
    height: int
    layout: Layout = field(default_factory=Layout)

    def to_dict(self) -> dict[str, Any]:
        return {
            "homography": [[float(v) for v in row] for row in self.homography],
            "width": self.width,
            "height": self.height,
            "layout": self.layout.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Calibration:
        try:
            matrix = np.array(data["homography"], np.float64)
            if matrix.shape != (3, 3) or not np.isfinite(matrix).all():
                raise CalibrationError(f"homography: expected 3 rows of 3 numbers, found shape {matrix.shape}")
            return cls(matrix, int(data["width"]), int(data["height"]), Layout.from_dict(data["layout"]))
        except KeyError as error:
            raise CalibrationError(f"calibration: missing field {error.args[0]!r}") from None
        except (TypeError, ValueError) as error:
            raise CalibrationError(f"calibration: bad value ({error})") from None


def from_corners(corners: np.ndarray, width: int, height: int, layout: Layout = DEFAULT_LAYOUT) -> Calibration:
    """Calibration from the image positions of the four marker centres (ids 0-3: top-left, top-right,
    bottom-right, bottom-left of the table area as seat 0 sees it)."""
    points = np.asarray(corners, np.float64)
    if points.shape != (4, 2) or not np.isfinite(points).all():
        raise CalibrationError(f"corners: expected 4 points (x, y), found shape {points.shape}")
    if abs(cv2.contourArea(points.astype(np.float32))) < 0.01 * width * height:
        raise CalibrationError("corners: the four points enclose almost no area (collinear or repeated)")
    matrix = cv2.getPerspectiveTransform(layout.marker_centres().astype(np.float32), points.astype(np.float32))
    return Calibration(matrix.astype(np.float64), width, height, layout)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Centres (image px) of the ArUco markers found, by id."""
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).mean(axis=0) for i, c in zip(ids.ravel(), corners, strict=True)}


def from_markers(image: np.ndarray, layout: Layout = DEFAULT_LAYOUT) -> Calibration:
    """Calibration from one frame showing the four corner markers (ids 0-3)."""
    found = find_markers(image)
    missing = [i for i in range(4) if i not in found]
    if missing:
        raise CalibrationError(f"markers {missing} not found in the image (found {sorted(found) or 'none'})")
    calibration = from_corners(np.array([found[i] for i in range(4)]), image.shape[1], image.shape[0], layout)
    log.info("table calibrated from markers 0-3 in a %dx%d frame", image.shape[1], image.shape[0])
    return calibration


def tile_px(calibration: Calibration) -> float:
    """How wide (px) a tile lying at the table's centre looks in the camera image."""
    centre, right = apply(calibration.homography, np.array([[0.0, 0.0], [TILE_W_MM, 0.0]]))
    return float(np.linalg.norm(right - centre))


def zone_pixels(calibration: Calibration, seat: int, rect: Rect) -> np.ndarray:
    """The four corners (image px) of a seat's zone."""
    corners = np.array([[rect.u0, rect.v0], [rect.u1, rect.v0], [rect.u1, rect.v1], [rect.u0, rect.v1]])
    return apply(calibration.homography @ seat_to_table(seat), corners)


def zones_outside(calibration: Calibration, width: int, height: int) -> list[str]:
    """The zones (``"seat 0 hand"``, ...) not wholly inside a ``width`` x ``height`` frame: tiles there are not
    seen, so the camera or the calibration must change."""
    outside = []
    for seat in range(4):
        for name in ("discard", "hand"):
            pixels = zone_pixels(calibration, seat, getattr(calibration.layout, name))
            if not (np.isfinite(pixels).all() and (pixels >= 0).all() and (pixels <= (width, height)).all()):
                outside.append(f"seat {seat} {name}")
    return outside


def annotate(image: np.ndarray, calibration: Calibration) -> np.ndarray:
    """A copy of the frame with every seat's discard (green) and hand (orange) zone drawn, and the seat numbers."""
    out = image.copy()
    layout = calibration.layout
    for seat in range(4):
        for rect, colour in ((layout.discard, (0, 255, 0)), (layout.hand, (0, 160, 255))):
            pixels = zone_pixels(calibration, seat, rect)
            cv2.polylines(out, [np.round(pixels).astype(np.int32)], True, colour, 2)
        label = apply(calibration.homography @ seat_to_table(seat), np.array([[0.0, layout.discard.v1 + 5]]))[0]
        cv2.putText(
            out,
            f"seat {seat}",
            (int(label[0]) - 30, int(label[1]) + 5),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.6,
            (255, 255, 255),
            2,
        )
    return out


def _toml_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_toml_value(item)}" for key, item in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return repr(value)


def save(calibration: Calibration, path: Path) -> None:
    """Write the calibration as a ``[vision.calibration]`` TOML table (tomllib reads it back exactly)."""
    lines = [
        "# Written by 'mjtable vision calibrate': table mm -> camera pixels, and the zone layout (mm).",
        "[vision.calibration]",
    ]
    lines += [f"{key} = {_toml_value(value)}" for key, value in calibration.to_dict().items()]
    try:
        path.write_text("\n".join(lines) + "\n")
    except OSError as error:
        raise CalibrationError(f"{path}: cannot write ({error.strerror})") from None


def load(path: Path) -> Calibration:
    """The ``[vision.calibration]`` table of a TOML file."""
    try:
        data = tomllib.loads(path.read_text())
    except OSError as error:
        raise CalibrationError(f"{path}: cannot read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise CalibrationError(f"{path}: not TOML ({error})") from None
    try:
        table = data["vision"]["calibration"]
    except (KeyError, TypeError):
        raise CalibrationError(f"{path}: no [vision.calibration] table") from None
    try:
        return Calibration.from_dict(table)
    except CalibrationError as error:
        raise CalibrationError(f"{path}: {error}") from None
