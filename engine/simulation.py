"""Four bots play whole hands under the referee: the workload behind ``mjtable simulate`` and the invariant
tests. Every action must be accepted and the tiles must balance after each one; anything else is a bug."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, ActionKind
from engine.bots import SimpleBot
from engine.match import Match
from engine.referee import Phase, Referee
from engine.rulesets.base import Ruleset
from engine.tiles import WIND_LETTERS

SEATS = 4


class InvariantViolation(AssertionError):
    """The referee rejected a bot's legal move or lost count of a tile."""


@dataclass(frozen=True)
class SimulatedHand:
    number: int
    seed: int
    dealer: int
    round_wind: int
    referee: Referee

    def to_dict(self) -> dict[str, Any]:
        referee = self.referee
        result = referee.result
        assert result is not None
        return {
            "hand": self.number,
            "seed": self.seed,
            "dealer": self.dealer,
            "round_wind": WIND_LETTERS[self.round_wind],
            "dice": list(referee.dice or ()),
            "actions": len(referee.history),
            "drawn": result.drawn,
            "winners": list(result.winners),
            "payments": {str(seat): amount for seat, amount in result.payments.items()},
            "wins": [record.to_dict() for record in referee.wins],
        }


def play_hand(referee: Referee, bots: list[SimpleBot], *, check: bool = True) -> Referee:
    """Play one dealt hand to its end; ``check`` verifies the tile balance after every action."""
    while referee.phase is not Phase.OVER:
        for action in _next_actions(referee, bots):
            verdict = referee.apply(action)
            if not verdict.ok:
                raise InvariantViolation(f"referee rejected {action.to_dict()}: {verdict.reason}")
            if check:
                referee.check_balance()
    return referee


def _next_actions(referee: Referee, bots: list[SimpleBot]) -> list[Action]:
    if referee.phase is Phase.DECLARE:
        return [bots[seat].declare(referee) for seat in referee.undeclared_seats()]
    if referee.phase is Phase.DRAW:
        return [Action(ActionKind.DRAW, referee.turn)]
    if referee.phase is Phase.ACT:
        return [bots[referee.turn].act(referee)]
    answering = referee.answering_seats()
    answers = [bots[seat].answer(referee) for seat in answering]
    nobody_claims = all(answer.kind is ActionKind.PASS for answer in answers)
    if nobody_claims and referee.phase is Phase.CLAIMS and not referee.wall.exhausted:
        return [Action(ActionKind.DRAW, answering[0])]  # the table's shortcut: the next seat still in draws
    return answers


def _play_one(ruleset: Ruleset, hand_seed: int, match: Match, *, check: bool) -> Referee:
    """One hand under the shared referee, or on the ruleset's own table where it has one (``play_own_hand``:
    十万's ten-rank suits do not fit the referee's tile ids); the own table reports like a referee."""
    deal = match.deal
    own_table = getattr(ruleset, "play_own_hand", None)
    if own_table is not None:
        try:
            return own_table(
                hand_seed, deal.dealer, round_wind=deal.round_wind, consecutive_dealer=deal.consecutive_dealer
            )
        except AssertionError as error:
            raise InvariantViolation(str(error)) from None
    referee = Referee.deal(
        ruleset, hand_seed, deal.dealer, round_wind=deal.round_wind, consecutive_dealer=deal.consecutive_dealer
    )
    bots = [SimpleBot(seat, random.Random(hand_seed + seat)) for seat in range(SEATS)]
    return play_hand(referee, bots, check=check)


def simulate(ruleset: Ruleset, hands: int, seed: int, *, check: bool = True) -> Iterator[SimulatedHand]:
    """``hands`` hands in matches (局) under the ruleset's dealer rotation; a new match starts when one ends."""
    rng = random.Random(seed)
    match = Match.start(ruleset.rotation, first_dealer=rng.randrange(SEATS))
    for number in range(hands):
        if match.game_over:
            match = Match.start(ruleset.rotation, first_dealer=rng.randrange(SEATS))
        hand_seed = rng.getrandbits(64)
        deal = match.deal
        referee = _play_one(ruleset, hand_seed, match, check=check)
        assert referee.result is not None
        yield SimulatedHand(number, hand_seed, deal.dealer, deal.round_wind, referee)
        match = match.record_hand(referee.result)
