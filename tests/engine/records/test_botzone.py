"""The Botzone / IJCAI MCR text (``engine.records.botzone``) on ``shared/records/mcr/botzone-sample.txt`` (10
hands), checked against ``settle-mcr.jsonl``, whose winning hands were derived from it."""

from __future__ import annotations

import pytest

from engine.records import Call, CallKind, Discard, Draw, DrawKind, DrawnGame, Format, Win, parse
from engine.records.botzone import parse_botzone, tile
from engine.records.tracker import Broken
from tests.engine.records.corpus import BOTZONE, codes, game, parse_settle_melds, settle_melds, settle_rows
from tests.paths import needs_records

NAME = "botzone-sample.txt"
ROWS = settle_rows("settle-mcr.jsonl")


@needs_records
def test_every_hand_reads():
    record = game(NAME)
    assert record.format is Format.BOTZONE and record.problems == ()
    assert len(record.hands) == BOTZONE.read_text().count("Match ")
    assert sum(isinstance(hand.results[0], Win) for hand in record.hands) == 9
    (drawn,) = [hand for hand in record.hands if isinstance(hand.results[0], DrawnGame)]
    assert drawn.results[0].kind is DrawKind.EXHAUSTIVE and drawn.results[0].deltas == (0, 0, 0, 0)
    for hand in record.hands:
        assert hand.dealer == 0 and hand.scores is None and hand.ref is not None
        assert sum(hand.deltas) == 0


@needs_records
@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_wins_agree_with_settle_mcr(row):
    """Winner, discarder, fan total, payments, winning tile, the concealed hand and the melds at the win, the
    prevalent wind and the shape of the (nameless) fan list."""
    (hand,) = [hand for hand in game(NAME).hands if hand.ref == row["source"]["match"]]
    (win,) = hand.results
    situation, expected = row["input"]["situation"], row["expected"]
    assert win.winner == situation["winner"]
    assert (None if win.self_drawn else win.from_seat) == situation["discarder"]
    assert win.han == expected["total"]
    assert win.deltas == tuple(expected["payments"][str(seat)] for seat in range(4))
    assert win.win_tile.code == row["input"]["win_tile"]
    concealed = list(win.hand)
    concealed.remove(win.win_tile)
    assert sorted(tile.code for tile in concealed) == codes(row["input"]["hand"])
    assert settle_melds(hand, win.winner) == parse_settle_melds(row["input"]["melds"])
    assert "ESWN"[hand.round_wind] == situation["round_wind"]
    assert sorted([len(y.name), y.count] for y in win.yaku) == expected["fan_shape"]


@needs_records
def test_kongs_of_each_kind():
    """Match ...438a: seat 3 kongs a discard (Gang), adds to its pung (BuGang), seat 2 kongs concealed (AnGang);
    each takes its replacement draw next."""
    (hand,) = [hand for hand in game(NAME).hands if hand.ref.endswith("438a")]
    kongs = [(i, m) for i, m in enumerate(hand.moves) if isinstance(m, Call) and m.kind is not CallKind.CHI]
    kinds = [(m.seat, m.kind, m.tiles[0].code, m.from_seat) for _, m in kongs if m.kind is not CallKind.PON]
    assert kinds == [(3, CallKind.DAIMINKAN, "2z", 2), (3, CallKind.KAKAN, "9m", 0), (2, CallKind.ANKAN, "8p", None)]
    for index, move in kongs:
        if move.kind is not CallKind.PON:
            after = hand.moves[index + 1]
            assert isinstance(after, Draw) and after.seat == move.seat


def test_tiles():
    assert [tile(code).code for code in ("W1", "B5", "T9", "F1", "F4", "J1", "J2", "J3")] == [
        "1m", "5p", "9s", "1z", "4z", "7z", "6z", "5z",
    ]  # fmt: skip
    for bad in ("W0", "X1", "F5", "J4", "H1", "w1", ""):
        with pytest.raises(Broken):
            tile(bad)


HAND = """Match abc
Wind 0
Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B2 B3
Player 1 Deal T1 T2 T3 T4 T5 T6 T7 T8 T9 F1 F1 F2 F2
Player 2 Deal B4 B5 B6 B7 B8 B9 J1 J1 J1 J2 J2 J3 J3
Player 3 Deal T1 T2 T3 T4 T5 T6 T7 T8 T9 F3 F3 J3 J3
Player 0 Draw B4
Player 0 Play B4
Player 1 Draw W1
Player 1 Play W1
Player 2 Draw F1
Player 2 Play J3
Player 3 Peng J3 Ignore Player 0 CHI J3
Player 3 Play F3
Player 0 Draw B2
Player 0 Hu B2
Fan 8 ??*1+???*2
Score 32 -8 -8 -8
"""


def test_a_small_hand_reads_with_its_ignore():
    record = parse(HAND)
    assert record.problems == ()
    (hand,) = record.hands
    pon = next(m for m in hand.moves if isinstance(m, Call))
    assert (pon.kind, pon.seat, pon.from_seat, pon.called.code) == (CallKind.PON, 3, 2, "5z")
    discards = [m for m in hand.moves if isinstance(m, Discard)]
    assert [m.tsumogiri for m in discards] == [None, None, False, False]  # the same kind as drawn: cannot tell
    (win,) = hand.results
    assert win.self_drawn and win.han == 8 and [(y.name, y.count) for y in win.yaku] == [("??", 1), ("???", 2)]


@pytest.mark.parametrize(
    ("change", "line", "says"),
    [
        (("Player 0 Play B4", "Player 0 Play B7"), 8, "does not hold 7p"),
        (("Player 1 Draw W1", "Player 2 Draw W1"), 9, "out of turn"),
        (("Player 3 Peng J3", "Player 3 Peng J2"), 13, "but J3 was discarded"),
        (("Player 0 Hu B2", "Player 0 Hu B3"), 16, "did not draw it"),
        (("Wind 0", "Wind 4"), 2, "0-3"),
        (("Player 0 Draw B2", "Player 0 Draw X2"), 15, "no Botzone tile"),
        (("Score 32 -8 -8 -8", "Score 32 -8 -8"), 18, "3 numbers"),
        (("Fan 8", "Fan x"), 17, "no total"),
        (("Ignore Player 0 CHI J3", "Ignore Player 0 EAT J3"), 13, "Ignore Player N"),
    ],
)
def test_a_damaged_hand_is_named_by_line(change, line, says):
    record = parse_botzone(HAND.replace(*change) + HAND.replace("abc", "def"))
    assert [hand.ref for hand in record.hands] == ["def"]
    (problem,) = record.problems
    assert problem.hand == 0 and problem.where == f"line {line}" and says in problem.reason


def test_an_ignore_may_stand_on_its_own_line():
    record = parse(HAND.replace(" Ignore Player 0 CHI J3", "\nIgnore Player 0 Chi J3"))
    assert record.problems == () and record.hands == parse(HAND).hands


def test_a_cut_hand_is_named():
    record = parse_botzone(HAND + HAND.replace("abc", "def")[:-30])
    assert [hand.ref for hand in record.hands] == ["abc"]
    (problem,) = record.problems
    assert problem.hand == 1 and "cut" in problem.reason
