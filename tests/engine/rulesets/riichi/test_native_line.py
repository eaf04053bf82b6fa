"""The compiled core's whole settle line (``engine.rulesets.riichi.line.settle_text``, ``_settle_chunk``) against the
pure path: the differential test's seeded random hands written as settle requests (red fives as rank 0, kans open,
added and concealed, every situation flag, dora and ura, honba and sticks, every scoring option) must be answered
and written byte for byte as ``settle_object`` and the encoder write them; the same requests with one thing
changed (a key dropped or unknown, a value of another type or out of range, a malformed tile string or meld, a
situation the rules refuse, a fifth copy among the indicators) must be declined wherever the pure path refuses
them, and answered identically or declined elsewhere. ``mjtable settle``'s chunk gives the pure path's answers.
The core is loaded here even under ``MJTABLE_PURE=1``; CI (``MJTABLE_NO_SKIPS=1``, gcc present) builds it."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import suppress
from typing import Any

import pytest

from controller import cli
from controller.scoretext import dump
from engine import native as native_module
from engine.errors import MjtableError
from engine.rulesets.riichi import line
from engine.settle.answer import settle_object
from tests.engine.cores import built
from tests.engine.rulesets.riichi.oracle import random_case, settle_request
from tests.paths import SHARED, needs_records

SEEDS = (20261129, 11)
"""test_differential's seeds."""
HANDS = 5000
SettleText = Callable[[Any], str | None]


@pytest.fixture(scope="module")
def settle_text() -> SettleText:
    """The core's ``settle``, configured as ``line`` configures it (also under ``MJTABLE_PURE=1``)."""
    core = built("_riichi_native", native_module.RIICHI_SOURCE)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(line, "RIICHI_NATIVE", core)
        found = line._configured()
    assert found is not None
    return found


def requests(seed: int, hands: int) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    for _ in range(hands):
        yield settle_request(random_case(rng))


def pure(request: dict[str, Any]) -> str | None:
    """The pure path's answer text, None where it refuses the request."""
    try:
        return dump(settle_object(copy.deepcopy(request)))
    except MjtableError:
        return None


Change = Callable[[dict[str, Any], random.Random], None]


def _put(*path: str, value: Any) -> Change:
    """A change setting the field at ``path`` to ``value``, or to ``value(request)``, or dropping it (``DROP``)."""

    def change(request: dict[str, Any], rng: random.Random) -> None:
        place = request
        for key in path[:-1]:
            place = place.setdefault(key, {}) if isinstance(place.get(key, {}), dict) else {}
        if value is DROP:
            place.pop(path[-1], None)
        elif not callable(value):
            place[path[-1]] = value
        else:
            with suppress(KeyError, TypeError, AttributeError):  # a field an earlier change took away
                place[path[-1]] = value(request)

    return change


