"""The settle contract's input side (shared/rules/regional/README.md "Input"): fields, melds, tile counts."""

from __future__ import annotations

import pytest

from engine.errors import MjtableError
from engine.notation import MeldKind
from engine.rulesets.base import WinContext
from engine.rulesets.registry import get_ruleset
from engine.settle import SettleRequest
from engine.settle.answer import settle_object
from engine.settle.melds import read_meld
from engine.tiles import parse_tile, parse_tiles

BASIC = get_ruleset("basic")


def meld(text: str):
    return read_meld(text, parse_tiles, "melds[0]")


@pytest.mark.parametrize(
    ("text", "kind", "tile", "offer"),
    [
        ("chi:345s:from=left", MeldKind.CHOW, "3s", None),
        ("pon:777p:from=right", MeldKind.PUNG, "7p", 3),
        ("pon:777p:from=left", MeldKind.PUNG, "7p", 1),
        ("kan:2222m:from=opposite", MeldKind.KONG, "2m", 2),
        ("kan:2222m:concealed", MeldKind.KONG, "2m", None),
        ("kakan:5555s:from=left", MeldKind.KONG, "5s", 5),
        ("kakan:7777z:from=right", MeldKind.KONG, "7z", 7),
        ("chi:543s:from=left", MeldKind.CHOW, "3s", None),  # any order is accepted (README "Tiles")
    ],
)
def test_meld_notation_maps_to_the_scorers_melds(text, kind, tile, offer):
    read = meld(text)
    assert (read.kind, read.tile, read.offer) == (kind, parse_tile(tile), offer)


def test_an_added_kong_is_added_and_a_concealed_kong_concealed():
    assert meld("kakan:5555s:from=opposite").is_added_kong
    assert meld("kakan:5555s:from=opposite").supplier == 2
    assert meld("kan:5555s:concealed").is_concealed_kong
    assert not meld("kan:5555s:from=left").is_concealed_kong


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chi:345s:from=right", "only be claimed from the left"),
        ("chi:357s:from=left", "consecutive"),
        ("chi:891s:from=left", "consecutive"),
        ("chi:123z:from=left", "consecutive"),
        ("pon:778p:from=left", "identical"),
        ("pon:77p:from=left", "has 3 tiles"),
        ("kan:777p:concealed", "has 4 tiles"),
        ("pon:777p:concealed", "from=left|right|opposite"),
        ("pon:777p:from=behind", "from=left|right|opposite"),
        ("gang:7777p:concealed", "kind chi, pon, kan or kakan"),
        ("pon:7x7p:from=left", "position 1"),
        ("pon:777p", "kind:tiles:origin"),
    ],
)
def test_a_bad_meld_names_itself_and_what_is_wrong(text, message):
    with pytest.raises(MjtableError) as caught:
        meld(text)
    assert message in str(caught.value)
    assert "melds[0]" in str(caught.value)


def request(**fields):
    return SettleRequest.from_json({"rules": "basic", **fields})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "expected a JSON object"),
        ({"hand": ""}, "'rules' is missing"),
        ({"rules": 5}, "'rules': expected a ruleset id"),
        ({"rules": "basic", "options": []}, "'options': expected an object"),
        ({"rules": "basic", "melds": "pon:777p:from=left"}, "'melds': expected a list"),
        ({"rules": "basic", "win_tile": 5}, "'win_tile'"),
        ({"rules": "basic", "situation": None}, "'situation'"),
        ({"rules": "basic", "query": True}, "'query'"),
        ({"rules": "basic", "bogus": 1}, "unknown field 'bogus'"),
    ],
)
def test_top_level_fields_are_checked_by_name(data, message):
    with pytest.raises(MjtableError) as caught:
        SettleRequest.from_json(data)
    assert message in str(caught.value)


CTX = WinContext(winner=1, dealer=0, discarder=2)


def test_read_hand_builds_the_hand_with_its_situation():
    hand = request(hand="123m456p789s1122z", win_tile="1z").read_hand(BASIC, CTX)
    assert hand.win_tile == parse_tile("1z")
    assert len(hand.standing) == 13
    assert hand.context.seat_wind == 1 and not hand.context.self_drawn


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"hand": "123m456p789s112z", "win_tile": "1z"}, "12 standing tiles beside 0 melds; expected 13"),
        ({"hand": "123m456p789s1122z", "win_tile": None}, "needs the winning tile"),
        ({"hand": "123m456p789s1122z", "win_tile": "12z"}, "exactly one tile"),
        ({"hand": "1111m456p789s122z", "win_tile": "1m"}, "5 copies of 1m"),
        ({"hand": "123m456p789s1122z", "win_tile": "1f"}, "not in the 136-tile set"),
        ({"hand": "123m456p789s11q2z", "win_tile": "1z"}, "field 'hand'"),
        (
            {"hand": "456p789s1z", "melds": ["pon:111m:from=left", "kan:1111m:concealed"], "win_tile": "1z"},
            "7 copies of 1m",
        ),
    ],
)
def test_a_hand_that_cannot_exist_is_refused(fields, message):
    with pytest.raises(MjtableError) as caught:
        request(**fields).read_hand(BASIC, CTX)
    assert message in str(caught.value)


def test_an_unknown_ruleset_or_option_is_refused_by_name():
    with pytest.raises(MjtableError, match="unknown ruleset 'atlantis'"):
        settle_object({"rules": "atlantis"})
    with pytest.raises(MjtableError, match="unknown option 'ghosts'"):
        settle_object({"rules": "basic", "options": {"ghosts": 2}})
