"""Tenhou mjlog XML (``engine.records.tenhou_xml``) on the 22 real games of ``shared/records/tenhou``: every hand
reads, and what a reader could get wrong is checked against what the record itself says elsewhere (the tiles that
must be conserved, the scores that must run on, the hands shown at a win)."""

from __future__ import annotations

import itertools
import re

import pytest

from engine.records import (
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    DrawnGame,
    Format,
    NewDora,
    RecordError,
    Win,
    parse,
)
from engine.records.tenhou_xml import parse_mjlog
from tests.engine.records.corpus import MJLOGS, accepted_riichi, end_scores, game, won
from tests.paths import needs_records

pytestmark = needs_records
NAMES = [path.name for path in MJLOGS]
KANS = (CallKind.ANKAN, CallKind.DAIMINKAN, CallKind.KAKAN)
LIVE_DRAWS = 136 - 14 - 52
"""Tiles drawn in a hand that runs the wall out: 136 less the dead wall and the deal; a kan's replacement tile
comes from the dead wall, which takes the last live tile in its place, so kans do not change the count."""


@pytest.mark.parametrize("name", NAMES)
def test_every_hand_reads(name):
    text = (MJLOGS[0].parent / name).read_text()
    record = game(name)
    assert record.format is Format.TENHOU_XML
    assert record.problems == ()
    assert len(record.hands) == text.count("<INIT ")
    assert [hand.index for hand in record.hands] == list(range(len(record.hands)))
    assert record.rules.room == "鳳凰" and record.rules.length == "south" and record.rules.red_fives
    assert record.wall_seed is not None and record.wall_seed.startswith("mt19937ar-sha512-n288-base64,")


@pytest.mark.parametrize("name", NAMES)
def test_tile_ids_are_conserved(name):
    """Deal, draws, indicators (dora and ura): every id 0-135 at most once in a hand; a hand that runs the wall out
    draws exactly its 70 live tiles; one dora indicator more per kan."""
    for hand in game(name).hands:
        ids = [tile.id for tiles in hand.deal for tile in tiles]
        ids += [move.tile.id for move in hand.moves if isinstance(move, Draw)]
        ids += [tile.id for tile in (*hand.dora, *hand.ura)]
        assert all(tile_id is not None and 0 <= tile_id <= 135 for tile_id in ids)
        assert len(ids) == len(set(ids)), f"hand {hand.index}: a tile id twice"
        draws = sum(isinstance(move, Draw) for move in hand.moves)
        kans = sum(
            isinstance(m, Call) and m.kind in (CallKind.ANKAN, CallKind.DAIMINKAN, CallKind.KAKAN) for m in hand.moves
        )
        exhaustive = any(isinstance(r, DrawnGame) and r.kind is DrawKind.EXHAUSTIVE for r in hand.results)
        assert draws == LIVE_DRAWS if exhaustive else draws <= LIVE_DRAWS
        assert len(hand.dora) == 1 + sum(isinstance(move, NewDora) for move in hand.moves) <= 1 + kans
        for win in hand.results:
            if isinstance(win, Win):
                assert win.dora == hand.dora


@pytest.mark.parametrize("name", NAMES)
def test_each_seat_holds_what_it_plays(name):
    """Replayed here from the moves alone (deal + draws - discards - melded tiles): a discard is always held, a seat
    holds 13 tiles less 3 a meld between turns, and a winner's shown hand is what it holds (with the ron tile)."""
    for hand in game(name).hands:
        held = [set(tile.id for tile in tiles) for tiles in hand.deal]
        melds = [0, 0, 0, 0]
        for move in hand.moves:
            if isinstance(move, Draw):
                held[move.seat].add(move.tile.id)
            elif isinstance(move, Discard):
                held[move.seat].remove(move.tile.id)
                assert len(held[move.seat]) + 3 * melds[move.seat] == 13
            elif isinstance(move, Call):
                own = {tile.id for tile in move.tiles} - ({move.called.id} if move.called else set())
                if move.kind is CallKind.KAKAN:
                    own = {move.called.id}
                else:
                    melds[move.seat] += 1
                assert own <= held[move.seat]
                held[move.seat] -= own
            elif isinstance(move, Win):
                shown = {tile.id for tile in move.hand}
                ron = set() if move.self_drawn else {move.win_tile.id}
                assert shown == held[move.winner] | ron
                assert len(shown) + 3 * melds[move.winner] == 14


@pytest.mark.parametrize("name", NAMES)
def test_tsumogiri_is_the_tile_just_drawn(name):
    flags = []
    for hand in game(name).hands:
        drawn = {}
        for move in hand.moves:
            if isinstance(move, Draw):
                drawn[move.seat] = move.tile.id
            elif isinstance(move, Discard):
                assert move.tsumogiri == (drawn.pop(move.seat, None) == move.tile.id)
                flags.append(move.tsumogiri)
            elif isinstance(move, Call):
                drawn.pop(move.seat, None)
    assert any(flags) and not all(flags)


@pytest.mark.parametrize("name", NAMES)
def test_deltas_sum_to_the_sticks(name):
    """A hand's changes sum to zero but for the riichi sticks a winner takes: those on the table at the start and
    those paid in the hand; a drawn hand's (noten payments, nagashi mangan) sum to zero."""
    for hand in game(name).hands:
        sticks = hand.riichi_sticks + accepted_riichi(hand)
        assert sum(hand.deltas) == (1000 * sticks if won(hand) else 0), f"hand {hand.index}"
        for result in hand.results:
            if isinstance(result, Win):
                assert (result.honba, result.sticks) == ((hand.honba, sticks) if result is hand.results[0] else (0, 0))


