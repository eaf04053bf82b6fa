"""Seating and reseating (rules-B §2.3)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.procedure import (
    ProcedureError,
    Throw,
    reseat_by_wind_stack,
    reseat_by_winner_dice,
    seat_by_dice,
    seat_by_wind_draw,
)

EAST, SOUTH, WEST, NORTH = range(4)


def scripted(*throws):
    """A dice source that replays the given throws in order, whoever throws."""
    queue = list(throws)
    return lambda _player: queue.pop(0)


def test_highest_total_takes_east_and_first_thrower_wins_ties():
    result = seat_by_dice(scripted((3, 4), (4, 5), (5, 2), (1, 2)), ties="first_thrower")
    assert result.winds == (SOUTH, EAST, WEST, NORTH)
    assert result.throws == (Throw(0, (3, 4)), Throw(1, (4, 5)), Throw(2, (5, 2)), Throw(3, (1, 2)))


def test_tied_players_rethrow_among_themselves():
    result = seat_by_dice(scripted((3, 4), (4, 5), (5, 2), (1, 2), (1, 3), (5, 5)))
    assert result.winds == (WEST, EAST, SOUTH, NORTH)
    assert result.throws[4:] == (Throw(0, (1, 3)), Throw(2, (5, 5)))


def test_east_north_west_south_order():
    result = seat_by_dice(scripted((6, 6), (5, 5), (4, 4), (3, 3)), order="ENWS")
    assert result.winds == (EAST, NORTH, WEST, SOUTH)


def test_a_dice_source_that_always_ties_is_reported():
    with pytest.raises(ProcedureError, match="tie"):
        seat_by_dice(lambda _player: (3, 3))


def test_bad_options_and_dice_are_rejected():
    with pytest.raises(ProcedureError, match="ties"):
        seat_by_dice(random.Random(1), ties="coin")
    with pytest.raises(ProcedureError, match="order"):
        seat_by_dice(random.Random(1), order="EWSN")
    with pytest.raises(ProcedureError, match="player 0"):
        seat_by_dice(scripted((0, 4)))


@given(st.integers(0, 2**32))
def test_random_seating_gives_each_wind_once_and_repeats_per_seed(seed):
    by_dice = seat_by_dice(random.Random(seed))
    assert sorted(by_dice.winds) == [0, 1, 2, 3]
    assert seat_by_dice(random.Random(seed)) == by_dice
    by_draw = seat_by_wind_draw(random.Random(seed))
    assert sorted(by_draw) == [0, 1, 2, 3]
    assert seat_by_wind_draw(random.Random(seed)) == by_draw


SEATING = ("甲", "乙", "丙", "丁")


def test_winner_throwing_7_keeps_the_opposite_player_and_moves_the_others():
    assert reseat_by_winner_dice(SEATING, 0, 7) == ("丁", "甲", "丙", "乙")
    assert reseat_by_winner_dice(SEATING, 0, 7, "cw") == ("乙", "丁", "丙", "甲")


def test_winner_throwing_9_stays_himself():
    moved = reseat_by_winner_dice(SEATING, 3, 9, "cw")
    assert moved[3] == "丁"
    assert moved == ("乙", "丙", "甲", "丁")


@given(st.integers(0, 3), st.integers(2, 12), st.sampled_from(["ccw", "cw"]))
def test_winner_reseating_changes_the_arrangement(winner, total, direction):
    moved = reseat_by_winner_dice(SEATING, winner, total, direction)
    stay = (winner + total - 1) % 4
    assert sorted(moved) == sorted(SEATING)
    assert moved[stay] == SEATING[stay]
    assert all(moved[seat] != SEATING[seat] for seat in range(4) if seat != stay)


def test_wind_stack_top_wind_goes_to_the_player_pointed_at():
    # winner seat 0 throws 6 -> his 下家 乙 takes 东; ccw: 丙 西, 丁 南, 甲 北; cw: 甲 西, 丁 南, 丙 北
    assert reseat_by_wind_stack(SEATING, 0, 6, [EAST, WEST, SOUTH, NORTH]) == ("乙", "丁", "丙", "甲")
    assert reseat_by_wind_stack(SEATING, 0, 6, [EAST, WEST, SOUTH, NORTH], "cw") == ("乙", "丁", "甲", "丙")


@pytest.mark.parametrize(
    ("stack", "direction"), [([EAST, SOUTH, WEST, NORTH], "ccw"), ([EAST, NORTH, WEST, SOUTH], "cw")]
)
def test_a_cyclic_wind_stack_is_refused(stack, direction):
    with pytest.raises(ProcedureError, match="东不离西"):
        reseat_by_wind_stack(SEATING, 0, 6, stack, direction)


def test_reseating_input_is_validated():
    with pytest.raises(ProcedureError, match="seating"):
        reseat_by_winner_dice(("甲", "甲", "丙", "丁"), 0, 7)
    with pytest.raises(ProcedureError, match="winner_seat"):
        reseat_by_winner_dice(SEATING, 4, 7)
    with pytest.raises(ProcedureError, match="direction"):
        reseat_by_winner_dice(SEATING, 0, 7, "up")
    with pytest.raises(ProcedureError, match="wind_stack"):
        reseat_by_wind_stack(SEATING, 0, 6, [EAST, EAST, WEST, NORTH])
