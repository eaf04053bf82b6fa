"""Riichi and 十万 at the table service: the seated bots, the match the ruleset keeps, what the results say."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

import controller.service.service as service_module
from controller.config import Config, VoiceSection
from controller.display.view import TableView
from controller.errors import ControllerError
from controller.fleet.statecheck import read_state
from controller.service import players
from controller.service.events import Event
from controller.service.hand import HandRecord
from controller.service.journal import Journal
from controller.service.records import describe_result
from controller.service.service import Service, journal_path
from controller.service.tableside import open_table
from controller.voice.voice import Voice
from engine.actions import Action, ActionKind
from engine.bots import SimpleBot
from engine.referee import Phase, Referee
from engine.rulesets.registry import get_ruleset
from tests.controller.test_voice import Recorder

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


def _run(tmp_path: Path, rules: str, hands: int, seed: int, **options: Any) -> list[tuple[HandRecord, dict[str, Any]]]:
    """The run played by the bots on the simulated table; every hand's record (as the journal gives it back) and
    its result."""
    config = Config().with_service(
        http="off", state_dir=str(tmp_path), rules=rules, options=options, seed=seed, hands=hands, speed=1000.0
    )
    with Journal(journal_path(config)) as journal, open_table(config) as side:
        summary = Service(config, side, journal, lambda line: None).run()
        assert summary["hands"] == hands and "stopped" not in summary
        played = journal.hands(journal.runs()[-1].id)
    assert all(result is not None for _, result in played)
    assert summary["scores"] == played[-1][1]["scores"], "the last match's points, not the sum of every match's"  # type: ignore[index]
    finals = [result["final_standings"] for _, result in played if "final_standings" in result]  # type: ignore[operator]
    assert summary.get("final_standings", []) == finals
    return played  # type: ignore[return-value]


def test_a_riichi_run_keeps_the_match_of_the_ruleset_from_hand_to_hand(tmp_path):
    """25,000 each, 本場 and the sticks on the table carried into the next deal, dealer repeats, the 東風戦 ending the
    match by its own rules (a new one starting from 25,000), the riichi facts in every result."""
    played = _run(tmp_path, "riichi", 10, 3, length="tonpuusen")
    first, _ = played[0]
    assert (first.honba, first.pot, first.scores) == (0, 0, (25_000,) * 4)
    for (record, result), (following, _) in pairwise(played):
        assert sum(result["scores"]) + result["on_table"] == 100_000
        assert result["round"][0] == "東" and result["honba"] == record.honba
        assert "|" not in "".join(win["hand"] for win in result["wins"]), "no MCR situation block"
        assert isinstance(result["declared_ready"], list) and result["bonus_indicators"]
        if "final_standings" in result:
            assert following.match_id != record.match_id
            assert (following.honba, following.pot, following.scores) == (0, 0, (25_000,) * 4)
            continue
        repeats = result["drawn"] or record.dealer in result["winners"]
        assert following.honba == (record.honba + 1 if repeats else 0)
        assert (following.pot, list(following.scores or ())) == (result["on_table"], result["scores"])
        assert following.dealer == record.dealer or not repeats or result.get("ready") is not None
    assert any("final_standings" in result for _, result in played), "the 東風戦 ends within the run"
    assert any(result["declared_ready"] for _, result in played) and any(r.honba for r, _ in played)
    line = describe_result(played[1][1])
    assert f"{played[1][1]['round']} {played[1][0].honba}本場" in line and "points [" in line and "|" not in line


def test_a_shiwan_run_writes_its_hands_in_its_own_tiles(tmp_path):
    played = _run(tmp_path, "shiwan", 3, 2)
    wins = [win["hand"] for _, result in played for win in result["wins"]]
    ruleset = get_ruleset("shiwan")
    assert wins and all(ruleset.parse_hand(hand) for hand in wins)
    assert all("round" not in result for _, result in played), "十万 keeps no points from a start"
    assert all("None" not in describe_result(result) for _, result in played), "十万 counts nothing: no total shown"


def _served(tmp_path, monkeypatch, seed: int, hands: int) -> tuple[Recorder, list[TableView], list[dict], Config]:
    """A riichi run of the whole service with its display's view and its Japanese voice heard: the voice, the views
    made, the result lines and the configuration."""
    recorder, views = Recorder(), []
    monkeypatch.setattr(service_module, "open_voice", lambda section: Voice(recorder, "ja", depth=10_000, stale_s=1e9))
    monkeypatch.setattr(service_module, "TableView", lambda: views.append(TableView()) or views[-1])
    config = Config().with_service(
        http="off", rules="riichi", seed=seed, hands=hands, speed=1000.0, state_dir=str(tmp_path / "state")
    )
    lines: list[dict[str, Any]] = []
    service_module.serve(replace(config, voice=VoiceSection(enabled=True, language="ja")), lines.append)
    return recorder, views, lines, config


def test_a_riichi_run_is_shown_said_and_published_whole(tmp_path, monkeypatch):
    """The display's view (with riichi's points, declarations, sticks and dora indicators), the voice (リーチ on each
    declaration) and the fleet's state check take a riichi run."""
    recorder, views, lines, config = _served(tmp_path, monkeypatch, seed=7, hands=3)
    with Journal(journal_path(config)) as journal:
        events = [e for hand, _ in journal.hands(journal.runs()[-1].id) for e in journal.events(hand.id)]
    declared = sum(e.kind == "action" and e.data["action"]["kind"] == "ready" for e in events)
    assert declared and recorder.heard.count("リーチ") == declared
    state = read_state(json.dumps(views[0].snapshot()).encode())
    assert state["scores"] == lines[2]["scores"] and sum(state["scores"]) + lines[2]["on_table"] == 100_000
    assert [entry["hand"] for entry in views[0].history()] == [0, 1, 2]
    table = state["table"]  # the last hand's, as it ended: its declarations, sticks and dora indicators
    assert set(table) == {"declared_ready", "on_table", "bonus_indicators", "honba"} and table["bonus_indicators"]


