"""A scripted hand in front of the simulated camera: seats discard in turn into their zones, now and then a
discard is claimed (a hand reaches in and takes it), hands pass over the table and the light drifts or jumps.

It yields rendered frames with what really happened in each, so the whole pipeline can be checked end to end.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from engine.tiles import NUM_TILE_IDS, Tile
from vision.geometry import DEFAULT_LAYOUT, TILE_H_MM, TILE_W_MM, Layout, apply, seat_angle, seat_to_table
from vision.render import Camera, Hand, Look, Placed, Scene, default_camera, random_look, render

COLUMNS, ROWS = 6, 3
"""Discard spots per zone: rows of six, as most rules lay them out."""


@dataclass(frozen=True)
class Truth:
    """What happened in a frame: a ``discard`` appeared or a discard was ``taken`` from ``seat``'s zone."""

    kind: str
    seat: int
    tile: Tile
    frame: int


def spot(layout: Layout, index: int, rng: np.random.Generator) -> tuple[float, float, float]:
    """Seat-frame centre (mm) and turn (degrees) of a seat's ``index``-th discard, placed by hand: a little off
    the grid, a little turned, now and then upside down."""
    row, column = divmod(index, COLUMNS)
    rect = layout.discard
    u = rect.u0 + 19 + column * 34.5 + rng.normal(0, 1.0)
    v = rect.v0 + 22 + row * 41.5 + rng.normal(0, 0.6)
    turn = rng.normal(0, 3) + (180.0 if rng.random() < 0.05 else 0.0)
    return float(u), float(v), float(turn)


SETTLE_TRIES = 8
"""Pushes off its neighbours a tile laid beside them gets at most (``laid_beside``): one is the rule, a second when
the first pushed it onto another."""


def laid_beside(tile: Placed, others: Iterable[Placed]) -> Placed:
    """``tile`` as it comes to rest among ``others`` on the table: a hand laying it where it would lie over one of
    them (``spot``'s offsets and turns overlap a tile of the row before or beside by up to a few tenths of a mm) sets
    it against that tile instead, pushed the least way off it. Tiles never lie over each other; drawn so, the
    upper one hides their seam and the detector takes the two for one blob that is no tile."""
    others = list(others)
    x, y = tile.x, tile.y
    for _ in range(SETTLE_TRIES):
        pushes = [_push(_corners(x, y, tile.angle), _corners(o.x, o.y, o.angle)) for o in others]
        moves = [push for push in pushes if push is not None]
        if not moves:
            break
        x, y = x + float(moves[0][0]), y + float(moves[0][1])
    return replace(tile, x=x, y=y)


def _corners(x: float, y: float, angle: float) -> np.ndarray:
    """A tile's outline on the table (mm), turned as ``vision.render`` draws it."""
    turn = np.deg2rad(-angle)
    across = np.array([np.cos(turn), -np.sin(turn)]) * TILE_W_MM / 2
    along = np.array([np.sin(turn), np.cos(turn)]) * TILE_H_MM / 2
    centre = np.array([x, y])
    return centre + np.array([-across - along, across - along, across + along, -across + along])


def _push(moving: np.ndarray, fixed: np.ndarray) -> np.ndarray | None:
    """The shortest move that takes outline ``moving`` off ``fixed`` (both convex, by their edges' normals: two
    outlines overlap unless one of those axes separates them), or None when they do not overlap."""
    best: tuple[float, np.ndarray] | None = None
    for outline in (moving, fixed):
        for edge in (outline[1] - outline[0], outline[2] - outline[1]):
            axis = np.array([-edge[1], edge[0]]) / np.linalg.norm(edge)
            mine, theirs = moving @ axis, fixed @ axis
            if mine.mean() < theirs.mean():
                axis, mine, theirs = -axis, -mine, -theirs
            depth = float(theirs.max() - mine.min())
            if depth <= 0:
                return None
            if best is None or depth < best[0]:
                best = (depth, axis)
    assert best is not None
    return best[1] * (best[0] + 0.01)


