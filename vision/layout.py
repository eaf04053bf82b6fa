"""Enrolment from one photo of the whole set laid out face up: every tile is found, given its kind by where it
lies, and the picture is drawn over so that the person can check it.

The layout is the order of ``vision/faces/CLASSES.csv``, a row per suit, read top to bottom and left to right:
characters 1-9, dots 1-9, bamboo 1-9, then the honours and the flowers. Rules choice (not in the sources): "a row
per suit" is read both ways for the honours and the bonus tiles, so four layouts are accepted, told apart by their
row lengths: honours in one row of 7 (E S W N, red, green, white) or in a row of winds (4) and one of dragons (3);
flowers and seasons in one row of 8 (plum orchid chrysanthemum bamboo, spring summer autumn winter) or two rows of
4; or a set without flowers (the rows of flowers left out). Tiles lie upright for the photographer, apart or
touching.

Two more sets (issue 25): a riichi set with red fives lays them out in one more row after the honours, 0m 0p 0s
(rows 9, 9, 9, 7, 3 or 9, 9, 9, 4, 3, 3); a 十万 set lays out its suits of ten ranks, 1 to 10, and its winds (rows
10, 10, 10, 4). The kinds are faces of ``vision.kinds`` (a red five ``0m``, a ten ``10m``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.artwork import parse_class_code
from vision.detect import Found, find_in_photo, tile_mask
from vision.errors import VisionError
from vision.geometry import TILE_H_MM, TILE_W_MM
from vision.kinds import Face, face_code

CLASS_ORDER = (
    *(f"{n}m" for n in range(1, 10)),
    *(f"{n}p" for n in range(1, 10)),
    *(f"{n}s" for n in range(1, 10)),
    *("E", "S", "W", "N", "RD", "GD", "WD"),
    *("F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"),
)
"""The codes of ``vision/faces/CLASSES.csv``, in its order."""
RED_FIVES = ("0m", "0p", "0s")
SHIWAN_ORDER = (
    *(f"{n}m" for n in range(1, 11)),
    *(f"{n}p" for n in range(1, 11)),
    *(f"{n}s" for n in range(1, 11)),
    *("E", "S", "W", "N"),
)
"""十万's 34 faces in its layout's order: each suit 1 to 10 (``10m`` is 十万), then the winds."""
LAYOUTS = {
    (9, 9, 9, 7, 8): "suits, honours, flowers and seasons",
    (9, 9, 9, 4, 3, 4, 4): "suits, winds, dragons, flowers, seasons",
    (9, 9, 9, 7): "suits and honours (a set without flowers)",
    (9, 9, 9, 4, 3): "suits, winds and dragons (a set without flowers)",
    (9, 9, 9, 7, 3): "suits, honours and red fives 0m 0p 0s (a riichi set)",
    (9, 9, 9, 4, 3, 3): "suits, winds, dragons and red fives 0m 0p 0s (a riichi set)",
    (10, 10, 10, 4): "suits of ranks 1-10 and winds (a 十万 set)",
}
"""Accepted row lengths, top to bottom."""
SIZES = (0.8, 0.9, 1.0, 1.12, 1.25)
"""Factors around the estimated tile width tried in turn when no tile size is given."""


class LayoutError(VisionError):
    """A layout photo whose tiles are not the set in the expected rows; ``tiles`` are those found, for the picture."""

    def __init__(self, message: str, tiles: Sequence[Found]) -> None:
        super().__init__(message)
        self.tiles = list(tiles)


@dataclass(frozen=True)
class Layout:
    """The tiles of a layout photo in reading order, and the kind each one is given by its place."""

    tiles: list[Found]
    kinds: list[Face]

    def faces(self, image: np.ndarray) -> list[tuple[np.ndarray, Face]]:
        """Upright face crops with their kinds, for ``vision.enroll.enroll``."""
        return [(found.crop(image), kind) for found, kind in zip(self.tiles, self.kinds, strict=True)]


def rows(tiles: Sequence[Found]) -> list[list[Found]]:
    """Tiles grouped into rows, top to bottom, each left to right: a tile starts a new row when its centre lies
    more than half a tile's height below the row above."""
    if not tiles:
        return []
    height = float(np.median([np.linalg.norm(t.quad[3] - t.quad[0]) for t in tiles]))
    out: list[list[Found]] = []
    for tile in sorted(tiles, key=lambda t: t.quad[:, 1].mean()):
        y = tile.quad[:, 1].mean()
        if out and y - np.mean([t.quad[:, 1].mean() for t in out[-1]]) < 0.5 * height:
            out[-1].append(tile)
        else:
            out.append([tile])
    return [sorted(row, key=lambda t: t.quad[:, 0].mean()) for row in out]


