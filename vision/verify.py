"""Whether a detection is a tile: the reader's own check on the detector's proposals in a photo.

The detector finds tile-coloured blobs of a tile's size; on a photo of a table it never saw, some of what it
reports is not a tile, and most of that (issue 29: 36 of the 42 false tiles of the red mat) is a tile cut in the
wrong place, half of it and half of its neighbour, in a column of thick tiles laid end to end. The reader's network
embeds every proposal to read it anyway, so the check costs a dot product: a logistic regression on the embedding
and the reader's own similarities (best face, best "no tile" template), fitted on the detector's proposals of
labelled photos (those that match a labelled tile are tiles, the others are not) and on crops where no tile is
whole (``off_tiles``). ``TileCheck.level`` keeps ``KEEP`` of the fitting photos' tiles.

``refine`` uses it on a photo's proposals (``find_checked``: the detector's at the given tile size, and at 8% less
and more where they show a face's ink, kept where the check is surer of them): a sure one stays; an unsure one is
moved a quarter or half a side along either axis to where the check is surest (onto the tile it was cut across), or
dropped; then the sure tiles'
neighbours a side away (``STEPS``) are proposed and kept where they show a face's ink (``vision.detect.FACE_INK``) and
no dark band parts them from their tile (``_joined``), as the detector's own grid completion asks (beside and beyond
a tray's row of tiles its blank wood is proposed there, and a check that never saw that table can be sure of it),
and the check is as sure as for most tiles (``NEIGHBOUR_KEEP``: a missed tile of a grid); overlapping tiles keep
the surest, a sure neighbour displacing an unsure proposal (a grid of touching faces that the detector cut in the
wrong places: seen off overhead, a hand's near-square faces touch and the detector cuts them in pairs and across).
Last, a place between two found tiles two steps apart in a row is a tile at the check's ordinary level (``_between``):
a tile missed in a column of touching tiles has found tiles either side, a neighbour beyond a row's end has not; and
an unsure tile far more coloured than the sure ones (``_grey``: a wooden table top) or far smaller than the others
(``_of_a_size``) is dropped. Where ``find_checked`` searches a photo twice (at the size given, and at the sizes the
check sees), the tiles of both searches are merged (``_merged``). Then a second-rank proposal the check was unsure
of but finds likelier than an unsure tile it overlaps, and no smaller, takes its place (``_pieces_replaced``: the
tile was a piece of that face); where no tile was found, such a proposal the check finds more likely a tile than not
is one (``_filled``); last, a tile lying a fifth to under half a side off the line its neighbours make is moved into
it where the check keeps it there (``_in_line``), and each line of tiles is continued at the pitch two of its tiles
give (``_continued``: a block cut at a wrong pitch leaves boxes larger than their faces), a place moved across the line
onto the face its middle lies on where the check is surer of it there (``_onto_face``: a line that bends).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision import scenes
from vision.detect import FACE_INK, Detection, crop_ink_share, find_in_photo, size_warp
from vision.errors import LabelsError
from vision.features import warp_face
from vision.geometry import TILE_H_MM, TILE_W_MM
from vision.scenes import Box
from vision.tilt import tilted

if TYPE_CHECKING:
    from vision.classify import Model

KEEP = 0.995
"""Share of the fitting photos' tiles the check's level keeps: a tile dropped is a tile not seen."""
NEIGHBOUR_KEEP = 0.9
"""Share of the fitting photos' tiles its stricter level for a proposed neighbour keeps: a neighbour is proposed
where most often there is none (beyond a row's end), so it must look like a tile more than most tiles do."""
PENALTY = 1.0
"""L2 penalty on the weights (the features are unit-scaled), against the few hundred proposals that are not tiles."""
FILE = "tilecheck.npz"
SHIFT = 0.5
"""Tile sides a labelled tile's box is moved onto its neighbour or the mat to make a crop that is no tile."""
CLEAR = 0.05
"""Largest IoU with any labelled box of a background crop (mat, rack, hand, the table's edge)."""
OFF_TILES = 16
"""Crops where no tile is whole taken of each fitting photo (``off_tiles``), besides the detector's false tiles."""
OFF_SIZE = 0.1
"""The fitting photos' tile size is given off by a factor in [1 - OFF_SIZE, 1 + OFF_SIZE] (``fitting_factors``): a
calibration is never exact, and the detector's proposals differ with it."""
MOVES = tuple((a, 0.0) for a in (-0.5, -0.25, 0.25, 0.5)) + tuple((0.0, b) for b in (-0.5, -0.25, 0.25, 0.5))
"""Moves of an unsure proposal tried, in its own sides (along its width, along its height)."""
STEPS = (1.0, 1.1)
"""Distances, in a found tile's own sides, at which its neighbours are proposed: the next face lies a face away, or
a face and the gap between two faces (a tile's rim and the space between tiles, a tenth of a face or so on the red
mat); overlapping proposals keep the surer. Issue 29, the red mat held out, seen 20 degrees off overhead at the given
size: 0.833 found / 0.070 false a face away only, 0.874 / 0.061 at these two, 0.864 / 0.068 with 1.2 as well."""
NEIGHBOURS = tuple((step * a, step * b) for step in STEPS for a, b in ((-1, 0), (1, 0), (0, -1), (0, 1)))
ROUNDS = 3
"""Rounds of proposing the neighbours of the tiles found (each round the new tiles' neighbours)."""
OVERLAP = 0.3
"""IoU of two tiles' boxes above which they are the same tile: the surer is kept."""
TURNED = 1.1
"""Ratio of a box's long side to its short side from which it is turned one way (wider than tall, or taller than
wide), not square (``_turned_against``)."""
DARK = 0.4
"""Share of a found tile's own brightness under which the way to a proposed neighbour is dark (``_joined``)."""
SEAM = 0.1
"""Longest dark stretch, in shares of the way from a found tile to its proposed neighbour, that the way may cross
(``_joined``): the seam between two faces, not a tray's black rim. Issue 29, every proposed neighbour the check was
sure of, each series held out (the way then measured at every px of it): at these levels none of 393 on a red mat
tile (20 degrees off overhead, the given size), 359 (10 degrees), 54 on a hand's (10 degrees) and 68 on a tray's (20
degrees, given 10% off) is refused, and 6 of 24 on no tile there (the table top beyond a tray's rim); a dark share
of 0.5 refuses 2 of the red mat's. On the whole way, not its middle (``WAY``), a red mat tile's neighbour above it
was refused at 10 degrees (IMG_2742: its black character crosses the middle half of its face)."""
GAP = (1.8, 2.4)
"""Distances, in a tile's own sides, between the centres of two found tiles with one missed between them
(``_between``): two steps (``STEPS``)."""
ASIDE = 0.25
"""Largest offset across, in a tile's other side, of two tiles in one row (``_between``)."""
SAME_SIZE = 0.15
"""Largest relative difference of two tiles' sides for them to be of one size (``_between``)."""
WHITE = 0.6
"""Share of the less white of its two tiles' whiteness (``_whiteness``) a place between them must have
(``_between``)."""
GROUND = 75
"""Percentile of a crop's darkest channels that ``_whiteness`` reads: a face's ground, not its ink, where the ink
covers up to three quarters of it. The median read a nine-dot face's circles (IMG_2747: 82 against its sparse
neighbour's 191), and a line was not continued over it (issue 29, each series held out, the red mat seen 20 degrees
off overhead at the given size 0.958 found / 0.034 false -> 0.967 / 0.031, given 10% off 0.971 -> 0.975 found; the
other cells within a tile, none worse; the 90th percentile the same)."""
BETWEEN_SCALES = (0.93, 1.0)
"""Sizes (shares of its tiles') a place between two tiles is tried at (``_between``): the tiles found either side
may be cut a little large (IMG_2786: 96 px wide for 82)."""
BETWEEN_MOVES = ((0.0, 0.0), (-0.1, 0.0), (0.1, 0.0), (0.0, -0.1), (0.0, 0.1))
"""Moves (in its own sides) a place between two tiles (``_between``) or continuing a line (``_continued``) is tried
at (``_best_moved``): it lies there give or take a tile's rim, and a line's boxes may be cut a little off their
faces."""
COLOURED = 12.0
"""How much more coloured (the median of a crop's chroma, CIELAB a* b*, 0-255 scaled) than the photo's sure tiles an
unsure tile may be (``_grey``)."""
GREY_FROM = 3
"""Sure tiles needed to tell the colour of a photo's faces."""
SMALL = 0.5
"""Share of the median area of a photo's tiles under which a kept tile is no tile (``_of_a_size``)."""
SIZED_FROM = 8
"""Tiles kept in a photo from which their median area tells a tile's (``_of_a_size``)."""
WAY = 0.25
"""Share of the way at either end, on the two faces, that ``_joined`` measures no dark band on."""
SAMPLES = 65
"""Points measured along the way from a found tile to its proposed neighbour (``_joined``): 1-2 px apart."""


def features(model: Model, crops: list[np.ndarray]) -> np.ndarray:
    """One row per crop: its embedding (the first view), its best face similarity and its best "no tile"
    similarity."""
    if not crops:
        return np.zeros((0, 0), np.float32)
    rows, turned = model.embed(crops)
    scores, _, nothing = model.scores(rows, turned)
    return np.hstack([rows[:, 0], scores.max(axis=1)[:, None], nothing[:, None]]).astype(np.float32)


def _probabilities(model: Model, check: TileCheck, image: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
    """The check's probability of each quad's face crop being a tile."""
    if not quads:
        return np.zeros(0)
    return check.probability(features(model, [warp_face(image, quad) for quad in quads]))


@dataclass(frozen=True)
class TileCheck:
    """A logistic regression (``weights``, ``bias``) of "is a tile" on ``features``, the level it keeps a proposal
    at, and the stricter level it keeps a proposed neighbour at."""

    weights: np.ndarray
    bias: float
    level: float
    strict: float

    def probability(self, rows: np.ndarray) -> np.ndarray:
        if not len(rows):
            return np.zeros(0)
        return 1.0 / (1.0 + np.exp(-np.clip(rows @ self.weights + self.bias, -50, 50)))

    def keep(self, rows: np.ndarray) -> np.ndarray:
        """Whether each row is a tile."""
        return self.probability(rows) >= self.level

    def save(self, folder: Path) -> None:
        np.savez(
            folder / FILE,
            weights=self.weights.astype(np.float32),
            levels=np.array([self.bias, self.level, self.strict], np.float64),
        )

    @classmethod
    def load(cls, folder: Path) -> TileCheck | None:
        path = folder / FILE
        if not path.is_file():
            return None
        with np.load(path) as data:
            bias, level, strict = (float(value) for value in data["levels"])
            return cls(data["weights"].astype(np.float32), bias, level, strict)


def fit(rows: np.ndarray, is_tile: np.ndarray, keep: float = KEEP, penalty: float = PENALTY) -> TileCheck:
    """The check fitted on proposals (``features`` rows, whether each is a tile): Newton's method on the
    class-balanced, L2-penalised log loss (deterministic); its levels keep ``keep`` and ``NEIGHBOUR_KEEP`` of the
    tiles."""
    x = np.hstack([rows.astype(np.float64), np.ones((len(rows), 1))])
    y = is_tile.astype(np.float64)
    positives = max(float(y.sum()), 1.0)
    negatives = max(float(len(y) - y.sum()), 1.0)
    weight = np.where(y > 0, 0.5 / positives, 0.5 / negatives)
    ridge = np.full(x.shape[1], penalty / max(len(y), 1))
    ridge[-1] = 0.0
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -50, 50)))
        gradient = x.T @ (weight * (p - y)) + ridge * beta
        hessian = (x * (weight * p * (1 - p))[:, None]).T @ x + np.diag(ridge + 1e-9)
        delta = np.linalg.solve(hessian, gradient)
        beta -= delta
        if np.abs(delta).max() < 1e-8:
            break
    check = TileCheck(beta[:-1].astype(np.float32), float(beta[-1]), 0.0, 0.0)
    tiles = check.probability(rows[is_tile])
    if not len(tiles):
        return TileCheck(check.weights, check.bias, 0.5, 0.5)
    level, strict = (float(np.quantile(tiles, 1.0 - share)) for share in (keep, NEIGHBOUR_KEEP))
    return TileCheck(check.weights, check.bias, level, max(strict, level))


