"""What players do at the table, and the referee's answer to it.

Actions are the referee's only input besides the ruleset and the dealt wall, so a hand is replayed exactly
from its action list (the controller journals them as ``to_dict`` JSON).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.errors import NotationError
from engine.tiles import Tile, format_tiles, parse_tile, parse_tiles


class ActionKind(StrEnum):
    DRAW = "draw"
    """Take the next live-wall tile (the referee draws it: the wall is the referee's)."""
    DISCARD = "discard"
    READY = "ready"
    """Discard ``tile`` declaring the hand ready (立直, 报听), where the ruleset has a ready declaration."""
    FLOWER = "flower"
    """Set a flower aside; the referee draws its replacement from the tail."""
    CONCEALED_KONG = "concealed_kong"
    ADDED_KONG = "added_kong"
    CHI = "chi"
    """Claim the discard for a chow; ``tile`` is the chow's lowest tile."""
    PUNG = "pung"
    KONG = "kong"
    """Claim the discard for an exposed kong."""
    HU = "hu"
    """Declare a win: on one's own draw, on a discard, or robbing an added kong."""
    PASS = "pass"
    """Decline the discard (or the added kong) on offer."""
    DECLARE_VOID = "declare_void"
    """定缺 (Sichuan): before the dealer's first discard, declare a suit void; ``tile`` is any tile of that suit."""
    SHOW = "show"
    """Lay the concealed hand face up (``revealed``) once the live wall is empty, at a table that sees only backs: a
    drawn hand is settled on the hands left standing (Sichuan 查叫)."""
    FACE = "face"
    """A face of the wall the table turned up and the camera read (a bonus or wildcard indicator, the tile under an
    indicator shown at a win): ``tile`` seen at the wall's head-order index ``place``; ``seat`` is the seat whose
    wall holds it. A table that sees only backs learns the wall's faces so (``Referee.faces_up``)."""
    ABORT = "abort"
    """End the hand drawn where the ruleset lets a player do so (riichi's 九種九牌), showing the hand (``revealed``)
    when the referee cannot see it."""


_TILE_KINDS = {
    ActionKind.DISCARD,
    ActionKind.READY,
    ActionKind.FLOWER,
    ActionKind.CONCEALED_KONG,
    ActionKind.ADDED_KONG,
    ActionKind.CHI,
    ActionKind.DECLARE_VOID,
    ActionKind.FACE,
}


@dataclass(frozen=True)
class Action:
    """One player's action. ``revealed`` is the concealed hand shown with a win, when the referee cannot see it."""

    kind: ActionKind
    seat: int
    tile: Tile | None = None
    revealed: tuple[Tile, ...] | None = None
    marked: bool = False
    """The seat's marked copy of the face (a red five), where it holds a plain one too: the copy discarded, added to
    a kong, or laid in a claimed meld (a replayed record says which; otherwise the plain copy goes first)."""
    place: int | None = None
    """A ``face``: the wall's head-order index where the face lies (``engine.procedure.WallState.positions``)."""
    revealed_marked: tuple[Tile, ...] = ()
    """The faces of the marked copies (red fives) among ``revealed``: a table that sees only backs learns them when
    the hand is laid down (the camera tells a red five from a plain one)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat}
        if self.tile is not None:
            out["tile"] = format_tiles([self.tile])
        if self.revealed is not None:
            out["revealed"] = format_tiles(self.revealed)
        if self.marked:
            out["marked"] = True
        if self.place is not None:
            out["place"] = self.place
        if self.revealed_marked:
            out["revealed_marked"] = format_tiles(self.revealed_marked)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """Read an action from JSON; a ``ValueError`` names the bad field."""
        if not isinstance(data, dict):
            raise ValueError("action: expected a JSON object")
        try:
            kind = ActionKind(data.get("kind"))
        except ValueError:
            raise ValueError(f"action.kind: expected one of {', '.join(k.value for k in ActionKind)}") from None
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise ValueError("action.seat: expected a seat number 0-3")
        tile = None
        if "tile" in data:
            try:
                tile = parse_tile(str(data["tile"]))
            except NotationError as error:
                raise ValueError(f"action.tile: {error}") from None
        elif kind in _TILE_KINDS:
            raise ValueError(f"action.tile: a {kind.value} names a tile")
        revealed = None
        if "revealed" in data:
            try:
                revealed = tuple(parse_tiles(str(data["revealed"])))
            except NotationError as error:
                raise ValueError(f"action.revealed: {error}") from None
        revealed_marked: tuple[Tile, ...] = ()
        if "revealed_marked" in data:
            try:
                revealed_marked = tuple(parse_tiles(str(data["revealed_marked"])))
            except NotationError as error:
                raise ValueError(f"action.revealed_marked: {error}") from None
        marked = data.get("marked", False)
        if not isinstance(marked, bool):
            raise ValueError("action.marked: expected true or false")
        place = data.get("place")
        if kind is ActionKind.FACE and (not isinstance(place, int) or isinstance(place, bool) or place < 0):
            raise ValueError(f"action.place: a face names its place in the wall (an index 0 or more), got {place!r}")
        place = place if kind is ActionKind.FACE else None
        return cls(kind, seat, tile, revealed, marked, place, revealed_marked)


@dataclass(frozen=True)
class Verdict:
    """The referee's answer: ``ok`` or illegal with a ``reason``; an illegal action changed nothing."""

    ok: bool
    reason: str = ""
    events: tuple[str, ...] = ()
    """What followed from an accepted action, in order: e.g. ``"replacement drawn"``, ``"hu"``, ``"drawn game"``."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok}
        if self.reason:
            out["reason"] = self.reason
        if self.events:
            out["events"] = list(self.events)
        return out