@pytest.mark.parametrize("name", NAMES)
def test_scores_run_on(name):
    """Each hand starts where the last ended (its start, its deltas, less the riichi sticks paid), the sticks carry
    over a drawn hand and go with a win, and the game's final scores (``owari``) are the last hand's end, the
    sticks still on the table going to the leader (Tenhou's rule; a tie goes to the seat nearer the first dealer)."""
    record = game(name)
    hands = record.hands
    assert hands[0].scores == (25000, 25000, 25000, 25000)
    for before, after in itertools.pairwise(hands):
        assert end_scores(before) == after.scores, f"hand {after.index}"
        carried = 0 if won(before) else before.riichi_sticks + accepted_riichi(before)
        assert after.riichi_sticks == carried
    final = list(end_scores(hands[-1]))
    if not won(hands[-1]):
        leader = max(range(4), key=lambda seat: (final[seat], -seat))
        final[leader] += 1000 * (hands[-1].riichi_sticks + accepted_riichi(hands[-1]))
    assert record.final_scores == tuple(final)
    assert record.final_results is not None and sum(record.final_results) == pytest.approx(0, abs=0.05)


def test_double_ron():
    """double-ron.mjlog, its last hand: seat 3 deals into seats 0 and 2; the head winner (0, next after the
    discarder) takes the two sticks, the other its points alone."""
    hand = game("double-ron.mjlog").hands[-1]
    first, second = hand.results
    assert (first.winner, first.from_seat, second.winner, second.from_seat) == (0, 3, 2, 3)
    assert first.win_tile == second.win_tile and first.win_tile.id == 3
    assert (first.points, first.deltas, first.sticks) == (7700, (9700, 0, 0, -7700), 2)
    assert (second.points, second.deltas, second.sticks, second.limit) == (8000, (0, 0, 8000, -8000), 0, "mangan")
    # Tenhou lists the ura dora of a riichi hand even when they count no han.
    assert [(y.key, y.han) for y in second.yaku] == [
        ("riichi", 1),
        ("pinfu", 1),
        ("iipeikou", 1),
        ("dora", 1),
        ("aka_dora", 1),
        ("ura_dora", 0),
    ]
    assert game("double-ron.mjlog").players[0] == "タケオしゃん"


def test_pao_on_a_self_drawn_daisangen():
    """pao-tsumo.mjlog hand 4: seat 2 draws 大三元; seat 0, which gave the third dragon pon, pays it all."""
    hand = game("pao-tsumo.mjlog").hands[4]
    (win,) = hand.results
    assert win.self_drawn and win.winner == 2 and win.pao_seat == 0
    assert (win.han, win.points, win.limit, win.deltas) == (13, 32000, "yakuman", (-32000, 0, 32000, 0))
    assert [(y.key, y.han) for y in win.yaku] == [("daisangen", 13)]
    pons = [m for m in hand.moves if isinstance(m, Call) and m.seat == 2]
    assert [(m.tiles[0].code, m.from_seat) for m in pons] == [("5z", 3), ("7z", 0), ("6z", 0)]


def test_a_kakan_robbed():
    """2010081709 hand 4: seat 1 adds a 3p to its pon and seat 2 wins on it (槍槓): the win's tile is the one added."""
    hand = game("2010081709gm-00a9-0000-fe3371ad.mjlog").hands[4]
    kakan, win = hand.moves[-2:]
    assert isinstance(kakan, Call) and kakan.kind is CallKind.KAKAN and kakan.called.id == 45
    assert kakan.from_seat == 0
    assert win.from_seat == 1 and win.win_tile.id == 45 and "chankan" in [y.key for y in win.yaku]


def test_red_fives_follow_the_rules():
    record = game("double-ron.mjlog")
    reds = {tile.id for hand in record.hands for tiles in hand.deal for tile in tiles if tile.red}
    assert reds and reds <= {16, 52, 88}
    no_red = (MJLOGS[0].parent / "double-ron.mjlog").read_text().replace('type="169"', 'type="171"')
    assert not any(tile.red for hand in parse_mjlog(no_red).hands for tiles in hand.deal for tile in tiles)


def test_three_players_are_refused():
    text = (MJLOGS[0].parent / "double-ron.mjlog").read_text().replace('type="169"', 'type="185"')
    with pytest.raises(RecordError, match="three-player"):
        parse(text)


def test_no_go_tag_is_refused():
    text = re.sub(r"<GO [^>]*/>", "", (MJLOGS[0].parent / "double-ron.mjlog").read_text())
    with pytest.raises(RecordError, match="no <GO> tag"):
        parse(text)


def test_a_cut_record_gives_the_hands_before():
    text = (MJLOGS[0].parent / "double-ron.mjlog").read_text()
    cut = text[: text.index("<AGARI", text.rindex("<INIT")) + 30]
    record = parse(cut)
    assert record.hands == game("double-ron.mjlog").hands[:3]
    (problem,) = record.problems
    assert problem.hand == 3 and problem.move is not None and "cut" in str(problem)


def test_a_wrong_discard_names_its_hand_and_move():
    """Hand 1's first discard made a 中 seat 0 does not hold: hand 1 is named, hands 0, 2 and 3 still read."""
    text = (MJLOGS[0].parent / "double-ron.mjlog").read_text()
    start = text.index("<INIT", text.index("<INIT") + 1)
    first = text.index("<D", start)
    damaged = text[:first] + "<D135/>" + text[text.index("/>", first) + 2 :]
    record = parse(damaged)
    clean = game("double-ron.mjlog").hands
    assert record.hands == (clean[0], clean[2], clean[3])
    (problem,) = record.problems
    assert (problem.hand, problem.move) == (1, 7)
    assert problem.reason == "seat 0 does not hold 7z (id 135)" and problem.where.startswith("offset ")
