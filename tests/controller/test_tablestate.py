"""What the table page is given beyond the referee's dicts: each meld's claimed tile, the winner's hand laid out,
a drawn hand's settlement, one history line per hand."""

import pytest

from controller.display.tablestate import DRAW_SETTLEMENTS, history_entry, meld_view, result_view, shown_hand
from engine.notation import parse_hand

RESULT = {"hand": 1, "match": 0, "dealer": 1, "round_wind": "E", "drawn": False, "scores": [28, 29, -41, -16],
          "payments": {"0": -8, "1": 37, "2": -21, "3": -8},
          "wins": [{"seat": 1, "hand": "[CCCC,6]2334467888p2p|EE0000|abd",
                    "score": {"total": 13, "fans": [{"name_zh": "混一色", "name_en": "Half Flush", "points": 6,
                                                     "count": 1}]}}]}  # fmt: skip


@pytest.mark.parametrize(
    ("meld", "expected"),
    [
        ("[123m,1]", {"tiles": ["1m", "2m", "3m"], "side": 0}),  # a chow: the tile its offer names
        ("[123m,3]", {"tiles": ["1m", "2m", "3m"], "side": 2}),
        ("[777p,1]", {"tiles": ["7p", "7p", "7p"], "side": 0}),  # from the left: the left tile
        ("[777p,2]", {"tiles": ["7p", "7p", "7p"], "side": 1}),  # from across: the middle one
        ("[7777p,3]", {"tiles": ["7p"] * 4, "side": 3}),  # from the right: the right one
        ("[7777p,6]", {"tiles": ["7p"] * 4, "side": 1}),  # added to a pung from across
        ("[7777p]", {"tiles": ["7p"] * 4, "hidden": True}),  # concealed kong
        ("[777p]", {"tiles": ["7p"] * 3}),  # supplier unknown
    ],
)
def test_the_claimed_tile_of_each_meld_is_marked(meld, expected):
    (parsed,) = parse_hand(meld + "11z11z11z11z2z").melds
    assert meld_view(parsed) == expected


def test_the_winners_hand_is_laid_out_with_the_winning_tile_apart():
    shown = shown_hand(RESULT["wins"][0]["hand"])
    assert shown["melds"] == [{"tiles": ["7z"] * 4, "side": 1}]
    assert shown["tiles"] == ["2p", "3p", "3p", "4p", "4p", "6p", "7p", "8p", "8p", "8p"]
    assert shown["win_tile"] == "2p" and shown["self_drawn"] is False
    assert shown_hand("not a hand") == {}  # a ruleset's own notation: the page shows the hand as written


def test_a_result_gives_each_seats_payment_and_a_drawn_hand_what_it_settled():
    view = result_view(RESULT, "mcr")
    assert view["payments"] == [-8, 37, -21, -8] and view["wins"][0]["win_tile"] == "2p"
    drawn = {**RESULT, "drawn": True, "wins": [], "payments": {"0": 6, "1": -2, "2": -2, "3": -2}}
    assert result_view(drawn, "sichuan")["settled"] == DRAW_SETTLEMENTS["sichuan"]  # 查叫 moved points
    assert result_view(drawn, "basic")["settled"] == ("流局结算", "settled at the draw")
    assert "settled" not in result_view({**drawn, "payments": {}}, "mcr")  # nothing paid, nothing to say
    voided = result_view({**drawn, "voided": True}, "sichuan")
    assert voided["voided"] and "settled" not in voided


def test_a_history_line_is_small():
    entry = history_entry(RESULT, "mcr")
    assert entry["wins"] == [{"seat": 1, "total": 13, "fans": [["混一色", "Half Flush", 6, 1]]}]
    assert entry["payments"] == [-8, 37, -21, -8] and entry["scores"] == RESULT["scores"]


def test_a_win_written_without_a_situation_block_keeps_the_referees_self_draw():
    """Riichi writes its wins without MCR's ``|EE1000`` block: whether the win was self-drawn comes from the result
    line (the referee's), not from the notation's default."""
    win = {"seat": 1, "hand": "[EEE,3]22456m56788p8p", "score": {"total": 1, "fans": []}, "self_drawn": True}
    shown = result_view({"drawn": False, "wins": [win], "payments": {"1": 1000}}, "riichi")["wins"][0]
    assert shown["self_drawn"] is True and shown["win_tile"] == "8p"
