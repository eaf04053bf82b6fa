"""Any request a client can send gets an answer or a clear ``MjtableError``, never a traceback (the guide: every
external input gets a clear error, never a traceback). Requests are built from pools of plausible and wrong
values for every situation key the rulesets read, for every ruleset and every query it answers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import MjtableError
from engine.rulesets.registry import all_rulesets
from engine.settle.answer import settle_object

KEYS = [
    "winner",
    "dealer",
    "discarder",
    "round_wind",
    "after_kong",
    "robbing_kong",
    "last_tile",
    "first_turn",
    "kong",
    "kongs",
    "claim",
    "claims",
    "other_winners",
    "void_suit",
    "void_suits",
    "indicator",
    "dice",
    "dice2",
    "thrower",
    "winners",
    "drawn",
    "consecutive_dealer",
    "round_first_dealer",
    "bao",
    "visible_bao_copies",
    "declared_ready",
    "discard_tile",
    "holder",
    "horses",
    "riichi",
    "honba",
    "riichi_sticks",
    "dora_indicators",
    "ura_dora_indicators",
    "dice_unit",
    "wildcards",
    "birds",
    "paid_by",
    "open_melds",
    "ready",
    "players_out",
    "discarder_after_kong",
]
VALUES = st.sampled_from(
    [
        None, True, False, 0, 1, 2, 3, 4, -1, 7, 1.5, "", "E", "x", "5m", "m", "1z", "123m",
        [], [1], [3, 4], [7, 7], [None], {}, {"0": 1}, {"a": []}, {"seat": 1}, [{"seat": "a"}],
        {"seat": 1, "type": "exposed", "tile": "5m", "from": 2},
        {"seat": 1, "type": "added", "tile": "5m"},
        [{"seat": 1, "type": "hu"}, {"seat": 2, "type": "pon"}],
        [{"seat": 2, "hand": "", "melds": []}],
        [{"seat": 2, "hand": "", "melds": 5}],
        {"seat": 1, "type": "chi", "tile": "3m", "from": 0, "using": ["4m", "5m"]},
    ]
)  # fmt: skip
HANDS = st.sampled_from(["", "123m456p789s1122z", "1234567891235m", "11m", "123m456p789s112z", "0m", "12345678912345p"])
MELDS = st.sampled_from([[], ["pon:111m:from=left"], ["kan:2222m:concealed"], [5], ["chi:345s:from=left"]])
WIN_TILES = st.sampled_from([None, "5m", "1z", "9s", "7z", 3])


@pytest.mark.parametrize("ruleset", all_rulesets(), ids=lambda cls: cls.id)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_request_is_answered_or_refused_clearly(ruleset, data):
    situation = data.draw(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=8))
    if data.draw(st.booleans()):
        situation.update(winner=data.draw(st.integers(0, 3)), dealer=data.draw(st.integers(0, 3)))
    request = {
        "rules": ruleset.id,
        "query": data.draw(st.sampled_from(ruleset.queries())),
        "hand": data.draw(HANDS),
        "melds": data.draw(MELDS),
        "win_tile": data.draw(WIN_TILES),
        "situation": situation,
    }
    try:
        answer = settle_object(request)
    except MjtableError as error:
        assert str(error), "an error must say what is wrong"
        return
    json.dumps(answer)  # the CLI writes it as one JSON line
    assert "hu" in answer and "payments" in answer
