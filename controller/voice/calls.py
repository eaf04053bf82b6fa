"""Which moments of a hand the table says: the service's events and lines turned into calls.

A claim is said when the referee grants it, not when a player answers: a pung answered can still lose to a hu on
the same discard. A kong declared from the hand (concealed or added) is said when it is made, a win as 胡 or, drawn
from the wall, 自摸 (each winner of a hand that goes on after a win, Sichuan's 血战, when he wins), followed by what
the win brings its winner (its payments' gain, where the ruleset settles), a drawn hand as 流局 from the hand's result
line, or by its name when it is one of riichi's abortive draws (九種九牌 …; a voided hand is no drawn game and is not
said), a discard by its tile's name, a ready declaration (riichi's
立直, ``ActionKind.READY``) as riichi before its discard's name, and the hand's wildcards (Hubei 赖子, 推倒胡 鬼牌) as
soon as the indicator turned up makes them (on a resumed hand, again).
What was granted is read from the referee's public state (its count of claims made, its wins) rather than from the
verdict's words, which are for people.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from controller.service.events import EventKind
from controller.voice.phrases import ABORTIVE
from engine.notation import MeldKind
from engine.tiles import tile_code

if TYPE_CHECKING:
    from controller.service.events import Event
    from controller.service.hand import HandState
    from engine.actions import Verdict

_MELD_CALL = {MeldKind.CHOW: "chi", MeldKind.PUNG: "pung", MeldKind.KONG: "kong"}
_KONG_ACTIONS = ("concealed_kong", "added_kong")


@dataclass(frozen=True)
class Call:
    what: str
    """One of ``controller.voice.phrases.CALLS``, ``discard`` or ``points``."""
    seat: int | None = None
    tile: str = ""
    """A discard's tile code (``3m``)."""
    amount: int = 0
    """The points of a ``points`` call."""


class Caller:
    """Keeps the referee's counts of the hand it last saw, so that each grant and each win is called once.

    On a resumed hand the first event seen sets the counts (the hand was replayed without listeners): a claim
    granted by exactly that event goes unsaid, never an old one said again."""

    def __init__(self) -> None:
        self._hand: int | None = None
        self._claims = 0
        self._wins = 0
        self._wild: frozenset[int] = frozenset()

    def of_event(self, hand: HandState, event: Event, verdict: Verdict | None) -> list[Call]:
        referee = hand.referee
        if referee is None:
            return []
        if self._hand != hand.record.number:
            self._hand, self._claims, self._wins = hand.record.number, referee.claims_made, len(referee.wins)
            self._wild = frozenset()
        calls: list[Call] = []
        wild = referee.wildcard_faces()
        if wild != self._wild:  # the indicator turned up (read, at a people's table): the wildcards said
            self._wild = wild
            calls += [Call("wild", tile=tile_code(tile)) for tile in sorted(wild)]
        if event.kind is EventKind.ACTION and verdict is not None and verdict.ok:
            action = event.data["action"]
            if action["kind"] == "ready":  # 立直: said, then its discard like any other
                calls.append(Call("riichi", action["seat"]))
            if action["kind"] in ("discard", "ready") and action.get("tile"):
                calls.append(Call("discard", action["seat"], action["tile"]))
            elif action["kind"] in _KONG_ACTIONS:
                calls.append(Call("kong", action["seat"]))
        if referee.claims_made > self._claims:
            seat = referee.turn  # a granted claim starts the claimer's turn
            calls.append(Call(_MELD_CALL[referee.seats[seat].melds[-1].kind], seat))
        for record in referee.wins[self._wins :]:
            calls.append(Call("self_drawn" if record.context.discarder is None else "hu", record.seat))
            calls += _points(record.seat, record.score.payments)
        self._claims, self._wins = referee.claims_made, len(referee.wins)
        return calls

    @staticmethod
    def of_line(line: dict[str, Any]) -> list[Call]:
        """A hand's result line: 流局 for a drawn hand, or the abortive draw's name (its wins were said as they
        happened)."""
        if "wins" in line and line.get("drawn") and not line.get("voided"):
            abortive = line.get("abortive")
            return [Call(abortive if abortive in ABORTIVE else "drawn")]
        return []


def _points(seat: int, payments: Mapping[int, float] | None) -> list[Call]:
    """What a win brings its winner, said after the win; nothing where the ruleset states no settlement."""
    gain = round(payments[seat]) if payments else 0
    return [Call("points", seat, amount=gain)] if gain > 0 else []
