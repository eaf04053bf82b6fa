"""The camera path of the simulated table (``mjtable run --camera sim``): a bot's discard is laid into its seat's
discard zone of rendered camera frames, read back by ``vision.recognize.Recognizer`` and ``vision.track.Tracker``,
and the tracker's ``discard`` event (its seat and the tile the camera read) is what the service journals and
applies. A claim is confirmed by the tracker's ``taken`` event: the claimant's hand reaches into the zone and the
tile is gone.

The camera is checked, the game is never stalled by it: when the camera reads another tile than the bot
discarded, or reads nothing within ``MAX_FRAMES`` frames, or does not see a claimed tile taken, the service logs
the mismatch, shows it (a ``{"camera": "mismatch", ...}`` line to the display and the output) and goes on with
the bot's own report, journaled with what the camera read.

Simplifications of the simulated table, each said where it is made:

- A discard zone holds two rows of six (the third row of a long river would reach past the zone's edge), so a
  zone holds at most ``ROW`` tiles: before a seat's thirteenth, its rows are swept out of the camera's view and
  that seat's tracker starts afresh. A resumed hand starts with swept zones.
- The light is steady (the default ``Look``) and the tracker reports a tile from one clear frame (``stable=1``),
  so a discard costs one frame and a claim two; the vision package's own tests cover drifting light and
  debouncing.
- ``swap`` (a test hook) changes the tile laid into the zone, or lays none: how a test makes the camera read
  another tile than the bot reported, or nothing.
"""

from __future__ import annotations

import logging
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from controller.people.renderer import Renderer
from engine.procedure.wall import WallState
from engine.tiles import Tile, format_tiles, tile_code
from vision.calibrate import Calibration
from vision.classify import load_model
from vision.geometry import (
    DEFAULT_LAYOUT,
    EXTRA_SLOTS,
    TILE_W_MM,
    WALL_STACKS,
    Layout,
    apply,
    seat_angle,
    seat_to_table,
    wall_slot,
    wall_spot,
)
from vision.recognize import Recognizer
from vision.render import Hand, Look, Placed, Scene, default_camera
from vision.simtable import laid_beside, spot
from vision.track import Tracker

log = logging.getLogger(__name__)

ROW = 12
"""Discards a zone holds (two rows of six) before the simulated table sweeps them out of view (see the module doc)."""
MAX_FRAMES = 3
"""Frames the service waits for a discard (or a take) to be read before it goes on with the bot's report."""
FPS = 10.0
"""Nominal frame rate: the frame times given to the tracker."""
HAND_PITCH_MM = 32.0
"""Centre to centre of the tiles of a hand laid down side by side: a 2 mm gap, the gap ``vision.detect`` cuts a run
of touching tiles by. A row too long for the hand zone at this pitch is laid tighter (``laid_row``)."""

Swap = Callable[[int, Tile], Tile | None]
"""(seat, tile the bot discarded) → the tile laid into the zone (None: nothing)."""


@dataclass(frozen=True)
class Reading:
    """What the camera made of one discard or take: the tile it read (None: nothing), the frames it took, and
    ``seen_at`` (``time.perf_counter``) when the deciding frame was captured."""

    tile: Tile | None
    frames: int
    seen_at: float

    @property
    def code(self) -> str:
        return "nothing" if self.tile is None else tile_code(self.tile)

    def age(self) -> float:
        """Seconds since the deciding frame was captured."""
        return time.perf_counter() - self.seen_at


@dataclass(frozen=True)
class HandReading:
    """The concealed hand a winner laid down, as the camera read it left to right (None: not read)."""

    tiles: tuple[Tile, ...] | None
    frames: int

    @property
    def code(self) -> str:
        return "nothing" if self.tiles is None else format_tiles(self.tiles)


def _on_table(seat: int, u: float, v: float) -> tuple[float, float]:
    x, y = apply(seat_to_table(seat), np.array([[u, v]]))[0]
    return float(x), float(y)


def discard_place(
    seat: int, index: int, rng: np.random.Generator, beside: Iterable[Placed] = (), *, sideways: bool = False
) -> tuple[float, float, float]:
    """Table centre (mm) and angle of ``seat``'s ``index``-th discard in its zone, placed by hand
    (``vision.simtable.spot``) and come to rest against the tiles ``beside`` it, never over them
    (``vision.simtable.laid_beside``); ``sideways``: turned a quarter to the seat's left (a ready declaration)."""
    u, v, turn = spot(DEFAULT_LAYOUT, index, rng)
    angle = seat_angle(seat) + turn - (90 if sideways else 0)
    placed = laid_beside(Placed(0, *_on_table(seat, u, v), angle), beside)
    return placed.x, placed.y, placed.angle