DROP = object()
FLAGS = ("after_kong", "robbing_kong", "last_tile", "first_turn", "riichi", "double_riichi", "ippatsu")
CHANGES: tuple[Change, ...] = (
    *(_put(key, value=DROP) for key in ("options", "hand", "melds", "win_tile", "situation")),
    *(_put("query", value=value) for value in ("score", "next_dealer", 1)),
    _put("comment", value=1),
    _put("rules", value="mcr"),
    _put("rules", value="Riichi"),
    _put("options", value=None),
    _put("options", "length", value="tonpuusen"),
    _put("options", "open_tanyao", value=1),
    _put("options", "kiriage", value="yes"),
    _put("options", "counted_yakuman", value="x"),
    _put("options", "renhou", value="HAN5"),
    _put("options", "red_fives", value=True),
    _put("options", "red_fives", value=False),
    _put("hand", value=lambda request: request["hand"] + "1m"),
    _put("hand", value=lambda request: request["hand"][2:]),
    _put("hand", value=lambda request: "0m" + request["hand"][2:]),
    _put("hand", value=lambda request: "0p" + request["hand"][2:]),
    _put("hand", value=lambda request: "0z" + request["hand"][2:]),
    _put("hand", value=lambda request: "8z" + request["hand"][2:]),
    _put("hand", value=lambda request: "1f" + request["hand"][2:]),
    _put("hand", value=lambda request: "m" + request["hand"]),
    _put("hand", value=lambda request: " " + request["hand"]),
    _put("hand", value=lambda request: request["hand"].upper()),
    _put("hand", value=lambda request: [request["hand"]]),
    _put("melds", value=lambda request: [*request["melds"], "chi:124m:from=left"]),
    _put("melds", value=lambda request: [*request["melds"], 1]),
    _put("melds", value=lambda request: ["chi:345m", *request["melds"][1:]]),
    _put("melds", value=lambda request: [text.replace("from=left", "from=right") for text in request["melds"]]),
    _put("melds", value=lambda request: [text.replace("from=opposite", "concealed") for text in request["melds"]]),
    _put("melds", value=lambda request: [text.replace("kan:", "kakan:") for text in request["melds"]]),
    _put("melds", value=lambda request: [text.replace("pon:", "kan:") for text in request["melds"]]),
    _put("melds", value=lambda request: tuple(request["melds"])),
    *(_put("win_tile", value=value) for value in (None, "12m", "0m", "5f", 5, "")),
    _put("situation", "winner", value=DROP),
    _put("situation", "dealer", value=DROP),
    *(_put("situation", "winner", value=value) for value in (True, 4, "1", -1)),
    _put("situation", "dealer", value=3.0),
    _put("situation", "discarder", value=lambda request: request["situation"]["winner"]),
    _put("situation", "discarder", value=lambda request: (request["situation"]["winner"] + 1) % 4),
    *(_put("situation", "discarder", value=value) for value in ("2", None, False)),
    *(_put("situation", "round_wind", value=value) for value in ("X", "e", "EE", 4, 2, True, None, "N", DROP)),
    *(_put("situation", flag, value=value) for flag in FLAGS for value in (True, False, 1, "true", None, DROP)),
    *(
        _put("situation", key, value=value)
        for key in ("honba", "riichi_sticks")
        for value in (-1, 1.5, None, 10**7, True, 3, DROP)
    ),
    *(_put("situation", "dora_indicators", value=value) for value in ("", "1m1m1m1m1m1m", "0m", 5, "9z", "8z", DROP)),
    *(_put("situation", "ura_dora_indicators", value=value) for value in ("5z", "", "0p1s")),
    _put("situation", "dora_indicators", value=lambda request: request["win_tile"] * 4),
    *(_put("situation", key, value=value) for key, value in (("red_fives", 1), ("pao", 0), ("players_out", []))),
    *(_put("situation", key, value=value) for key, value in (("fourth_tile", False), ("kongs", 1), ("seat", 1))),
)
"""Each changes one thing of a request; some leave it valid (another flag, a self-draw), most make the pure path
refuse it."""


def test_plain_requests_are_answered_as_the_pure_path_writes_them(settle_text: SettleText) -> None:
    for seed in SEEDS:
        for request in requests(seed, HANDS):
            expected = pure(request)
            assert expected is not None, request
            assert settle_text(request) == expected, json.dumps(request)


def test_changed_requests_are_declined_where_the_pure_path_refuses_them(settle_text: SettleText) -> None:
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        rng = random.Random(seed)
        for request in requests(seed, HANDS):
            for change in rng.sample(CHANGES, 1 + rng.randrange(2)):
                change(request, rng)
            expected, found = pure(request), settle_text(request)
            if expected is None:
                assert found is None, json.dumps(request)
                seen["refused"] += 1
            else:
                assert found in (None, expected), json.dumps(request)
                seen["answered" if found else "declined"] += 1
    assert seen["refused"] > HANDS // 2 and seen["answered"] > HANDS // 4, seen


def test_the_settle_chunk_gives_the_pure_answers(settle_text: SettleText, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    lines = ["", "not json", "[]", '{"rules": "riichi"}']
    for request in requests(3, 300):
        if rng.random() < 0.5:
            rng.choice(CHANGES)(request, rng)
        lines.append(json.dumps(request))
    monkeypatch.setattr(line, "settle_text", None)
    expected = cli._settle_chunk(lines)
    monkeypatch.setattr(line, "settle_text", settle_text)
    assert cli._settle_chunk(lines) == expected


@needs_records
def test_the_real_tenhou_wins_are_answered_as_the_pure_path_writes_them(settle_text: SettleText) -> None:
    """shared/records/settle-tenhou.jsonl's score rows (wins off real Tenhou games, red fives, kans, riichi)."""
    rows = [json.loads(text)["input"] for text in (SHARED / "records" / "settle-tenhou.jsonl").open()]
    wins = [row for row in rows if row.get("query") == "score"]
    assert len(wins) > 150
    for request in wins:
        assert settle_text(request) == pure(request), json.dumps(request)
