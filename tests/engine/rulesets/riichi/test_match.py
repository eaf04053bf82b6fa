"""The riichi match (rules-A §13): 連荘 and 本場, the end of a hanchan, オーラス, busting, the ranking; tenpai
payments and nagashi mangan; furiten."""

from __future__ import annotations

import pytest

from engine.rulesets.registry import get_ruleset
from engine.rulesets.riichi.draws import nagashi_payments, tenpai_payments
from engine.rulesets.riichi.furiten import FuritenState, discard_furiten, waiting_tiles
from engine.rulesets.riichi.match import HandOutcome, RiichiMatch
from engine.tiles import parse_tiles, to_counts

NOTHING = [0, 0, 0, 0]


def start(**options: object) -> RiichiMatch:
    return RiichiMatch.start(0, get_ruleset("riichi", options).options)


def test_dealer_keeps_the_deal_on_a_win_on_tenpai_and_on_an_abortive_draw() -> None:
    """rules-A §13: 连庄 when the dealer wins or is tenpai at 流局; 本場 +1 on each repeat and each draw."""
    assert HandOutcome(0, (0,)).next_dealer == 0 and HandOutcome(0, (0,)).next_honba(2) == 3
    assert HandOutcome(0, (1,)).next_dealer == 1 and HandOutcome(0, (1,)).next_honba(2) == 0
    assert HandOutcome(0, (), dealer_tenpai=True).next_dealer == 0
    noten = HandOutcome(0, ())
    assert noten.next_dealer == 1 and noten.next_honba(0) == 1
    assert HandOutcome(2, (), abortive=True).next_dealer == 2
    assert HandOutcome(2, (0, 2)).dealer_keeps, "the dealer among several winners keeps the deal"


def test_a_hanchan_is_eight_hands_when_the_deal_always_passes() -> None:
    match = start()
    names = []
    while not match.game_over:
        names.append(match.name)
        match = match.record(HandOutcome(match.dealer, ((match.dealer + 1) % 4,)), NOTHING, 0)
    assert names == [f"{wind}{n}局 0本場" for wind in "東南" for n in range(1, 5)]


@pytest.mark.parametrize(("length", "hands"), [("tonpuusen", 4), ("zenchan", 16), ("east_north", 8)])
def test_match_lengths(length: str, hands: int) -> None:
    match = start(length=length)
    winds = []
    while not match.game_over:
        winds.append(match.round_wind)
        match = match.record(HandOutcome(match.dealer, ((match.dealer + 1) % 4,)), NOTHING, 0)
    assert len(winds) == hands
    if length == "east_north":
        assert winds == [0] * 4 + [3] * 4


def _last_hand(scores: tuple[int, ...], **options: object) -> RiichiMatch:
    match = start(**options)
    return RiichiMatch(
        match.first_dealer, match.rounds, scores, 1, 3, last_hand_repeat=match.last_hand_repeat, bust=match.bust
    )


def test_last_hand_ends_when_the_winning_dealer_is_first() -> None:
    """オーラス (dealer seat 3): a dealer win leaves him first → the match ends (rules-A §13)."""
    over = _last_hand((25000, 25000, 25000, 25000)).record(HandOutcome(3, (3,)), [-1000, 0, 0, 1000], 0)
    assert over.game_over and over.ranking()[0] == 3


def test_last_hand_repeats_while_the_dealer_is_not_first_unless_forbidden() -> None:
    last = _last_hand((40000, 20000, 20000, 20000))
    goes_on = last.record(HandOutcome(3, (3,)), [-1000, 0, 0, 1000], 0)
    assert not goes_on.game_over and goes_on.name == "南4局 1本場"
    forbidden = _last_hand((40000, 20000, 20000, 20000), last_hand_repeat=False)
    assert forbidden.record(HandOutcome(3, (3,)), [-1000, 0, 0, 1000], 0).game_over


def test_a_player_below_zero_ends_the_match_and_sticks_go_to_the_first() -> None:
    match = start()
    over = match.record(HandOutcome(0, (1,)), [-26000, 26000, 0, 0], 2)
    assert over.game_over and over.scores == (-1000, 51000 + 2000, 25000, 25000)
    assert over.ranking() == [1, 2, 3, 0], "ties go to the seat nearer the first dealer"


def test_tenpai_payments_share_3000() -> None:
    assert tenpai_payments([2]) == {0: -1000, 1: -1000, 2: 3000, 3: -1000}
    assert tenpai_payments([0, 3]) == {0: 1500, 1: -1500, 2: -1500, 3: 1500}
    assert tenpai_payments([0, 1, 3]) == {0: 1000, 1: 1000, 2: -3000, 3: 1000}
    assert tenpai_payments([]) == tenpai_payments([0, 1, 2, 3]) == dict.fromkeys(range(4), 0)


def test_nagashi_mangan_is_paid_as_a_mangan_self_draw() -> None:
    assert nagashi_payments([1], dealer=0) == {0: -4000, 1: 8000, 2: -2000, 3: -2000}
    assert nagashi_payments([0], dealer=0) == {0: 12000, 1: -4000, 2: -4000, 3: -4000}


def test_furiten() -> None:
    """Waiting on 1p-4p with a 4p among the own discards: furiten; letting a win pass: furiten until the next
    discard, for the rest of the hand in riichi."""
    waiting = waiting_tiles(to_counts(parse_tiles("234567m23p678s99s")))
    assert waiting == parse_tiles("1p4p")
    assert discard_furiten(waiting, parse_tiles("4p"))
    assert not discard_furiten(waiting, parse_tiles("5p"))
    state = FuritenState()
    state.passed_win(in_riichi=False)
    assert state.blocks_ron()
    state.discarded()
    assert not state.blocks_ron()
    state.passed_win(in_riichi=True)
    state.discarded()
    assert state.blocks_ron()
