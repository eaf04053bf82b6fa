"""``mjtable settle`` with ``"rules": "riichi"`` through the real command line (issue 11)."""

from __future__ import annotations

import json
import subprocess
import sys

TWO = {"seat": 3, "hand": "1133m25577p22s44z", "melds": [], "riichi": False}
"""Seven pairs waiting on 2p: 2 han 25 fu = 1,600 on a ron."""
WIN = {"winner": 1, "dealer": 0, "discarder": 0, "round_wind": "E", "riichi": True}


def run(*requests: object) -> list[dict]:
    lines = "\n".join(request if isinstance(request, str) else json.dumps(request) for request in requests)
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "settle"], input=lines, capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_settle_lines() -> None:
    """Riichi pinfu tanyao ron, 1 honba, 2 sticks: 3,900 + 300 from the discarder, 2,000 from the table; a hand
    without yaku is no win; a bad line answers an error and the batch goes on; the drawn settlement and the next
    dealer answer their fields; two ron on one discard under the option multiple_ron."""
    score = {"rules": "riichi", "hand": "234567m34p678s77s", "win_tile": "2p", "melds": []}
    answers = run(
        {**score, "situation": {**WIN, "honba": 1, "riichi_sticks": 2}},
        {**score, "melds": ["chi:234m:from=left"], "hand": "567m34p678s11z", "situation": {**WIN, "riichi": False}},
        "{not json",
        {**score, "situation": {**WIN, "riichi": "yes"}},
        {"rules": "riichi", "query": "drawn_settlement", "situation": {"dealer": 0, "tenpai": [1]}},
        {"rules": "riichi", "query": "next_dealer", "situation": {"dealer": 0, "winners": [2], "honba": 3}},
        {
            **score,
            "query": "multi_win",
            "options": {"multiple_ron": "double"},
            "situation": {**WIN, "honba": 1, "riichi_sticks": 2, "other_winners": [TWO]},
        },
    )
    first = answers[0]
    assert first["hu"] is True and (first["han"], first["fu"]) == (3, 30)
    assert first["payments"] == {"0": -4200, "1": 6200, "2": 0, "3": 0}
    assert [entry["name_ja"] for entry in first["yaku"]] == ["立直", "断幺九", "平和"]
    assert [entry["name_en"] for entry in first["yaku"]] == ["Riichi", "All simples", "Pinfu"]
    assert answers[1]["hu"] is False and answers[1]["payments"] is None
    assert answers[2]["hu"] is False and "not JSON" in answers[2]["error"]
    assert answers[3]["hu"] is False and "'riichi'" in answers[3]["error"]
    assert answers[4]["payments"] == {"0": -1000, "1": 3000, "2": -1000, "3": -1000}
    assert answers[4]["next_dealer"] == 1
    assert (answers[5]["next_dealer"], answers[5]["next_honba"]) == (1, 0)
    # Two ron on seat 0's 2p: each hand is paid; honba and sticks go to seat 1, the first after the discarder.
    assert answers[6]["payments"] == {"0": -3900 - 300 - 1600, "1": 3900 + 300 + 2000, "2": 0, "3": 1600}


FREEZE_COUNT = (
    "import gc, io, sys; from controller.cli import main; {call}; print(gc.get_freeze_count(), file=sys.stderr)"
)
"""A process that settles (``{call}``) and writes on stderr how many objects it froze."""


def test_a_settle_process_keeps_its_start_up_out_of_the_collector() -> None:
    """A settle process reading its own stdin freezes what start-up built (``gc.freeze``: a quarter of a riichi
    line's time went to the collector's passes over it); a caller passing its own stream keeps its collector."""
    line = json.dumps({"rules": "riichi", "query": "next_dealer", "situation": {"dealer": 0}})
    own = FREEZE_COUNT.format(call="main(['settle'])")
    given = FREEZE_COUNT.format(call="main(['settle'], io.StringIO(sys.stdin.read()), io.StringIO())")
    counts = [
        int(subprocess.run([sys.executable, "-c", code], input=line, capture_output=True, text=True).stderr)
        for code in (own, given)
    ]
    assert counts[0] > 0 and counts[1] == 0
