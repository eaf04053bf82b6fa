"""Riichi and 十万 at the table service: the seated bots, the match the ruleset keeps, what the results say."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from controller.config import Config
from controller.errors import ControllerError
from controller.service import players
from controller.service.journal import Journal
from controller.service.service import Service, journal_path
from controller.service.tableside import open_table
from engine.actions import Action, ActionKind
from engine.bots import SimpleBot
from engine.referee import Phase, Referee
from engine.rulesets.registry import get_ruleset

MOVES = 600
"""More moves than any hand takes."""


@pytest.mark.parametrize("rules", ["riichi", "shiwan"])
def test_the_seated_bots_make_only_moves_the_referee_accepts(rules):
    """The service's bots decide from the referee's state alone, so a move it refuses comes again and again: the
    hang of a riichi run in hand 2 of seed 3 (a simple bot discarding the tile it had just called, 喰い替え)."""
    ruleset = get_ruleset(rules)
    for seed in range(20):
        referee = Referee.deal(ruleset, seed, seed % 4)
        for _ in range(MOVES):
            if referee.phase is Phase.OVER:
                break
            action = players.next_action(referee, seed)
            verdict = referee.apply(action)
            assert verdict.ok, f"seed {seed}: {action.to_dict()}: {verdict.reason}"
        assert referee.phase is Phase.OVER, f"seed {seed}: no end in {MOVES} moves"


class _Stubborn(SimpleBot):
    """Discards a tile it does not hold."""

    def act(self, referee: Referee) -> Action:
        missing = next(tile for tile, n in enumerate(referee.seats[self.seat].known) if n == 0)
        return Action(ActionKind.DISCARD, self.seat, missing)


def _moves_at_most(count: int) -> Callable[[float], None]:
    """The service's pause before each bot move, failing the test once ``count`` moves were made."""
    made = iter(range(count))

    def pause(seconds: float) -> None:
        assert next(made, None) is not None, f"more than {count} moves: the run goes on after the refusal"

    return pause


def test_a_bot_move_the_referee_refuses_stops_the_run_with_its_reason(tmp_path, monkeypatch):
    monkeypatch.setattr(players, "bot_type", lambda ruleset: _Stubborn)
    config = Config().with_service(http="off", state_dir=str(tmp_path), seed=1, hands=1, speed=1000.0)
    refusal = pytest.raises(ControllerError, match=r"refused the bot's move .*discard.*again and again")
    with Journal(journal_path(config)) as journal, open_table(config) as side, refusal:
        Service(config, side, journal, lambda line: None, sleep=_moves_at_most(50)).run()
    with Journal(journal_path(config)) as journal:
        ((hand, _),) = journal.hands(journal.runs()[-1].id)
        refused = [event for event in journal.events(hand.id) if event.kind == "action"]
    assert len(refused) == 1, "one refused move journaled, not an endless run of them"