def wall_spots(
    state: WallState, layout: Layout = DEFAULT_LAYOUT, up: Sequence[int] = ()
) -> dict[int, tuple[int, float, float]]:
    """The spots where the wall's faces are laid to be read, by wall place (head-order index): the seat whose wall
    holds it and (u, v) in its frame. The last ``WALL_STACKS`` stacks have theirs (``vision.geometry.wall_spot``; a
    seat's wall zone shows the stacks of the dead wall that stand on his side); each other place of ``up`` (the
    places turned up, in the order they were: ``Referee.faces_up``) takes the next of its seat's ``EXTRA_SLOTS``
    (Hubei's indicator after the deal, Changsha's birds at a win)."""
    spots = {}
    for number in range(1, WALL_STACKS + 1):
        for under, place in enumerate(state.stack_from_tail(number)[:2]):
            seat = state.positions[place].wall_of_seat
            spots[place] = (seat, *wall_spot(layout, number, bool(under)))
    taken: Counter[int] = Counter()
    for place in up:
        if place in spots:
            continue
        seat = state.positions[place].wall_of_seat
        if taken[seat] == len(EXTRA_SLOTS):
            raise ValueError(f"wall place {place}: seat {seat}'s wall zone has no spot left for it")
        spots[place] = (seat, *wall_slot(layout, EXTRA_SLOTS[taken[seat]]))
        taken[seat] += 1
    return spots


def wall_placed(state: WallState, place: int, tile: Tile, up: Sequence[int] = ()) -> Placed:
    """``tile``, a face of the wall at ``place``, laid face up at its spot (``up``: as ``wall_spots``), upright for
    the seat of its wall."""
    seat, u, v = wall_spots(state, up=up)[place]
    return Placed(tile, *_on_table(seat, u, v), seat_angle(seat))


def reaching_hand(seat: int, placed: Placed) -> Hand:
    """A hand of ``seat``'s side of the table reaching over ``placed`` (to take it, or to sweep the zone)."""
    u, v = apply(np.linalg.inv(seat_to_table(seat)), np.array([[placed.x, placed.y]]))[0]
    return Hand(*_on_table(seat, float(u), float(v) + 25), seat_angle(seat) - 90, 1.0)


def laid_row(seat: int, tiles: tuple[Tile, ...], rng: np.random.Generator) -> tuple[Placed, ...]:
    """``tiles`` laid face up side by side in ``seat``'s hand zone, left to right as the seat sees them, centred,
    ``HAND_PITCH_MM`` apart, closer when that would reach past the zone's ends: 16 tiles still keep a gap, 17 touch
    (``vision.detect`` finds their seams), more reach past the zone's ends (such a row is not read)."""
    rect = DEFAULT_LAYOUT.hand
    middle_u, v = (rect.u0 + rect.u1) / 2, (rect.v0 + rect.v1) / 2
    room = rect.u1 - rect.u0 - TILE_W_MM - 4  # 2 mm from each end
    pitch = max(TILE_W_MM, min(HAND_PITCH_MM, room / max(1, len(tiles) - 1)))
    first = middle_u - pitch * (len(tiles) - 1) / 2
    return tuple(
        Placed(tile, *_on_table(seat, first + pitch * i, v + rng.normal(0, 0.5)), seat_angle(seat))
        for i, tile in enumerate(tiles)
    )


@dataclass
class CameraStats:
    """Frame-to-verdict latencies (seconds) of the discards the camera read, what it was shown, the mismatches."""

    latencies: list[float] = field(default_factory=list)
    discards: int = 0
    takes: int = 0
    reveals: int = 0
    mismatches: int = 0
    frames: int = 0

    def to_dict(self) -> dict[str, float | int]:
        data: dict[str, float | int] = {
            "discards": self.discards,
            "takes": self.takes,
            "reveals": self.reveals,
            "mismatches": self.mismatches,
            "frames": self.frames,
        }
        if len(self.latencies) >= 2:
            cuts = statistics.quantiles(self.latencies, n=100, method="inclusive")
            data |= {"p50_ms": round(cuts[49] * 1000, 1), "p99_ms": round(cuts[98] * 1000, 1)}
        return data


def open_renderer() -> Renderer:
    """The render process of the simulated table's overhead camera (close it when done)."""
    return Renderer(default_camera(DEFAULT_LAYOUT))


