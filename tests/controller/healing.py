"""The fast people's table with a faulty eye, for the healing test and ``bench/bench_healing.py``: the service runs
its real loop, journal and witness on the simulated people's table, the camera reader replaced by
``controller.people.misreads.FaultyEye`` (no frame rendered or read). Each hand's result is compared with the result
of the same hand played by the bots (the people's table's own full-information referee): identical, or not.

With ``correcting`` the simulated people also do what people at the table do with the display: a reading it shows
open (unsure, or doubtful) that is not what lies on the table, its seat corrects (``POST /api/correct``, through the
same queue). The eye gives the table's sights one for one, so the display's sight number names the true sight."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from controller.config import Config
from controller.people import watch
from controller.people.misreads import Confusion, FaultyEye
from controller.people.peopletable import PeopleTable
from controller.service import tableside
from controller.service.outcome import win_lines
from controller.service.service import serve
from engine.referee import Referee
from engine.rulesets.registry import get_ruleset
from engine.tiles import tile_code
from tests.controller.test_peopletable import StandInRenderer


class _KeepingTable(PeopleTable):
    """The people's table, keeping each hand's full-information referee when the next is dealt."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.played_hands: list[Referee] = []

    def deal(self, *args: Any, **kwargs: Any) -> None:
        if self.referee is not None:
            self.played_hands.append(self.referee)
        super().deal(*args, **kwargs)


@dataclass
class Outcome:
    hands: int
    same: int
    voided: int
    misread: int
    tiles: int
    corrected: int = 0
    asked: int = 0
    """Readings the display showed open to their seats (to confirm or correct): how often the table asks."""
    differing: list[dict[str, Any]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.same / self.hands if self.hands else 0.0


def bots_result(referee: Referee) -> dict[str, Any]:
    """A hand's result as the service's result line has it."""
    assert referee.result is not None
    result = {key: value for key, value in referee.result.to_dict().items() if key != "wins"}
    return result | {"wins": win_lines(referee)}


def play(
    state: Path,
    share: float,
    hands: int,
    seed: int,
    confusion: Confusion | None,
    rules: str = "basic",
    eye_seed: int = 0,
    correcting: bool = True,
) -> Outcome:
    """``hands`` hands of a people's run whose eye misreads ``share`` of the tiles."""
    tables: list[_KeepingTable] = []
    eyes: list[FaultyEye] = []
    corrected: list[tuple[int, int, str]] = []
    asked: set[tuple[int, int]] = set()

    def people_read_the_display(stack, service, view) -> None:
        def look(hand, event, verdict) -> None:
            if hand.witness is None or not tables:
                return
            for shown in hand.witness.unsure:
                asked.add((hand.record.number, shown["n"]))
                truth = tables[0].shown[shown["n"]]
                codes = "".join(tile_code(tile) for tile in truth.tiles)
                said = (hand.record.number, shown["n"], codes)
                if "".join(shown["tiles"]) != codes and said not in corrected:
                    corrected.append(said)
                    service.corrections.post({"seat": shown["seat"], "tiles": codes, "sight": shown["n"]})

        service.listeners = (*service.listeners, look)

    def people_table(stack, config, sim_hands):
        ruleset = get_ruleset(config.service.rules, config.service.options)
        window = config.service.claim_window_s
        table = _KeepingTable(ruleset, StandInRenderer(), sim_hands, None, give_up_s=4 * window)
        tables.append(table)
        return table

    def table_camera(config, people):
        eye = FaultyEye(people, confusion, share, eye_seed)
        eyes.append(eye)
        return watch.TableCamera(people.frames(), eye)

    config = Config().with_service(
        http="off", state_dir=str(state), seed=seed, hands=hands, speed=1000.0, rules=rules, players="people"
    )
    lines: list[dict[str, Any]] = []
    with (
        mock.patch.object(tableside, "_people_table", people_table),
        mock.patch.object(watch, "open_table_camera", table_camera),
    ):
        serve(config, lines.append, hooks=(people_read_the_display,) if correcting else ())
    (table,) = tables
    played = [bots_result(referee) for referee in [*table.played_hands, table.referee] if referee is not None]
    people = [line for line in lines if "wins" in line]
    voided = sum(bool(line.get("voided")) for line in people)
    outcome = Outcome(len(people), 0, voided, eyes[0].misread, eyes[0].tiles, len(corrected), len(asked))
    for line, bots in zip(people, played, strict=True):
        seen = {key: line.get(key) for key in bots}
        if seen == bots and not line.get("voided"):
            outcome.same += 1
        else:
            outcome.differing.append({"hand": line["hand"], "people": seen, "bots": bots})
    return outcome
