"""What the overhead camera reports of a table where people play: the service's input from vision, journaled.

With people seated (``service.players = "people"``) the service never sees a player's concealed tiles or hears
what he means; it sees

- ``discard``: a tile that came to rest in a seat's discard zone (``tiles`` holds that one tile);
- ``taken``: a discard taken back out of a seat's zone by a claimant's hand (``tiles`` holds it);
- ``row``: the face-up tiles in front of a seat changed and stayed still (``tiles``: all of them, left to right
  as the seat sees them): the exposed melds and flowers, a 定缺 tile shown, the hand laid down at a win;
- ``quiet``: no sight and no press for the ruleset's claim window after a tile was offered (the service makes
  this one from the frames' clock, so that replaying the journal reaches the same decision);

and the seat buttons' presses (``controller.service.inputs.Press``). ``controller.people.witness`` turns these into the
referee's actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.errors import NotationError
from engine.tiles import Tile, format_tiles, parse_tiles


class SightKind(StrEnum):
    DISCARD = "discard"
    TAKEN = "taken"
    ROW = "row"
    QUIET = "quiet"


@dataclass(frozen=True)
class Sight:
    kind: SightKind
    seat: int = -1
    """The seat whose zone it was seen in; -1 for ``quiet``."""
    tiles: tuple[Tile, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sight": self.kind.value, "seat": self.seat}
        if self.tiles:
            out["tiles"] = format_tiles(self.tiles)
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
        if kind in (SightKind.DISCARD, SightKind.TAKEN) and len(tiles) != 1:
            raise ValueError(f"sight.tiles: a {kind.value} sight holds one tile, got {len(tiles)}")
        return cls(kind, seat, tiles)
