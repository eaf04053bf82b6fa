"""Four bots play whole hands under the referee: the workload behind ``mjtable simulate`` and the invariant
tests. Every action must be accepted and the tiles must balance after each one; anything else is a bug.

Hands are played in matches (``Ruleset.start_match``): the dealer, round wind, 本場, the stakes on the table and
the players' points go from one hand's result into the next deal. The bots are ``SimpleBot``s, or the players a
ruleset's hands need beyond them (``BOTS``: riichi's, whose open hands keep a yaku).
"""

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
from engine.rulesets.riichi.bots import RiichiBot
from engine.tiles import WIND_LETTERS

SEATS = 4
BOTS: dict[str, type[SimpleBot]] = {"riichi": RiichiBot}
"""Bots by ruleset id, where the simple ones would play a ruleset's hands too badly to be a workload."""


class InvariantViolation(AssertionError):
    """The referee rejected a bot's legal move, lost count of a tile, or the points did not add up."""


@dataclass(frozen=True)
class SimulatedHand:
    number: int
    seed: int
    dealer: int
    round_wind: int
    referee: Referee
    after: Match

    def to_dict(self) -> dict[str, Any]:
        """The hand; where the match keeps points (``Standings``: riichi) also 本場, the points after the hand,
        the stakes on the table, and at the end of the match the final standings."""
        referee, after = self.referee, self.after
        result = referee.result
        assert result is not None
        data: dict[str, Any] = {
            "hand": self.number,
            "seed": self.seed,
            "dealer": self.dealer,
            "round_wind": WIND_LETTERS[self.round_wind],
            "dice": list(referee.dice or ()),
            "actions": len(referee.history),
            "drawn": result.drawn,
            "winners": list(result.winners),
            "payments": {str(seat): amount for seat, amount in result.payments.items()},
            "wins": [record.to_dict(referee.ruleset.format_hand) for record in referee.wins],
        }
        if result.abortive is not None:
            data["abortive"] = result.abortive
        if result.ready is not None:
            data["ready"] = list(result.ready)
        if after.standings is not None:
            data |= {"honba": referee.honba, "scores": list(after.scores), "on_table": after.pot}
            if after.game_over:
                data["final_standings"] = after.final_standings()
        return data


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


def bot_type(ruleset: Ruleset) -> type[SimpleBot]:
    """The players of the ruleset's hands, here and at the table service (``controller.service.players``): a simple
    bot would make moves the ruleset refuses (riichi's 喰い替え) or hands it cannot score (no yaku)."""
    return BOTS.get(ruleset.id, SimpleBot)


def bots_for(ruleset: Ruleset, hand_seed: int) -> list[SimpleBot]:
    """The four players of one hand, each with its own seeded random source."""
    bot = bot_type(ruleset)
    return [bot(seat, random.Random(hand_seed + seat)) for seat in range(SEATS)]


def deal_hand(ruleset: Ruleset, hand_seed: int, match: Match) -> Referee:
    """The match's next hand, dealt with full information from ``hand_seed``."""
    deal = match.deal
    return Referee.deal(
        ruleset,
        hand_seed,
        deal.dealer,
        round_wind=deal.round_wind,
        consecutive_dealer=deal.consecutive_dealer,
        **match.deal_facts(),
    )


def simulate(ruleset: Ruleset, hands: int, seed: int, *, check: bool = True) -> Iterator[SimulatedHand]:
    """``hands`` hands in matches (局) under the ruleset's dealer rotation; a new match starts when one ends."""
    rng = random.Random(seed)
    match = ruleset.start_match(rng.randrange(SEATS))
    for number in range(hands):
        if match.game_over:
            match = ruleset.start_match(rng.randrange(SEATS))
        hand_seed = rng.getrandbits(64)
        deal = match.deal
        referee = play_hand(deal_hand(ruleset, hand_seed, match), bots_for(ruleset, hand_seed), check=check)
        assert referee.result is not None
        after = match.record_hand(referee.result)
        if sum(after.scores) + after.pot != sum(match.scores) + match.pot:
            raise InvariantViolation(f"hand {number}: points {after.scores} and {after.pot} on the table lost count")
        yield SimulatedHand(number, hand_seed, deal.dealer, deal.round_wind, referee, after)
        match = after
