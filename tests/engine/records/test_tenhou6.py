"""tenhou.net/6 JSON (``engine.records.tenhou6``) on the 9 logs of ``shared/records/tenhou`` chosen for awkward
calls: the order of play rebuilt from each seat's separate takes and discards, checked against those lists."""

from __future__ import annotations

import itertools
import json

import pytest

from engine.records import Call, CallKind, Discard, Draw, Format, NewDora, RecordError, Riichi, Win, parse
from engine.records.tenhou6 import _call, _score, parse_tenhou6, tile
from engine.records.tracker import Broken
from tests.engine.records.corpus import TENHOU6, accepted_riichi, end_scores, game, won
from tests.paths import needs_records

NAMES = [path.name for path in TENHOU6]


def _raw(name: str) -> dict:
    return json.loads((TENHOU6[0].parent / name).read_text(encoding="utf-8"))


@needs_records
@pytest.mark.parametrize("name", NAMES)
def test_every_hand_reads(name):
    record = game(name)
    assert record.format is Format.TENHOU6
    assert record.problems == ()
    assert len(record.hands) == len(_raw(name)["log"])
    assert record.rules.red_fives and record.players == tuple(_raw(name)["name"])


@needs_records
@pytest.mark.parametrize("name", NAMES)
def test_the_order_of_play_uses_each_list_exactly(name):
    """Per seat, the draws and claims of the rebuilt play are its takes in order, and its discards, riichi
    discards and kans its discards in order (a daiminkan's 0 slot included): nothing left over, nothing made up."""
    for raw, hand in zip(_raw(name)["log"], game(name).hands, strict=True):
        for seat in range(4):
            takes, discards = raw[5 + 3 * seat], raw[6 + 3 * seat]
            taken, thrown = [], []
            for move in hand.moves:
                if isinstance(move, Draw) and move.seat == seat:
                    taken.append(_code(move.tile))
                elif isinstance(move, Call) and move.seat == seat:
                    if move.kind in (CallKind.CHI, CallKind.PON, CallKind.DAIMINKAN):
                        taken.append(move.kind.value)
                    if move.kind is CallKind.DAIMINKAN:
                        thrown.append(0)
                    if move.kind in (CallKind.KAKAN, CallKind.ANKAN):
                        thrown.append(move.kind.value)
                elif isinstance(move, Discard) and move.seat == seat:
                    thrown.append(60 if move.tsumogiri else _code(move.tile))
            assert taken == [_kind(item) for item in takes]
            assert thrown == [_thrown(item) for item in discards]