def _quad(x: float, y: float, width: float, height: float) -> np.ndarray:
    return np.array([[x, y], [x + width, y], [x + width, y + height], [x, y + height]], np.float64)


def off_tiles(
    image: np.ndarray, labels: list[Box], size: tuple[float, float], rng: np.random.Generator, count: int
) -> list[np.ndarray]:
    """Up to ``count`` crops of a labelled photo where no tile is whole, half of each kind: a labelled tile's box
    moved ``SHIFT`` of a side along x or y (across a seam: half of it and half of its neighbour or the mat), and
    upright tile-sized boxes (``size``: w, h px) that overlap no label (``CLEAR``)."""
    height, width = image.shape[:2]
    w, h = size
    out = []
    if labels:
        for index in rng.permutation(len(labels))[: count // 2]:
            box = labels[int(index)]
            step = rng.choice([-1, 1]) * SHIFT
            dx, dy = (step * box.width, 0.0) if rng.integers(2) else (0.0, step * box.height)
            out.append(warp_face(image, _quad(box.x0 + dx, box.y0 + dy, box.width, box.height)))
    for _ in range(4 * (count - len(out))):
        if len(out) >= count or w >= width or h >= height:
            break
        x, y = float(rng.uniform(0, width - w)), float(rng.uniform(0, height - h))
        if all(Box(x, y, x + w, y + h).iou(label) < CLEAR for label in labels):
            out.append(warp_face(image, _quad(x, y, w, h)))
    return out


def box_of(quad: np.ndarray) -> Box:
    """The axis-aligned box around a face's corners."""
    return Box(*quad.min(axis=0), *quad.max(axis=0))


def _moved(quads: list[np.ndarray], moves: tuple[tuple[float, float], ...]) -> list[np.ndarray]:
    """Every quad moved by each (along its width, along its height) in its own sides."""
    return [quad + a * (quad[1] - quad[0]) + b * (quad[3] - quad[0]) for quad in quads for a, b in moves]


def _inside(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    return bool(quad.min() >= 0 and quad[:, 0].max() < shape[1] and quad[:, 1].max() < shape[0])


def _checked(
    model: Model,
    image: np.ndarray,
    quads: list[np.ndarray],
    check: TileCheck,
    level: float,
    spare: list[tuple[float, np.ndarray]] | None = None,
) -> list[tuple[float, np.ndarray]]:
    """The proposals the check keeps at ``level`` (probability, corners), an unsure one moved to where it is surest
    (``MOVES``); those under ``level`` but at ``EVEN`` and the check's own level or more are also added, unmoved, to
    ``spare`` where given."""
    if not quads:
        return []
    p = _probabilities(model, check, image, quads)
    found = [(float(p[i]), quads[i]) for i in range(len(quads)) if p[i] >= level]
    unsure = [quads[i] for i in range(len(quads)) if p[i] < level]
    if spare is not None:
        spare += [(float(p[i]), quads[i]) for i in range(len(quads)) if max(EVEN, check.level) <= p[i] < level]
    if unsure:
        moved = _moved(unsure, MOVES)
        scores = _probabilities(model, check, image, moved)
        for best in scores.reshape(len(unsure), len(MOVES)).argmax(axis=1) + np.arange(len(unsure)) * len(MOVES):
            if scores[best] >= level:
                found.append((float(scores[best]), moved[best]))
    return found


def _surest(pool: list[tuple[float, np.ndarray]]) -> list[tuple[float, np.ndarray]]:
    """The tiles of a pool of candidates (probability, corners), surest first, each kept unless a surer one overlaps
    it (``OVERLAP``)."""
    kept: list[tuple[float, np.ndarray]] = []
    boxes: list[Box] = []
    for probability, quad in sorted(pool, key=lambda item: -item[0]):
        box = box_of(quad)
        if _apart(box, boxes):
            kept.append((probability, quad))
            boxes.append(box)
    return kept


def _apart(box: Box, boxes: list[Box]) -> bool:
    """Whether a box overlaps none of these (``OVERLAP``)."""
    return all(box.iou(other) < OVERLAP for other in boxes)


def _way(box: Box) -> int:
    """1 for a box wider than tall by ``TURNED``, -1 for one taller than wide by it, 0 for one near square."""
    if box.width >= TURNED * box.height:
        return 1
    return -1 if box.height >= TURNED * box.width else 0


def _turned_against(box: Box, sure: list[Box]) -> bool:
    """Whether a box overlaps (``OVERLAP``) any of these sure tiles turned the other way: a tray's upright faces cut
    at another size as pieces lying across half a face, which a check that never saw that table can be surer of than
    of the whole face (issue 29: the trays seen 10 degrees off overhead, given the size 10% off, 0.988 found / 0.033
    false with every second-rank proposal, 0.994 / 0.025 with these left out)."""
    way = _way(box)
    return any(way * _way(other) < 0 and box.iou(other) >= OVERLAP for other in sure)


def _neighbours(
    model: Model, check: TileCheck, image: np.ndarray, tiles: list[np.ndarray], sure: list[np.ndarray]
) -> list[tuple[float, np.ndarray]]:
    """The neighbours (``NEIGHBOURS``) of these tiles that lie in the photo and clear of the sure tiles, are joined to
    their tile (``_joined``), show a face's ink (``FACE_INK``) and that the check is sure of (``TileCheck.strict``)."""
    boxes = [box_of(quad) for quad in sure]
    moved = _moved(tiles, NEIGHBOURS)
    clear = [i for i, quad in enumerate(moved) if _inside(quad, image.shape) and _apart(box_of(quad), boxes)]
    if not clear:
        return []
    parents = np.array([tiles[i // len(NEIGHBOURS)] for i in clear])
    joined = _joined(image, parents, np.array([moved[i] for i in clear]))
    near = [moved[i] for i, ok in zip(clear, joined, strict=True) if ok]
    crops = [warp_face(image, quad) for quad in near]
    inked = [i for i, crop in enumerate(crops) if crop_ink_share(crop) >= FACE_INK]
    if not inked:
        return []
    scores = check.probability(features(model, [crops[i] for i in inked]))
    return [(float(p), near[i]) for p, i in zip(scores, inked, strict=True) if p >= check.strict]


def _between(
    model: Model, check: TileCheck, image: np.ndarray, tiles: list[np.ndarray]
) -> list[tuple[float, np.ndarray]]:
    """The places midway between two found tiles (``_middles``) that are joined to both (``_joined``: not across a
    tray's rim), as white as the less white of them (``WHITE``: not the dark floor of a tray between two blocks of
    tiles, nor the red mat between two columns), show a face's ink and that the check keeps at its ordinary level,
    at the best of a few sizes and moves (``BETWEEN_SCALES``, ``BETWEEN_MOVES``): a tile missed between two found ones
    in a row (a column of touching tiles the detector cut in the wrong places) is a tile where a lone neighbour beyond
    a row's end is not."""
    middles = _middles(tiles, image.shape)
    if not middles:
        return []
    whites = {i: _whiteness(warp_face(image, tiles[i])) for pair in middles for i in pair[:2]}  # the pairs' tiles only
    places = np.array([place for _, _, place in middles])
    joined = _joined(image, np.array([tiles[i] for i, _, _ in middles]), places)
    joined &= _joined(image, np.array([tiles[j] for _, j, _ in middles]), places)
    kept = []
    for (i, j, place), ok in zip(middles, joined, strict=True):
        crop = warp_face(image, place)
        if ok and _whiteness(crop) >= WHITE * min(whites[i], whites[j]) and crop_ink_share(crop) >= FACE_INK:
            kept.append(place)
    if not kept:
        return []
    scaled = [_scaled(quad, share) for quad in kept for share in BETWEEN_SCALES]
    return [(p, quad) for p, quad in _best_moved(model, check, image, scaled, len(BETWEEN_SCALES)) if p >= check.level]


def _best_moved(
    model: Model, check: TileCheck, image: np.ndarray, quads: list[np.ndarray], per: int = 1
) -> list[tuple[float, np.ndarray]]:
    """Of each ``per`` quads (one place's trials) and their moves (``BETWEEN_MOVES``), the one the check is surest
    of: (probability, corners) per place."""
    trials = _moved(quads, BETWEEN_MOVES)
    scores = _probabilities(model, check, image, trials)
    per *= len(BETWEEN_MOVES)
    best = scores.reshape(len(trials) // per, per).argmax(axis=1) + np.arange(len(trials) // per) * per
    return [(float(scores[i]), trials[i]) for i in best]


def _middles(tiles: list[np.ndarray], shape: tuple[int, ...]) -> list[tuple[int, int, np.ndarray]]:
    """Each pair of tiles of one size (``SAME_SIZE``) whose centres lie two steps apart along a side of the first
    (``GAP``) and in line (``ASIDE``), with the place midway between them when it is in the photo and clear of every
    tile: (first's index, second's, place)."""
    boxes = [box_of(quad) for quad in tiles]
    centres = [quad.mean(axis=0) for quad in tiles]
    middles = []
    for i, a in enumerate(tiles):
        sides = (a[1] - a[0], a[3] - a[0])
        lengths = np.array([np.hypot(*side) for side in sides])
        for j in range(i + 1, len(tiles)):
            b = tiles[j]
            if not np.allclose([np.hypot(*(b[1] - b[0])), np.hypot(*(b[3] - b[0]))], lengths, rtol=SAME_SIZE):
                continue
            way = centres[j] - centres[i]
            for side, length, other in ((sides[0], *lengths), (sides[1], *lengths[::-1])):
                along = abs(float(way @ side)) / length
                aside = abs(float(side[0] * way[1] - side[1] * way[0])) / length
                if GAP[0] * length <= along <= GAP[1] * length and aside <= ASIDE * other:
                    place = a + way / 2  # a's corners moved: b's may start at another corner (a face turned)
                    if _inside(place, shape) and _apart(box_of(place), boxes):
                        middles.append((i, j, place))
    return middles


def _whiteness(crop: np.ndarray) -> float:
    """The ``GROUND`` percentile over a crop of each pixel's darkest channel: a face is white, a red mat is bright
    but not white."""
    return float(np.percentile(crop.min(axis=2), GROUND))


def _joined(image: np.ndarray, tiles: np.ndarray, near: np.ndarray) -> np.ndarray:
    """Whether the way from each found tile's centre to its proposed neighbour's (``tiles``, ``near``: n x 4 x 2
    corners) crosses no dark band longer than ``SEAM`` of it (``DARK``) where the two faces meet: beyond a tray's
    black rim lies the table top, grained and of a tile's colour, which a check that never saw it can be sure of.
    At ``SAMPLES`` points along the way, across the middle half of the tile's breadth, the brightest channel of the
    brightest pixel is measured against the tile's own (the first ``WAY`` of the way), on the middle of the way only
    (``WAY`` to ``1 - WAY``): a big black character can cross a face, and a rim lies where the faces meet (as the
    detector's lattice completion asks, ``vision.detect._joined``)."""
    start = tiles.mean(axis=1)
    way = near.mean(axis=1) - start
    normal = np.stack([-way[:, 1], way[:, 0]], axis=1) / np.maximum(np.hypot(way[:, 0], way[:, 1]), 1e-9)[:, None]
    breadth = np.abs(np.einsum("nkd,nd->nk", tiles - start[:, None], normal)).max(axis=1) / 2
    share = np.linspace(0.0, 1.0, SAMPLES)
    across = np.linspace(-1.0, 1.0, 9)[None, None, :, None] * (breadth[:, None, None, None] * normal[:, None, None, :])
    points = start[:, None, None, :] + share[None, :, None, None] * way[:, None, None, :] + across
    x = np.clip(np.rint(points[..., 0]).astype(int), 0, image.shape[1] - 1)
    y = np.clip(np.rint(points[..., 1]).astype(int), 0, image.shape[0] - 1)
    brightest = image[y, x].reshape(len(tiles), SAMPLES, -1).max(axis=2).astype(np.float64)
    own = np.median(brightest[:, share <= WAY], axis=1)
    dark = (brightest < DARK * own[:, None]) & (share >= WAY) & (share <= 1 - WAY)
    run = longest = np.zeros(len(tiles), int)
    for column in dark.T:
        run = (run + 1) * column
        longest = np.maximum(longest, run)
    return longest <= SEAM * (SAMPLES - 1)


def refine(
    model: Model,
    check: TileCheck,
    image: np.ndarray,
    quads: list[np.ndarray],
    more: list[np.ndarray] | None = None,
    spare: list[tuple[float, np.ndarray]] | None = None,
) -> list[np.ndarray]:
    """A photo's proposals (face corners, 4 x 2 px each) checked, moved and completed (see the module doc); ``more``
    are proposals of a second rank (the detector's at other tile sizes: ``find_checked``), kept as a neighbour is,
    where they show a face's ink (``FACE_INK``) and at the check's stricter level (a blank table top cut at another
    size is a white dragon's crop to the check, and the first rank finds a blank face at the size given), but for
    those over a sure tile of the first turned the other way (``_turned_against``). All compete in one pool, the
    surest kept first: a found tile's neighbour the check is sure of displaces a proposal it was unsure of (a grid
    of touching faces cut in the wrong places), and so does a proposal of the second rank (touching faces cut in
    pairs and across at the size given, whole at another). Issue 29, each series held out, the second rank tried
    where no tile of the first was only -> wherever it lies: the hands seen 20 degrees off overhead, given the size
    10% off, 0.878 found / 0.085 false -> 0.980 / 0.020; the red mat 10 degrees at the given size 0.971 / 0.031 ->
    0.975 / 0.025; its ink asked: the trays overhead 0.996 / 0.021 -> 0.997 / 0.015. Issue
    29, each series held out, seen 10 degrees off overhead at the given size: the red mat 0.889 found / 0.051 false
    -> 0.933 / 0.022, hands 0.857 / 0.160 -> 0.959 / 0.078 (when the first tiles kept blocked every neighbour over
    them). Splitting a proposal much longer for its width than the photo's typical one into two tiles, which helped
    the hands before, then cost the red mat seen 20 degrees off overhead 3 points found (0.902 without, 0.868 with,
    at the given size) for one false tile fewer on the hands (20 degrees, 10% off): left out.
    Last, the places between two kept tiles with one missed between them (``_between``); and an unsure tile far more
    coloured than the sure ones (``_grey``) or far smaller than the photo's others (``_of_a_size``) is dropped.
    ``spare``, where given, receives the second rank's proposals below the stricter level but at ``EVEN`` and the
    check's own level or more, unmoved, for ``_filled``."""
    pool = _checked(model, image, quads, check, check.level)
    if more:
        sure = [box_of(quad) for probability, quad in _surest(pool) if probability >= check.strict]
        inked = [quad for quad in more if crop_ink_share(warp_face(image, quad)) >= FACE_INK]
        more = [quad for quad in inked if not _turned_against(box_of(quad), sure)]
        pool += _checked(model, image, more, check, check.strict, spare)
    kept = _surest(pool)
    grown: set[int] = set()  # the pool's tiles (by identity) whose neighbours were proposed
    for _ in range(ROUNDS):
        new = [quad for _, quad in kept if id(quad) not in grown]
        if not new:
            break
        grown |= {id(quad) for quad in new}
        sure = [quad for probability, quad in kept if probability >= check.strict]
        pool += _neighbours(model, check, image, new, sure)
        kept = _surest(pool)
    pool += _between(model, check, image, [quad for _, quad in kept])
    return _of_a_size([quad for _, quad in _grey(image, _surest(pool), check.strict)])


def _grey(image: np.ndarray, tiles: list[tuple[float, np.ndarray]], strict: float) -> list[tuple[float, np.ndarray]]:
    """The tiles (probability, corners) but those the check is unsure of (below ``strict``) whose crop is more than
    ``COLOURED`` more coloured than the sure ones' (the median of each crop's chroma), when ``GREY_FROM`` are sure: a
    face is as grey as the photo's other faces in any light, a light wooden table top or a mat is not, and a check
    that never saw that table can be unsure of it rather than sure it is no tile (issue 29: the hands seen 10 degrees
    off overhead, light wood read 0.13-0.26 at a level of 0.03)."""
    sure = [probability >= strict for probability, _ in tiles]
    if sum(sure) < GREY_FROM:
        return tiles
    chroma = np.array([_chroma(warp_face(image, quad)) for _, quad in tiles])
    grey = float(np.median(chroma[np.array(sure)]))
    return [tile for tile, kept, colour in zip(tiles, sure, chroma, strict=True) if kept or colour - grey < COLOURED]


def _chroma(crop: np.ndarray) -> float:
    """The median over a crop of each pixel's chroma (CIELAB, a* and b* as OpenCV scales them to 0-255)."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    return float(np.median(np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)))


def _of_a_size(tiles: list[np.ndarray]) -> list[np.ndarray]:
    """The tiles but those smaller than ``SMALL`` of the median tile's area, when there are ``SIZED_FROM`` at least:
    the tile size is given within a tenth and a photo seen up to 20 degrees off overhead changes it by a fifth or
    so, so a piece of half a tile's area is a cut of one, or a strip of a tray's rim or of the table top below it."""
    if len(tiles) < SIZED_FROM:
        return tiles
    areas = np.array([abs(cv2.contourArea(quad.astype(np.float32))) for quad in tiles])
    return [quad for quad, area in zip(tiles, areas, strict=True) if area >= SMALL * np.median(areas)]


@dataclass(frozen=True)
class Proposed:
    """The detector's proposals on one labelled photo of ``shared/photos/scenes`` (its tile size given times
    ``factor``): their face corners and crops, which match a label (``vision.scenes.pairs``), the labels, and crops
    of the photo where no tile is whole (``off_tiles``)."""

    name: str
    factor: float
    labels: list[Box]
    quads: list[np.ndarray]
    crops: list[np.ndarray]
    matched: np.ndarray
    off: list[np.ndarray]

    @property
    def series(self) -> str:
        return scenes.series(self.name)


def read_photo(folder: Path, name: str, degrees: float = 0.0) -> tuple[np.ndarray, list[Box]]:
    """A labelled photo of ``folder`` (``images/``, ``labels/``) and its boxes, seen ``degrees`` off overhead
    (``vision.tilt``)."""
    image = cv2.imread(str(folder / "images" / name), cv2.IMREAD_COLOR)
    if image is None:
        raise LabelsError(f"{folder / 'images' / name}: not an image OpenCV can read")
    labels = scenes.read_boxes(folder / "labels" / f"{Path(name).stem}.txt", image.shape[1], image.shape[0])
    return tilted(image, labels, degrees) if degrees else (image, labels)


def propose(
    folder: Path, name: str, factor: float, rng: np.random.Generator, off: int = OFF_TILES, degrees: float = 0.0
) -> Proposed:
    """``find_in_photo`` on one labelled photo seen ``degrees`` off overhead, its tile size
    (``vision.scenes.tile_size``) times ``factor``."""
    image, labels = read_photo(folder, name, degrees)
    width, height = scenes.tile_size(labels)
    quads = [tile.quad for tile in find_in_photo(image, width * factor, height * factor).tiles]
    hits = scenes.pairs([box_of(quad) for quad in quads], labels)
    return Proposed(
        name,
        factor,
        labels,
        quads,
        [warp_face(image, quad) for quad in quads],
        np.array([index in hits for index in range(len(quads))], bool),
        off_tiles(image, labels, (width, height), rng, off),
    )


def fitting_factors(names: list[str], seed: int) -> dict[str, float]:
    """Each photo's tile size error (``OFF_SIZE``), drawn for a seed."""
    rng = np.random.default_rng(seed)
    return {name: float(rng.uniform(1 - OFF_SIZE, 1 + OFF_SIZE)) for name in names}


def fit_on(model: Model, photos: list[Proposed]) -> TileCheck:
    """The check fitted on these photos' proposals and crops where no tile is whole."""
    crops = [crop for photo in photos for crop in photo.crops + photo.off]
    is_tile = np.concatenate([np.r_[photo.matched, np.zeros(len(photo.off), bool)] for photo in photos])
    return fit(features(model, crops), is_tile)


def overhead_names() -> list[str]:
    """The overhead photos of ``shared/photos/scenes`` (``vision.scenes.read_views``), sorted."""
    return [name for name, view in sorted(scenes.read_views().items()) if view == "overhead"]


SIZES = (0.92, 1.08)
"""Other tile sizes (shares of the given one) the detector proposes at for ``find_checked``: a calibration is off by
a few per cent, and the detector's cuts of touching tiles (a column of thick tiles, a grid on the mat) move with
the size it is given."""


COVER = 0.5
"""Share of the smaller of two tiles of the two searches (``_merged``) lying in both above which they are one tile."""
EVEN = 0.5
"""Probability from which the check finds a proposal more likely a tile than not: its fit weighs tiles and what is
no tile alike (``fit``), so this is its even odds. A spare proposal (``_filled``) must reach it."""
FREE = 0.4
"""Largest share of a spare proposal's area the tiles found may cover where it is added (``_filled``): a tile's box
seen off overhead holds a strip of its side and of the mat, so its neighbours' boxes reach over it (issue 29, each
series held out, the red mat seen 20 degrees off overhead at the given size: 0.933 found / 0.035 false at 0.2,
0.937 / 0.034 at 0.3, 0.939 / 0.034 at 0.4; the trays and the green mat within a tile)."""
LINE_OFF = (0.2, 0.45)
"""Shares of its own side a found tile must lie off its neighbours' line (a column's across it, a row's) to be moved
into it (``_in_line``): less is a box a little larger or smaller than its neighbours (a tile lying the other way,
one seen in perspective), more is a tile of another line."""
LINE_SPREAD = 0.1
"""Largest spread of the neighbours' centres across their line, in the tile's side: they make one line."""
LINE_NEAR = (0.5, 1.3)
"""Distances (centre to centre, along the line, in the tile's side) at which a tile's neighbour in its line lies."""
LINE_ACROSS = 0.4
"""Least share of the narrower of a tile and a neighbour that both cover across the line: it is in that line."""
PITCH = (0.6, 1.4)
"""Distances (centre to centre along a side, in the first tile's box side) at which two tiles are neighbours in a
line whose pitch continues it (``_continued``): a touching tile one pitch on, whatever the tiles' boxes hold of
their sides."""
LINE_HOLD = 0.7
"""Share of its probability at its own place the check must keep for a tile moved into its neighbours' line: where
it drops far more, the tile lies off the line (a staggered grid, a tile pushed aside) and its first place was
right."""

SHORT = 0.7
"""Largest share of the band its neighbours in a line cover across it (``_bands``) that a tile's breadth across the
line may have for it to be a piece of a face, which ``_banded`` stretches to the band: the halves of a face cut
across between its dots are about half of their row's (IMG_2767 given 10% off 58 px of 115, IMG_2768 45 of 88); a
tile lying sideways in a row of upright ones is 3/4 of it (30 mm of 40), and a third longer along the row."""
PIECE_HELD = 0.8
"""Share of a smaller tile lying inside a tile stretched to its line's band (``_banded``) from which it is another
piece of that face."""
RUN = (0.8, 1.25)
"""A white run across a place continuing a line (``_onto_face``), as a share of the place's breadth, that is its face:
a column of thick tiles lying sideways bends a fifth of a face off its pitch (IMG_2747) and a place continuing it lies
half on the mat."""
BORDER = 0.1
"""Share of a place's breadth either side of its white run (``_onto_face``) that must be no face: a lone line lies on
the mat, and in a block of touching tiles the run reaches over the next line's faces."""
LARGE = 1.6
"""A place continuing a line (``_continued``) larger than this times the median tile is continuing two tiles cut as
one (IMG_2747: a box of 98 x 126 px in a column of 96 x 65), not a tile."""


PALE = 0.65
"""Share of the median whiteness (``_whiteness``) of a photo's sure tiles under which a tile the check is unsure of
is no face (``_as_white``): a grey plastic part of the table (IMG_2744), the black panel of the dice dial (IMG_2743).
Issue 29, each series held out, the red mat seen 20 degrees off overhead given 10% off: 0.979 / 0.031 -> 0.979 /
0.029, at the given size 0.031 -> 0.029 false; at 0.6 one false tile more, at 0.7 a tile of the given size's photos
lost."""


SCALES = (0.8, 0.87, 0.93, 1.0, 1.07, 1.15, 1.25)
"""Sizes (shares of the one it was found at) a kept tile is tried at about its centre for its own size
(``_sizes_seen``): a photo seen 20 degrees off overhead has tiles a fifth smaller or larger than the size given."""


def _sizes_seen(model: Model, check: TileCheck, image: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
    """Each tile at the size (``SCALES``) the check is surest of it at, where that is sure (``TileCheck.strict``): the
    photo's tiles measured by the reader. The detector measures a tile only where it stands apart from the others
    (on the red mat held out, seen 20 degrees off overhead, at most 10 of 13 to 54 tiles a photo, too few for
    ``size_warp``); the check's size of a tile is its face's."""
    trials = [_scaled(quad, share) for quad in quads for share in SCALES]
    inside = np.array([_inside(quad, image.shape) for quad in trials], bool)
    scores = np.full(len(trials), -1.0)
    if inside.any():
        crops = [warp_face(image, quad) for quad, keep in zip(trials, inside, strict=True) if keep]
        scores[inside] = check.probability(features(model, crops))
    best = scores.reshape(len(quads), len(SCALES)).argmax(axis=1) + np.arange(len(quads)) * len(SCALES)
    return [trials[i] for i in best if scores[i] >= check.strict]


def _scaled(quad: np.ndarray, share: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    return centre + share * (quad - centre)


def find_checked(
    model: Model, check: TileCheck, image: np.ndarray, tile_w: float, tile_h: float | None = None
) -> list[np.ndarray]:
    """The tiles of a photo whose upright face is about ``tile_w`` x ``tile_h`` px (default: a 3:4 face, square
    pixels): the detector's proposals at that size refined by the check (``refine``), with its proposals at the
    ``SIZES`` of it as a second rank. The tile size per place (a photo seen off overhead,
    ``vision.detect.size_warp``) is fitted at the size given on the tiles the detector measured and kept at the other
    sizes; where they are too few, it is fitted on the sizes the check sees of the tiles it kept
    (``_sizes_seen``), the photo is searched again through it, and the tiles of both searches are merged
    (``_merged``). Last, the second rank's spare proposals take the place of unsure pieces of their faces
    (``_pieces_replaced``) and fill the places where no tile was found (``_filled``), and the tiles off their
    neighbours' line are moved into it (``_in_line``), the lines are continued at their pitch (``_continued``), the
    pieces of faces cut across are stretched to their line's band (``_banded``), and the unsure tiles far less white
    than the sure ones are dropped (``_as_white``)."""
    tile_h = tile_w * TILE_H_MM / TILE_W_MM if tile_h is None else tile_h
    first = find_in_photo(image, tile_w, tile_h)
    spare: list[tuple[float, np.ndarray]] = []
    found = _refined(model, check, image, (tile_w, tile_h), first, spare)
    if first.warp is None:
        warp = size_warp(_sizes_seen(model, check, image, found), image.shape)
        if warp is not None:
            again = find_in_photo(image, tile_w, tile_h, warp=warp)
            found = _merged(model, check, image, found + _refined(model, check, image, (tile_w, tile_h), again, spare))
    tiles = _in_line(model, check, image, _filled(_pieces_replaced(model, check, image, found, spare), spare))
    return _as_white(model, check, image, _banded(model, check, image, _continued(model, check, image, tiles)))


def _pieces_replaced(
    model: Model, check: TileCheck, image: np.ndarray, tiles: list[np.ndarray], spare: list[tuple[float, np.ndarray]]
) -> list[np.ndarray]:
    """The tiles, those the check is unsure of (under its stricter level) replaced by a spare proposal (``refine``)
    it finds likelier that overlaps them (``OVERLAP``) and is no smaller than any of them, the likelier spares first,
    where the other tiles cover under ``FREE`` of it. A tile found in a block of thick tiles may be a piece of a face
    with a strip of its neighbour's side (moved there by ``refine`` from a cut across), and the whole face, proposed at
    another size, loses to it in ``refine`` only because the check was not sure of it either. Issue 29, each series
    held out: the red mat overhead given 10% off 0.969 / 0.021 -> 0.971 / 0.019, at the given size 0.987 -> 0.990
    found; any spare surer than the tiles, smaller too, took the place of a hand's flower (the hands overhead 1.000 ->
    0.980 found)."""
    boxes = [box_of(quad) for quad in tiles]
    under = {i for i, box in enumerate(boxes) if any(box.iou(box_of(quad)) >= OVERLAP for _, quad in spare)}
    if not under:
        return tiles
    order = sorted(under)
    probability = _probabilities(model, check, image, [tiles[i] for i in order])
    likelihoods = dict(zip(order, probability.tolist(), strict=True))  # no spare overlaps the others: never asked
    held = [(likelihoods.get(i, 0.0), quad, box) for i, (quad, box) in enumerate(zip(tiles, boxes, strict=True))]
    for likelihood, quad in sorted(spare, key=lambda item: -item[0]):
        box = box_of(quad)
        over = _displaced(held, box, likelihood, check.strict)
        if not over or any(held[k][2].area > box.area for k in over):
            continue
        if _free(box, [other for k, (_, _, other) in enumerate(held) if k not in over]):
            held = _replaced(held, over, (likelihood, quad, box))
    return [quad for _, quad, _ in held]


def _displaced(
    held: list[tuple[float, np.ndarray, Box]], box: Box, likelihood: float, strict: float
) -> list[int] | None:
    """The tiles (indices into ``held``: probability, corners, box) a proposal of this likelihood overlaps
    (``OVERLAP``) and would take the place of, or None where one of them is as likely as it or sure (``strict``)."""
    over = [k for k, (_, _, other) in enumerate(held) if box.iou(other) >= OVERLAP]
    return None if any(held[k][0] >= min(likelihood, strict) for k in over) else over


def _replaced(
    held: list[tuple[float, np.ndarray, Box]], over: list[int], new: tuple[float, np.ndarray, Box]
) -> list[tuple[float, np.ndarray, Box]]:
    """``held`` without the tiles ``over``, and the new one last."""
    return [item for k, item in enumerate(held) if k not in over] + [new]


def _free(box: Box, others: list[Box]) -> bool:
    """Whether the other tiles' overlaps with a spare proposal sum to under ``FREE`` of its area."""
    return sum(box.overlap(other) for other in others) < FREE * box.area


def _filled(tiles: list[np.ndarray], spare: list[tuple[float, np.ndarray]]) -> list[np.ndarray]:
    """The tiles, and the spare proposals (probability, corners: the second rank's the check found more likely tiles
    than not but was not sure of, ``refine``), the likelier first, each added where its overlaps with the tiles and
    those added before it sum to under ``FREE`` of its area; then of a size (``_of_a_size``, again: its median moves
    with what was added). A second-rank proposal the check is unsure of
    loses to any tile over it, but where none lies it is the only answer there: on the red mat held out (a set the
    reader never saw) the check is sure of few faces it has not seen. Issue 29, each series held out (``FREE`` 0.2
    then), the red mat found at the given size overhead 0.975 -> 0.987, 10 degrees off 0.975 -> 0.979, 20 degrees
    0.929 -> 0.933, none more false; from the check's own level (not ``EVEN``) the trays' blank floor and the table
    top beyond their rim came in too (0.013 -> 0.023 false overhead given 10% off)."""
    boxes = [box_of(quad) for quad in tiles]
    out = list(tiles)
    for _, quad in sorted(spare, key=lambda item: -item[0]):
        box = box_of(quad)
        if _free(box, boxes):
            out.append(quad)
            boxes.append(box)
    return _of_a_size(out)


def _in_line(model: Model, check: TileCheck, image: np.ndarray, tiles: list[np.ndarray]) -> list[np.ndarray]:
    """The tiles, each lying ``LINE_OFF`` of its side off the line its neighbours make (``_line_shifts``) moved into
    it where the check keeps it there (its level, and ``LINE_HOLD`` of its probability where it was) and it overlaps
    no other tile (``OVERLAP``), the surest moves first. Tiles lie on a table in rows; the check, on a set it never
    saw, can be as sure of a face cut a quarter off as of the whole one (a hand's flower's sparse ink, a thick tile
    with its side), so the moves of ``refine`` may settle a tile off its line, which its neighbours' boxes show.
    Issue 29, each series held out: the hands seen 10 degrees off overhead at the given size 0.939 found / 0.042 false
    -> 0.980 / 0.000; the red mat overhead given 10% off 0.967 / 0.023 -> 0.969 / 0.021, the other cells within a
    tile. Moved wherever the neighbours' line lies a tenth of a side off, or whatever the check's probability there,
    tiles seen 20 degrees off overhead (a box a little off its neighbours' in perspective) were moved off their faces:
    the red mat 0.933 -> 0.927 found."""
    boxes = [box_of(quad) for quad in tiles]
    moves = [(index, shift) for index in range(len(tiles)) for shift in _line_shifts(index, boxes)]
    if not moves:
        return tiles
    at = [tiles[index] + shift for index, shift in moves]
    p = _probabilities(model, check, image, at + [tiles[i] for i, _ in moves])
    out = list(tiles)
    moved: set[int] = set()
    for k in np.argsort(-p[: len(moves)], kind="stable"):
        index, quad = moves[k][0], at[k]
        if index in moved or p[k] < max(check.level, LINE_HOLD * p[len(moves) + k]) or not _inside(quad, image.shape):
            continue
        box = box_of(quad)
        if all(box.iou(other) < OVERLAP for i, other in enumerate(boxes) if i != index):
            out[index], boxes[index] = quad, box
            moved.add(index)
    return out


def _line_shifts(index: int, boxes: list[Box]) -> list[np.ndarray]:
    """The moves (px, x and y) of a tile onto the line of its neighbours in its column (across: x) and in its row
    (y), where they make one (``LINE_SPREAD``) and it lies ``LINE_OFF`` off it."""
    box = boxes[index]
    out = []
    for across in (0, 1):  # the column's line runs along y and is placed in x; the row's the other way
        lo, hi = _span(box, across)
        side, centre = hi - lo, (lo + hi) / 2
        near = [sum(_span(other, across)) / 2 for other in _line_neighbours(box, boxes, across)]
        if not near or max(near) - min(near) > LINE_SPREAD * side:
            continue
        shift = float(np.mean(near)) - centre
        if LINE_OFF[0] * side <= abs(shift) <= LINE_OFF[1] * side:
            out.append(np.array([shift, 0.0]) if across == 0 else np.array([0.0, shift]))
    return out


def _line_neighbours(box: Box, boxes: list[Box], across: int) -> list[Box]:
    """The other boxes ``LINE_NEAR`` of its length from a box along its line (a column's along y, ``across`` 0; a row's
    along x, ``across`` 1) that share ``LINE_ACROSS`` of the narrower of the two across it."""
    along = 1 - across
    lo, hi = _span(box, across)
    length, middle = _extent(box, along), sum(_span(box, along)) / 2
    near = []
    for other in boxes:
        if other is box:
            continue
        other_lo, other_hi = _span(other, across)
        apart = abs(sum(_span(other, along)) / 2 - middle)
        shared = min(hi, other_hi) - max(lo, other_lo)
        narrower = min(hi - lo, other_hi - other_lo)
        if LINE_NEAR[0] * length <= apart <= LINE_NEAR[1] * length and shared >= LINE_ACROSS * narrower:
            near.append(other)
    return near


def _continued(model: Model, check: TileCheck, image: np.ndarray, tiles: list[np.ndarray]) -> list[np.ndarray]:
    """The tiles, and the places one pitch beyond each pair of neighbours in a line (``_beyond``) no larger than
    ``LARGE`` times the median tile that lie on no sure tile (``TileCheck.strict``, ``COVER``), look like the face
    they continue (``_face_like``) and that the check, at the best of a few small moves of the place and of the place
    moved onto its face (``_surest_trial``), finds more likely tiles than not (``EVEN``; sure of them, where the place
    lay over a sure tile by ``OVERLAP`` before its move), the likelier first, each where the tiles it overlaps
    (``OVERLAP``) are unsure and less likely: those are replaced; for ``ROUNDS``, each round the lines of the tiles
    added. A block of touching tiles the detector cut at a wrong pitch (IMG_2767 seen 10
    degrees off overhead: a tile and a half wide) holds boxes a fifth larger than their faces, which ``_neighbours``
    steps by and ``_filled`` finds covered; the centres of two tiles found in a line give the pitch itself. Issue 29,
    each series held out: the red mat seen 10 degrees off overhead given 10% off 0.952 found / 0.038 false -> 0.967 /
    0.031 unmoved -> 0.979 / 0.029 moved, 20 degrees 0.939 / 0.034 -> 0.958 / 0.034 (given 10% off 0.946 / 0.040 ->
    0.971 / 0.043), overhead given 10% off 0.971 -> 0.985 found; the hands 10 degrees at the given size 0.980 ->
    1.000 found; the trays and the green mat within 0.003 found and 0.004 false of before. In a first form (only
    sure tiles' lines, the spares' room ``FREE`` asked), without ``_face_like`` the red mat 10 degrees given 10% off
    had 27 false tiles, with it 17: the mat beyond a row's end, a tray's floor. The red mat seen 20 degrees off
    overhead at the given size: 0.967 / 0.029 -> 0.969 / 0.031 with places over a sure tile by under ``COVER`` tried
    (IMG_2743's 北, a row of tilted tiles whose boxes overlap), 0.969 / 0.029 with those taken only sure (not
    IMG_2742's place half on a bird, 0.52), 0.977 / 0.031 moved onto their faces (IMG_2747, 2786, 2788: columns of
    tiles lying sideways that bend or whose boxes drift off the faces), 0.977 / 0.029 with no place continuing two
    tiles cut as one (IMG_2747); given 10% off 0.979 / 0.029 -> 0.979 / 0.027."""
    likelihoods = _probabilities(model, check, image, tiles).tolist()
    held = [(p, quad, box_of(quad)) for p, quad in zip(likelihoods, tiles, strict=True)]
    fresh = {id(quad) for quad in tiles}
    for _ in range(ROUNDS):
        sure = [box for p, _, box in held if p >= check.strict]  # a place on one can never replace it
        largest = LARGE * float(np.median([box.area for _, _, box in held]))
        pairs, crowded = [], []
        for parent, place in _beyond(held, fresh, image.shape):
            box = box_of(place)
            on_sure = any(box.iou(other) >= COVER for other in sure)
            if box.area <= largest and not on_sure and _face_like(image, parent, place):
                pairs.append((parent, place))
                crowded.append(not _apart(box, sure))
        if not pairs:
            break
        fresh = set()
        for (likelihood, quad), near_sure in sorted(
            zip(_surest_trial(model, check, image, pairs), crowded, strict=True), key=lambda item: -item[0][0]
        ):
            if likelihood < max(EVEN, check.level):
                break
            if near_sure and likelihood < check.strict:
                continue
            box = box_of(quad)
            over = _displaced(held, box, likelihood, check.strict)
            if over is not None:
                held = _replaced(held, over, (likelihood, quad, box))
                fresh.add(id(quad))
        if not fresh:
            break
    return [quad for _, quad, _ in held]


def _surest_trial(
    model: Model, check: TileCheck, image: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]]
) -> list[tuple[float, np.ndarray]]:
    """For each (tile continued, place), the place or the place moved onto its face (``_onto_face``), at the best of a
    few small moves (``_best_moved``), whichever the check is surer of: (probability, corners)."""
    best = _best_moved(model, check, image, [place for _, place in pairs])
    onto: list[tuple[int, np.ndarray]] = []
    for k, (parent, place) in enumerate(pairs):
        moved = _onto_face(image, parent, place)
        if moved is not None and _inside(moved, image.shape):
            onto.append((k, moved))
    if onto:
        for (k, _), trial in zip(onto, _best_moved(model, check, image, [quad for _, quad in onto]), strict=True):
            if trial[0] > best[k][0]:
                best[k] = trial
    return best


def _onto_face(image: np.ndarray, parent: np.ndarray, place: np.ndarray) -> np.ndarray | None:
    """A place continuing a tile's line moved across the line onto the white run its middle lies in (a face: each
    point across the place's middle half along the line, the ``GROUND`` percentile of the darkest channel as white as
    ``WHITE`` of the tile), where that run is ``RUN`` of the place's breadth with no face ``BORDER`` beyond either end:
    None where there is no such run or the place lies on it already."""
    way = place.mean(axis=0) - parent.mean(axis=0)
    along = int(abs(way[1]) > abs(way[0]))
    across = 1 - along
    box = box_of(place)
    lo, hi = _span(box, across)
    start, end = _span(box, along)
    breadth, length = hi - lo, end - start
    w0, w1 = int(max(lo - breadth / 2, 0)), int(min(hi + breadth / 2, image.shape[1 - across]))
    m0, m1 = int(max(start + length / 4, 0)), int(min(end - length / 4, image.shape[1 - along]))
    middle = round((lo + hi) / 2) - w0
    if m1 - m0 < 1 or not 0 <= middle < w1 - w0:
        return None
    darkest = image[m0:m1, w0:w1] if across == 0 else image[w0:w1, m0:m1].transpose(1, 0, 2)
    white = np.percentile(darkest.min(axis=2), GROUND, axis=0) >= WHITE * _whiteness(warp_face(image, parent))
    if not white[middle]:
        return None
    first, last = _run_around(white, middle)
    border = max(round(BORDER * breadth), 1)
    if not RUN[0] * breadth <= last - first + 1 <= RUN[1] * breadth or first < border or last + border >= len(white):
        return None
    if white[first - border : first].any() or white[last + 1 : last + 1 + border].any():
        return None
    shift = w0 + (first + last + 1) / 2 - (lo + hi) / 2
    if abs(shift) < 1:
        return None
    moved = place.copy()
    moved[:, across] += shift
    return moved


def _run_around(white: np.ndarray, middle: int) -> tuple[int, int]:
    """The first and last index of the run of true values of ``white`` that holds ``middle`` (true)."""
    gaps = np.flatnonzero(~white)
    before, after = gaps[gaps < middle], gaps[gaps > middle]
    return (int(before.max()) + 1 if len(before) else 0), (int(after.min()) - 1 if len(after) else len(white) - 1)


def _beyond(
    held: list[tuple[float, np.ndarray, Box]], fresh: set[int], shape: tuple[int, ...]
) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each pair of tiles (one of them ``fresh``, by identity) whose centres lie ``PITCH`` apart along a side of
    the first and in line (``ASIDE``), the second's corners moved one such step on, where that is in the photo:
    (the tile continued, the place)."""
    out = []
    for _, first, box in held:
        centre = first.mean(axis=0)
        for _, second, _ in held:
            if second is first or (id(first) not in fresh and id(second) not in fresh):
                continue
            way = second.mean(axis=0) - centre
            for along, side, other in ((0, box.width, box.height), (1, box.height, box.width)):
                in_line = abs(way[1 - along]) <= ASIDE * other
                if in_line and PITCH[0] * side <= abs(way[along]) <= PITCH[1] * side and _inside(second + way, shape):
                    out.append((second, second + way))
    return out


def _banded(model: Model, check: TileCheck, image: np.ndarray, tiles: list[np.ndarray]) -> list[np.ndarray]:
    """The tiles, each much narrower across a line than its neighbours in it stretched to their band (``_bands``),
    the likelier first: where the stretched face overlaps another tile (``OVERLAP``), that tile is the face and the
    piece is dropped; elsewhere, where the check finds it more likely a tile than not (``EVEN``), it takes the place
    of the piece and the others it holds (``PIECE_HELD``). A two- or four-dot face cut across between its dots is two
    good one- or two-dot faces to the check (IMG_2767 seen 20 degrees off overhead given 10% off: 0.995 and 0.98 the
    halves, 0.977 the whole face), so no probability tells the halves from the face, and their area is a tile's seen
    nearer; their row tells: its faces reach twice as far across it. Issue 29, each series held out: the red mat seen
    20 degrees off overhead given 10% off 0.975 found / 0.043 false -> 0.977 / 0.035 stretched -> 0.977 / 0.033 with
    the pieces of faces found dropped, 10 degrees given 10% off 0.029 -> 0.027 -> 0.025 false; the green mat overhead
    0.991 / 0.009 -> 0.993 / 0.005; the trays 20 degrees off given 10% off 0.028 -> 0.025 false."""
    boxes = [box_of(quad) for quad in tiles]
    places = [(index, quad) for index, quad in _bands(boxes) if _inside(quad, image.shape)]
    if not places:
        return tiles
    probability = _probabilities(model, check, image, [quad for _, quad in places])
    gone: set[int] = set()
    added: list[tuple[np.ndarray, Box]] = []
    for k in np.argsort(-probability, kind="stable"):
        index, quad = places[k]
        if index in gone:
            continue
        box = box_of(quad)
        pieces = {index} | {
            j for j, other in enumerate(boxes) if other.area < box.area and _held(box, other) >= PIECE_HELD
        }
        others = [other for j, other in enumerate(boxes) if j not in gone | pieces] + [other for _, other in added]
        if any(box.iou(other) >= OVERLAP for other in others):
            gone.add(index)
        elif probability[k] >= max(EVEN, check.level):
            gone |= pieces
            added.append((quad, box))
    return [quad for j, quad in enumerate(tiles) if j not in gone] + [quad for quad, _ in added]


def _bands(boxes: list[Box]) -> list[tuple[int, np.ndarray]]:
    """Each tile (index) whose breadth across a line is under ``SHORT`` of the band its neighbours in the line
    (``_line_neighbours``) of its length (``SAME_SIZE``) cover (the median of their spans) and of the median breadth
    of all its neighbours in the line, and the corners of its box stretched across to that band (``_face_corners``:
    a square piece's own corners may lie either way; the stretched face is upright or lying sideways by its shape).
    One box cut too large beside a tile is no band (IMG_2742 seen 20 degrees off overhead given 10% off; the red mat
    there 0.977 / 0.033 -> 0.979 / 0.031 with the median breadth asked, 10 degrees given 10% off 0.981 / 0.025 ->
    0.983 / 0.023)."""
    out = []
    for index, box in enumerate(boxes):
        for across in (0, 1):
            breadth, length = _extent(box, across), _extent(box, 1 - across)
            near = _line_neighbours(box, boxes, across)
            spans = [
                _span(other, across) for other in near if abs(_extent(other, 1 - across) / length - 1) <= SAME_SIZE
            ]
            if not spans or breadth >= SHORT * float(np.median([_extent(other, across) for other in near])):
                continue
            band_lo, band_hi = (float(np.median(edge)) for edge in zip(*spans, strict=True))
            if breadth < SHORT * (band_hi - band_lo):
                start, end = _span(box, 1 - across)
                x0, y0, x1, y1 = (band_lo, start, band_hi, end) if across == 0 else (start, band_lo, end, band_hi)
                out.append((index, _face_corners(x0, y0, x1, y1)))
    return out


def _face_corners(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """A box's corners in the order of a face's (top left first): its top up the image, or to the left where the
    box is wider than tall (a tile lying sideways, as the detector turns it, ``vision.detect._up``)."""
    if x1 - x0 > y1 - y0:
        return np.array([[x0, y1], [x0, y0], [x1, y0], [x1, y1]], np.float64)
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)


def _as_white(model: Model, check: TileCheck, image: np.ndarray, tiles: list[np.ndarray]) -> list[np.ndarray]:
    """The tiles but those the check is unsure of (under its stricter level) that are less white than ``PALE`` of the
    sure ones (the median of their ``_whiteness``), when ``GREY_FROM`` are sure. ``_grey`` asks the same of a tile's
    colour in ``refine``; at the end, the colour dropped faces of red ink the steps after ``refine`` had found (the red
    mat at 20 degrees given 10% off 0.979 -> 0.975 found)."""
    probability = _probabilities(model, check, image, tiles)
    sure = probability >= check.strict
    if np.count_nonzero(sure) < GREY_FROM:
        return tiles
    white = np.array([_whiteness(warp_face(image, quad)) for quad in tiles])
    ground = float(np.median(white[sure]))
    return [quad for quad, kept, value in zip(tiles, sure, white, strict=True) if kept or value >= PALE * ground]


def _face_like(image: np.ndarray, tile: np.ndarray, place: np.ndarray) -> bool:
    """Whether a place continuing a tile's line shows a face's ink (``FACE_INK``), is as white as ``WHITE`` of the
    tile and joined to it (``_joined``): beyond a row's end lie the mat, a tray's rim and its floor."""
    crop = warp_face(image, place)
    if crop_ink_share(crop) < FACE_INK or _whiteness(crop) < WHITE * _whiteness(warp_face(image, tile)):
        return False
    return bool(_joined(image, tile[None], place[None])[0])


def _span(box: Box, axis: int) -> tuple[float, float]:
    """A box's extent along x (0) or y (1)."""
    return (box.x0, box.x1) if axis == 0 else (box.y0, box.y1)


def _extent(box: Box, axis: int) -> float:
    """A box's side along x (0) or y (1)."""
    return box.width if axis == 0 else box.height


def _merged(model: Model, check: TileCheck, image: np.ndarray, tiles: list[np.ndarray]) -> list[np.ndarray]:
    """The tiles of two searches of a photo, the surest first, each kept unless a surer one overlaps it
    (``OVERLAP``) or either holds ``COVER`` of the other, and of a size (``_of_a_size``): in a block of touching tiles
    each search cuts some tiles where the other cuts across them, so neither answer is the other's better; searched
    at two sizes, a tile of one may lie inside a bigger piece of the other (a tile and its neighbour cut as one).
    Issue 29, each series held out, the red mat seen 10 degrees off overhead at the given size: 0.950 found / 0.030
    false with the surer answer (the check's probabilities summed) -> 0.971 / 0.033 merged; 20 degrees given 10% off
    0.881 / 0.050 -> 0.935 / 0.041 (0.045 without ``COVER``)."""
    if not tiles:
        return []
    probability = _probabilities(model, check, image, tiles)
    kept: list[np.ndarray] = []
    boxes: list[Box] = []
    for _, quad in sorted(zip(probability.tolist(), tiles, strict=True), key=lambda item: -item[0]):
        box = box_of(quad)
        if _apart(box, boxes) and all(_held(box, other) < COVER for other in boxes):
            kept.append(quad)
            boxes.append(box)
    return _of_a_size(kept)


def _held(box: Box, other: Box) -> float:
    """The share of the smaller of two boxes that lies in both."""
    return box.overlap(other) / max(min(box.area, other.area), 1e-9)


def _refined(
    model: Model,
    check: TileCheck,
    image: np.ndarray,
    size: tuple[float, float],
    first: Detection,
    spare: list[tuple[float, np.ndarray]] | None = None,
) -> list[np.ndarray]:
    """``refine`` on the detector's tiles at the size given (``first``) and, as a second rank, its tiles at the
    ``SIZES`` of it through the same warp (its spare proposals added to ``spare``)."""
    tile_w, tile_h = size
    quads = [tile.quad for tile in first.tiles]
    more = [
        tile.quad
        for share in SIZES
        for tile in find_in_photo(image, tile_w * share, tile_h * share, per_place=False, warp=first.warp).tiles
    ]
    return refine(model, check, image, quads, more, spare)
