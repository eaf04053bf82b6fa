"""What the overhead camera reports of a table where people play: the service's input from vision, journaled.

With people seated (``service.players = "people"``) the service never sees a player's concealed tiles or hears
what he means; it sees

- ``discard``: a tile that came to rest in a seat's discard zone (``tiles`` holds that one tile); ``sideways`` when it
  lies turned a quarter (a ready declaration's discard, 立直, with the seat's held press: ``tablemodel``);
- ``taken``: a discard taken back out of a seat's zone by a claimant's hand (``tiles`` holds it);
- ``row``: the face-up tiles in front of a seat changed and stayed still (``tiles``: all of them, left to right
  as the seat sees them): the exposed melds and flowers, a 定缺 tile shown, the hand laid down at a win;
- ``wall``: a face of the wall turned up where it lies (a bonus indicator, a tile under one shown at a win: the
  referee's ``faces_up``), read at its place; ``place`` is the wall's head-order index, ``seat`` the seat whose wall
  holds it, ``tiles`` the one face;
- ``quiet``: no sight and no press for the ruleset's claim window after a tile was offered (the service makes
  this one from the frames' clock, so that replaying the journal reaches the same decision);
- ``correct``: not the camera's but a seat's word, tapped on the display (``POST /api/correct``): its last unsure
  reading is ``tiles``. It is journaled as a sight so that a replay feeds it to the witness at the same place.

Each tile of a sight keeps the recogniser's ranked readings (``choices``: best first, with their probabilities), so
that the witness can take the next most likely one when the first is impossible, and the display can show a reading
below ``UNSURE`` as unsure. A sight journaled without choices (before they were kept) has its one reading per tile.

And the seat buttons' presses (``controller.service.inputs.Press``). ``controller.people.witness`` turns these into the
referee's actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.errors import NotationError
from engine.tiles import Tile, format_tiles, parse_tile, parse_tiles, tile_code


class SightKind(StrEnum):
    DISCARD = "discard"
    TAKEN = "taken"
    ROW = "row"
    QUIET = "quiet"
    CORRECT = "correct"
    WALL = "wall"


Choice = tuple[Tile, float]
"""One reading of a tile and its probability."""
UNSURE = 0.5
"""A reading whose probability is below this is shown as unsure (the shipped model's own threshold for an answer)."""
MAX_CHOICES = 5
"""Readings kept per tile at most (the recogniser gives 3)."""


@dataclass(frozen=True)
class Sight:
    kind: SightKind
    seat: int = -1
    """The seat whose zone it was seen in; -1 for ``quiet``."""
    tiles: tuple[Tile, ...] = ()
    """The best reading of each tile."""
    choices: tuple[tuple[Choice, ...], ...] = field(default=(), compare=False)
    """Per tile, the ranked readings (the first is ``tiles[i]``); () when each tile has only its one reading. Not
    compared: a sight is what was seen, its choices how sure the camera was."""
    about: int = -1
    """A ``correct`` sight: the number of the hand's sight it corrects (``Witness.unsure``'s ``n``); -1 the seat's
    latest open reading."""
    sideways: bool = False
    """A ``discard`` laid turned a quarter (the declaring discard of a ready declaration)."""
    place: int = -1
    """A ``wall`` sight: the wall's head-order index of the face (``engine.procedure.WallState.positions``)."""
    marked: frozenset[int] = frozenset()
    """The positions of the tiles read as their face's marked copy (a red five, 赤ドラ, where the set marks it)."""

    def readings(self, index: int) -> tuple[Choice, ...]:
        """The ranked readings of the ``index``-th tile (its one reading, sure, without choices)."""
        return self.choices[index] if self.choices else ((self.tiles[index], 1.0),)

    def unsure(self) -> list[int]:
        """The positions of the tiles read below ``UNSURE``."""
        return [index for index in range(len(self.tiles)) if self.readings(index)[0][1] < UNSURE]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sight": self.kind.value, "seat": self.seat}
        if self.tiles:
            out["tiles"] = format_tiles(self.tiles)
        if self.about >= 0:
            out["about"] = self.about
        if self.place >= 0:
            out["place"] = self.place
        if self.sideways:
            out["sideways"] = True
        if self.marked:
            out["marked"] = sorted(self.marked)
        if self.choices:
            out["choices"] = [[[tile_code(tile), round(p, 4)] for tile, p in ranked] for ranked in self.choices]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Sight:
        """Read a sight back; a ``ValueError`` names the bad field."""
        try:
            kind = SightKind(data.get("sight"))
        except ValueError:
            raise ValueError(f"sight: expected one of {', '.join(k.value for k in SightKind)}") from None
        seat = data.get("seat", -1)
        if not isinstance(seat, int) or isinstance(seat, bool) or not -1 <= seat <= 3:
            raise ValueError("sight.seat: expected a seat number 0-3 (or -1 for quiet)")
        if (seat == -1) != (kind is SightKind.QUIET):
            raise ValueError(f"sight.seat: a {kind.value} sight {'has no' if seat == -1 else 'names a'} seat")
        text = data.get("tiles", "")
        try:
            tiles = tuple(parse_tiles(str(text))) if text else ()
        except NotationError as error:
            raise ValueError(f"sight.tiles: {error}") from None
        if kind in (SightKind.DISCARD, SightKind.TAKEN, SightKind.WALL) and len(tiles) != 1:
            raise ValueError(f"sight.tiles: a {kind.value} sight holds one tile, got {len(tiles)}")
        if kind is SightKind.CORRECT and not tiles:
            raise ValueError("sight.tiles: a correct sight names the tiles the seat says it shows")
        about = data.get("about", -1)
        if not isinstance(about, int) or isinstance(about, bool) or about < -1:
            raise ValueError(f"sight.about: expected the number of a sight (0 or more), got {about!r}")
        place = data.get("place", -1)
        if kind is SightKind.WALL and (not isinstance(place, int) or isinstance(place, bool) or place < 0):
            raise ValueError(f"sight.place: a wall sight names the wall place of its face (0 or more), got {place!r}")
        place = place if kind is SightKind.WALL else -1
        sideways = data.get("sideways", False)
        if not isinstance(sideways, bool):
            raise ValueError(f"sight.sideways: expected true or false, got {sideways!r}")
        choices = _choices(data.get("choices"), tiles)
        marked = _marked(data.get("marked", []), len(tiles))
        sideways = sideways and kind is SightKind.DISCARD
        return cls(kind, seat, tiles, choices, about, sideways=sideways, place=place, marked=marked)


def _marked(data: Any, size: int) -> frozenset[int]:
    """The ``marked`` field read back: distinct positions among the sight's tiles."""
    if not isinstance(data, list) or any(isinstance(at, bool) or not isinstance(at, int) for at in data):
        raise ValueError(f"sight.marked: expected a list of tile positions, got {data!r}")
    if len(set(data)) != len(data) or any(not 0 <= at < size for at in data):
        raise ValueError(f"sight.marked: expected distinct positions 0-{size - 1} of the sight's tiles, got {data}")
    return frozenset(data)


def _choices(data: Any, tiles: tuple[Tile, ...]) -> tuple[tuple[Choice, ...], ...]:
    """The ``choices`` field read back: per tile a list of [code, probability], the first its tile."""
    if data is None:
        return ()
    if not isinstance(data, list) or len(data) != len(tiles):
        raise ValueError(f"sight.choices: expected a list of ranked readings per tile ({len(tiles)})")
    out = []
    for index, ranked in enumerate(data):
        if not isinstance(ranked, list) or not 1 <= len(ranked) <= MAX_CHOICES:
            raise ValueError(f"sight.choices[{index}]: expected 1-{MAX_CHOICES} [tile, probability] pairs")
        out.append(tuple(_choice(pair, f"sight.choices[{index}]") for pair in ranked))
        if out[-1][0][0] != tiles[index]:
            raise ValueError(f"sight.choices[{index}]: the first reading is not the tile {tile_code(tiles[index])}")
    return tuple(out)


def _choice(pair: Any, where: str) -> Choice:
    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
        raise ValueError(f'{where}: expected [tile, probability] pairs such as ["5m", 0.61]')
    probability = pair[1]
    if isinstance(probability, bool) or not isinstance(probability, int | float) or not 0 <= probability <= 1:
        raise ValueError(f"{where}: probability {probability!r}: expected a number 0-1")
    try:
        return parse_tile(pair[0]), float(probability)
    except NotationError as error:
        raise ValueError(f"{where}: {error}") from None
