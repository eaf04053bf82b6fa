import io
import json
import sqlite3
from pathlib import Path

import pytest

from controller.cli import main
from controller.config import Config, load_config
from controller.errors import ConfigError, JournalError, TableStopped
from controller.service.journal import Journal
from controller.service.service import Service, journal_path, serve
from controller.service.tableside import open_table
from firmware_bridge.messages import LampPattern, Mechanism
from hw_tests.faults import NO_FAULTS, FaultPlan, Jam
from tests.paths import REPO

FAST = {"speed": 1000.0}


def _config(tmp_path, **service) -> Config:
    return Config().with_service(http="off", state_dir=str(tmp_path), **{**FAST, **service})


def _play(config: Config, faults: FaultPlan = NO_FAULTS) -> list[dict]:
    lines: list[dict] = []
    serve(config, lines.append, faults)
    return lines


@pytest.mark.slow  # 4 s: the same run at two speeds
def test_same_seed_same_results_whatever_the_speed(tmp_path):
    first = _play(_config(tmp_path / "a", seed=5, hands=2))
    second = _play(_config(tmp_path / "b", seed=5, hands=2, speed=300.0))
    assert first == second
    assert [line.get("hand") for line in first] == [0, 1, None]
    summary = first[-1]
    assert summary == {"hands": 2, "scores": first[1]["scores"]}
    assert sum(summary["scores"]) == 0
    other = _play(_config(tmp_path / "c", seed=6, hands=1))
    assert other[0]["seed"] != first[0]["seed"]


def test_each_hand_goes_through_the_table_cycle_with_the_dealer_lamp(tmp_path):
    config = _config(tmp_path, seed=2, hands=2)
    lamps = []
    with Journal(journal_path(config)) as journal, open_table(config) as side:

        def watch(hand, event, verdict):
            if event.kind == "dice":
                lamps.append((hand.record.dealer, list(side.panel.lamps.patterns)))

        results = []
        Service(config, side, journal, results.append, listeners=(watch,)).run()
        (run,) = journal.runs()
        hands = journal.hands(run.id)
        steps = [[e.data.get("step") for e in journal.events(h.id) if e.kind == "table"] for h, _ in hands]
    building = ["next:shuffled", "next:walls_built"]  # during the hand: the set taken in before it
    assert steps == [
        ["hatch_open", "intake", "shuffled", "walls_built", "lifted", "lowered", *building],
        ["hatch_open", "intake", "lifted", "lowered", *building],  # hand 0's set in, then hand 1's walls up
    ]
    for (dealer, patterns), result in zip(lamps, results, strict=False):
        assert result["dealer"] == dealer
        assert patterns[dealer] in (LampPattern.STEADY, LampPattern.BLINK)
        assert [p for seat, p in enumerate(patterns[:4]) if seat != dealer] == [LampPattern.OFF] * 3


def test_a_jam_stops_the_table_with_the_hint_and_a_restart_finishes_the_run(tmp_path):
    config = _config(tmp_path, seed=3, hands=1)
    with pytest.raises(TableStopped) as stopped:
        _play(config, FaultPlan(jams=(Jam(Mechanism.STACKER, 1, 3),)))
    assert stopped.value.code == "JAM/STACKER/side1"
    assert "stacker of side 1" in stopped.value.hint
    db = sqlite3.connect(journal_path(config))
    assert db.execute("SELECT data FROM events WHERE kind = 'fault'").fetchall() == [('{"code": "JAM/STACKER/side1"}',)]
    db.close()
    resumed = _play(config)  # the technician cleared the jam and restarted the service
    assert _play(_config(tmp_path / "clean", seed=3, hands=1)) == resumed


def test_a_run_in_progress_is_not_mixed_up_with_other_settings(tmp_path):
    config = _config(tmp_path, seed=4, hands=1)
    with Journal(journal_path(config)) as journal:
        journal.start_run(4, "mcr", {}, 1, at=0.0)
    with pytest.raises(JournalError, match="in progress with seed 4"):
        _play(_config(tmp_path, seed=9, hands=1))
    assert _play(config)[-1]["hands"] == 1


def test_cli_run_prints_one_json_line_per_hand_then_the_summary(tmp_path):
    out = io.StringIO()
    argv = [
        "run",
        "--hands",
        "1",
        "--seed",
        "1",
        "--json",
        "--speed",
        "1000",
        "--http",
        "off",
        "--state",
        str(tmp_path),
    ]
    assert main(argv, stdout=out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["hand"] == 0 and lines[1] == {"hands": 1, "scores": lines[0]["scores"]}
    if not lines[0]["drawn"]:
        assert {"name_zh", "name_en", "points"} <= set(lines[0]["wins"][0]["score"]["fans"][0])
    text = io.StringIO()
    argv = ["run", "--hands", "2", "--seed", "1", "--speed", "1000", "--http", "off", "--state", str(tmp_path / "t")]
    assert main(argv, stdout=text) == 0
    assert text.getvalue().startswith("hand 0 (")


def _refused(path: Path, text: str, match: str) -> None:
    """``text`` written to ``path`` is refused on loading with an error matching ``match``."""
    path.write_text(text)
    with pytest.raises(ConfigError, match=match):
        load_config(path)


def test_configuration_errors_name_the_file_and_the_key(tmp_path):
    example = load_config(REPO / "examples" / "mjtable.toml")
    assert example == Config()
    bad = tmp_path / "bad.toml"
    _refused(bad, '[service]\nrulez = "mcr"\n', r"bad\.toml: service\.rulez: unknown key")
    _refused(bad, "[service]\nhands = 'four'\n", r"service\.hands: expected int")
    _refused(bad, "[bridge.gpio]\nwind_led = 5\n", "already used")
    out = io.StringIO()
    assert main(["run", "--config", str(bad)], stdout=out) == 2
    assert "already used" in json.loads(out.getvalue())["error"]


def test_people_settings_are_checked_where_they_are_written(tmp_path):
    bad = tmp_path / "people.toml"
    people = '[service]\nplayers = "people"\n'
    _refused(bad, '[service]\nplayers = "ghosts"\n', r"people\.toml: service\.players: expected bots or people")
    _refused(bad, people + 'camera = "sim"\n', r"service\.camera: the simulated camera reads the bots' discards")
    _refused(bad, people + "claim_window_s = 0.2\n", r"service\.claim_window_s: expected 1-60 seconds, got 0\.2")
    real = people + '[bridge.link]\nport = "/dev/mjtable-mcu"\n'
    _refused(bad, real, r"camera\.source: people play .* on a real table")
    bad.write_text(real + '[camera]\nsource = "0"\n')
    assert load_config(bad).service.players == "people"
    bad.write_text(people + 'rules = "harbin"\n')  # its second throw comes from the table like the first
    assert load_config(bad).service.rules == "harbin"