APART = 3.0
"""Tile widths: a tile found with no other tile's centre this near is no part of the layout's rows (a blob of the
floor or the table's edge taken for a tile, a tile lying astray) and is left out, so the rows are those of the set."""


def grouped(tiles: Sequence[Found]) -> list[Found]:
    """The tiles that have a neighbour within ``APART`` tile widths."""
    if len(tiles) < 2:
        return list(tiles)
    centres = np.array([tile.quad.mean(axis=0) for tile in tiles])
    width = float(np.median([np.linalg.norm(tile.quad[1] - tile.quad[0]) for tile in tiles]))
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(distance, np.inf)
    return [tile for tile, nearest in zip(tiles, distance.min(axis=1), strict=True) if nearest <= APART * width]


def kinds_for(lengths: tuple[int, ...]) -> list[Face]:
    """The faces of a layout with these row lengths (one of ``LAYOUTS``), in reading order."""
    if lengths[0] == 10:
        codes = list(SHIWAN_ORDER)
    elif lengths[-1] == 3 and sum(lengths) == 37:
        codes = [*CLASS_ORDER[:34], *RED_FIVES]
    else:
        codes = list(CLASS_ORDER) if sum(lengths) == len(CLASS_ORDER) else list(CLASS_ORDER[:34])
    return [parse_class_code(code) for code in codes]


def estimate_tile_px(image: np.ndarray) -> float:
    """The width of a tile in px, guessed from the tile-coloured blobs: the median blob of about one tile's shape
    (a 3:4 rectangle), else the image's share for 42 tiles."""
    contours, _ = cv2.findContours(tile_mask(image), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    floor = image.shape[0] * image.shape[1] / 4000
    widths = []
    for contour in contours:
        if cv2.contourArea(contour) < floor:
            continue
        (_, _), (w, h), _ = cv2.minAreaRect(contour)
        if min(w, h) > 0 and 1.15 < max(w, h) / min(w, h) < 1.6:
            widths.append(min(w, h))
    if widths:
        return float(np.median(widths))
    return float(np.sqrt(image.shape[0] * image.shape[1] / len(CLASS_ORDER) / 4 * TILE_W_MM / TILE_H_MM))


def read_layout(image: np.ndarray, tile_px: float | None = None) -> Layout:
    """The set laid out in ``image``; ``tile_px`` the width of a tile face (None: estimated, and tried at a few
    sizes around the estimate). A ``LayoutError`` says what was found instead, with the tiles found in its
    ``tiles`` attribute."""
    sizes = [tile_px] if tile_px else [estimate_tile_px(image) * factor for factor in SIZES]
    best: list[Found] = []
    for size in sizes:
        found = grouped(find_in_photo(image, size).tiles)
        lengths = tuple(len(row) for row in rows(found))
        if lengths in LAYOUTS:
            return Layout([tile for row in rows(found) for tile in row], kinds_for(lengths))
        if len(found) > len(best):
            best = found
    lengths = tuple(len(row) for row in rows(best))
    expected = "; ".join(f"{', '.join(map(str, shape))} ({name})" for shape, name in LAYOUTS.items())
    found_text = f"{len(best)} tiles in rows of {', '.join(map(str, lengths))}" if best else "no tiles"
    order = "in the order of CLASSES.csv (十万: each suit 1-10, then the winds)"
    raise LayoutError(f"found {found_text}: expected rows of {expected}, {order}", best)


def annotate(image: np.ndarray, tiles: Sequence[Found], kinds: Sequence[Face] | None = None) -> np.ndarray:
    """The photo with each tile's outline and its code (green), or its row and place when the layout was refused
    (red), so that the person can check what was read."""
    out = image.copy()
    scale = max(0.35, float(np.median([np.linalg.norm(t.quad[1] - t.quad[0]) for t in tiles])) / 60) if tiles else 1
    labelled = (
        [(tile, face_code(kind)) for tile, kind in zip(tiles, kinds, strict=True)]
        if kinds is not None
        else [(tile, f"{r + 1}.{c + 1}") for r, row in enumerate(rows(tiles)) for c, tile in enumerate(row)]
    )
    colour = (0, 200, 0) if kinds is not None else (0, 0, 255)
    for tile, text in labelled:
        corners = np.round(tile.quad).astype(np.int32)
        cv2.polylines(out, [corners], True, colour, max(1, round(2 * scale)))
        x, y = corners[:, 0].min(), corners[:, 1].min()
        cv2.putText(out, text, (int(x), int(y) - 3), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, max(1, round(2 * scale)))
    return out
