"""十万麻将 (fan.md §7): ten-rank suits read with 0 = 10 (G-1), chows that do not wrap (SW-1), tiles outside the
set as input errors (SW-2), its own tile model played by the shared referee; a few lines through ``mjtable settle``."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cli import main
from engine.actions import Action, ActionKind
from engine.analysis import is_win as engine_is_win
from engine.analysis import shanten as engine_shanten
from engine.errors import MjtableError
from engine.rulesets.base import WinContext
from engine.rulesets.readings import STANDARD_ONLY
from engine.rulesets.registry import get_ruleset
from engine.rulesets.shiwan.shape import is_win, shanten, waits
from engine.rulesets.shiwan.tiles import SET_SIZE, code, counts_of, format_tiles, full_set, read_tiles
from engine.simulation import simulate
from engine.tiles import to_counts
from tests.engine.rulesets.regional import ask
from tests.engine.stacked import stacked

S = "shiwan"
SITUATION = {"winner": 1, "dealer": 0, "discarder": 2}


def test_the_set_is_136_tiles_of_ranks_1_to_10_and_winds():
    """§7: 万/饼/条 1-10 × 4 (120) + 东南西北 × 4 (16); 0 reads as 10 and is written after 9."""
    assert SET_SIZE == len(full_set()) == 136
    assert [code(tile) for tile in read_tiles("890m0p1234z", "hand")] == [
        "8m",
        "9m",
        "0m",
        "0p",
        "1z",
        "2z",
        "3z",
        "4z",
    ]
    assert format_tiles(read_tiles("0m9m1m", "hand")) == "190m"


def test_eight_nine_ten_is_a_chow():
    """SW-1: 8-9-10 of one suit is a chow."""
    answer = ask(S, "890m123p456p789s1z", "1z", **SITUATION)
    assert answer == {"hu": True, "payments": None, "total": None, "fans": []}


def test_chows_do_not_wrap():
    """SW-1: 9-10-1 is no chow."""
    assert ask(S, "190m123p456p789s1z", "1z", **SITUATION)["hu"] is False


def test_ten_makes_pungs_pairs_and_waits():
    """A 10 is an ordinary rank: 000m is a pung, 00p a pair; 89s waits on 7s and 10s."""
    assert ask(S, "000m123p456p789s0p", "0p", **SITUATION)["hu"] is True
    assert [code(tile) for tile in waits(counts_of(read_tiles("000m123p456p89s11z", "hand")))] == ["7s", "0s"]
    assert not is_win(counts_of(read_tiles("900m123p456p789s11z", "hand")))


def test_melds_follow_the_ten_rank_suits():
    """Contract melds in 十万 ids: chi of 8-9-10 from the left is a chow; 9-10-1 is refused."""
    assert ask(S, "123p456p789s1z", "1z", ("chi:890s:from=left",), **SITUATION)["hu"] is True
    assert ask(S, "123p456p1z", "1z", ("chi:890s:from=left", "pon:000m:from=right"), **SITUATION)["hu"] is True
    with pytest.raises(MjtableError, match="chow"):
        ask(S, "123p456p789s1z", "1z", ("chi:190s:from=left",), **SITUATION)


@pytest.mark.parametrize(("hand", "where"), [("890m123p456p789s5z", "hand"), ("890m123p456p789s1z", "win_tile")])
def test_dragons_are_outside_the_set(hand, where):
    """SW-2: 5z-7z are an input error naming the tile and where it is; through the CLI hu is false."""
    win = "7z" if where == "win_tile" else "1z"
    with pytest.raises(MjtableError, match=f"{where}.*{'7z' if where == 'win_tile' else '5z'}"):
        ask(S, hand, win, **SITUATION)


def test_five_copies_are_refused():
    with pytest.raises(MjtableError, match="5 copies of 0m"):
        ask(S, "0000m123p456p789s", "0m", **SITUATION)


def test_settle_cli_lines():
    """`mjtable settle`: a win with 0 = 10, an error line (SW-2) with hu false, and the batch goes on."""
    lines = [
        {"rules": S, "hand": "890m123p456p789s1z", "win_tile": "1z", "situation": SITUATION},
        {"rules": S, "hand": "890m123p456p789s6z", "win_tile": "6z", "situation": SITUATION},
        {"rules": S, "hand": "190m123p456p789s1z", "win_tile": "1z", "situation": SITUATION},
    ]
    out = io.StringIO()
    assert main(["settle"], io.StringIO("".join(json.dumps(line) + "\n" for line in lines)), out) == 0
    first, error, no_win = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["hu"] is True and first["payments"] is None
    assert error["hu"] is False and "6z" in error["error"]
    assert no_win["hu"] is False


def test_the_referee_plays_full_hands():
    """The shared referee on the ten-rank set: every hand balances after each action and each win is a 十万 win."""
    hands = list(simulate(get_ruleset(S), 20, seed=7))
    assert len(hands) == 20
    for hand in hands:
        for win in hand.referee.wins:
            assert win.score.hu
        json.dumps(hand.to_dict())


def test_simulate_cli_reports_no_invariant_violation():
    """`mjtable simulate --rules shiwan` runs under the shared referee and reports like the other rulesets."""
    out = io.StringIO()
    assert main(["simulate", "--rules", S, "--hands", "5", "--seed", "1"], io.StringIO(), out) == 0
    *hands, summary = (json.loads(line) for line in out.getvalue().splitlines())
    assert len(hands) == 5 and summary["summary"]["invariant_violations"] == 0
    assert all(len(hand["dice"]) == 2 and hand["actions"] > 0 for hand in hands)


@st.composite
def near_wins_without_tens(draw):
    """Four sets and a pair of ranks 1-9 and winds (十万 ids), with one tile sometimes replaced: wins and
    near-misses alike."""
    suited = [suit * 10 + rank for suit in range(3) for rank in range(9)]
    faces = [*suited, 30, 31, 32, 33]
    tiles = [draw(st.sampled_from(faces))] * 2
    for _ in range(4):
        if draw(st.booleans()):
            low = draw(st.sampled_from([tile for tile in suited if tile % 10 <= 6]))
            tiles += [low, low + 1, low + 2]
        else:
            tiles += [draw(st.sampled_from(faces))] * 3
    if draw(st.booleans()):
        tiles[draw(st.integers(0, 13))] = draw(st.sampled_from(faces))
    return tiles


@settings(deadline=None)  # the first call builds lookup tables
@given(near_wins_without_tens())
def test_win_check_agrees_with_the_engine_on_ranks_1_to_9(tiles):
    """Without a 10 the ten-rank check must agree with the engine's nine-rank analysis (the same hand in the
    engine's ids: suit × 9 + rank − 1, winds from 27)."""
    counts = counts_of(tiles)
    if max(counts) > 4:
        return
    engine_tiles = [27 + tile - 30 if tile >= 30 else tile // 10 * 9 + tile % 10 for tile in tiles]
    assert is_win(counts) == engine_is_win(to_counts(engine_tiles)[:34], STANDARD_ONLY)


def test_score_and_waits_lines_read_ten_rank_tiles():
    """`Ruleset.parse_hand` (the `score` / `waits` notation) reads 十万's ids: 0 = 10 (G-1), E S W N the winds, an
    8-9-10 chow meld (SW-1); 9-10-1 is no meld and 白 (5z or P) is outside the set (SW-2), named with its position."""
    shiwan = get_ruleset(S)
    hand = shiwan.parse_hand("[890s,1]123p456p789mEE")
    assert [format_tiles(meld.tiles) for meld in hand.melds] == ["890s"]
    assert format_tiles(hand.standing) == "789m123456p1z" and code(hand.win_tile) == "1z"
    with pytest.raises(MjtableError, match="expected a meld"):
        shiwan.parse_hand("[190s,1]123p456p789mEE")
    with pytest.raises(MjtableError, match=r"5z \(白\) is not in the 十万 set.*position 14"):
        shiwan.parse_hand("123456789m123p5z5z")
    with pytest.raises(MjtableError, match=r"P \(白\) is not in the 十万 set.*position 14"):
        shiwan.parse_hand("123456789m123pPP")


def test_score_checks_the_hand_it_is_given():
    """`evaluate` refuses a hand that cannot exist, whichever command read it: 13 tiles before the winning one,
    four copies at most."""
    shiwan = get_ruleset(S)
    ctx = WinContext(winner=1, dealer=0, discarder=2)
    with pytest.raises(MjtableError, match="expected 13"):
        shiwan.evaluate(shiwan.parse_hand("123m1z1z"), ctx)
    with pytest.raises(MjtableError, match="5 copies of 0m"):
        shiwan.evaluate(shiwan.parse_hand("0000m123p456p789s0m"), ctx)
    assert shiwan.evaluate(shiwan.parse_hand("123456789m123p5p5p"), ctx).hu is True


def test_waits_and_shanten_on_ten_ranks():
    """`waits_of`: 89s waits on 7s and 10s; 0000s 9s waits on 8s (000s + 890s); 123456789m123p5p waits on 5p (what
    `score` and `settle` call a win); shanten counts over ten ranks (190m is a 9-10 partial, 1m a single)."""
    shiwan = get_ruleset(S)
    assert shiwan.waits_of((), read_tiles("000m123p456p89s11z", "hand")) == (read_tiles("7s0s", "w"), 0)
    assert shiwan.waits_of((), read_tiles("123456789m123p5p", "hand")) == (read_tiles("5p", "w"), 0)
    waits_found, steps = shiwan.waits_of((), read_tiles("0000s456m789m9s11z", "hand"))
    assert [code(tile) for tile in waits_found] == ["8s"] and steps == 0
    assert shiwan.waits_of((), read_tiles("19m19p19s1234z190m", "hand"))[1] == 6


@settings(deadline=None)
@given(near_wins_without_tens())
def test_shanten_agrees_with_the_engine_on_ranks_1_to_9(tiles):
    """Without a 10 the ten-rank shanten must agree with the engine's nine-rank one (13 of the tiles)."""
    tiles = tiles[:13]
    counts = counts_of(tiles)
    if max(counts) > 4:
        return
    engine_tiles = [27 + tile - 30 if tile >= 30 else tile // 10 * 9 + tile % 10 for tile in tiles]
    assert shanten(counts) == engine_shanten(to_counts(engine_tiles)[:34], STANDARD_ONLY)


def _move(referee, kind: ActionKind, seat: int, tile: str | None = None):
    return referee.apply(Action(kind, seat, None if tile is None else read_tiles(tile, "test")[0]))


def test_the_referee_takes_a_chow_of_8_9_10_refuses_9_10_1_and_plays_the_hand_to_its_win():
    """Seat 1 chows the dealer's 10m with 8m-9m (a chow of ranks 8-9-10); 9m-10m-1p is no chow. Its hand is then
    three sets, a pair and a pair, it lets an east go and wins on the dealer's east, the hand written in 十万's
    codes."""
    hands = {0: "0m1z135m357p135s34z2z", 1: "89m123p456p789s11z", 2: "9m1p"}
    referee = stacked(get_ruleset(S), hands)
    assert _move(referee, ActionKind.DISCARD, 0, "0m").ok
    refusal = _move(referee, ActionKind.CHI, 1, "9m")
    assert not refusal.ok and "no chow from 9m contains the discard 0m" in refusal.reason
    for kind, seat, tile in ((ActionKind.CHI, 1, "8m"), (ActionKind.PASS, 2, None), (ActionKind.PASS, 3, None)):
        assert _move(referee, kind, seat, tile).ok
    assert referee.to_dict()["seats"][1]["melds"] == ["[890m,3]"]
    assert _move(referee, ActionKind.DISCARD, 1, "1z").ok
    for seat in (2, 3, 0):
        assert _move(referee, ActionKind.DRAW, seat).ok
        drawn = referee.ruleset.tile_code(referee.last_drawn)
        assert _move(referee, ActionKind.DISCARD, seat, drawn if seat else "1z").ok
    assert _move(referee, ActionKind.HU, 1).ok
    for seat in (2, 3):
        assert _move(referee, ActionKind.PASS, seat).ok
    referee.check_balance()
    assert referee.result is not None and referee.result.winners == (1,)
    assert referee.to_dict()["wins"][0]["hand"] == "[890m,3]123456p789s11z"