def _code(record_tile) -> int:
    if record_tile.red:
        return 51 + record_tile.kind // 9
    return (record_tile.kind // 9 + 1) * 10 + record_tile.kind % 9 + 1


def _kind(item):
    if isinstance(item, int):
        return item
    return {"c": "chi", "p": "pon", "m": "daiminkan"}[next(char for char in item if char.isalpha())]


def _thrown(item):
    if isinstance(item, int):
        return item
    if item.startswith("r"):
        return int(item[1:])
    return "kakan" if "k" in item else "ankan"


@needs_records
@pytest.mark.parametrize("name", NAMES)
def test_scores_run_on(name):
    hands = game(name).hands
    for before, after in itertools.pairwise(hands):
        assert end_scores(before) == after.scores
    for hand in hands:
        sticks = hand.riichi_sticks + accepted_riichi(hand)
        assert sum(hand.deltas) == (1000 * sticks if won(hand) else 0)
    final = game(name).final_scores
    if final is not None:  # ranked_game.json and suukantsu_1.json end on a hand that ended the game
        assert final == end_scores(hands[-1])


@needs_records
def test_a_pon_of_the_second_of_two_identical_discards():
    """confusing_nakis_5.json: seat 1 discards 4z twice with no draw of seat 3 between its two turns; seat 3's
    pon is of the second (on the first, seat 0's next take, a pon of seat 1's 2z, could never come)."""
    moves = game("confusing_nakis_5.json").hands[0].moves
    pon = next(i for i, m in enumerate(moves) if isinstance(m, Call) and m.seat == 3 and m.tiles[0].code == "4z")
    north = [i for i, m in enumerate(moves) if isinstance(m, Discard) and m.seat == 1 and m.tile.code == "4z"]
    assert len(north) == 2 and pon == north[1] + 1
    white = next(i for i, m in enumerate(moves) if isinstance(m, Call) and m.seat == 0)
    assert north[0] < white < north[1]


@needs_records
def test_kan_indicators_turn_as_tenhou_turns_them():
    """A concealed kan turns its indicator at once, an open one after the next discard, a kakan robbed none."""
    robbed = game("double_kakan_then_chankan.json").hands[0]
    assert not any(isinstance(m, NewDora) for m in robbed.moves) and len(robbed.dora) == 1
    four_kans = game("suukantsu_0.json").hands[0]
    assert sum(isinstance(m, NewDora) for m in four_kans.moves) == 4 == len(four_kans.dora) - 1
    rinshan = game("rinshan.json").hands[0].moves
    ankan = next(i for i, m in enumerate(rinshan) if isinstance(m, Call) and m.kind is CallKind.ANKAN)
    assert isinstance(rinshan[ankan + 1], NewDora) and isinstance(rinshan[ankan + 2], Draw)


@needs_records
def test_a_double_ron_with_a_riichi_stick():
    """suukantsu_1.json hand 1: seat 2 deals into 四槓子 (seat 3, head: it takes seat 0's riichi stick) and seat
    0's riichi; ura indicators belong to the riichi winner only."""
    hand = game("suukantsu_1.json").hands[1]
    head, second = hand.results
    assert (head.winner, head.sticks, head.deltas, head.ura) == (3, 1, (0, 0, -32000, 33000), ())
    assert (second.winner, second.sticks, second.deltas) == (0, 0, (16000, 0, -16000, 0))
    assert len(second.ura) == 5 and [y.key for y in second.yaku] == ["riichi", "haku", "dora", "ura_dora"]
    assert [m for m in hand.moves if isinstance(m, Riichi)] == [Riichi(0, False), Riichi(0, True)]


@needs_records
def test_chankan_and_rinshan():
    chankan = game("chankan.json").hands[0].results[0]
    assert (chankan.winner, chankan.from_seat, chankan.win_tile.code, chankan.limit) == (2, 3, "6s", "mangan")
    rinshan = game("rinshan.json").hands[0].results[0]
    assert rinshan.self_drawn and rinshan.points == 8000 and "rinshan" in [y.key for y in rinshan.yaku]


@pytest.mark.parametrize(
    ("text", "seat", "kind", "tiles", "called", "from_seat"),
    [
        ("c275226", 1, CallKind.CHI, "7p 0p 6p", "7p", 0),  # chi: always the previous seat's tile, first
        ("p454545", 2, CallKind.PON, "5z 5z 5z", "5z", 1),  # letter first: the previous seat
        ("12p1212", 0, CallKind.PON, "2m 2m 2m", "2m", 2),  # second pair: opposite
        ("2552p25", 1, CallKind.PON, "5p 0p 5p", "5p", 2),  # third pair: the next seat; a red five kept
        ("m39393939", 2, CallKind.DAIMINKAN, "9s 9s 9s 9s", "9s", 1),
        ("26m262626", 0, CallKind.DAIMINKAN, "6p 6p 6p 6p", "6p", 2),
        ("131313m13", 3, CallKind.DAIMINKAN, "3m 3m 3m 3m", "3m", 0),
        ("k37373737", 3, CallKind.KAKAN, "7s 7s 7s 7s", "7s", 2),  # the pon's source, as its letter stood
        ("3636k3636", 3, CallKind.KAKAN, "6s 6s 6s 6s", "6s", 0),
        ("121212a12", 2, CallKind.ANKAN, "2m 2m 2m 2m", None, None),
    ],
)
def test_call_strings(text, seat, kind, tiles, called, from_seat):
    call = _call(text, seat)
    assert call.kind is kind and " ".join(t.code for t in call.tiles) == tiles
    assert (call.called.code if call.called else None, call.from_seat) == (called, from_seat)


@pytest.mark.parametrize("text", ["p3636", "36p3636p", "x363636", "3p63636", "c2752", "363636a36x", "p36363a"])
def test_bad_call_strings_are_named(text):
    with pytest.raises(Broken, match=r"call|tile"):
        _call(text, 0)


@pytest.mark.parametrize(
    ("text", "fu", "han", "points", "limit"),
    [
        ("30符3飜1000-2000点", 30, 3, 4000, ""),  # self-draw: 1000 from each non-dealer, 2000 from the dealer
        ("30符4飜3900点∀", 30, 4, 11700, ""),  # the dealer's self-draw: 3900 from all three
        ("40符2飜2600点", 40, 2, 2600, ""),
        ("満貫8000点", None, None, 8000, "mangan"),
        ("跳満18000点", None, None, 18000, "haneman"),
        ("倍満4000-8000点", None, None, 16000, "baiman"),
        ("数え役満32000点", None, None, 32000, "yakuman"),
        ("役満16000点∀", None, None, 48000, "yakuman"),
    ],
)
def test_score_texts(text, fu, han, points, limit):
    assert _score(text) == (fu, han, (points, limit))


def test_tiles():
    assert [tile(code).code for code in (11, 19, 25, 39, 41, 47, 51, 52, 53)] == [
        "1m", "9m", "5p", "9s", "1z", "7z", "0m", "0p", "0s",
    ]  # fmt: skip
    for bad in (10, 20, 48, 54, 60, 0, "11", True):
        with pytest.raises(Broken):
            tile(bad)


def _minimal(**changes) -> dict:
    """A one-hand log: the dealer draws and declares nine terminals."""
    plain = [12, 13, 14, 15, 16, 17, 18, 22, 23, 24, 25, 26, 27]
    deals = [[11, 19, 21, 29, 31, 39, 41, 42, 43, 44, 45, 46, 32], plain, plain, [51 if c == 15 else 52 if c == 25 else
             c for c in plain]]  # fmt: skip
    hand = [[0, 0, 0], [25000] * 4, [11], []]
    for seat, deal in enumerate(deals):
        hand += [deal, [33] if seat == 0 else [], []]
    hand.append(["九種九牌"])
    log = {"name": ["A", "B", "C", "D"], "rule": {"disp": "般南喰赤", "aka": 1}, "log": [hand]}
    log.update(changes)
    return log


def test_a_minimal_log_reads():
    record = parse_tenhou6(json.dumps(_minimal()))
    (hand,) = record.hands
    assert [type(m).__name__ for m in hand.moves] == ["Draw", "DrawnGame"]
    assert hand.results[0].kind.value == "nine_terminals" and hand.results[0].tenpai is None


def test_three_players_are_refused():
    with pytest.raises(RecordError, match="three-player"):
        parse(json.dumps(_minimal(rule={"disp": "三般南喰赤", "aka": 1})))


def test_no_rule_is_named_and_the_hands_still_read():
    log = _minimal()
    del log["rule"]
    record = parse(json.dumps(log))
    (problem,) = record.problems
    assert "no 'rule'" in str(problem) and problem.hand is None
    assert len(record.hands) == 1 and not record.rules.red_fives and record.rules.length is None


@needs_records
def test_a_cut_log_gives_the_hands_before():
    text = (TENHOU6[0].parent / "ranked_game.json").read_text(encoding="utf-8")
    second = text.index("[[1,0,0]") if "[[1,0,0]" in text else text.index("[[1, 0, 0]")
    record = parse(text[: second + 200])
    assert record.hands == game("ranked_game.json").hands[:1]
    assert "no 'rule'" in str(record.problems[0])  # ranked_game.json writes it after the log
    assert record.problems[1].hand == 1 and "damaged" in record.problems[1].reason


@needs_records
def test_a_wrong_take_names_its_hand_and_move():
    raw = _raw("chankan.json")
    assert raw["log"][0][5][0] == 42
    raw["log"][0][5][0] = 47  # seat 0's first draw, a 2z, made a 7z: it dealt with one 2z, and the second it
    # discards is not in its hand
    record = parse(json.dumps(raw, ensure_ascii=False))
    assert record.hands == ()
    (problem,) = record.problems
    assert (problem.hand, problem.where, problem.reason) == (0, "log[0]", "seat 0 does not hold 2z")
    moves = game("chankan.json").hands[0].moves
    whites = [i for i, m in enumerate(moves) if isinstance(m, Discard) and m.seat == 0 and m.tile.code == "2z"]
    assert problem.move == whites[1]


def test_a_win_by_nobody_is_named():
    log = _minimal()
    log["log"][0][-1] = ["和了", [0, 0, 0, 0], [5, 0, 0, "満貫8000点", "立直(1飜)"]]
    (problem,) = parse(json.dumps(log)).problems
    assert "seats 0-3" in problem.reason


def test_wins_keep_the_words_of_unknown_yaku():
    log = _minimal()
    hand = log["log"][0]
    hand[-1] = ["和了", [-16000, 48000, -16000, -16000], [0, 0, 0, "役満16000点∀", "天和(役満)", "Mystery(2飜)"]]
    (win,) = parse(json.dumps(log)).hands[0].results
    assert isinstance(win, Win) and win.self_drawn and win.points == 48000
    assert [(y.key, y.name, y.han) for y in win.yaku] == [("tenhou", "天和", 13), ("", "Mystery", 2)]
