"""Table geometry in millimetres: where each seat's discard and hand zones are, and how a zone maps to the image.

Table coordinates: origin at the table centre, x to the right and y towards seat 0 as the overhead camera sees
them. Seats go counter-clockwise seen from above (0 bottom, 1 right, 2 top, 3 left), as play does. A seat's own
frame has u to the seat's right and v towards the seat; tiles a seat discards face it, so in a zone's rectified
image (u right, v down) every tile of that seat stands upright.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

TILE_W_MM, TILE_H_MM = 30.0, 40.0
"""Top face of one tile."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in a seat's frame (mm)."""

    u0: float
    v0: float
    u1: float
    v1: float

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rect:
        return cls(*(float(data[key]) for key in ("u0", "v0", "u1", "v1")))


@dataclass(frozen=True)
class Layout:
    """Where things are on the table. Every seat's zones are the seat-0 zones turned to that seat."""

    area: float = 700.0
    """Side of the square the camera must see; the calibration markers sit at its corners."""
    discard: Rect = Rect(-122.0, 125.0, 122.0, 250.0)
    hand: Rect = Rect(-255.0, 258.0, 255.0, 310.0)
    marker: float = 40.0
    """Side of each ArUco marker (ids 0-3: top-left, top-right, bottom-right, bottom-left of the area)."""
    wall: Rect = Rect(-256.0, 311.0, 256.0, 355.0)
    """Where the faces of a seat's wall the table turns up are read (``wall_spot``): a strip at the table's edge
    beyond the seat's hand zone. The centre console and the discard zones leave no room for a square of walls in
    the camera's view (a wall strip of 17 stacks would cross the neighbours' discard zones), so the faces turned up
    are laid face up here, each at its stack's spot, as a calibrated zone."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "area": self.area,
            "discard": self.discard.to_dict(),
            "hand": self.hand.to_dict(),
            "marker": self.marker,
            "wall": self.wall.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Layout:
        wall = Rect.from_dict(data["wall"]) if "wall" in data else cls.wall  # calibrations saved before it
        return cls(
            float(data["area"]),
            Rect.from_dict(data["discard"]),
            Rect.from_dict(data["hand"]),
            float(data["marker"]),
            wall,
        )

    def marker_centres(self) -> np.ndarray:
        """Table coordinates (mm) of the four marker centres, ids 0-3."""
        c = self.area / 2 - self.marker / 2 - 5
        return np.array([[-c, -c], [c, -c], [c, c], [-c, c]], np.float64)


DEFAULT_LAYOUT = Layout()
WALL_PITCH_MM = 32.0
"""Centre to centre of the spots of a wall zone: a 2 mm gap between tiles, which ``vision.detect`` cuts by."""
WALL_STACKS = 7
"""The stacks counted from the wall's tail whose faces have spots (riichi's dead wall: 14 tiles on 7 stacks)."""


def wall_spot(layout: Layout, stack_from_tail: int, under: bool) -> tuple[float, float]:
    """The spot (u, v mm, in the frame of the seat whose wall holds the stack) where the face of the upper tile
    (``under`` False) or of the lower tile of the ``stack_from_tail``-th stack from the wall's tail end (1 to
    ``WALL_STACKS``) is laid face up to be read: left to right from the tail's last stack, upper then lower."""
    if not 1 <= stack_from_tail <= WALL_STACKS:
        raise ValueError(f"wall spot: stack {stack_from_tail} from the tail: expected 1-{WALL_STACKS}")
    return wall_slot(layout, 2 * (WALL_STACKS - stack_from_tail) + under)


EXTRA_SLOTS = (2 * WALL_STACKS, -1)
"""The wall zone's slots beside the dead wall's (its right end, then its left): where faces turned up elsewhere in
the wall are laid (``controller.people.camera.wall_spots``: an indicator after the deal, the birds at a win)."""


def wall_slot(layout: Layout, slot: int) -> tuple[float, float]:
    """The centre (u, v mm) of the wall zone's ``slot``-th spot: the dead wall's 14 centred (0-13), ``EXTRA_SLOTS``
    at either end."""
    rect = layout.wall
    middle = (rect.u0 + rect.u1) / 2
    return middle + (slot - (2 * WALL_STACKS - 1) / 2) * WALL_PITCH_MM, (rect.v0 + rect.v1) / 2


_SEAT_AXES = (((1, 0), (0, 1)), ((0, -1), (1, 0)), ((-1, 0), (0, -1)), ((0, 1), (-1, 0)))
"""For each seat: the table-frame (x, y) of its u axis and of its v axis."""


def seat_to_table(seat: int) -> np.ndarray:
    """3x3 affine matrix taking a seat's (u, v) to table (x, y)."""
    (ux, uy), (vx, vy) = _SEAT_AXES[seat]
    return np.array([[ux, vx, 0], [uy, vy, 0], [0, 0, 1]], np.float64)


def seat_angle(seat: int) -> float:
    """Rotation (degrees, clockwise as the camera sees it) of a tile standing upright for ``seat``."""
    return -90.0 * seat


def zone_to_image(homography: np.ndarray, seat: int, rect: Rect, ppm: float) -> np.ndarray:
    """3x3 matrix from a zone's rectified image (``ppm`` pixels per mm, origin at the zone's corner) to the camera
    image, given the camera's table-to-image homography."""
    zone_to_seat = np.array([[1 / ppm, 0, rect.u0], [0, 1 / ppm, rect.v0], [0, 0, 1]], np.float64)
    return homography @ seat_to_table(seat) @ zone_to_seat


def apply(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (N x 2) through a 3x3 projective matrix."""
    pts = np.hstack([points, np.ones((len(points), 1))]) @ matrix.T
    return pts[:, :2] / pts[:, 2:]