class SimCamera:
    """The simulated table as the overhead camera sees it: tiles laid into the seats' discard zones, rendered,
    read and tracked. ``seed`` fixes the placement of the tiles and the frames' noise; frames are rendered on
    demand by ``renderer`` (``controller.people.renderer``: its own process, one for the run)."""

    def __init__(
        self, seed: int, renderer: Renderer, swap: Swap | None = None, stats: CameraStats | None = None
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.renderer = renderer
        renderer.reseed(random.Random(f"{seed}/frames").getrandbits(63))
        self.camera = renderer.camera
        calibration = Calibration(self.camera.homography, self.camera.width, self.camera.height, DEFAULT_LAYOUT)
        model = load_model()
        self.recognizer = Recognizer(calibration, model, ("discard",))
        self.hand_reader = Recognizer(calibration, model, ("hand",))
        self.look = Look()
        self.swap = swap
        self.stats = stats or CameraStats()
        self._frame = 0
        self._zones: list[list[Placed | None]] = [[] for _ in range(4)]
        self._trackers = [self._tracker() for _ in range(4)]

    @staticmethod
    def _tracker() -> Tracker:
        return Tracker(stable=1, gone=1, patience=MAX_FRAMES)

    def sweep(self) -> None:
        """Empty every zone (a new hand, or a resumed one)."""
        self._zones = [[] for _ in range(4)]
        self._trackers = [self._tracker() for _ in range(4)]

    def _shot(self, seat: int, hands: tuple[Hand, ...] = ()) -> tuple[list, float]:
        tiles = tuple(placed for zone in self._zones for placed in zone if placed is not None)
        image = self.renderer.render(Scene(tiles, hands, DEFAULT_LAYOUT, True), self.look)
        seen_at = time.perf_counter()
        self._frame += 1
        self.stats.frames += 1
        views = self.recognizer.read(image, (seat,))  # the service knows whose discard or claim it is
        return self._trackers[seat].update(views, self._frame, self._frame / FPS), seen_at

    def discard(self, seat: int, tile: Tile) -> Reading:
        """Lay ``tile`` (or what ``swap`` makes of it) into ``seat``'s zone and read it back."""
        zone = self._zones[seat]
        if len(zone) >= ROW:
            zone.clear()  # the row swept out of view (see the module doc)
            self._trackers[seat] = self._tracker()
        shown = tile if self.swap is None else self.swap(seat, tile)
        place = discard_place(seat, len(zone), self.rng, [placed for placed in zone if placed is not None])
        zone.append(None if shown is None else Placed(shown, *place))
        self.stats.discards += 1
        seen_at = time.perf_counter()
        for frames in range(1, MAX_FRAMES + 1):
            events, seen_at = self._shot(seat)
            for event in events:
                if event.kind == "discard":
                    return Reading(event.tiles[0], frames, seen_at)
        return Reading(None, MAX_FRAMES, seen_at)

    def take(self, seat: int) -> Reading:
        """The last discard of ``seat`` taken by a claimant: a hand reaches into the zone, the tile is gone."""
        zone = self._zones[seat]
        self.stats.takes += 1
        placed = zone[-1] if zone else None
        if placed is None:
            return Reading(None, 0, time.perf_counter())
        # the zone covered: the tracker knows the tile may now be taken
        self._shot(seat, (reaching_hand(seat, placed),))
        zone.pop()  # its place is the next discard's: the river goes on from the last tile lying in it
        seen_at = time.perf_counter()
        for frames in range(1, MAX_FRAMES + 1):
            events, seen_at = self._shot(seat)
            for event in events:
                if event.kind == "taken":
                    return Reading(event.tiles[0], frames + 1, seen_at)
        return Reading(None, MAX_FRAMES + 1, seen_at)

    def reveal(self, seat: int, tiles: tuple[Tile, ...]) -> HandReading:
        """The winner lays ``tiles`` face up in ``seat``'s hand zone, left to right, and the camera reads them."""
        shown = laid_row(seat, tiles, self.rng)
        self.stats.reveals += 1
        tracker = self._tracker()
        on_table = tuple(placed for zone in self._zones for placed in zone if placed is not None)
        for frames in range(1, MAX_FRAMES + 1):
            image = self.renderer.render(Scene(on_table + shown, (), DEFAULT_LAYOUT, True), self.look)
            self._frame += 1
            self.stats.frames += 1
            views = self.hand_reader.read(image, (seat,))
            for event in tracker.update(views, self._frame, self._frame / FPS):
                if event.kind == "hand" and None not in event.tiles:
                    return HandReading(tuple(t for t in event.tiles if t is not None), frames)
        return HandReading(None, MAX_FRAMES)
