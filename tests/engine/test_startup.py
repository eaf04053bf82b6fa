"""`mjtable score` starts light: it loads the engine alone, not the service, the people's witness, gpiozero or the
firmware harness, and it reads the suit tables from the on-disk cache once they are built."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.native import MCR_NATIVE

REPO = Path(__file__).resolve().parents[2]
LINE = "[CCC,1][678s,3]5p5p8p8p9s9s9s8p|SW0000|0"
HEAVY = (
    "controller.config",
    "controller.people",
    "controller.service",
    "controller.replay",
    "gpiozero",
    "hw_tests",
    "firmware_bridge",
    "engine.referee",
    "engine.records",
)

PROGRAM = """
import io, json, sys
from controller.cli import main
out = io.StringIO()
main(["score", "--rules", sys.argv[1]], stdin=io.StringIO(sys.argv[2] + "\\n"), stdout=out)
import engine.analysis.suit_tables as tables
print(json.dumps({"answer": out.getvalue(), "modules": sorted(sys.modules),
                  "group_table_built": tables.group_table.cache_info().currsize}))
"""


def _score(rules: str, cache: Path) -> dict:
    env = {**os.environ, "MJTABLE_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, rules, LINE], capture_output=True, text=True, check=True, cwd=REPO, env=env
    )
    return json.loads(done.stdout)


def test_score_loads_no_service_module(tmp_path: Path) -> None:
    for rules in ("mcr", "basic"):
        found = _score(rules, tmp_path)
        assert json.loads(found["answer"])["shape_ok"] is True
        heavy = [name for name in found["modules"] if name.startswith(HEAVY)]
        assert heavy == [], rules


def test_score_reads_its_tables_from_the_cache_and_answers_the_same(tmp_path: Path) -> None:
    first = _score("mcr", tmp_path)
    # The compiled MCR engine answers a standard hand without the pure scorer's tables: none is built then.
    tables = [] if MCR_NATIVE is not None else ["mcr-shapes", "suit-bits"]
    assert sorted(path.name.rsplit("-", 1)[0] for path in tmp_path.iterdir()) == tables
    again = _score("mcr", tmp_path)
    assert again["answer"] == first["answer"]
    assert first["group_table_built"] == again["group_table_built"] == 0  # the enumerated table is never built


def test_a_refused_batch_argument_is_answered_by_the_whole_parser(capsys: pytest.CaptureFixture[str]) -> None:
    """The batch commands parse without ``replay``; what they refuse is refused with the usage naming it."""
    from controller.cli import main

    with pytest.raises(SystemExit):
        main(["score", "--bad"])
    assert "replay" in capsys.readouterr().err
