"""The service's inputs as typed, timestamped events: what the journal stores and the hand replays.

A hand is a fold of its events (``controller.service.hand``), so an event holds everything needed to apply it again:
the MCU's confirmation of a table step, the dice it read, a player's action (from a bot, the camera or a seat
button), a press of the lift switch or a dice key, a fault the MCU latched, and where people play what the camera
saw. ``at`` is wall-clock time for the hand log; it never changes the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from controller.errors import JournalError
from controller.people.sights import Sight
from engine.actions import Action


class EventKind(StrEnum):
    TABLE = "table"
    """An MCU-confirmed step of the table cycle (``data["step"]``: hatch_open, intake, shuffled, walls_built,
    lifted, lowered; ``next:shuffled`` and ``next:walls_built`` for the set built during the hand, journaled at the
    hand's fixed point: ``controller.service.nextwalls``). Walls built carry the MCU's tile ``counts`` per side and
    the ``set`` built (its ``built_set``, 0 or 1, alternating with each build; a simulated table restarted with the
    service is restored to it: ``controller.service.tableside``)."""
    DICE = "dice"
    """The dice the MCU read (``data["dice"]``): with them the walls break and the hand is dealt."""
    ACTION = "action"
    """A player's action for the referee (``data["action"]``, ``data["source"]``: bot, camera, button)."""
    FAULT = "fault"
    """A fault the MCU latched (``data["code"]``); the table stopped."""
    BUTTON = "button"
    """A press that is no action (``data["button"]``, ``data["seat"]``): the lift switch, a dice key, a claim
    with no meld called. A claim or hu press that is an action is an ``action`` with ``source`` button. With
    people playing, every claim and hu press is one of these: the witness (``controller.people.witness``) makes the
    actions."""
    SIGHT = "sight"
    """What the camera saw at a table where people play (``controller.people.sights.Sight.to_dict``)."""


@dataclass(frozen=True)
class Event:
    kind: EventKind
    data: dict[str, Any] = field(default_factory=dict)
    at: float = 0.0

    @classmethod
    def table(cls, step: str, at: float, **facts: Any) -> Event:
        return cls(EventKind.TABLE, {"step": step, **facts}, at)

    @classmethod
    def dice(cls, dice: tuple[int, int], at: float, **facts: Any) -> Event:
        """``facts``: the MCU's ``serial`` of the throw (its snapshot's dice_serial), which a resume checks the
        journal against (``controller.service.tail``)."""
        return cls(EventKind.DICE, {"dice": list(dice), **facts}, at)

    @classmethod
    def action(cls, action: Action, source: str, at: float) -> Event:
        return cls(EventKind.ACTION, {"action": action.to_dict(), "source": source}, at)

    @classmethod
    def button(cls, button: str, seat: int, at: float) -> Event:
        return cls(EventKind.BUTTON, {"button": button, "seat": seat}, at)

    @classmethod
    def sight(cls, sight: Sight, at: float) -> Event:
        return cls(EventKind.SIGHT, sight.to_dict(), at)

    @classmethod
    def fault(cls, code: str, at: float) -> Event:
        return cls(EventKind.FAULT, {"code": code}, at)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "at": self.at, **self.data}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        """Read an event back; a ``JournalError`` names the bad field."""
        body = dict(data)
        try:
            kind = EventKind(body.pop("kind", None))
        except ValueError:
            raise JournalError(f"event.kind: expected one of {', '.join(k.value for k in EventKind)}") from None
        at = body.pop("at", 0.0)
        if not isinstance(at, int | float):
            raise JournalError(f"event.at: expected a timestamp, got {at!r}")
        return cls(kind, body, float(at))


def describe_action(action: dict[str, Any]) -> str:
    """``seat 1 discard 5m``: an action (``Action.to_dict``) as the service's log and the hand log write it."""
    return f"seat {action['seat']} {action['kind']} {action.get('tile', '')}".rstrip()
