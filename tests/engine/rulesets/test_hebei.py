"""河北 (fan.md §5): no chi, 胡 before 碰/杠 and one winner (HB-1), the sum break (HB-3), the dealer rotation,
kongs after 听 (HB-2), no stated settlement (HB-4), simulated hands."""

from __future__ import annotations

import pytest

from engine.errors import MjtableError
from engine.rulesets.registry import get_ruleset
from engine.simulation import simulate
from tests.engine.rulesets.regional import ask

H = "hebei"
READY = "1222344456778m"
"""Ready (waits on 1m, 3m, 6m, 9m, ...) but a kong of 2m leaves 1m 344456778m, which waits on nothing."""


def test_standard_win_has_no_settlement():
    """HB-4: a standard hand wins; payments null, fans [], total null."""
    answer = ask(H, "123m456m789p234p5z", "5z", winner=1, dealer=0, discarder=2)
    assert answer == {"hu": True, "payments": None, "total": None, "fans": []}


def test_a_chow_meld_is_illegal():
    """§5: 不能吃牌 — a hand with a chow is no win and names the illegal meld."""
    answer = ask(H, "456m789p234p5z", "5z", ("chi:123m:from=left",), winner=1, dealer=0, discarder=2)
    assert answer["hu"] is False and answer["illegal"] == "chi"
    assert get_ruleset(H).allows_chi is False


def test_hu_beats_pung_and_the_first_winner_in_turn_order_is_granted():
    """§5 胡 > 碰/杠; HB-1: of two wins the first after the discarder; a chi claim is no claim."""
    pung = ask(H, query="claim_priority", discarder=0, claims=[{"seat": 1, "type": "chi"}, {"seat": 3, "type": "pon"}])
    assert (pung["granted"], pung["granted_type"]) == ([3], "pon")
    hu = ask(H, query="claim_priority", discarder=0, claims=[{"seat": 3, "type": "hu"}, {"seat": 2, "type": "hu"}])
    assert (hu["granted"], hu["granted_type"]) == ([2], "hu")
    over_pung = ask(
        H, query="claim_priority", discarder=1, claims=[{"seat": 2, "type": "pon"}, {"seat": 0, "type": "hu"}]
    )
    assert over_pung["granted"] == [0]


@pytest.mark.parametrize(
    ("dealer", "dice", "wall", "break_stack", "first"),
    [
        (0, [3, 4], 2, 7, (2, 8)),  # sum 7 → 对家's wall, count 7
        (1, [6, 6], 0, 12, (0, 13)),  # sum 12 → the dealer's 上家, count 12
        (2, [4, 5], 2, 9, (2, 10)),  # sum 9 → the dealer's own wall
    ],
)
def test_one_throw_sum_break(dealer, dice, wall, break_stack, first):
    """HB-3: the sum picks the wall by §1.1 and is the count from its right end; taking starts at the next stack."""
    answer = ask(H, query="wall_break", dealer=dealer, dice=dice)
    assert answer["start_wall_of_seat"] == wall and answer["count"] == sum(dice)
    assert answer["break"] == {"wall_of_seat": wall, "stack_index": break_stack}
    assert answer["first_take"] == {"wall_of_seat": first[0], "stack_index": first[1]}


def test_dealer_rotation():
    """§5: dealer wins → stays; a non-dealer wins → the dealer's 下家 (not the winner); 荒庄 → the dealer stays."""
    assert ask(H, query="next_dealer", dealer=0, winners=[0])["next_dealer"] == 0
    assert ask(H, query="next_dealer", dealer=0, winners=[2])["next_dealer"] == 1
    assert ask(H, query="next_dealer", dealer=3, winners=[], drawn=True)["next_dealer"] == 3


def test_kong_after_ready_only_when_still_ready():
    """HB-2: after 听 a kong that leaves no winning tile is refused; without 听 it is allowed."""
    kong = {"seat": 0, "type": "concealed", "tile": "2m", "drawn": "2m"}
    refused = ask(H, READY, query="kong_allowed", declared_ready=True, kong=kong)
    assert refused["kong_allowed"] is False and refused["waits_after"] == []
    assert ask(H, READY, query="kong_allowed", declared_ready=False, kong=kong)["kong_allowed"] is True


def test_kong_after_ready_with_waits_left():
    """HB-2: an exposed kong of 4m from 1112223334445m leaves 1112223335m waiting on 5m (4m is all in the kong,
    so no wait); an added kong keeps the pon's waits."""
    exposed = ask(
        H, "1112223334445m", query="kong_allowed", declared_ready=True, kong={"type": "exposed", "tile": "4m"}
    )
    assert exposed["kong_allowed"] is True and set(exposed["waits_after"]) == {"5m"}
    added = ask(
        H,
        "3444m567p789s",
        None,
        ("pon:555z:from=left",),
        query="kong_allowed",
        declared_ready=True,
        kong={"type": "added", "tile": "5z", "drawn": "5z"},
    )
    assert added["kong_allowed"] is True and set(added["waits_after"]) == {"2m", "3m", "5m"}


def test_kong_the_hand_cannot_make_is_an_error():
    with pytest.raises(MjtableError, match="kong"):
        ask(
            H, READY, query="kong_allowed", declared_ready=True, kong={"type": "concealed", "tile": "5m", "drawn": "5m"}
        )


def test_simulated_hands_keep_the_invariants():
    hands = list(simulate(get_ruleset(H), 10, seed=4))
    assert all(
        not any(meld.kind.value == "chow" for seat in hand.referee.seats for meld in seat.melds) for hand in hands
    )
