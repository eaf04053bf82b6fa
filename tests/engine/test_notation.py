import json

import pytest
from hypothesis import given

from engine.errors import NotationError
from engine.notation import Hand, Meld, MeldKind, Situation, format_hand, parse_hand
from engine.tiles import parse_tiles
from tests.engine.strategies import hands
from tests.paths import ANCHOR


def test_reads_every_part_of_the_example():
    hand = parse_hand("[123m,1][777p,3]55m789p23s4s|EE1000|2")
    assert hand.melds == (Meld(MeldKind.CHOW, 0, 1), Meld(MeldKind.PUNG, parse_tiles("7p")[0], 3))
    assert hand.standing == tuple(parse_tiles("55m789p23s"))
    assert hand.win_tile == parse_tiles("4s")[0]
    assert hand.situation == Situation(0, 0, True, False, False, False)
    assert hand.flowers == 2


def test_honor_letters_kongs_and_waiting_hands():
    hand = parse_hand("[CCCC][FFFF,5][PPP,2]N ")
    assert [m.kind for m in hand.melds] == [MeldKind.KONG, MeldKind.KONG, MeldKind.PUNG]
    assert hand.melds[0].is_concealed_kong and hand.melds[1].is_added_kong and hand.melds[1].supplier == 1
    assert hand.win_tile is None and hand.standing == tuple(parse_tiles("4z"))
    assert format_hand(hand) == "[CCCC][FFFF,5][PPP,2]N "


def test_flower_letters():
    hand = parse_hand("11m|SN0101|ach")
    assert hand.flowers == tuple(parse_tiles("138f"))
    assert hand.situation == Situation(1, 3, False, True, False, True)


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("[12m]3m", 1),
        ("[123m,4]1m", 6),
        ("[123m", 5),
        ("11m|EX1000", 5),
        ("11m|EE1020", 8),
        ("11m|EE100", 4),
        ("11m|EE1000|9", 11),
        ("11m|EE1000|aa", 12),
        ("1x", 1),
        ("11m|EE1000|1|2", 12),
    ],
)
def test_errors_name_the_position(text, position):
    with pytest.raises(NotationError) as caught:
        parse_hand(text)
    assert caught.value.position == position


@given(hands())
def test_round_trip(hand: Hand):
    assert parse_hand(format_hand(hand)) == hand


def _anchor_strings() -> list[str]:
    cases = json.loads((ANCHOR / "gb-mahjong-js" / "generated-unit-test-cases.json").read_text())
    strings = [case["input"] for case in cases["fanCases"] + cases["tingCases"]]
    with (ANCHOR / "mcr-oracle-pymahjonggb-1.4.0.jsonl").open() as lines:
        strings += [json.loads(line)["notation"] for line in lines]
    return strings


def test_every_anchor_hand_parses_and_its_canonical_form_is_stable():
    for text in _anchor_strings():
        canonical = format_hand(parse_hand(text))
        assert format_hand(parse_hand(canonical)) == canonical, text
        assert parse_hand(canonical) == parse_hand(text), text
