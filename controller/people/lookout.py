"""The service's reader of the table's overhead camera when people play: frames in, ``controller.people.sights.Sight``s
out. Every frame, the discard and hand ("row") zones of all four seats are read by ``vision.recognize.Recognizer``
(a zone whose picture has not changed since it was last read keeps its last reading:
``vision.recognize.SkippingRecognizer``) and tracked by ``vision.track.Tracker``, which is given every zone's view
every frame (its debouncing counts frames): the tracker's ``discard`` is a ``discard`` sight, its ``taken`` a
``taken`` sight and its ``hand`` (the face-up tiles in front of a seat, changed and still) a ``row`` sight.

Each sight carries the recogniser's ranked readings of its tiles (``Sight.choices``), found again in the frame's views
at the event's place (a discard, a taken tile: the reading reported for it; a row: the zone's tiles left to right). A
tile read below the model's threshold (the tracker reports it unreadable after ``patience`` frames) whose best
reading is at least ``READABLE`` is a sight all the same, with its best reading first: the witness heals it when it
is impossible and the display shows it as unsure.


A tile the camera saw and could not read at all (no reading) is not a sight (a sight names its tiles): ``look`` logs
it and keeps it apart, in ``unread`` (what the last frame showed that could not be read, as ``Unread``s: the service
shows "seat N's discard could not be read") and counts it in ``unread_total``.

The wall zones (``vision.geometry.Layout.wall``) are read too, for the faces of the wall the table turns up: given
the spots of the hand's wall (``expect_wall``: wall place → seat and spot, ``controller.people.camera.wall_spots``),
a tile read at a spot for ``stable`` frames running, the same best reading each time, is a ``wall`` sight of that
place with its ranked readings; a place is told again only when its reading changes (the witness heals a misread
one, and the display shows it unsure, as a discard). A discard read lying turned a quarter is a ``sideways``
discard sight.

After a restart the zones still hold the discards made before it; ``prime`` names them (the rivers the journal
holds), so that they are not reported again while a tile seen beyond them (a discard made while the service was
down) is.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from controller.people.camera import wall_spots
from controller.people.reader import likeliest, split
from controller.people.sights import Choice, Sight, SightKind
from engine.procedure.wall import WallState
from engine.tiles import Tile
from vision.calibrate import Calibration
from vision.capture import Frame
from vision.classify import Model, Prediction
from vision.kinds import Face
from vision.recognize import Recognizer, Seen, SkippingRecognizer, ZoneView
from vision.track import Event, Tracker

log = logging.getLogger(__name__)

KIND_OF_EVENT = {"discard": SightKind.DISCARD, "taken": SightKind.TAKEN, "hand": SightKind.ROW}
ZONES = ("discard", "hand", "wall")
SIDEWAYS = (90, 270)
"""A discard's ``vision.recognize.Seen.turn`` when it lies turned a quarter."""
SEATS = 4
READABLE = 0.05
"""A tile the tracker could not read is a sight (an unsure one) when its best reading is at least this likely; below,
the recogniser's "none of these" won by far (a tile half out of view, a hand, a tile of another set): unread."""


@dataclass(frozen=True)
class Unread:
    """A discard, take or row the camera saw in ``seat``'s zone at frame ``frame`` but could not read (``tiles``:
    what it read, None where it could not)."""

    kind: SightKind
    seat: int
    frame: int
    tiles: tuple[Tile | None, ...]


@dataclass
class _Primed:
    """One seat's zones as the journal left them at a restart: the river's tiles (a multiset), the places where
    tiles lay in the first uncovered view of the zone (None until it is seen), and the row."""

    river: Counter[Tile]
    places: list[tuple[float, float]] | None
    row: tuple[Tile, ...]
    offer: Tile | None = None
    """The seat's discard on offer when the service stopped: taken meanwhile when the first view lacks its face."""


