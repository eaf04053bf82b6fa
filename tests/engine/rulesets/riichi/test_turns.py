"""Riichi's turns on the shared referee: each seat's first turn (地和, 人和: ``Ruleset.first_turn_per_seat``), 喰い替え
(``discard_refusal``), and 嶺上開花 on the last live tile, which is no 海底摸月 (``replacement_is_last_tile``)."""

from __future__ import annotations

from engine.tiles import format_tiles, parse_tiles
from tests.engine.rulesets.riichi.at_table import K, act, next_turn, passes, refused, riichi, tsumogiri, yaku
from tests.engine.stacked import stacked

STRAIGHT = "123m456m789m11p23p"
"""Seat 1 waits on 1p-4p with a pure straight."""
DEALER = "6z2468m1379p2468s"


def test_a_self_draw_on_the_first_uninterrupted_turn_is_chiihou() -> None:
    referee = stacked(riichi(), {0: DEALER, 1: STRAIGHT}, draws="4p")
    act(referee, K.DISCARD, 0, "6z")
    next_turn(referee)
    act(referee, K.HU, 1)
    assert yaku(referee, 1) == {"chiihou": 13}


def test_no_chiihou_once_a_call_was_made() -> None:
    referee = stacked(riichi(), {0: DEALER, 1: STRAIGHT, 2: "66z"}, draws="5z5z4p")
    act(referee, K.DISCARD, 0, "6z")
    act(referee, K.PUNG, 2)
    passes(referee)
    act(referee, K.DISCARD, 2, referee.ruleset.tile_code(referee.seats[2].concealed_tiles()[0]))
    tsumogiri(referee, 2)
    next_turn(referee)
    act(referee, K.HU, 1)
    assert "chiihou" not in yaku(referee, 1) and yaku(referee, 1)["ittsu"] == 2


def test_a_win_on_the_dealers_first_discard_is_renhou_where_the_option_says() -> None:
    for option, renhou in (("han5", 5), ("none", None)):
        referee = stacked(riichi(renhou=option), {0: "4p" + DEALER[2:] + "6z", 1: STRAIGHT})
        act(referee, K.DISCARD, 0, "4p")
        act(referee, K.HU, 1)
        passes(referee)
        assert yaku(referee, 1).get("renhou") == renhou and yaku(referee, 1)["ittsu"] == 2


def test_the_tile_just_claimed_is_not_discarded_at_once() -> None:
    referee = stacked(riichi(), {0: DEALER, 1: STRAIGHT, 2: "666z"})
    act(referee, K.DISCARD, 0, "6z")
    act(referee, K.PUNG, 2)
    passes(referee)
    assert "喰い替え" in refused(referee, K.DISCARD, 2, "6z")


def test_a_kan_on_the_last_live_tile_wins_on_its_replacement_as_rinshan_not_haitei() -> None:
    """The dealer keeps 111m and waits on 1s-4s; its 17th draw, the fourth 1m, leaves one live tile; the kan's
    replacement 1s (the live wall now empty) wins: 嶺上開花, no 海底摸月."""
    hand = "111m456p789s11z23s9m"
    spare = [tile for tile in range(34) for _ in range(4)]
    for tile in parse_tiles(hand + "1m1s"):
        spare.remove(tile)
    referee = stacked(riichi(), {0: hand}, draws=format_tiles([*spare[:67], *parse_tiles("1m")]), replacements="1s")
    act(referee, K.DISCARD, 0, "9m")
    tsumogiri(referee, 67)
    next_turn(referee)
    assert referee.turn == 0 and referee.wall.live_remaining == 1
    act(referee, K.CONCEALED_KONG, 0, "1m")
    assert referee.wall.exhausted
    act(referee, K.HU, 0)
    found = yaku(referee, 0)
    assert found["rinshan"] == 1 and "haitei" not in found