def test_a_nine_kinds_abort_is_journaled_and_replayed_to_the_abortive_draw(tmp_path):
    """九種九牌 (``ActionKind.ABORT``) is an action like any other: journaled, replayed on a resume, and the match
    deals the hand again by the same dealer with one more 本場. Seed 282 deals seat 0 nine kinds with dice 3+4."""
    ruleset = get_ruleset("riichi")
    with Journal(tmp_path / "journal.sqlite") as journal:
        run = journal.start_run(1, "riichi", {}, 1, 0.0, "bots")
        match = journal.start_match(run.id, 0, ruleset.start_match(0), 0.0)
        record = HandRecord(0, 282, 0, 0, 1, "riichi", match_id=match.id, **match.match.deal_facts())
        record = journal.start_hand(record, 0.0)
        for event in (Event.dice((3, 4), 0.0), Event.action(Action(ActionKind.ABORT, 0), "bot", 0.0)):
            journal.append(record.id, event)
        ((read, _),) = journal.hands(run.id)
        state = journal.replay(read)
    assert read == record and state.over
    assert state.referee is not None and state.referee.result is not None
    assert state.referee.result.abortive == "kyuushu_kyuuhai"
    after = match.match.record_hand(state.referee.result)
    assert (after.deal.dealer, after.deal.honba, after.scores) == (0, 1, (25_000,) * 4)


def test_a_nine_kinds_abort_in_a_run_is_said_shown_and_dealt_again_with_one_more_honba(tmp_path, monkeypatch):
    """The whole service: seed 29 deals seat 0 (the dealer) nine kinds, and its bot declares 九種九牌 at once."""
    recorder, views, lines, _ = _served(tmp_path, monkeypatch, seed=29, hands=2)
    aborted, after = lines[0], lines[1]
    assert aborted["abortive"] == "kyuushu_kyuuhai" and aborted["actions"] == 3  # the dice, the draw, the abort
    assert all(amount == 0 for amount in aborted["payments"].values())
    assert (after["dealer"], after["honba"], after["round"]) == (aborted["dealer"], 1, aborted["round"])
    assert recorder.heard[: recorder.heard.index("九種九牌") + 1].count("流局") == 0
    assert [entry["drawn"] for entry in views[0].history()] == [True, False]
