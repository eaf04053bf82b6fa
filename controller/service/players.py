"""The four seated bots of the simulated table, as a pure function of (hand seed, referee state).

A bot decision draws from a random source seeded by the hand seed, the seat and the number of actions that
opened the current turn or offer; no bot keeps state between decisions. So a hand resumed after a restart, its
referee rebuilt from the journal, gets exactly the decisions the uninterrupted hand would have got.
"""

from __future__ import annotations

import random

from engine.actions import Action, ActionKind
from engine.bots import SimpleBot
from engine.referee import Phase, Referee
from engine.simulation import bot_type


def _bot(seat: int, hand_seed: int, referee: Referee) -> SimpleBot:
    """The ruleset's bot (``engine.simulation.bot_type``: riichi's keeps 喰い替え and a yaku) for one decision."""
    opened_at = len(referee.history) - len(referee.responses)  # constant while the answers to one offer come in
    return bot_type(referee.ruleset)(seat, random.Random(f"{hand_seed}/{opened_at}/{seat}"))


def next_action(referee: Referee, hand_seed: int) -> Action:
    """The next move at the table: a void-suit declaration (定缺), the draw, the turn seat's move, or the next
    answer to the tile on offer. When everyone still in would pass a discard, the next seat simply draws (what
    players do at a real table)."""
    if referee.phase is Phase.DECLARE:
        seat = referee.undeclared_seats()[0]
        return _bot(seat, hand_seed, referee).declare(referee)
    if referee.phase is Phase.DRAW:
        return Action(ActionKind.DRAW, referee.turn)
    if referee.phase is Phase.ACT:
        return _bot(referee.turn, hand_seed, referee).act(referee)
    pending = [seat for seat in referee.answering_seats() if seat not in referee.responses]
    if referee.responses:
        return _bot(pending[0], hand_seed, referee).answer(referee)
    answers = [_bot(seat, hand_seed, referee).answer(referee) for seat in pending]
    if referee.phase is Phase.CLAIMS and not referee.wall.exhausted and all(a.kind is ActionKind.PASS for a in answers):
        return Action(ActionKind.DRAW, pending[0])
    return answers[0]