class Lookout:
    """Frames of the table's overhead camera to sights (see the module doc). ``stable``, ``gone`` and ``patience``
    are the tracker's (``vision.track.Tracker``): frames a discard or row must read the same, frames a taken tile
    must stay gone, frames after which a tile that never reads is told. ``skip_unchanged`` False reads every zone
    of every frame (the reference the skipping is measured and tested against)."""

    def __init__(
        self,
        calibration: Calibration,
        model: Model,
        stable: int = 3,
        gone: int = 4,
        patience: int = 12,
        skip_unchanged: bool = True,
    ) -> None:
        self.recognizer = (SkippingRecognizer if skip_unchanged else Recognizer)(calibration, model, ZONES)
        self.layout = calibration.layout
        """The calibrated table's zones (its wall zones hold the spots ``expect_wall`` is given)."""
        self.stable, self.gone, self.patience = stable, gone, patience
        self.tolerance = Tracker().tolerance
        self.unread: list[Unread] = []
        """What the last frame showed and could not be read."""
        self.unread_total = 0
        """Things seen and not read since the lookout was made."""
        self._tracker = self._new_tracker()
        self._primed: list[_Primed | None] = [None] * SEATS
        self._reported: dict[tuple[int, Tile | None], list[tuple[Choice, ...]]] = {}
        """The readings the discards were told with, by seat and the tracker's tile: a take is told with them."""
        self._spots: dict[int, tuple[int, float, float]] = {}
        """The wall's spots (``expect_wall``)."""
        self._wall_seen: dict[int, tuple[Tile, int]] = {}
        """Per wall place: the best reading of the last frames and how many frames running it was read."""
        self._wall_told: dict[int, Tile] = {}
        """Per wall place: the face it was last told as."""

    def _new_tracker(self) -> Tracker:
        """People play on while the camera looks: a tile read unsure but steadily, and readable, is told as soon
        as a sure one (``vision.track``'s ``unsure_after``), in its turn."""
        return Tracker(
            self.stable, self.gone, self.tolerance, self.patience, unsure_after=self.stable, unsure_floor=READABLE
        )

    def new_hand(self) -> None:
        """The zones were swept and the rows cleared: track afresh."""
        self._tracker = self._new_tracker()
        self._primed = [None] * SEATS
        self._reported = {}
        self._wall_seen, self._wall_told = {}, {}

    def expect_wall(self, state: WallState, up: Sequence[int] = ()) -> None:
        """The hand's wall: its places whose faces may be turned up, each with the seat whose wall zone shows it and
        the spot (u, v mm) there (``controller.people.camera.wall_spots`` in the calibrated layout; ``up``: the places
        turned up so far, in order, which give the faces turned up outside the dead wall their spots)."""
        self.expect_spots(wall_spots(state, self.layout, up))

    def expect_spots(self, spots: dict[int, tuple[int, float, float]]) -> None:
        """``expect_wall`` with the spots given: wall place → seat, u, v."""
        self._spots = dict(spots)

    def prime(
        self,
        rivers: Sequence[Sequence[Tile]],
        rows: Sequence[Sequence[Tile]] = (),
        offer: tuple[int, Tile] | None = None,
    ) -> None:
        """After a restart: the tiles each seat's discard zone held when the service stopped (``rivers``, from the
        journal) are not reported again, nor a seat's row that is still ``rows[seat]``.

        The rule: the places where tiles lie in the first uncovered view of a seat's zone are the tiles that were
        there; a discard the tracker then reports at one of those places, of a face still in the seat's river, is
        one of them (and takes that face out of the river); any other (a face not in the river, a place that was
        empty) is reported: a discard made while the service was down, or after it came back. ``offer`` (seat,
        tile): the discard that was on offer; when no tile of that seat's first uncovered view may be its face (its
        answer or a reading at least ``READABLE`` likely), a claimant took it while the service was down, and it is
        reported taken (a win on it, not a self-draw)."""
        if len(rivers) != SEATS or len(rows) not in (0, SEATS):
            raise ValueError(f"prime: expected 4 rivers (and 0 or 4 rows), got {len(rivers)} and {len(rows)}")
        self.new_hand()
        for seat in range(SEATS):
            offered = offer[1] if offer is not None and offer[0] == seat else None
            self._primed[seat] = _Primed(Counter(rivers[seat]), None, tuple(rows[seat]) if rows else (), offered)

    def look(self, frame: Frame) -> list[Sight]:
        """The sights ``frame`` completes, in the tracker's order (seats in turn); what it showed and could not be
        read is in ``unread`` until the next call."""
        views = self.recognizer.read(frame.image)
        walls = [view for view in views if view.zone == "wall"]
        views = [view for view in views if view.zone != "wall"]
        sights = self._first_views(views)
        self.unread = []
        for event in self._tracker.update(views, frame.index, frame.time):
            kind = KIND_OF_EVENT[event.kind]
            choices = self._choices(event, views)
            if self._known(event, choices):  # a declaring discard lying sideways in the river too
                log.info("%s seat %d: already seen before the restart", event.kind, event.seat)
            elif choices is None:
                log.warning("seat %d: a %s the camera could not read (frame %d)", event.seat, kind.value, frame.index)
                self.unread_total += 1
                self.unread.append(Unread(kind, event.seat, frame.index, event.tiles))
            else:
                sideways = kind is SightKind.DISCARD and self._sideways(event, views)
                sights.append(replace(_sight(kind, event.seat, choices), sideways=sideways))
        return sights + self._wall_sights(walls)

    def _wall_sights(self, views: list[ZoneView]) -> list[Sight]:
        """The wall places whose reading has just been steady for ``stable`` frames and differs from the one told."""
        found: dict[int, Seen] = {}
        for view in views:
            for seen in view.tiles:
                place = self._spot_of(view.seat, seen)
                if place is not None and _ranked(seen, seen.tile):
                    found[place] = seen
        sights = []
        for place in list(self._wall_seen):
            if place not in found:
                del self._wall_seen[place]
        for place, seen in found.items():
            ranked = _ranked(seen, seen.tile)
            best = ranked[0][0]
            last, count = self._wall_seen.get(place, (best, 0))
            count = count + 1 if last == best else 1
            self._wall_seen[place] = (best, count)
            if count == self.stable and self._wall_told.get(place) != best:
                self._wall_told[place] = best
                sights.append(replace(_sight(SightKind.WALL, seen.seat, [ranked]), place=place))
        return sights

    def _spot_of(self, seat: int, seen: Seen) -> int | None:
        """The wall place whose spot ``seen`` lies on (within the tracker's tolerance), if any."""
        near = [
            place
            for place, (wall_of, u, v) in self._spots.items()
            if wall_of == seat and abs(u - seen.u) + abs(v - seen.v) <= self.tolerance
        ]
        return min(near, key=lambda place: abs(self._spots[place][1] - seen.u), default=None)

    @staticmethod
    def _sideways(event: Event, views: list[ZoneView]) -> bool:
        """Whether the discard ``event`` reports lies turned a quarter (the tile seen at its place)."""
        view = next((view for view in views if view.seat == event.seat and view.zone == "discard"), None)
        seen = [] if view is None else view.tiles
        near = min(seen, key=lambda one: abs(one.u - event.u) + abs(one.v - event.v), default=None)
        return near is not None and near.turn in SIDEWAYS

    def _choices(self, event: Event, views: list[ZoneView]) -> list[tuple[Choice, ...]] | None:
        """The ranked readings of the event's tiles (None: a tile with no reading at all). A discard's are those of
        the tile seen at its place, a taken tile's those its discard was reported with, a row's those of the zone's
        tiles left to right (as the tracker orders them)."""
        if event.kind == "taken":
            told = self._reported.get((event.seat, event.tiles[0]))
            return [told.pop()] if told else _known_choices(event.tiles)
        zone = "discard" if event.kind == "discard" else "hand"
        view = next((view for view in views if view.seat == event.seat and view.zone == zone), None)
        if view is None:
            return _known_choices(event.tiles)
        if event.kind == "hand":
            seen = sorted(view.tiles, key=lambda seen: seen.u)
            if len(seen) != len(event.tiles):
                return _known_choices(event.tiles)
            out = [_ranked(one, tile) for one, tile in zip(seen, event.tiles, strict=True)]
            return None if any(not ranked for ranked in out) else out
        near = min(view.tiles, key=lambda seen: abs(seen.u - event.u) + abs(seen.v - event.v), default=None)
        ranked = () if near is None else _ranked(near, event.tiles[0])
        if not ranked:
            return None
        self._reported.setdefault((event.seat, event.tiles[0]), []).append(ranked)
        return [ranked]

    def _first_views(self, views: list[ZoneView]) -> list[Sight]:
        """The places of the first uncovered view of each primed discard zone; the discard on offer when the service
        stopped, told taken when none of them may be its face (``_plausible``)."""
        taken = []
        for view in views:
            primed = self._primed[view.seat]
            if view.zone == "discard" and not view.covered and primed is not None and primed.places is None:
                primed.places = [(seen.u, seen.v) for seen in view.tiles]
                read = {split(face)[0] for seen in view.tiles for face in _plausible(seen.prediction)}
                if primed.offer is not None and primed.offer not in read:
                    taken.append(Sight(SightKind.TAKEN, view.seat, (primed.offer,)))
        return taken

    def _known(self, event: Event, choices: list[tuple[Choice, ...]] | None) -> bool:
        """Whether ``event`` reports what the journal held at the restart (see ``prime``). A discard the tracker has
        no steady reading of (an unsure face: a white dragon in glare) is taken by its best reading (``choices``)."""
        primed = self._primed[event.seat]
        if primed is None:
            return False
        if event.kind == "hand":
            known = tuple(None if one is None else split(one)[0] for one in event.tiles) == primed.row
            primed.row = ()  # the row is told again once it changes, even back to the same tiles
            return known
        reading = event.tiles[0] if event.tiles[0] is not None or not choices else choices[0][0][0]
        tile = None if reading is None else split(reading)[0]
        if event.kind != "discard" or tile is None or primed.river[tile] == 0 or not primed.places:
            return False
        near = [place for place in primed.places if abs(place[0] - event.u) + abs(place[1] - event.v) <= self.tolerance]
        if not near:
            return False
        primed.places.remove(near[0])
        primed.river[tile] -= 1
        return True


