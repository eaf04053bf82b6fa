"""Dice and wall breaking: rules-B §2.2 and §2.8, fan.md §1.1-1.2 worked examples."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import MjtableError
from engine.procedure import ProcedureError, StackRef, WallBreak, break_wall, check_dice, dice_seat

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
seats = st.integers(0, 3)


@pytest.mark.parametrize(
    ("total", "offset"),
    [(5, 0), (9, 0), (2, 1), (6, 1), (10, 1), (3, 2), (7, 2), (11, 2), (4, 3), (8, 3), (12, 3)],
)
def test_dice_seat_follows_the_sayings_of_rules_b_2_2(total, offset):
    for thrower in range(4):
        assert dice_seat(thrower, total) == (thrower + offset) % 4


@pytest.mark.parametrize(("thrower", "total"), [(4, 5), (-1, 5), (0, 0), (0, "7"), (True, 5)])
def test_dice_seat_rejects_bad_input(thrower, total):
    with pytest.raises(ProcedureError):
        dice_seat(thrower, total)


@pytest.mark.parametrize("bad", [(0, 3), (3, 7), (3,), (1, 2, 3), "34", (True, 2), (2.0, 3), None])
def test_dice_values_are_validated_with_the_field_named(bad):
    with pytest.raises(ProcedureError, match="dice2"):
        check_dice(bad, "dice2")
    with pytest.raises(MjtableError):
        break_wall(0, bad, stacks_per_wall=17)


def ref(seat, index):
    return StackRef(seat, index)


def test_two_throws_7_then_5_counts_12_on_the_opposite_wall():
    result = break_wall(0, (3, 4), (2, 3), stacks_per_wall=17)
    assert result == WallBreak(2, 12, ref(2, 12), ref(2, 13))


@pytest.mark.parametrize(("stacks", "spill"), [(17, 4), (18, 3)])
def test_two_throws_9_then_12_spills_onto_the_dealers_shangjia_wall(stacks, spill):
    result = break_wall(1, (4, 5), (6, 6), stacks_per_wall=stacks)
    assert result.start_wall_of_seat == 1
    assert result.count == 21
    assert result.break_ == ref(0, spill)  # seat 1's 上家 is seat 0
    assert result.first_take == ref(0, spill + 1)


def test_one_throw_2_6_counts_2_on_the_shangjia_wall():
    assert break_wall(0, (2, 6), stacks_per_wall=17) == WallBreak(3, 2, ref(3, 2), ref(3, 3))


def test_one_throw_3_3_counts_3_on_the_xiajia_wall():
    assert break_wall(2, (3, 3), stacks_per_wall=18) == WallBreak(3, 3, ref(3, 3), ref(3, 4))


def test_a_count_ending_on_the_last_stack_cuts_at_the_end_of_the_adjacent_wall():
    result = break_wall(0, (4, 5), (4, 4), stacks_per_wall=17)
    assert (result.break_, result.first_take) == (ref(0, 17), ref(3, 1))


def test_harbin_counts_the_second_throw_alone():
    result = break_wall(0, (3, 4), (2, 3), method="two_throws_second_sum", stacks_per_wall=14)
    assert result == WallBreak(2, 5, ref(2, 5), ref(2, 6))


def test_unequal_walls_spill_by_their_own_lengths():
    result = break_wall(0, (4, 5), (6, 6), stacks_per_wall=(14, 13, 14, 13))
    assert (result.break_, result.first_take) == (ref(3, 7), ref(3, 8))


def test_method_and_second_throw_must_agree():
    with pytest.raises(ProcedureError, match="dice2"):
        break_wall(0, (1, 2), (3, 4), method="one_throw", stacks_per_wall=17)
    with pytest.raises(ProcedureError, match="dice2"):
        break_wall(0, (1, 2), method="two_throws", stacks_per_wall=17)
    with pytest.raises(ProcedureError, match="method"):
        break_wall(0, (1, 2), method="three_throws", stacks_per_wall=17)
    with pytest.raises(ProcedureError, match="stacks_per_wall"):
        break_wall(0, (1, 2), stacks_per_wall=(17, 17))


@given(seats, dice, st.one_of(st.none(), dice), st.sampled_from([14, 17, 18]))
def test_break_matches_a_closed_formula(dealer, first, second, stacks):
    """Oracle: the k-th stack counted (from 0) lies on wall start - k // N, at index k % N + 1."""
    result = break_wall(dealer, first, second, stacks_per_wall=stacks)
    start = (dealer + sum(first) - 1) % 4
    count = min(first) if second is None else sum(first) + sum(second)
    assert (result.start_wall_of_seat, result.count) == (start, count)
    for counted, stack in ((count - 1, result.break_), (count, result.first_take)):
        assert stack == ref((start - counted // stacks) % 4, counted % stacks + 1)


def test_to_dict_is_the_wall_break_query_answer_and_round_trips():
    result = break_wall(0, (4, 5), (6, 6), stacks_per_wall=17)
    assert result.to_dict() == {
        "start_wall_of_seat": 0,
        "count": 21,
        "break": {"wall_of_seat": 3, "stack_index": 4},
        "first_take": {"wall_of_seat": 3, "stack_index": 5},
    }
    assert WallBreak.from_dict(result.to_dict()) == result
    with pytest.raises(ProcedureError, match="first_take"):
        WallBreak.from_dict({**result.to_dict(), "first_take": {"wall_of_seat": 7, "stack_index": 1}})


def test_sum_method_counts_the_sum_on_the_wall_it_picks():
    """fan.md §5 HB-3: (3, 4) → sum 7 → 对家's wall, 7 stacks, taking starts at stack 8."""
    opened = break_wall(0, (3, 4), method="sum", stacks_per_wall=17)
    assert (opened.start_wall_of_seat, opened.count) == (2, 7)
    assert (opened.break_.wall_of_seat, opened.break_.stack_index) == (2, 7)
    assert (opened.first_take.wall_of_seat, opened.first_take.stack_index) == (2, 8)
