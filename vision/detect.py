"""Tiles in a zone: segment the light, unsaturated tile bodies from the coloured mat, split touching tiles, take
rotated rectangles, and give each tile's face corners in the camera image (upright or upside down: the classifier
decides which, from one crop).

Segmentation uses saturation and a floor on brightness rather than a brightness threshold alone, so a dim or
shadowed table still separates (the mat is saturated green whatever the light; tile bodies are not). Ink strokes
are saturated too: holes are filled by taking outer contours only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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
    measured: bool = True
    """Whether the tile's size is its own (a tile alone, or parted at its seams), not cut to the size given (a run's
    or a block's equal parts, a pair's halves, a grid's proposed neighbour: ``_cut``)."""

    def crop(self, frame: np.ndarray) -> np.ndarray:
        return warp_face(frame, self.quad)


def tile_mask(image: np.ndarray) -> np.ndarray:
    """255 where a pixel looks like tile body: bright enough and nearly grey."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, (0, 0, MIN_BRIGHTNESS), (180, round(255 * MAX_SATURATION), 255))
    # Strokes near a face's edge (a framed flower, a long bamboo) cut a thin strip of body off; closing first joins
    # it back (and a tile's narrow gap to its neighbour, which the watershed split undoes), then opening drops noise.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


Piece = tuple[np.ndarray, float, float, bool, float]
"""Centre, long side, short side, whether the long side lies across the zone (a sideways tile), and the tilt: the
angle (radians, clockwise as the image shows it, at most 45 degrees either way) from lying square to the zone."""


def _piece(rect: tuple) -> Piece | None:
    """The tile a rotated rectangle is, if its sides have a tile's proportions."""
    _, (w, h), _ = rect
    if min(w, h) <= 0 or not 1.1 < max(w, h) / min(w, h) < 1.75:
        return None
    return _oriented(rect)


def _long_axis(w: float, h: float, angle: float) -> np.ndarray:
    """The unit vector along a rotated rectangle's longer side (OpenCV's ``minAreaRect`` sides and angle)."""
    theta = np.deg2rad(angle)
    return np.array([np.cos(theta), np.sin(theta)]) if w >= h else np.array([-np.sin(theta), np.cos(theta)])


def _oriented(rect: tuple) -> Piece:
    """The piece a rotated rectangle is, whatever its proportions."""
    (cx, cy), (w, h), angle = rect
    long_axis = _long_axis(w, h, angle)
    sideways = bool(abs(long_axis[0]) > abs(long_axis[1]))
    if sideways:
        long_axis = long_axis if long_axis[0] > 0 else -long_axis
        tilt = float(np.arctan2(long_axis[1], long_axis[0]))
    else:
        long_axis = long_axis if long_axis[1] > 0 else -long_axis
        tilt = float(np.arctan2(-long_axis[0], long_axis[1]))
    return np.array([cx, cy]), max(w, h), min(w, h), sideways, tilt


