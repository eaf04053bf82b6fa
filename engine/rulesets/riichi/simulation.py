"""Whole riichi matches played by bots: the workload behind ``mjtable simulate --rules riichi``.

Each match starts at 25,000 points (option ``start_points``) with a random first dealer (rules-A §13 lets the
dice choose him; the seeded random source stands in for the two throws) and runs to its end under
``match.RiichiMatch``; a new match starts when one ends. After every hand the points of the four players must
still add up to the start total, less the riichi sticks on the table; anything else is a bug.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.rulesets.riichi.bots import RiichiBot
from engine.rulesets.riichi.match import RiichiMatch
from engine.rulesets.riichi.play import play_hand
from engine.rulesets.riichi.table import HandRecord, RiichiTable
from engine.simulation import InvariantViolation
from engine.tiles import WIND_LETTERS

if TYPE_CHECKING:
    from engine.rulesets.riichi.ruleset import RiichiRuleset


class PointsLost(InvariantViolation):
    """The players' points and the sticks on the table no longer add up to the start total."""


@dataclass(frozen=True)
class SimulatedRiichiHand:
    number: int
    seed: int
    match_number: int
    name: str
    before: RiichiMatch
    after: RiichiMatch
    record: HandRecord
    dice: tuple[int, int]
    actions: int

    @property
    def drawn(self) -> bool:
        return not self.record.wins

    def to_dict(self) -> dict[str, Any]:
        record = self.record
        data: dict[str, Any] = {
            "hand": self.number,
            "seed": self.seed,
            "match": self.match_number,
            "name": self.name,
            "dealer": self.before.dealer,
            "round_wind": WIND_LETTERS[self.before.round_wind],
            "dice": list(self.dice),
            "actions": self.actions,
            "result": record.kind,
            "drawn": self.drawn,
            "winners": [win["seat"] for win in record.wins],
            "payments": {str(seat): delta for seat, delta in enumerate(record.deltas)},
            "wins": record.wins,
            "scores": list(self.after.scores),
            "riichi_sticks": self.after.riichi_sticks,
        }
        if record.abortive:
            data["abortive"] = record.abortive
        if record.kind == "exhaustive":
            data["tenpai"] = record.tenpai
        if self.after.game_over:
            data["final_ranking"] = self.after.ranking()
        return data


def simulate_riichi(ruleset: RiichiRuleset, hands: int, seed: int) -> Iterator[SimulatedRiichiHand]:
    rng = random.Random(seed)
    match_number = 0
    match = RiichiMatch.start(rng.randrange(4), ruleset.options)
    total = 4 * ruleset.options["start_points"]
    for number in range(hands):
        if match.game_over:
            match_number += 1
            match = RiichiMatch.start(rng.randrange(4), ruleset.options)
        hand_seed = rng.getrandbits(64)
        hand_rng = random.Random(hand_seed)
        table = RiichiTable(
            ruleset, hand_rng, match.dealer, match.round_wind, match.honba, match.riichi_sticks, list(match.scores)
        )
        bots = [RiichiBot(seat, random.Random(hand_seed + seat)) for seat in range(4)]
        record = play_hand(table, bots)
        after = match.record(record.outcome, record.deltas, record.riichi_sticks)
        if sum(after.scores) + 1000 * after.riichi_sticks != total:
            raise PointsLost(f"hand {number} ({match.name}): points {after.scores} + {after.riichi_sticks} sticks")
        yield SimulatedRiichiHand(
            number, hand_seed, match_number, match.name, match, after, record, table.dice, table.actions
        )
        match = after
