"""The riichi match (rules-A §13) in ``engine.match``: 連荘 and 本場, the end of a hanchan, オーラス, busting, the
final standings with uma and oka; tenpai payments and nagashi mangan."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.match import DealState, HandResult, Match, Win, next_deal
from engine.rulesets.registry import get_ruleset
from engine.rulesets.riichi.draws import nagashi_payments, tenpai_payments

NOTHING = dict.fromkeys(range(4), 0)


def start(**options: object) -> Match:
    return get_ruleset("riichi", options).start_match(0)


def won(winner: int, payments: dict[int, int] = NOTHING, pot_change: int = 0) -> HandResult:
    return HandResult((Win((winner,)),), payments, pot_change)


def test_dealer_keeps_the_deal_on_a_win_on_tenpai_and_on_an_abortive_draw() -> None:
    """rules-A §13: 连庄 when the dealer wins or is tenpai at 流局; 本場 +1 on each repeat and each draw."""
    policy = get_ruleset("riichi").rotation

    def after(result: HandResult, dealer: int = 0, honba: int = 2) -> DealState:
        return next_deal(policy, DealState(dealer, 0, honba=honba), result)

    assert (after(won(0)).dealer, after(won(0)).honba) == (0, 3)
    assert (after(won(1)).dealer, after(won(1)).honba) == (1, 0)
    assert after(HandResult(ready=(0, 3))).dealer == 0
    noten = after(HandResult(ready=(1,)), honba=0)
    assert (noten.dealer, noten.honba) == (1, 1)
    assert after(HandResult(abortive="suufon_renda"), dealer=2).dealer == 2
    assert after(HandResult((Win((0, 2), 1),))).dealer == 0, "the dealer among several winners keeps the deal"


def names(match: Match) -> str:
    return f"{'東南西北'[match.deal.round_wind]}{match.deal.dealer + 1}局 {match.deal.honba}本場"


def test_a_hanchan_is_eight_hands_when_the_deal_always_passes() -> None:
    match = start()
    played = []
    while not match.game_over:
        played.append(names(match))
        match = match.record_hand(won((match.deal.dealer + 1) % 4))
    assert played == [f"{wind}{n}局 0本場" for wind in "東南" for n in range(1, 5)]


@pytest.mark.parametrize(
    ("length", "winds"),
    [
        ("tonpuusen", [0] * 4),
        ("zenchan", [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4),
        ("east_north", [0] * 4 + [3] * 4),
        ("east_east", [0] * 8),
    ],
)
def test_match_lengths(length: str, winds: list[int]) -> None:
    match = start(length=length)
    played = []
    while not match.game_over:
        played.append(match.deal.round_wind)
        match = match.record_hand(won((match.deal.dealer + 1) % 4))
    assert played == winds


def _last_hand(scores: tuple[int, ...], **options: object) -> Match:
    match = start(**options)
    return replace(match, scores=scores, deal=DealState(3, 0, round_wind=1, round_index=1))


def test_last_hand_ends_when_the_winning_dealer_is_first() -> None:
    """オーラス (dealer seat 3): a dealer win leaves him first → the match ends (rules-A §13)."""
    over = _last_hand((25000, 25000, 25000, 25000)).record_hand(won(3, {0: -1000, 1: 0, 2: 0, 3: 1000}))
    assert over.game_over and over.ranking()[0] == 3


def test_last_hand_repeats_while_the_dealer_is_not_first_unless_forbidden() -> None:
    last = _last_hand((40000, 20000, 20000, 20000))
    goes_on = last.record_hand(won(3, {0: -1000, 1: 0, 2: 0, 3: 1000}))
    assert not goes_on.game_over and names(goes_on) == "南4局 1本場"
    forbidden = _last_hand((40000, 20000, 20000, 20000), last_hand_repeat=False)
    assert forbidden.record_hand(won(3, {0: -1000, 1: 0, 2: 0, 3: 1000})).game_over


def test_a_player_below_zero_ends_the_match_and_the_sticks_go_to_the_first() -> None:
    match = replace(start(), pot=2000)
    over = match.record_hand(HandResult((), {0: -26000, 1: 26000, 2: 0, 3: 0}))
    assert over.game_over and over.scores == (-1000, 51000 + 2000, 25000, 25000) and over.pot == 0
    assert over.ranking() == [1, 2, 3, 0], "ties go to the seat nearer the first dealer"
    assert (
        not replace(start(bust=False), pot=2000)
        .record_hand(HandResult((), {0: -26000, 1: 26000, 2: 0, 3: 0}))
        .game_over
    )


def test_sticks_stay_on_the_table_until_a_win_takes_them() -> None:
    match = start()
    after = match.record_hand(HandResult((), {0: -1000, 1: 0, 2: 0, 3: 0}, pot_change=1000, ready=(0,)))
    assert after.pot == 1000 and sum(after.scores) + after.pot == 100000
    taken = after.record_hand(won(2, {0: -1000, 1: 0, 2: 2000, 3: 0}, pot_change=-1000))
    assert taken.pot == 0 and taken.scores == (23000, 25000, 27000, 25000)


def test_final_standings_with_uma_and_oka() -> None:
    """10-20 uma, 5,000 oka (Tenhou's 30,000 return on 25,000): the first gets +20,000 uma and the 20,000 oka."""
    match = replace(start(uma="10-20", oka=5000), scores=(43000, 18000, 25000, 14000))
    assert match.final_standings() == [
        {"player": 0, "score": 43000, "result": 43000 - 30000 + 20000 + 20000},
        {"player": 2, "score": 25000, "result": 25000 - 30000 + 10000},
        {"player": 1, "score": 18000, "result": 18000 - 30000 - 10000},
        {"player": 3, "score": 14000, "result": 14000 - 30000 - 20000},
    ]
    assert sum(place["result"] for place in match.final_standings()) == 0


def test_tenpai_payments_share_3000() -> None:
    assert tenpai_payments([2]) == {0: -1000, 1: -1000, 2: 3000, 3: -1000}
    assert tenpai_payments([0, 3]) == {0: 1500, 1: -1500, 2: -1500, 3: 1500}
    assert tenpai_payments([0, 1, 3]) == {0: 1000, 1: 1000, 2: -3000, 3: 1000}
    assert tenpai_payments([]) == tenpai_payments([0, 1, 2, 3]) == dict.fromkeys(range(4), 0)


def test_nagashi_mangan_is_paid_as_a_mangan_self_draw() -> None:
    assert nagashi_payments([1], dealer=0) == {0: -4000, 1: 8000, 2: -2000, 3: -2000}
    assert nagashi_payments([0], dealer=0) == {0: 12000, 1: -4000, 2: -4000, 3: -4000}
