"""One hand as a fold of its events: the live service and the replay after a restart run the same code.

The referee is a pure function of (ruleset, seed, dealer, dice, actions), so applying a hand's journaled events
in order to a fresh ``HandState`` rebuilds exactly the state the service had when it stopped.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from controller.errors import JournalError
from controller.people.sights import Sight
from controller.people.witness import Ruling, Witness
from controller.service.events import Event, EventKind, describe_action
from controller.service.inputs import Button, Press
from engine.actions import Action, Verdict
from engine.procedure.breaking import second_thrower
from engine.referee import Phase, Referee
from engine.rulesets.base import Ruleset
from engine.rulesets.registry import get_ruleset
from engine.settlement import Amount


@dataclass(frozen=True)
class HandRecord:
    """What a hand is dealt from, fixed when it starts. ``number`` counts the hands of the run from 0; ``seed``
    orders the tiles of the simulated table (the physical shuffle on a real one)."""

    number: int
    seed: int
    dealer: int
    round_wind: int
    consecutive_dealer: int
    rules: str
    options: dict[str, Any] = field(default_factory=dict)
    players: str = "bots"
    """``people``: the referee observes (``Referee.observe``), moves come from the camera and the buttons."""
    id: int = 0
    match_id: int = 0
    honba: int = 0
    """What the match carried into the hand (``Match.deal_facts``): 本場, the stakes on the table and, where the match
    keeps points (riichi), each seat's points. The journal derives them from the match state the hand before left."""
    pot: Amount = 0
    scores: tuple[Amount, ...] | None = None

    def ruleset(self) -> Ruleset:
        return get_ruleset(self.rules, self.options)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class HandState:
    """The hand so far: table steps confirmed, the dice, the referee once dealt, the last verdict."""

    record: HandRecord
    ruleset: Ruleset
    steps: list[str] = field(default_factory=list)
    dice: tuple[int, int] | None = None
    dice2: tuple[int, int] | None = None
    """The second throw, where the ruleset breaks the wall on two (``second_thrower`` throws it)."""
    referee: Referee | None = None
    fault: str | None = None
    witness: Witness | None = None
    """People playing: turns the camera's sights and the buttons' presses into the observing referee's actions."""
    voided: bool = False
    """The dealer gave the hand up (``Button.VOID``): it ended with no win and no payment."""
    void_reason: str | None = None
    """Why the service voided the hand itself (a journal that lost the hand's tail), when it did."""

    @classmethod
    def start(cls, record: HandRecord) -> HandState:
        return cls(record, record.ruleset())

    @classmethod
    def replay(cls, record: HandRecord, events: list[Event]) -> HandState:
        state = cls.start(record)
        for event in events:
            state.apply(event)
        return state

    @property
    def over(self) -> bool:
        return self.referee is not None and self.referee.phase is Phase.OVER

    def apply(self, event: Event) -> Verdict | None:
        """Apply one event; an action returns the referee's verdict (an illegal one changed nothing)."""
        if event.kind is EventKind.TABLE:
            self.steps.append(str(event.data.get("step")))
        elif event.kind is EventKind.FAULT:
            self.fault = str(event.data.get("code"))
        elif event.kind is EventKind.BUTTON:
            return self._press(event)
        elif event.kind is EventKind.SIGHT:
            return self._sight(event)
        elif event.kind is EventKind.DICE:
            self._deal(event)
        else:
            if self.referee is None:
                raise JournalError(f"hand {self.record.number}: an action before the dice: {event.to_dict()}")
            try:
                action = Action.from_dict(event.data.get("action"))  # type: ignore[arg-type]
            except ValueError as error:
                raise JournalError(f"hand {self.record.number}: {error}") from None
            return self.referee.apply(action)
        return None

    def _press(self, event: Event) -> Verdict | None:
        """The lift switch and the dice keys are steps of the table cycle. With people playing a claim or hu press
        goes to the witness; with bots, a claim press with no meld called is answered (shown like any verdict) and
        changes nothing."""
        button, seat = event.data.get("button"), event.data.get("seat")
        if button in ("lift", "dice"):
            self.steps.append(f"pressed:{button}")
            return None
        if button == Button.VOID:
            if self.referee is None:
                return Verdict(False, "the dealer held the lift switch to void the hand, but none is dealt")
            verdict = self.referee.void()
            if verdict.ok and not self.voided:
                self.voided = True
                reason = event.data.get("reason")
                self.void_reason = None if reason is None else str(reason)
            return verdict
        if self.witness is None:
            return Verdict(False, f"seat {seat} pressed {button}, but called no meld: the press claims nothing")
        if button not in (Button.CLAIM, Button.HU) or not isinstance(seat, int) or not 0 <= seat <= 3:
            raise JournalError(f"hand {self.record.number}: a press of {button!r} at seat {seat!r}")
        return summed(self.witness.pressed(Press(Button(button), seat)))

    def _sight(self, event: Event) -> Verdict | None:
        if self.witness is None:
            raise JournalError(f"hand {self.record.number}: a camera sight in a hand not watched: {event.to_dict()}")
        try:
            sight = Sight.from_dict(event.data)
        except ValueError as error:
            raise JournalError(f"hand {self.record.number}: {error}") from None
        return summed(self.witness.seen(sight))

    @property
    def second_thrower(self) -> int | None:
        """The seat whose dice key throws the second throw, once the first is known and while the second is not
        (``None`` otherwise, and always for a ruleset that breaks the wall on one throw)."""
        if self.dice is None or self.referee is not None:
            return None
        return second_thrower(self.ruleset.break_method, self.record.dealer, self.dice)

    def _deal(self, event: Event) -> None:
        """The dealer's throw deals the hand, or where the wall is broken by two throws (Harbin, basic's
        ``two_throws``) the throw of the seat it points to does: both are ``dice`` events, in order."""
        if self.referee is not None:
            raise JournalError(f"hand {self.record.number}: dice thrown after the hand was dealt")
        values = event.data.get("dice")
        if not (isinstance(values, list) and len(values) == 2 and all(v in range(1, 7) for v in values)):
            raise JournalError(f"hand {self.record.number}: dice: expected two values 1-6, got {values!r}")
        record, throw = self.record, (values[0], values[1])
        self.fault = None
        if self.dice is None:
            self.dice = throw
            if self.second_thrower is not None:
                return
        else:
            self.dice2 = throw
        winds = {"round_wind": record.round_wind, "consecutive_dealer": record.consecutive_dealer}
        winds |= {"honba": record.honba, "pot": record.pot, "scores": record.scores}
        if record.players == "people":
            self.referee = Referee.observe(self.ruleset, record.dealer, self.dice, self.dice2, **winds)
            self.witness = Witness(self.referee)
        else:
            self.referee = Referee.deal(self.ruleset, record.seed, record.dealer, self.dice, self.dice2, **winds)


def summed(rulings: list[Ruling]) -> Verdict | None:
    """The witness's rulings on one sight or press as one verdict to journal and show: ok when every action it
    made was; each ruling described in ``events``, the failures' reasons joined in ``reason``."""
    if not rulings:
        return None
    lines, failures = [], []
    for ruling in rulings:
        verdict = ruling.verdict
        what = "" if ruling.action is None else describe_action(ruling.action.to_dict()) + ": "
        follow = f" ({'; '.join(verdict.events)})" if verdict.events else ""
        lines.append(what + ("ok" + follow if verdict.ok else verdict.reason))
        if not verdict.ok:
            failures.append(what + verdict.reason)
    return Verdict(not failures, "; ".join(failures), tuple(lines))