def discard_scene(
    rng: np.random.Generator, per_seat: int, style: str = "uni", layout: Layout = DEFAULT_LAYOUT
) -> tuple[Scene, list[tuple[int, float, float, float, Tile]]]:
    """Every seat's first ``per_seat`` discards, of random kinds, with what is where: (seat, u, v, turn, tile)."""
    truth, placed = [], []
    for seat in range(4):
        for index in range(per_seat):
            tile = int(rng.integers(NUM_TILE_IDS))
            u, v, turn = spot(layout, index, rng)
            truth.append((seat, u, v, turn, tile))
            placed.append(Placed(tile, *_on_table(seat, u, v), seat_angle(seat) + turn))
    return Scene(tuple(placed), (), layout, True, style), truth


def _on_table(seat: int, u: float, v: float) -> tuple[float, float]:
    x, y = apply(seat_to_table(seat), np.array([[u, v]]))[0]
    return float(x), float(y)


class SimTable:
    """One hand of ``discards`` discards (at most ``COLUMNS * ROWS`` per seat) seen by ``camera``."""

    def __init__(
        self,
        seed: int,
        discards: int = 24,
        style: str = "uni",
        camera: Camera | None = None,
        claim_rate: float = 0.12,
        pass_rate: float = 0.3,
        layout: Layout = DEFAULT_LAYOUT,
    ) -> None:
        if not 0 < discards <= 4 * COLUMNS * ROWS:
            raise ValueError(f"discards: expected 1 to {4 * COLUMNS * ROWS}, found {discards}")
        self.rng = np.random.default_rng(seed)
        self.discards, self.style, self.layout = discards, style, layout
        self.camera = camera or default_camera(layout)
        self.claim_rate, self.pass_rate = claim_rate, pass_rate
        self._look = random_look(self.rng)
        self._frame = 0

    def _drift(self) -> Look:
        """Light changes slowly from frame to frame, and now and then at once (a lamp, a curtain)."""
        if self.rng.random() < 0.03:
            self._look = random_look(self.rng)
        else:
            gain = float(np.clip(self._look.gain * self.rng.uniform(0.97, 1.03), 0.6, 1.3))
            self._look = replace(self._look, gain=gain)
        return self._look

    def _hand_over(self, seat: int, u: float, v: float) -> Hand:
        x, y = _on_table(seat, u, v + 25)
        return Hand(x, y, seat_angle(seat) - 90 + float(self.rng.normal(0, 15)), float(self.rng.uniform(0.9, 1.1)))

    def _shot(self, tiles: dict[tuple[int, int], Placed], hands: tuple[Hand, ...]) -> np.ndarray:
        scene = Scene(tuple(tiles.values()), hands, self.layout, True, self.style)
        self._frame += 1
        return render(scene, self.camera, self._drift(), self.rng)

    def frames(self) -> Iterator[tuple[np.ndarray, list[Truth]]]:
        """Frames in order, each with the events that really happened in it."""
        rng = self.rng
        on_table: dict[tuple[int, int], Placed] = {}
        used = [0, 0, 0, 0]
        for turn in range(self.discards):
            seat = turn % 4
            tile = int(rng.integers(NUM_TILE_IDS))
            u, v, angle = spot(self.layout, used[seat], rng)
            used[seat] += 1
            yield self._shot(on_table, (self._hand_over(seat, u, v),)), []
            on_table[(seat, used[seat])] = Placed(tile, *_on_table(seat, u, v), seat_angle(seat) + angle)
            events = [Truth("discard", seat, tile, self._frame)]  # the index of the next frame
            for hold in range(4):
                passing = ()
                if hold == 2 and rng.random() < self.pass_rate:
                    other = int(rng.integers(4))
                    passing = (self._hand_over(other, float(rng.uniform(-80, 80)), float(rng.uniform(140, 200))),)
                yield self._shot(on_table, passing), events
                events = []
            if rng.random() < self.claim_rate:
                yield self._shot(on_table, (self._hand_over(seat, u, v),)), []
                del on_table[(seat, used[seat])]
                taken = [Truth("taken", seat, tile, self._frame)]
                yield self._shot(on_table, ()), taken
        for _ in range(5):
            yield self._shot(on_table, ()), []
