"""Frames to table events: a tile that stays put in a seat's discard zone is a discard, a discard that is gone
once a hand has reached into the zone was taken (a claim), the face-up tiles in a seat's hand zone (its melds and
flowers, a revealed hand) are read whenever they change and stay the same.

Debounced: a discard is reported after its reading agrees over ``stable`` consecutive uncovered frames, a take
after ``gone`` uncovered frames without the tile, following a frame where something covered the zone (a tile
does not leave by itself: one the detector loses for a while under a light change is not taken, and not
discarded again when it is found). While a hand or arm covers a zone, nothing in it changes state. A tile is
reported once: it is remembered by its place until it is taken.

``unsure_after`` (off by default) tells a tile read below the model's threshold as unknown (the caller finds its
ranked readings in the view) once its best reading, at least ``unsure_floor`` likely, has stayed the same over that
many frames, not only after ``patience``: where people play on while the camera looks (``controller.people.lookout``),
a face that reads the same frame after frame does not get surer by waiting, and meanwhile the next player discards or
a claimant presses and takes it, so that a late report tells the table's moves out of order, or not at all. A row is
told by its best readings in the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.tiles import Tile, tile_code
from vision.classify import UNKNOWN
from vision.kinds import face_code, parse_face
from vision.recognize import Seen, ZoneView

log = logging.getLogger(__name__)

KINDS = ("discard", "taken", "hand")


@dataclass(frozen=True)
class Event:
    """``discard`` / ``taken``: one tile (None when unreadable) at (u, v) mm in the seat's zone; ``hand``: the
    tiles of the seat's revealed hand, left to right as the seat sees them."""

    kind: str
    seat: int
    tiles: tuple[Tile | None, ...]
    frame: int
    time: float
    u: float = 0.0
    v: float = 0.0
    confidence: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        codes = [UNKNOWN if tile is None else face_code(tile) for tile in self.tiles]  # faces: 0m a red five
        data: dict[str, Any] = {"event": self.kind, "seat": self.seat, "frame": self.frame, "time": round(self.time, 3)}
        if self.kind == "hand":
            return data | {"tiles": codes}
        return data | {
            "tile": codes[0],
            "u": round(self.u, 1),
            "v": round(self.v, 1),
            "confidence": round(self.confidence, 3),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        codes = data["tiles"] if data["event"] == "hand" else [data["tile"]]
        tiles = tuple(None if code == UNKNOWN else parse_face(code) for code in codes)
        position = (float(data.get("u", 0.0)), float(data.get("v", 0.0)), float(data.get("confidence", 0.0)))
        return cls(data["event"], int(data["seat"]), tiles, int(data["frame"]), float(data["time"]), *position)


@dataclass
class _Track:
    """A tile at one place of a discard zone, seen over several frames."""

    u: float
    v: float
    readings: list[Tile | None] = field(default_factory=list)
    best: list[Tile | None] = field(default_factory=list)
    """Each frame's best reading, sure or at least the tracker's ``unsure_floor`` likely (None: neither)."""
    confidence: list[float] = field(default_factory=list)
    misses: int = 0
    reported: Event | None = None
    reached: bool = False
    """Something covered the zone since the tile was last seen: only then can it have been taken."""

    def tile(self, stable: int) -> Tile | None:
        return _steady(self.readings, stable)


def _steady(readings: list[Tile | None], stable: int) -> Tile | None:
    """The reading of the last ``stable`` frames when they all agree on one (None: they do not, or read nothing)."""
    recent = readings[-stable:]
    return recent[0] if len(recent) == stable and recent[0] is not None and len(set(recent)) == 1 else None


def _best(seen: Seen, floor: float) -> Tile | None:
    """The best reading of a seen tile, sure or at least ``floor`` likely (None: below, or no reading at all)."""
    choices = seen.prediction.choices
    if seen.tile is not None or not choices or choices[0][1] < floor:
        return seen.tile
    return choices[0][0]


@dataclass
class _HandZone:
    """A seat's hand zone: what it showed in the last frame (its readings, or its best readings with
    ``unsure_after``), over how many frames that stayed the same, and what was last reported."""

    last: tuple[Tile | None, ...] = ()
    same: int = 0
    reported: tuple[Tile | None, ...] = ()


class Tracker:
    """Turns ``ZoneView``s, frame after frame, into ``Event``s."""

    def __init__(
        self,
        stable: int = 3,
        gone: int = 4,
        tolerance: float = 12.0,
        patience: int = 12,
        unsure_after: int | None = None,
        unsure_floor: float = 0.0,
    ) -> None:
        """``tolerance``: mm a tile may seem to move and stay the same tile; ``patience``: uncovered frames after
        which a tile that never reads steadily is reported as an unknown discard; ``unsure_after`` and
        ``unsure_floor``: see the module doc. A reported tile is kept until a hand has reached into its zone and it
        is gone: one a light change hides is found again, never re-reported. Make a new tracker for each hand."""
        self.stable, self.gone, self.tolerance, self.patience = stable, gone, tolerance, patience
        self.unsure_after, self.unsure_floor = unsure_after, unsure_floor
        self._tracks: dict[int, list[_Track]] = {seat: [] for seat in range(4)}
        self._hands: dict[int, _HandZone] = {seat: _HandZone() for seat in range(4)}

    def update(self, views: Iterable[ZoneView], frame: int, time: float) -> list[Event]:
        events: list[Event] = []
        for view in views:
            if view.covered:
                if view.zone == "discard":
                    for track in self._tracks[view.seat]:
                        track.reached = True
                continue
            if view.zone == "discard":
                events += self._discards(view, frame, time)
            elif view.zone == "hand":
                events += self._hand(view, frame, time)
        for event in events:
            codes = " ".join(UNKNOWN if tile is None else tile_code(tile) for tile in event.tiles)
            log.info("%s seat %d %s (frame %d)", event.kind, event.seat, codes, frame)
        return events

    def _match(self, tracks: list[_Track], seen: tuple[Seen, ...]) -> list[tuple[_Track | None, Seen | None]]:
        """Pairs of a track and what is seen at its place, closest first; unpaired on either side with None."""
        pairs = sorted(
            ((abs(t.u - s.u) + abs(t.v - s.v), i, j) for i, t in enumerate(tracks) for j, s in enumerate(seen)),
        )
        used_t: set[int] = set()
        used_s: set[int] = set()
        out: list[tuple[_Track | None, Seen | None]] = []
        for distance, i, j in pairs:
            if distance <= self.tolerance and i not in used_t and j not in used_s:
                used_t.add(i)
                used_s.add(j)
                out.append((tracks[i], seen[j]))
        out += [(t, None) for i, t in enumerate(tracks) if i not in used_t]
        out += [(None, s) for j, s in enumerate(seen) if j not in used_s]
        return out

    def _discards(self, view: ZoneView, frame: int, time: float) -> list[Event]:
        tracks = self._tracks[view.seat]
        events = []
        for track, seen in self._match(tracks, view.tiles):
            if track is None and seen is not None:
                track = _Track(seen.u, seen.v)
                tracks.append(track)
            if track is None:
                continue
            if seen is None:
                track.misses += 1
                if track.reported is None and track.misses >= self.gone:
                    tracks.remove(track)  # a blip, never reported
                elif track.reported is not None and track.misses >= self.gone and track.reached:
                    tracks.remove(track)
                    taken = track.reported
                    events.append(
                        Event("taken", view.seat, taken.tiles, frame, time, track.u, track.v, taken.confidence)
                    )
                continue
            track.misses = 0
            track.reached = False
            track.u, track.v = seen.u, seen.v
            track.readings.append(seen.tile)
            track.best.append(_best(seen, self.unsure_floor))
            track.confidence.append(seen.prediction.confidence)
            steady = track.tile(self.stable) is not None
            settled = self.unsure_after is not None and _steady(track.best, self.unsure_after) is not None
            if track.reported is None and (steady or settled or len(track.readings) >= self.patience):
                tile = track.tile(self.stable)
                confidence = min(track.confidence[-self.stable :]) if tile is not None else 0.0
                track.reported = Event("discard", view.seat, (tile,), frame, time, track.u, track.v, confidence)
                events.append(track.reported)
        return events

    def _hand(self, view: ZoneView, frame: int, time: float) -> list[Event]:
        state = self._hands[view.seat]
        ordered = sorted(view.tiles, key=lambda seen: seen.u)
        tiles = tuple(seen.tile for seen in ordered)
        shown = tiles if self.unsure_after is None else tuple(_best(seen, self.unsure_floor) for seen in ordered)
        state.same = state.same + 1 if shown == state.last else 1
        state.last = shown
        # One tile is a row too (a flower laid face up); one that never reads is reported once the row has lain
        # still ``patience`` frames, so that a row the camera cannot read is told, not waited for.
        if None not in tiles:
            needed = self.stable
        elif self.unsure_after is not None and None not in shown:
            needed = max(self.stable, self.unsure_after)
        else:
            needed = max(self.stable, self.patience)
        if shown and state.same >= needed and shown != state.reported:
            state.reported = shown
            return [Event("hand", view.seat, tiles, frame, time)]
        return []