def _cut_run(rect: tuple, tile_area: float, zone: np.ndarray | None = None) -> list[Piece]:
    """A straight run of tiles side by side cut in equal parts along its long axis: as many parts as make each
    closest to a tile plus a typical 2 mm gap (gaps make the run's area overstate the count). A run just as long
    as one tile more laid touching (a long row in front of a player: 16 tiles with gaps, or 17 without) is cut
    into the count whose cuts fall on the seams ``zone`` shows (``_seams``)."""
    (cx, cy), (w, h), angle = rect
    axis = _long_axis(w, h, angle)
    length, across = max(w, h), min(w, h)
    short, long = np.sqrt(tile_area * TILE_W_MM / TILE_H_MM), np.sqrt(tile_area * TILE_H_MM / TILE_W_MM)
    side = short if abs(across - long) < abs(across - short) else long
    target = side * (1 + 2 / TILE_W_MM)
    count = min((max(1, int(length // target)), int(length // target) + 1), key=lambda k: abs(length / k - target))
    touching = round(length / side)
    if zone is not None and touching == count + 1 and abs(length / touching - side) < 0.04 * side:
        seams = [_seams(zone, np.array([cx, cy]), axis, (length, across), k) for k in (count, touching)]
        count = touching if seams[1] >= seams[0] else count  # gaps show (the mat between): no seam at all, no gaps
    parts = [_piece(rect) for rect in _equal_cuts(np.array([cx, cy]), axis, length, across, count)]
    return [] if None in parts else parts


def _equal_cuts(centre: np.ndarray, axis: np.ndarray, length: float, across: float, count: int) -> list[tuple]:
    """A run of tiles (its middle, the unit vector along it, its length and width) cut in ``count`` equal parts
    along its length: each part's rotated rectangle, its side along the run first (``_cut_run`` on the mat, ``_run``
    in a photo: they differ in how they count the tiles, not in how they cut)."""
    step = length / count
    degrees = float(np.rad2deg(np.arctan2(axis[1], axis[0])))
    return [(tuple(centre + axis * (i - (count - 1) / 2) * step), (step, across), degrees) for i in range(count)]


def _seams(zone: np.ndarray, centre: np.ndarray, axis: np.ndarray, size: tuple[float, float], count: int) -> float:
    """How well ``count`` equal tiles fit a run of ``size`` (length, width) px: the typical rise of the run's
    brightness (the bright body's, not the ink's: the 90th percentile across the run) where two of them would meet.
    Going along the run, the brightness rises into the next tile's face at each seam (after the dark line between
    two tiles, or the shaded far edge of the one before); the wrong count puts most of its cuts inside faces."""
    length, across = size
    value = cv2.cvtColor(zone, cv2.COLOR_BGR2HSV)[..., 2].astype(np.float32)
    normal = np.array([-axis[1], axis[0]])
    along = np.arange(-length / 2, length / 2)
    band = _across(centre + along[:, None] * axis, normal, across, value.shape)
    rise = np.diff(np.percentile(value[band], 90, axis=1))
    cuts = [round(length * i / count) for i in range(1, count)]
    return float(np.median([rise[max(0, cut - 3) : cut + 2].max() for cut in cuts]))


def _across(line: np.ndarray, normal: np.ndarray, across: float, shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """The pixels (an index: ys, xs) of a band along ``line`` (N x 2 points): at each point, 9 points along
    ``normal`` over the middle 60% of ``across`` px, kept inside an image of ``shape``."""
    spread = np.linspace(-0.3 * across, 0.3 * across, 9)
    points = line[:, None, :] + spread[None, :, None] * normal
    xs = np.clip(np.round(points[..., 0]).astype(int), 0, shape[1] - 1)
    ys = np.clip(np.round(points[..., 1]).astype(int), 0, shape[0] - 1)
    return ys, xs


def _cores(zone: np.ndarray, blob: np.ndarray, tile_area: float) -> tuple[int, np.ndarray]:
    """The bright middles of the tiles in a blob, labelled: pixels nearly as bright as the brightest tile body
    around them (the blurred gap between two tiles, half mat, is not), ink holes filled, eroded to cut thin
    contacts, keeping parts of at least 0.3 tile. Returns their number and the label image (0 elsewhere)."""
    value = cv2.cvtColor(zone, cv2.COLOR_BGR2HSV)[..., 2]
    side = max(3, round(np.sqrt(tile_area) / 4) * 2 + 1)
    brightest = cv2.dilate(value, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    bright = ((value.astype(np.float32) > 0.8 * brightest) & (blob > 0)).astype(np.uint8)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(bright)
    cv2.drawContours(filled, contours, -1, 1, -1)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.erode(filled, np.ones((3, 3), np.uint8)))
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 0.3 * tile_area]
    cores = np.zeros(labels.shape, np.int32)
    for number, label in enumerate(keep, start=1):
        cores[labels == label] = number
    return len(keep), cores


def _waists(blob: np.ndarray, tile_area: float) -> tuple[int, np.ndarray]:
    """The parts of a blob far from its edge, labelled: tiles touching at an angle or offset meet at a narrow
    waist, which this cuts."""
    short = np.sqrt(tile_area * TILE_W_MM / TILE_H_MM)
    far = (cv2.distanceTransform(blob, cv2.DIST_L2, 3) > 0.3 * short).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(far)
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 0.05 * tile_area]
    cores = np.zeros(labels.shape, np.int32)
    for number, label in enumerate(keep, start=1):
        cores[labels == label] = number
    return len(keep), cores


def _watershed(zone: np.ndarray, blob: np.ndarray, markers: np.ndarray, count: int, tile_area: float) -> list[Piece]:
    """Grow ``count`` labelled seeds over the blob along the image's edges (the gaps between tiles); each region must
    be one tile, else nothing."""
    markers = markers.copy()
    markers[blob == 0] = count + 1
    cv2.watershed(zone, markers)
    parts = []
    for label in range(1, count + 1):
        part = _region_piece(cv2.findNonZero((markers == label).astype(np.uint8)), tile_area)
        if part is None:
            return []  # two tiles side by side under one seed would pass for one sideways tile
        parts.append(part)
    return parts


def _region_piece(
    points: np.ndarray | None, tile_area: float, largest: float = 1.45, area: float | None = None
) -> Piece | None:
    """The tile a grown region is, if it has a tile's area and its outline is a tile's rectangle (a region reaching
    into its neighbour is ragged: its rectangle is too large). ``points`` are the region's pixels, or its outline
    and its ``area``."""
    if points is None:
        return None
    area = len(points) if area is None else area
    if not 0.6 * tile_area < area < largest * tile_area:
        return None
    part = _piece(cv2.minAreaRect(points))
    return None if part is None or part[1] * part[2] > largest * tile_area else part


CORE_LEVELS = (0.85, 0.9, 0.94, 0.97)
"""Shares of the brightest body nearby above which a pixel is tile core, tried in turn until a blob parts: a dark
seam between touching tiles parts them at every level, a faint one (tiles pressed together, a light mat showing
through) only at the higher ones."""
CORE_EROSIONS = (1, 2)
"""Pixels eroded off the cores, tried in turn: cuts the thin contacts at tiles' corners."""
SPLIT_DEPTH = 3
VALLEY_SIDE = 5
VALLEY = 0.06
"""Seam lines (``_valleys``): the side of the closing that fills them, and how much darker than the brightest body
nearby a line must be. Off the mat each core level is also tried with these lines taken out of the cores."""
OFF_MAT_LARGEST = 1.8
"""Tile areas a region may cover off the mat (in a photo): a photo's tile size is the top face's, as its labels or
a ruler give it, while the tile-coloured region also holds the tile's sides, rounded edges and half the gap to its
neighbour (1.3 faces on the scenes' photos, as the median). On the mat the calibration measures the bodies."""


def _seam_like(hole: np.ndarray, short: float) -> bool:
    """Whether a hole in a tile core is a seam between two tiles (long and at most a few px wide) rather than ink."""
    _, _, w, h = cv2.boundingRect(hole)
    if max(w, h) < 0.4 * short:  # short whichever way it lies: ink (the cheap test first: most holes are ink)
        return False
    (_, _), (w, h), _ = cv2.minAreaRect(hole)
    return max(w, h) >= 0.4 * short and cv2.contourArea(hole) <= 3.5 * max(w, h)


def _bright_cores(
    value: np.ndarray,
    top: np.ndarray,
    region: np.ndarray,
    level: float,
    erosion: int,
    tile_area: float,
    seams: np.ndarray | None = None,
) -> tuple[int, np.ndarray]:
    """Labelled cores of the tiles in ``region``: pixels above ``level`` of the brightest body around them and not
    on ``seams`` (thin dark lines, ``_valleys``), ink holes filled (seams between tiles are not ink), eroded,
    keeping parts of at least a quarter tile."""
    short = np.sqrt(tile_area * TILE_W_MM / TILE_H_MM)
    bright = ((value > level * top) & region).astype(np.uint8)
    if seams is not None:
        bright[seams] = 0
    contours, hierarchy = cv2.findContours(bright, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    holes = [c for c, h in zip(contours, hierarchy[0] if hierarchy is not None else [], strict=False) if h[3] >= 0]
    cv2.drawContours(bright, [hole for hole in holes if not _seam_like(hole, short)], -1, 1, -1)
    bright = cv2.erode(bright, np.ones((2 * erosion + 1, 2 * erosion + 1), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(bright)
    cores = np.zeros(labels.shape, np.int32)
    kept = 0
    for label in range(1, n):
        if stats[label, cv2.CC_STAT_AREA] >= 0.25 * tile_area:
            kept += 1
            cores[labels == label] = kept
    return kept, cores


def _split(zone: np.ndarray, blob: np.ndarray, tile_area: float, largest: float) -> tuple[list[Piece], float]:
    """Touching tiles parted where their seams are, as a real photo shows them (a dark line, or a faint one between
    tiles pressed together, in rows and grids that need not be straight): the first core level that parts the
    blob seeds a watershed; each region that is a tile is one, a region of several is parted again at the next
    levels. Returns the tiles and the blob area they leave unexplained."""
    value = zone.min(axis=2)  # the faintest channel: tile body is bright in all three, mats and ink are not
    short = np.sqrt(tile_area * TILE_W_MM / TILE_H_MM)
    side = max(3, round(short / 4) * 2 + 1)
    top = cv2.dilate(value, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))).astype(np.float32)
    seams = _valleys(value, top) if largest > 1.45 else None  # off the mat (a photo)
    return _part(zone, value.astype(np.float32), top, blob > 0, tile_area, largest, 0, seams)


def _valleys(value: np.ndarray, top: np.ndarray) -> np.ndarray:
    """Thin dark lines (at most a few px wide) darker than the body either side by a share of the brightest body
    nearby: the seams of touching tiles in a photo at a tile's resolution, a line too faint or too short for any
    brightness level to cut (tiles in a row pressed together, lit from the side). Ink is such lines too, but inside
    a face: its holes in the cores are filled."""
    closed = cv2.morphologyEx(value, cv2.MORPH_BLACKHAT, np.ones((VALLEY_SIDE, VALLEY_SIDE), np.uint8))
    return closed > VALLEY * top


def _explained(rest: float, tiles: int, tile_area: float) -> bool:
    """Whether ``tiles`` found in a blob explain it, leaving ``rest`` px: the watershed gives each tile's shaded rim
    to the mat (about a tenth of a tile each), so a fifth of a tile per tile, and a third of one more, may be left."""
    return rest < (0.3 + 0.2 * tiles) * tile_area


def _regions(markers: np.ndarray, count: int) -> list[np.ndarray]:
    """The pixels (N x 1 x 2, x then y, as ``findNonZero`` gives them) of each label 1..count."""
    ys, xs = np.nonzero((markers >= 1) & (markers <= count))
    labels = markers[ys, xs]
    order = np.argsort(labels, kind="stable")
    points = np.stack([xs[order], ys[order]], axis=1).astype(np.int32)[:, None, :]
    bounds = np.searchsorted(labels[order], np.arange(1, count + 2))
    return [points[bounds[i] : bounds[i + 1]] for i in range(count)]


def _part(
    zone: np.ndarray,
    value: np.ndarray,
    top: np.ndarray,
    region: np.ndarray,
    tile_area: float,
    largest: float,
    depth: int,
    seams: np.ndarray | None = None,
) -> tuple[list[Piece], float]:
    """The tiles of a region at the core level and erosion (and, given ``seams``, with the seam lines cut out at the
    least erosion) whose tiles explain most of it (the first that explains all of it ends the search), regions of
    several tiles parted again; and the area left unexplained."""
    area = float(np.count_nonzero(region))
    best: tuple[float, list[Piece], list[np.ndarray]] = (area, [], [])
    variants = [(erosion, None) for erosion in CORE_EROSIONS] + ([] if seams is None else [(CORE_EROSIONS[0], seams)])
    for level in CORE_LEVELS:
        for erosion, cut in variants:
            count, markers = _bright_cores(value, top, region, level, erosion, tile_area, cut)
            if count < 2:
                continue
            markers[~region] = count + 1
            cv2.watershed(zone, markers)
            pieces, merged, lost = [], [], area  # less what tiles, or regions to part again, explain
            for points in _regions(markers, count):
                piece = _region_piece(points if len(points) else None, tile_area, largest)
                if piece is not None:
                    pieces.append(piece)
                elif len(points) > largest * tile_area:
                    merged.append(points)
                else:
                    continue
                lost -= len(points)
            if lost < best[0]:
                best = (lost, pieces, merged)
            if _explained(lost, len(pieces), tile_area) and not merged:
                break
        if _explained(best[0], len(best[1]), tile_area) and not best[2]:
            break
    lost, pieces, merged = best
    if not pieces and not merged and largest > 1.45:  # off the mat: a block no seam parts may still be tiles
        block = _block(zone, cv2.findNonZero(region.astype(np.uint8)), tile_area)
        return block, area if not block else max(area - len(block) * tile_area, 0.0)
    rest = lost + sum(len(points) for points in merged)
    for points in merged if depth < SPLIT_DEPTH else []:
        # Parted again within its own box (and a margin of background, which the watershed's border of boundary
        # pixels may take): the same tiles as on the whole region, at the cost of the part, not of the region.
        x0, y0 = np.maximum(points[:, 0].min(axis=0) - PART_MARGIN, 0)
        x1, y1 = points[:, 0].max(axis=0) + PART_MARGIN + 1
        box = (slice(y0, y1), slice(x0, x1))
        part = np.zeros(region[box].shape, bool)
        part[points[:, 0, 1] - y0, points[:, 0, 0] - x0] = True
        cut = None if seams is None else seams[box]
        more, left = _part(
            np.ascontiguousarray(zone[box]), value[box], top[box], part, tile_area, largest, depth + 1, cut
        )
        pieces = pieces + [_moved(piece, x0, y0) for piece in more]
        rest -= len(points) - left
    return pieces, max(rest, 0.0)


PART_MARGIN = 2
"""Px of background kept around a region parted again (``_part``)."""


BLOCK_FILL = 0.85
"""Share of its rotated rectangle a region must fill to be cut as a block of touching tiles."""
BLOCK_STRETCH = (0.8, 1.3)
"""How much a block's tile may be larger or smaller than the given tile: a tile's body is up to a third larger than
its face; a row laid at an angle in a stretched photo is narrower than the size its square-pixel boxes give."""
BLOCK_INKED = 0.5
"""Share of a block's parts that must show ink (``FACE_INK``; a blank white dragon shows none)."""


def _block(zone: np.ndarray, points: np.ndarray | None, tile_area: float) -> list[Piece]:
    """A region that no seam parts, cut into the rows and columns of touching tiles it is shaped like: only a
    region that fills its rotated rectangle (a block, not the outline of a table top), whose sides are whole
    numbers of tile sides (a tile's body being up to a third larger than its face), and most of whose parts show
    ink (a strip of bare table top between a tray and the photo's edge is a block too)."""
    if points is None or len(points) < 2 * tile_area:
        return []
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    if len(points) < BLOCK_FILL * w * h:
        return []
    short, long = np.sqrt(tile_area * TILE_W_MM / TILE_H_MM), np.sqrt(tile_area * TILE_H_MM / TILE_W_MM)
    fits = []
    for across, down in ((short, long), (long, short)):
        columns, rows = max(1, round(w / (1.1 * across))), max(1, round(h / (1.1 * down)))
        stretch = (w / columns / across, h / rows / down)
        if columns * rows >= 2 and all(BLOCK_STRETCH[0] <= value <= BLOCK_STRETCH[1] for value in stretch):
            fits.append((abs(np.log(stretch[0] / stretch[1])), columns, rows))
    if not fits:
        return []
    _, columns, rows = min(fits)
    theta = np.deg2rad(angle)
    along, down_axis = np.array([np.cos(theta), np.sin(theta)]), np.array([-np.sin(theta), np.cos(theta)])
    pieces = []
    for i in range(columns):
        for j in range(rows):
            centre = (
                np.array([cx, cy])
                + along * (i - (columns - 1) / 2) * w / columns
                + down_axis * (j - (rows - 1) / 2) * h / rows
            )
            piece = _piece((tuple(centre), (w / columns, h / rows), angle))
            if piece is None:
                return []
            pieces.append(piece)
    inked = sum(_inked(zone, [piece], FACE_INK) for piece in pieces)
    return pieces if inked >= BLOCK_INKED * len(pieces) else []


def _seeds(pieces: list[Piece], shape: tuple[int, ...], share: float = 1 / 3) -> np.ndarray:
    """Labelled seeds: the middle ``share`` of each piece's sides, tilted as the piece is."""
    markers = np.zeros(shape[:2], np.int32)
    for label, (centre, long_side, short_side, sideways, tilt) in enumerate(pieces, start=1):
        corners = _quad(centre, _up(sideways), share * long_side, share * short_side, tilt)
        cv2.fillConvexPoly(markers, np.round(corners).astype(np.int32), label)
    return markers


REGROWN_SEED = 0.9
"""Share of a parted tile's sides that seeds its regrowth (``_regrown``): most of the tile, still inside its own
body, so that only its rim and the seam are left to settle, and the line halfway between two seeds' edges is the
seam whatever the tiles' sizes and offsets (halfway between the middle thirds of a small and a large tile is not)."""


def _regrown(
    zone: np.ndarray, blob: np.ndarray, pieces: list[Piece], rest: float, tile_area: float
) -> tuple[list[Piece], float]:
    """Tiles parted at their seams (``_split``) given their whole bodies back, on the table's mat: the seam
    watershed leaves each tile's shaded rim to the mat, so the tiles come out a pixel or two short and their rims
    count as stray tile colour (a few touching pairs in a zone summed to half a tile: the zone looked covered, and
    its discard went unread). On the mat a blob is all tile body, so each of its pixels goes to the nearest tile,
    seeded by most of each: no edge to stop at (a face's printed frame), no mat to claim the rims. If a region is
    then no tile, the parted tiles stand, with ``rest``."""
    seeds = _seeds(pieces, blob.shape, REGROWN_SEED)
    _, nearest = cv2.distanceTransformWithLabels(
        (seeds == 0).astype(np.uint8), cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL
    )
    owner = np.zeros(nearest.max() + 1, np.int32)  # each seed pixel's own label, as the distance transform numbers it
    owner[nearest[seeds > 0]] = seeds[seeds > 0]
    cells = np.where(blob > 0, owner[nearest], 0)
    grown = [_cell_piece((cells == label).astype(np.uint8), tile_area) for label in range(1, len(pieces) + 1)]
    return (pieces, rest) if None in grown else (grown, 0.0)


def _cell_piece(cell: np.ndarray, tile_area: float) -> Piece | None:
    """The tile a region (a 0/1 mask) is (``_region_piece``), its rectangle taken around its outline: the same
    rectangle as around all its pixels, at a tenth of the points."""
    outline = cv2.findContours(cell, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]
    return _region_piece(np.vstack(outline), tile_area, area=cv2.countNonZero(cell)) if outline else None


def _rows(zone: np.ndarray, blob: np.ndarray, tile_area: float) -> list[np.ndarray]:
    """A blob of touching rows of discards (a river is laid in rows of six, each row close behind the one before)
    cut into its rows: as many as the blob is tall in upright tiles, each cut on the darkest line of tile body
    (the rows' shadowed edges, judged by the line's brightest body, which a face's ink does not darken) near where
    a row ends. Returns the rows' outer contours; none for one row."""
    long = np.sqrt(tile_area * TILE_H_MM / TILE_W_MM)
    count = round(blob.shape[0] / (long * (1 + 2 / TILE_H_MM)))
    if count < 2:
        return []
    value = cv2.cvtColor(zone, cv2.COLOR_BGR2HSV)[..., 2].astype(np.float32)
    value[blob == 0] = -1  # sorted first: each line's body values end its sorted row
    body = np.count_nonzero(blob, axis=1)
    rank = blob.shape[1] - body + 0.95 * np.maximum(body - 1, 0)  # the 95th percentile, interpolated
    below, lines = np.floor(rank).astype(int), np.arange(len(body))
    ordered = np.sort(value, axis=1)
    upper = ordered[lines, np.minimum(below + 1, blob.shape[1] - 1)]
    ranked = ordered[lines, below] + (rank - below) * (upper - ordered[lines, below])
    profile = np.where(body > 0, ranked, np.inf)  # a line without body is never the cut
    cut = blob.copy()
    step = blob.shape[0] / count
    for row in range(1, count):
        around = np.arange(max(1, round((row - 0.25) * step)), min(blob.shape[0] - 1, round((row + 0.25) * step)))
        line = int(around[np.argmin(profile[around])])
        cut[line] = 0
    contours, _ = cv2.findContours(cut, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [contour for contour in contours if cv2.contourArea(contour) >= 0.3 * tile_area]


def _pieces(zone: np.ndarray, contour: np.ndarray, tile_area: float, on_mat: bool = True) -> tuple[list[Piece], float]:
    """The tiles of one blob, and the blob area they leave unexplained: one tile; or touching tiles parted at their
    seams (``_split``) when that explains the whole blob (on the mat, given their rims back: ``_regrown``); else, on
    the table's mat, rows of discards, or touching tiles separated by a watershed seeded by their bright cores, by
    the parts beyond its waists, or by the parts of a straight run; else whatever ``_split`` found. A blob that is
    not a whole number of tiles (a hand, half a tile under a hand) gives nothing. Off the mat (``on_mat`` False: a
    photo of anything) only seams part tiles: a table top of tile colour is one blob too, which equal cuts would
    make into tiles."""
    area = cv2.contourArea(contour)
    if round(area / tile_area) <= 1:
        piece = _piece(cv2.minAreaRect(contour)) if 0.7 * tile_area < area < 1.3 * tile_area else None
        if piece is not None:
            return [piece], 0.0
        if on_mat:
            return [], area
        x, y, w, h = cv2.boundingRect(contour)
        blob = np.zeros((h, w), np.uint8)
        cv2.drawContours(blob, [contour - (x, y)], -1, 255, -1)
        piece = _region_piece(cv2.findNonZero(blob), tile_area, OFF_MAT_LARGEST)
        if piece is not None:
            return [_moved(piece, x, y)], 0.0
    x, y, w, h = cv2.boundingRect(contour)
    local = contour - (x, y)
    blob = np.zeros((h, w), np.uint8)
    cv2.drawContours(blob, [local], -1, 255, -1)
    roi = np.ascontiguousarray(zone[y : y + h, x : x + w])
    split, rest = _split(roi, blob, tile_area, 1.45 if on_mat else OFF_MAT_LARGEST)
    if split and rest < 0.3 * tile_area and on_mat:
        split, rest = _regrown(roi, blob, split, rest, tile_area)
    if not on_mat:
        run = _run(blob, tile_area)
        if len(split) < RUN_FEWER * len(run):
            split, rest = run, 0.0
    if (split and rest < 0.3 * tile_area) or not on_mat:
        return [_moved(piece, x, y) for piece in split], rest
    rows = [_pieces(roi, strip, tile_area)[0] for strip in _rows(roi, blob, tile_area)]
    if rows and all(rows):  # a row that is no whole number of tiles: not rows of discards (a hand, say)
        return [_moved(piece, x, y) for row in rows for piece in row], 0.0
    run = _cut_run(cv2.minAreaRect(local), tile_area, roi)
    area = cv2.countNonZero(blob)
    for count, seeds in (_cores(roi, blob, tile_area), _waists(blob, tile_area), (len(run), _seeds(run, blob.shape))):
        if 0.7 * count * tile_area < area < 1.35 * count * tile_area:
            separated = _watershed(roi, blob, seeds, count, tile_area)
            if separated:
                return [_moved(piece, x, y) for piece in separated], 0.0
    if run:
        return [_moved(piece, x, y) for piece in run], 0.0
    return [_moved(piece, x, y) for piece in split], rest


RUN_FILL = 0.7
"""Share of its rotated rectangle a photo's blob must fill to be a straight run of tiles (``_run``): a column of
thick tiles seen at a slant fills 0.75-0.85 of it (its sides and shadows are ragged), a table top's outline less."""
RUN_ACROSS = (0.9, 1.5)
"""A run's width in tile sides: one tile's face, plus the thick side it shows at a slant (up to half a side)."""
RUN_STEP = 0.15
"""How far (a share) a run's length divided by its count may be from a tile's side: tiles touching end to end."""
RUN_TILT = 15
"""Degrees a run may lie off the photo's axes: a stretched photo shears a run laid at a slant (its tiles are no
rectangles once the photo is scaled to square millimetres), so equal cuts of the given size do not fit it."""

RUN_FEWER = 0.8
"""Share of a run's equal cuts below which the tiles parted at its seams are too few, and the cuts are taken: in
perspective a run's far tiles are smaller, so equal cuts drift off them where the seams part nearly all."""


def _run(blob: np.ndarray, tile_area: float) -> list[Piece]:
    """A photo's blob that is one straight run of touching tiles (on the red mat, a column of thick tiles laid side
    by side, each showing its side below its face) cut in equal parts along its length, one per tile side: their
    seams are fainter than the line between a tile's face and its side, so the watershed of ``_split`` parts them
    there, or into regions of a tile and a half, tilted. The run is one tile wide (``RUN_ACROSS``) and a whole
    number of tile sides long (``RUN_STEP``), along the photo's axes (``RUN_TILT``); nothing for a blob of another
    shape, or a run of fewer than three."""
    points = cv2.findNonZero(blob)
    if points is None:
        return []
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    if len(points) < RUN_FILL * w * h:
        return []
    axis = _long_axis(w, h, angle)
    if min(abs(axis[0]), abs(axis[1])) > np.sin(np.deg2rad(RUN_TILT)):
        return []
    length, across = max(w, h), min(w, h)
    short, long = np.sqrt(tile_area * TILE_W_MM / TILE_H_MM), np.sqrt(tile_area * TILE_H_MM / TILE_W_MM)
    for side, width in ((long, short), (short, long)):  # along the run, and across it
        count = round(length / side)
        fits = RUN_ACROSS[0] <= across / width <= RUN_ACROSS[1] and abs(length / max(count, 1) / side - 1) <= RUN_STEP
        if fits and count >= 3:
            return [_oriented(rect) for rect in _equal_cuts(np.array([cx, cy]), axis, length, across, count)]
    return []


INK = 0.02
"""Share of a face's middle that is ink (darker than 0.7 of its body) below which a part shows no ink."""
FACE_INK = 0.15
"""Share of a face's middle that must be ink where only its place says a part is a tile (a block's cut, a grid's
proposed neighbour: ``_block``, ``_completed``): such tiles on the tuned series show a fifth of it at the least,
a table top's grain or a tray's rim and floor mostly less (a blank white dragon none: seams must part it)."""


MIDDLE = 0.35
"""Half a face's middle, in its sides, that ``ink_share`` measures: the face's border and the tile's rim left out."""


def ink_share(middle: np.ndarray) -> float:
    """The share of a face's middle (BGR) that is ink: darker, in its faintest channel, than 0.7 of its body (the
    90th percentile); 0 for an empty middle."""
    if not middle.size:
        return 0.0
    faint = middle.min(axis=2)
    return float(np.mean(faint < 0.7 * np.percentile(faint, 90)))


def crop_ink_share(crop: np.ndarray) -> float:
    """``ink_share`` of an upright face crop (``vision.features.warp_face``): its middle, as ``_inked`` takes a
    piece's."""
    height, width = crop.shape[:2]
    y, x = round(height * (0.5 - MIDDLE)), round(width * (0.5 - MIDDLE))
    return ink_share(crop[y : height - y, x : width - x])


def _inked(zone: np.ndarray, pieces: list[Piece], share: float = INK) -> bool:
    """Whether every piece shows some ink (``share`` of the middle of its face, ``ink_share``: taken of the middle
    alone, so that a block of a thousand parts costs a thousand middles, not a thousand photos)."""
    for centre, long_side, short_side, sideways, _ in pieces:
        half = np.array([long_side, short_side] if sideways else [short_side, long_side]) * MIDDLE
        x0, y0 = np.maximum(np.round(centre - half).astype(int), 0)
        x1, y1 = np.round(centre + half).astype(int)
        if x1 <= x0 or y1 <= y0 or ink_share(zone[y0:y1, x0:x1]) < share:
            return False
    return True


EDGE = 8
"""Zone px (mm) from the photo's edge within which a piece runs off it: its rectangle is the region's, a little
inside, and a strip of table top along a slanted edge (a photo seen off overhead) is parted a few px from it. Seen 10
and 20 degrees off overhead, the trays' false tiles 75 and 121 at 3 px, 44 and 83 at 8 px (at 20 degrees 12 px the
same), their tiles found 3274 and 3258 at 3 px, 3272 and 3259 at 8; overhead the same tiles found, one false fewer."""


def _view(zone: np.ndarray) -> np.ndarray:
    """The pixels of a photo the camera saw, less ``EDGE`` px: not the black a warp fills in beyond the photo's
    edges (pure black joined to the image's border: the photo taken through ``size_warp``, or a photo rectified
    before it was given). Without it a photo seen off overhead has edges across the image that no rule knew of,
    and its table top running off them passed as tiles (issue 29: 122 of the 146 false tiles of the trays held out,
    seen 10 degrees off overhead, lay within half a tile of them)."""
    outside = cv2.copyMakeBorder(np.all(zone == 0, axis=2).astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
    _, labels = cv2.connectedComponents(outside, connectivity=4)
    seen = (labels != labels[0, 0]).astype(np.uint8)  # the 1 px frame joins all black touching the border into one
    return cv2.erode(seen, np.ones((2 * EDGE + 1, 2 * EDGE + 1), np.uint8))[1:-1, 1:-1]


def _blank_at_edge(zone: np.ndarray, view: np.ndarray, piece: Piece) -> bool:
    """Whether a piece found in a photo runs off the photo's edge (out of ``view``, ``_view``) and shows no ink: a
    table top of tile colour running off the photo, parted where it narrows, rather than a tile (a blank white
    dragon lies whole inside the photo, a tile cut by the edge shows its face)."""
    height, width = view.shape
    corners = np.clip(np.round(_corners(piece)).astype(int), 0, [width - 1, height - 1])  # the clipped are out of view
    return not view[corners[:, 1], corners[:, 0]].all() and not _inked(zone, [piece])


DIM = 0.6
"""Off the mat (a photo), a piece's body (the 75th percentile of its tile-coloured pixels' brightness) must reach this
share of the photo's tile-coloured brightness (its 90th percentile): the floor ``MIN_BRIGHTNESS`` lets grey things
(a table's slots and fittings, a tray's shadowed floor) pass as tile body, which a photo's tiles, lit as the photo
is, outshine. The true tiles of the tuned series (trays, green mat) reach about 0.7 of it at the least (their
shadowed ones), the grey things a third to two thirds."""


def _dim(value: np.ndarray, mask: np.ndarray, floor: float, piece: Piece) -> bool:
    """Whether a piece's tile-coloured body is darker than ``floor`` (``DIM``)."""
    return _body(value, mask, piece) < floor


def _body(value: np.ndarray, mask: np.ndarray, piece: Piece) -> float:
    """The brightness of a piece's tile-coloured body: the 75th percentile of ``value`` on ``mask`` (0 if none)."""
    box, inside = _within(_corners(piece), value.shape)
    body = value[box][inside & (mask[box] > 0)]
    return float(np.percentile(body, 75)) if body.size else 0.0


def _within(corners: np.ndarray, shape: tuple[int, ...]) -> tuple[tuple[slice, slice], np.ndarray]:
    """The box (slices) around a face's corners inside an image of ``shape``, and which of its pixels the face
    covers."""
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    inside = np.zeros((max(y1 - y0, 0), max(x1 - x0, 0)), np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners - (x0, y0)).astype(np.int32), 1)
    return (slice(y0, y1), slice(x0, x1)), inside[: shape[0] - y0, : shape[1] - x0] > 0


def _moved(piece: Piece, x: float, y: float) -> Piece:
    """A piece found in a region of interest, in the coordinates of the image the region starts at (x, y) in."""
    centre, long_side, short_side, sideways, tilt = piece
    return centre + np.array([x, y]), long_side, short_side, sideways, tilt


def _quad(centre: np.ndarray, up: np.ndarray, long_side: float, short_side: float, tilt: float = 0.0) -> np.ndarray:
    """Corners of a face, top-left first and clockwise, whose top is towards ``up`` turned by ``tilt``."""
    cos, sin = np.cos(tilt), np.sin(tilt)
    up = np.array([cos * up[0] - sin * up[1], sin * up[0] + cos * up[1]])
    right = np.array([-up[1], up[0]])
    top, side = up * long_side / 2, right * short_side / 2
    return np.array([centre + top - side, centre + top + side, centre - top + side, centre - top - side])


def _up(sideways: bool) -> np.ndarray:
    """The direction a piece's top faces before its tilt: up the image, or left for a sideways tile."""
    return np.array([-1.0, 0.0]) if sideways else np.array([0.0, -1.0])


def _corners(piece: Piece) -> np.ndarray:
    """A piece's face corners (``_quad``)."""
    centre, long_side, short_side, sideways, tilt = piece
    return _quad(centre, _up(sideways), long_side, short_side, tilt)


def _axis(sideways: bool, tilt: float) -> np.ndarray:
    """The unit vector along a piece's long side, towards its top (``_up`` turned by ``tilt``)."""
    return _quad(np.zeros(2), _up(sideways), 2.0, 0.0, tilt)[0]


PAIR = 0.18
"""How far (a share) a piece's sides may be from a pair's, two of the photo's typical tiles side by side (twice its
short side by its long side), for ``_halved`` to part it: a single tile is a third off (its long side is 1.3 short
sides, not 2); the green mat's pairs, seen at a slant and in perspective, lie up to about a fifth off."""


def _halved(zone: np.ndarray, pieces: list[Piece]) -> list[Piece]:
    """A photo's pieces, each that is two tiles side by side parted into them: a pair of touching tiles no seam
    parted has about the area and proportions ``OFF_MAT_LARGEST`` lets pass as one tile, but sides twice the short
    and once the long side of the photo's median piece (``PAIR``); both halves must show ink."""
    if len(pieces) < 3:
        return pieces
    long_side, short_side = (float(np.median([piece[i] for piece in pieces])) for i in (1, 2))
    parted = []
    for piece in pieces:
        centre, length, width, sideways, tilt = piece
        if abs(length / (2 * short_side) - 1) < PAIR and abs(width / long_side - 1) < PAIR:
            along = _axis(sideways, tilt)
            halves = [(centre + sign * along * length / 4, width, length / 2, not sideways, tilt) for sign in (-1, 1)]
            if _inked(zone, halves):
                parted += halves
                continue
        parted.append(piece)
    return parted


FACE_LIT = 0.9
"""Share of a piece's typical body brightness (the median along it) below which a line across it, at its ends, is
a tile's side rather than its face (``_faced``)."""
FACE_TRIM = 0.25
"""Share of a piece's side that ``_faced`` may trim off at each end: a thick tile's side seen at a slant is at most
about a quarter of its face."""


def _faced(value: np.ndarray, piece: Piece) -> Piece:
    """A photo's piece cut down to its tile's face: a thick tile seen at a slant shows a side next to its face, shaded
    and of tile colour, so its region (a whole body) runs past the face that the photo's tile size and its labels
    measure. Along each axis the lines across the piece's middle whose brightest body (the 90th percentile: ink does
    not cross a face) is below ``FACE_LIT`` of the piece's typical one are trimmed off its ends (``FACE_TRIM``)."""
    centre, long_side, short_side, sideways, tilt = piece
    up = _axis(sideways, tilt)
    right = np.array([-up[1], up[0]])
    trims = []
    for axis, normal, side, across in ((up, right, long_side, short_side), (right, up, short_side, long_side)):
        along = np.arange(-side / 2 + 0.5, side / 2)
        band = _across(centre + along[:, None] * axis, normal, across, value.shape)
        profile = np.percentile(value[band], 90, axis=1)
        lit = profile >= FACE_LIT * np.median(profile)  # the median line is lit: argmax finds a lit line each way
        most = int(FACE_TRIM * len(along))
        trims.append((min(int(np.argmax(lit)), most), min(int(np.argmax(lit[::-1])), most)))
    (bottom, top), (left, right_end) = trims
    centre = centre + up * (bottom - top) / 2 + right * (left - right_end) / 2
    return centre, long_side - bottom - top, short_side - left - right_end, sideways, tilt


LATTICE_STEP = 1.03
"""A tile's side plus the gap to its neighbour, in tile sides, where no found neighbour measures it: the median
centre-to-centre step of the touching tiles found on the green mat's grids."""
LATTICE_NEAR = 0.3
"""Share of a piece's short side within which a found piece stands where a neighbour would (its neighbour)."""
LATTICE_OVERLAP = 0.15
"""Share of a tile's area a proposed neighbour may overlap a found piece by."""
LATTICE_COVER = 0.7
"""Share of a proposed neighbour's rectangle that must be tile body (``tile_mask``): less than all of it, as a grid
seen at a slant has smaller tiles further off than the one grown from, whose size the neighbour takes."""
LATTICE_SHADE = 0.75
"""Share of the brightness of the tile it grows from that a proposed neighbour's body (and the band between them,
``_joined``) must reach where that is below the photo's floor (``DIM``): a shadow across a grid darkens it
gradually, tile by tile, and a tile next to one found in it is a tile in it too."""
LATTICE_SEAM = 5
"""Zone px (mm) between a piece and its proposed neighbour that may be no bright tile body (``_joined``): a seam
between touching tiles, or a narrow gap of mat, is that thin; a tray's dark rim between its tiles and a table top
of tile colour beyond it is wider."""


def _completed(zone: np.ndarray, mask: np.ndarray, value: np.ndarray, floor: float, pieces: list[Piece]) -> list[Piece]:
    """Tiles of a photo's grids and rows that no seam parted, proposed from the tiles found (lattice completion):
    touching tiles share an orientation and a spacing, so each found piece's four neighbours along its own axes
    (one step on: the step to the found neighbour on the other side, or ``LATTICE_STEP``), of its size, are tiles
    where they lie inside the photo, overlap no piece (``LATTICE_OVERLAP``), lie on tile body (``LATTICE_COVER``)
    joined to the piece (``_joined``), show a face's ink (``FACE_INK``) and are not dim (``DIM``, or
    ``LATTICE_SHADE`` in a shadow); each accepted one proposes its own. The mat is no tile body; a table top of
    tile colour shows too little ink, and lies beyond a tray's dark rim."""
    height, width = mask.shape[:2]
    placed = list(pieces)
    queue = list(range(len(placed)))
    while queue:
        parent = placed[queue.pop(0)]
        centre, long_side, short_side, sideways, tilt = parent
        shaded = min(floor, LATTICE_SHADE * _body(value, mask, parent))
        up = _axis(sideways, tilt)
        right = np.array([-up[1], up[0]])
        for axis, side, across in (
            (up, long_side, short_side),
            (-up, long_side, short_side),
            (right, short_side, long_side),
            (-right, short_side, long_side),
        ):
            ahead, behind = (_near(placed, centre + sign * axis * side * LATTICE_STEP, short_side) for sign in (1, -1))
            if ahead is not None:
                continue
            step = centre - placed[behind][0] if behind is not None else axis * side * LATTICE_STEP
            proposal = (centre + step, long_side, short_side, sideways, tilt)
            corners = _corners(proposal)
            if (
                not _joined(mask, value, shaded, centre, proposal[0], across)
                or np.any(corners < 0)
                or np.any(corners > [width - 1, height - 1])
                or _overlaps(corners, placed, long_side * short_side)
                or _cover(mask, corners) < LATTICE_COVER
                or not _inked(zone, [proposal], FACE_INK)
                or _dim(value, mask, shaded, proposal)
            ):
                continue
            placed.append(proposal)
            queue.append(len(placed) - 1)
    return placed[len(pieces) :]


def _joined(
    mask: np.ndarray, value: np.ndarray, floor: float, start: np.ndarray, end: np.ndarray, across: float
) -> bool:
    """Whether the band from a piece's centre ``start`` to its proposed neighbour's ``end``, ``across`` px wide (a
    tile's side), crosses no dark line longer than ``LATTICE_SEAM``: along the band, the brightest tile body across
    its middle (ink does not cross a whole face, a dark rim does) is below ``floor``."""
    count = max(2, int(np.ceil(np.hypot(*(end - start)))) + 1)
    normal = np.array([start[1] - end[1], end[0] - start[0]]) / max(count - 1, 1)
    band = _across(np.linspace(start, end, count), normal, across, mask.shape)
    body = np.any((mask[band] > 0) & (value[band] >= floor), axis=1)
    runs = np.diff(np.flatnonzero(np.concatenate(([True], body, [True])))) - 1
    return int(runs.max()) <= LATTICE_SEAM


def _near(pieces: list[Piece], point: np.ndarray, short_side: float) -> int | None:
    """The index of a piece centred near ``point`` (``LATTICE_NEAR``), if any."""
    for index, piece in enumerate(pieces):
        if np.hypot(*(piece[0] - point)) < LATTICE_NEAR * short_side:
            return index
    return None


def _overlaps(corners: np.ndarray, pieces: list[Piece], area: float) -> bool:
    """Whether a face's corners overlap any piece by more than ``LATTICE_OVERLAP`` of ``area``."""
    quad = corners.astype(np.float32)
    for piece in pieces:
        if np.hypot(*(piece[0] - corners.mean(axis=0))) > piece[1] + np.sqrt(area):
            continue
        other = _corners(piece).astype(np.float32)
        if cv2.intersectConvexConvex(quad, other)[0] > LATTICE_OVERLAP * area:
            return True
    return False


def _cover(mask: np.ndarray, corners: np.ndarray) -> float:
    """Share of the face with these corners that is tile body in ``mask``."""
    box, inside = _within(corners, mask.shape)
    body = mask[box][inside]
    return float(np.count_nonzero(body)) / max(body.size, 1)


@dataclass(frozen=True)
class Detection:
    """The tiles found in a zone, and the area (zone px) of tile-coloured blobs that are not tiles: a hand in warm
    light can look like tile body, but not like tiles."""

    tiles: list[Found]
    stray: float
    warp: np.ndarray | None = None
    """The homography that gave a photo's tiles one size before they were found (``find_in_photo``), if any."""


def find_tiles(
    zone: np.ndarray,
    ppm: float,
    to_image: np.ndarray | None = None,
    mask: np.ndarray | None = None,
    on_mat: bool = True,
) -> Detection:
    """Tiles in a zone's rectified image (``ppm`` px per mm). ``to_image`` maps zone pixels to the camera image
    so that crops come straight from the full-resolution frame; None means the zone image itself. ``mask`` is
    the zone's ``tile_mask`` if the caller has it already. ``on_mat``: the zone shows the table's mat around the
    tiles (a calibrated zone), rather than any surroundings (a photo); see ``_pieces`` and ``DIM``, and for a
    photo's grids ``_halved`` and ``_completed``, and its thick tiles' faces ``_faced``."""
    mask = tile_mask(zone) if mask is None else mask
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    tile_area = TILE_W_MM * TILE_H_MM * ppm * ppm
    if not on_mat:  # a photo: the floor on a piece's body (``DIM``)
        value = cv2.cvtColor(zone, cv2.COLOR_BGR2HSV)[..., 2]
        floor = DIM * float(np.percentile(value[mask > 0], 90)) if cv2.countNonZero(mask) else 0.0
        view = _view(zone)
    kept: list[Piece] = []
    stray = 0.0
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < 0.3 * tile_area:
            continue
        pieces, unexplained = _pieces(zone, contour, tile_area, on_mat) if area >= 0.6 * tile_area else ([], area)
        if not on_mat:
            pieces = [p for p in pieces if not _blank_at_edge(zone, view, p) and not _dim(value, mask, floor, p)]
        stray += unexplained
        kept += pieces
    cut: set[int] = set()
    if not on_mat:
        kept = _halved(zone, kept)
        kept += _completed(zone, mask, value, floor, kept)
        cut = _cut(kept)
        kept = [_faced(value, piece) for piece in kept]
    found = []
    for index, piece in enumerate(kept):
        quad = _corners(piece) if to_image is None else apply(to_image, _corners(piece))
        centre, sideways = piece[0], piece[3]
        found.append(Found(quad, (float(centre[0]), float(centre[1])), sideways, index not in cut))
    return Detection(found, stray)


def _cut(pieces: list[Piece]) -> set[int]:
    """The indices of pieces cut to the size given rather than measured: a run's or a block's equal parts, a pair's
    halves and a grid's proposed neighbours (with the tile they copy) share their sides exactly with another piece;
    a region's rotated rectangle all but never does."""
    sizes: dict[tuple[float, float], list[int]] = {}
    for index, piece in enumerate(pieces):
        sizes.setdefault((round(piece[1], 6), round(piece[2], 6)), []).append(index)
    return {index for indices in sizes.values() if len(indices) > 1 for index in indices}


def face_crop(image: np.ndarray) -> np.ndarray:
    """The upright (or upside-down) crop of the one tile in a roughly cropped photo: the rotated rectangle around
    the tile-like blobs if they cover a plausible share of the picture, else the whole picture (a tight crop has no
    mat around the tile to segment against)."""
    h, w = image.shape[:2]
    contours, _ = cv2.findContours(tile_mask(image), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    pieces = [contour for contour in contours if cv2.contourArea(contour) > 0.01 * w * h]
    if not pieces:
        return warp_face(image, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(np.vstack(pieces))
    if not 0.15 * w * h < rw * rh < 0.92 * w * h:
        return warp_face(image, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    theta = np.deg2rad(angle)
    axis = np.array([-np.sin(theta), np.cos(theta)]) if rh >= rw else np.array([np.cos(theta), np.sin(theta)])
    return warp_face(image, _quad(np.array([cx, cy]), axis if axis[1] < 0 else -axis, max(rw, rh), min(rw, rh)))


def find_in_photo(
    image: np.ndarray,
    tile_w: float,
    tile_h: float | None = None,
    per_place: bool = True,
    warp: np.ndarray | None = None,
) -> Detection:
    """Tiles in a whole photo whose upright tile face measures ``tile_w`` x ``tile_h`` px (default: a 3:4 face, square
    pixels), as the table finds them in a zone: the photo is scaled to the zones' 1 px per mm, face corners are given
    in the photo's own pixels. A photo seen off overhead has smaller tiles on its far side than the size given:
    ``warp`` (a homography of the photo, ``size_warp``: the size given is the one where it keeps the scale) evens
    them out first; without it, ``per_place`` fits one on the tiles found at the one size given and finds them again
    where their size changes enough across the photo to need it."""
    tile_h = tile_w * TILE_H_MM / TILE_W_MM if tile_h is None else tile_h
    if warp is None and per_place:
        first = _found_in_photo(image, tile_w, tile_h, None)
        warp = size_warp([tile.quad for tile in first.tiles if tile.measured], image.shape)
        if warp is None:
            return first
    return _found_in_photo(image, tile_w, tile_h, warp)


def _found_in_photo(image: np.ndarray, tile_w: float, tile_h: float, warp: np.ndarray | None) -> Detection:
    """``find_in_photo`` at one size, the photo first taken through ``warp`` if given (tiles of one size there)."""
    fx, fy = TILE_W_MM / tile_w, TILE_H_MM / tile_h
    size = (max(1, round(image.shape[1] * fx)), max(1, round(image.shape[0] * fy)))
    work = cv2.resize(image, size, interpolation=cv2.INTER_AREA if fx * fy < 1 else cv2.INTER_LINEAR)
    to_image = np.diag([image.shape[1] / size[0], image.shape[0] / size[1], 1.0])
    if warp is not None:  # the scaled photo taken through the warp: its scale is about one at the reference
        scaled = np.linalg.inv(to_image) @ warp @ to_image
        corners = apply(scaled, np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], np.float64))
        low, high = corners.min(axis=0), np.ceil(corners.max(axis=0))
        scaled = np.array([[1, 0, -low[0]], [0, 1, -low[1]], [0, 0, 1]]) @ scaled
        shape = (int(high[0] - low[0]), int(high[1] - low[1]))
        work = cv2.warpPerspective(work, scaled, shape, flags=cv2.INTER_LINEAR)
        to_image = to_image @ np.linalg.inv(scaled)
    return replace(find_tiles(work, 1.0, to_image, on_mat=False), warp=warp)


PLACE_TILES = 8
"""Tiles a photo must show for ``size_warp`` to fit their sizes per place."""
PLACE_CHANGE = 0.1
"""Least change of the fitted tile side across the tiles (a share) for ``size_warp`` to warp: at 0 degrees the
fitted change is noise (bodies, stacks and cuts of different sizes); 10 degrees off overhead makes about 0.13."""
PLACE_TRIM = 2.5
"""Robust deviations of a tile's size from the fit beyond which it is left out of the fit (two tiles found as one)."""


def size_warp(quads: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray | None:
    """The homography that gives a photo's tiles one size, fitted on tiles found in it (face corners, 4 x 2 px each),
    or None where they are about one size already (``PLACE_CHANGE``) or too few (``PLACE_TILES``). A flat table seen
    in perspective has tiles whose area's cube root is linear in the image's x and y (the homography's denominator
    w); fitted robustly (``PLACE_TRIM``), the warp (x, y) -> ((x, y) - c) / w keeps the size at the tiles' middle c
    (the size given) and evens out the rest. Any bias of the tiles found (bodies larger than faces) cancels in the
    ratio."""
    if len(quads) < PLACE_TILES:
        return None
    centres = np.array([quad.mean(axis=0) for quad in quads])
    sides = np.cbrt(np.array([cv2.contourArea(quad.astype(np.float32)) for quad in quads]))
    middle = np.median(centres, axis=0)
    design = np.hstack([np.ones((len(quads), 1)), centres - middle])
    inliers = np.ones(len(quads), bool)
    for _ in range(3):
        coefficients = np.linalg.lstsq(design[inliers], sides[inliers], rcond=None)[0]
        residuals = sides - design @ coefficients
        spread = max(1.4826 * float(np.median(np.abs(residuals[inliers]))), 0.02 * coefficients[0])
        inliers = np.abs(residuals) <= PLACE_TRIM * spread
        if inliers.sum() < PLACE_TILES:
            return None
    slope = coefficients[1:] / coefficients[0]
    height, width = shape[:2]
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64) - middle
    if np.ptp(centres[inliers] @ slope) < PLACE_CHANGE or (1 + corners @ slope).min() < 0.5:
        return None
    return np.array([[1, 0, -middle[0]], [0, 1, -middle[1]], [*slope, 1 - slope @ middle]])
