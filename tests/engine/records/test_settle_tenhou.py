"""The parsed Tenhou records against ``shared/records/settle-tenhou.jsonl``, whose 448 rows (wins, double rons,
drawn hands, dealer changes) were derived from the same files by other means: every field both give must agree.

The settle rows write an indicator that is a red five as a plain five (its colour does not matter to the dora it
points at), so indicators are compared by kind; a zero-han entry (Tenhou lists ``ura_dora 0`` on a riichi hand)
is not in the rows."""

from __future__ import annotations

import pytest

from engine.records import DrawnGame, HandRecord, Win
from tests.engine.records.corpus import codes, game, parse_settle_melds, settle_melds, settle_rows
from tests.paths import needs_records

pytestmark = needs_records
ROWS = settle_rows("settle-tenhou.jsonl")


def _hand(row) -> HandRecord:
    hand = game(row["source"]["path"].rsplit("/", 1)[-1]).hands[row["source"]["hand"]]
    assert hand.index == row["source"]["hand"]
    return hand


def _payments(row) -> tuple[int, ...]:
    return tuple(row["expected"]["payments"][str(seat)] for seat in range(4))


def _kinds(tiles) -> list[str]:
    return sorted(tile.code.replace("0", "5") for tile in tiles)


def _plain(text: str) -> list[str]:
    return sorted(code.replace("0", "5") for code in codes(text))


def _yaku(win: Win) -> list[tuple[str, int]]:
    return sorted((y.key, y.han) for y in win.yaku if y.han)


def test_the_rows_cover_every_file():
    assert len(ROWS) == 448
    assert len({row["source"]["path"] for row in ROWS}) == 31


@pytest.mark.parametrize("row", [r for r in ROWS if r.get("kind") == "next_dealer"], ids=lambda row: row["id"])
def test_next_dealer(row):
    hand = _hand(row)
    following = game(row["source"]["path"].rsplit("/", 1)[-1]).hands[hand.index + 1]
    assert (hand.dealer, hand.honba) == (row["input"]["situation"]["dealer"], row["input"]["situation"]["honba"])
    assert (following.dealer, following.honba) == (row["expected"]["next_dealer"], row["expected"]["next_honba"])


@pytest.mark.parametrize("row", [r for r in ROWS if r.get("kind") == "drawn"], ids=lambda row: row["id"])
def test_drawn_hands(row):
    (drawn,) = _hand(row).results
    assert isinstance(drawn, DrawnGame)
    assert drawn.deltas == _payments(row)
    assert list(drawn.tenpai) == row["input"]["situation"]["tenpai"]


@pytest.mark.parametrize("row", [r for r in ROWS if r.get("kind") == "multi_win"], ids=lambda row: row["id"])
def test_double_rons(row):
    wins = _hand(row).results
    assert tuple(sum(win.deltas[seat] for win in wins) for seat in range(4)) == _payments(row)
    for seat, expected in row["expected"]["per_winner"].items():
        (win,) = [win for win in wins if win.winner == int(seat)]
        assert (win.han, win.fu, win.points) == (expected["han"], expected["fu"], expected["points"])
        assert _yaku(win) == sorted(map(tuple, expected["yaku"]))


@pytest.mark.parametrize("row", [r for r in ROWS if "kind" not in r], ids=lambda row: row["id"])
def test_wins(row):
    """Han, fu, points, limit, yaku, the record's payments, pao; the hand, melds, winning tile, indicators, honba
    and sticks the win is scored with; the dealer, the discarder and the round wind."""
    hand = _hand(row)
    given, situation, expected = row["input"], row["input"]["situation"], row["expected"]
    (win,) = [win for win in hand.results if win.winner == situation["winner"]]
    assert (win.han, win.fu, win.points, win.limit) == (
        expected["han"],
        expected["fu"],
        expected["points"],
        expected["limit"],
    )
    assert _yaku(win) == sorted(map(tuple, expected["yaku"]))
    assert win.deltas == _payments(row)
    assert win.pao_seat == expected["pao"]
    concealed = list(win.hand)
    concealed.remove(win.win_tile)
    assert sorted(tile.code for tile in concealed) == codes(given["hand"])
    assert win.win_tile.code == given["win_tile"]
    assert settle_melds(hand, win.winner) == parse_settle_melds(given["melds"])
    assert _kinds(win.dora) == _plain(situation["dora_indicators"])
    assert _kinds(win.ura) == _plain(situation.get("ura_dora_indicators", ""))
    assert (win.honba, win.sticks) == (situation["honba"], situation["riichi_sticks"])
    assert (None if win.self_drawn else win.from_seat) == situation["discarder"]
    assert hand.dealer == situation["dealer"] and "ESWN"[hand.round_wind] == situation["round_wind"]