def _ranked(seen: Seen, tile: Tile | None) -> tuple[Choice, ...]:
    """A seen tile's ranked readings, the tracker's steady reading first when it has one (it may differ from this
    frame's best); () when it has none worth a sight (see ``READABLE``)."""
    ranked = tuple(seen.prediction.choices)
    if tile is None:
        return ranked if ranked and ranked[0][1] >= READABLE else ()
    rest = tuple(choice for choice in ranked if choice[0] != tile)
    first = next((choice for choice in ranked if choice[0] == tile), (tile, seen.prediction.confidence))
    return (first, *rest)


def _plausible(prediction: Prediction) -> set[Face]:
    """The faces a seen tile may be: its answer and each reading at least ``READABLE`` likely (an unsure 6m read
    6p first is still a 6m lying there; a reading the recogniser all but ruled out, a 4z's 0.0001 for 6m, is not)."""
    faces = {face for face, p in prediction.choices if p >= READABLE}
    return faces if prediction.tile is None else {prediction.tile, *faces}


def _known_choices(tiles: tuple[Tile | None, ...]) -> list[tuple[Choice, ...]] | None:
    """The tracker's readings alone (no view to find the choices in): sure, or None when one is unreadable."""
    if None in tiles:
        return None
    return [((tile, 1.0),) for tile in tiles if tile is not None]


def _sight(kind: SightKind, seat: int, choices: list[tuple[Choice, ...]]) -> Sight:
    """A sight of the reader's ranked readings: in the ruleset's tiles, each tile marked where its best reading is
    the marked copy (a red five)."""
    ranked = tuple(_as_tiles(readings) for readings in choices)
    marked = frozenset(at for at, readings in enumerate(choices) if split(readings[0][0])[1])
    return Sight(kind, seat, tuple(readings[0][0] for readings in ranked), ranked, marked=marked)


def _as_tiles(readings: tuple[Choice, ...]) -> tuple[Choice, ...]:
    """Ranked readings as the ruleset's tiles: a marked copy's and its plain tile's are one, the likelier kept."""
    return tuple(likeliest((split(reading)[0], p) for reading, p in readings).items())
