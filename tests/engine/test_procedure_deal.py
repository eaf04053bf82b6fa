"""Dealing (rules-B §2.9), flower replacement (§2.10), new_hand, and the conservation of tiles."""

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.procedure import (
    Position,
    ProcedureError,
    Source,
    StackRef,
    Tier,
    Wall,
    WallExhausted,
    WallLayout,
    WallState,
    break_wall,
    deal,
    new_hand,
    replace_flowers,
)
from engine.tiles import is_flower, parse_tile, parse_tiles
from engine.tilesets import TILE_SETS, tile_set

TOP, BOTTOM = 0, 1


def address(seat, stack, tier):
    return seat * 34 + (stack - 1) * 2 + tier


def run(seat, first, last):
    """Labels of stacks first..last of a 17-stack wall, top then bottom."""
    return [address(seat, stack, tier) for stack in range(first, last + 1) for tier in (TOP, BOTTOM)]


def test_deal_takes_the_exact_places_of_rules_b_2_9():
    # dealer 0, one throw (2, 6): first take (3, 3); 12 grabs of 2 stacks = seat 3 stacks 3-17, seat 2 stacks 1-9
    wall = Wall.build(list(range(136)), break_wall(0, (2, 6), stacks_per_wall=17))
    hands = deal(wall, 0)
    jump = [address(2, 10, TOP), address(2, 12, TOP)]
    assert hands[0] == run(3, 3, 4) + run(3, 11, 12) + run(2, 2, 3) + jump
    assert hands[1] == run(3, 5, 6) + run(3, 13, 14) + run(2, 4, 5) + [address(2, 10, BOTTOM)]
    assert hands[2] == run(3, 7, 8) + run(3, 15, 16) + run(2, 6, 7) + [address(2, 11, TOP)]
    assert hands[3] == run(3, 9, 10) + run(3, 17, 17) + run(2, 1, 1) + run(2, 8, 9) + [address(2, 11, BOTTOM)]
    assert wall.next_position() == Position(2, 12, Tier.BOTTOM)
    assert wall.draw() == address(2, 12, BOTTOM)


@given(st.integers(0, 3), st.integers(0, 2**32), st.sampled_from(sorted(TILE_SETS)))
def test_dealer_has_14_and_the_others_13(dealer, seed, name):
    hand = new_hand(tile_set(name), seed, dealer)
    assert [len(tiles) for tiles in hand.hands] == [14 if seat == dealer else 13 for seat in range(4)]
    assert not any(is_flower(tile) for tiles in hand.hands for tile in tiles)


def test_deal_after_a_head_flip_shifts_along_the_head():
    """Guangdong flips "the first wall tile" before the deal: every grab moves one tile along."""
    wall = Wall.build(list(range(136)), break_wall(0, (2, 6), stacks_per_wall=17))
    assert wall.flip_indicator("head") == address(3, 3, TOP)
    hands = deal(wall, 0)
    assert hands[0][:4] == [address(3, 3, BOTTOM), address(3, 4, TOP), address(3, 4, BOTTOM), address(3, 5, TOP)]
    # grabs end on the top of (2, 10); the jump counts stacks from the one the head is in
    assert hands[0][-2:] == [address(2, 10, BOTTOM), address(2, 12, TOP)]
    assert [hands[seat][-1] for seat in (1, 2, 3)] == [
        address(2, 11, TOP),
        address(2, 11, BOTTOM),
        address(2, 12, BOTTOM),
    ]
    assert wall.next_position() == Position(2, 13, Tier.TOP)


def flower_wall(tail):
    """A 136-place wall of 1m whose tail gives ``tail`` first (top-first order, last stack first)."""
    state = WallState(WallLayout.for_size(136), StackRef(0, 1), (parse_tile("1m"),) * 136)
    faces = list(state.faces)
    for index, tile in zip(state._tail_sequence, parse_tiles(tail), strict=False):
        faces[index] = tile
    return Wall(WallState(state.layout, state.first_take, tuple(faces)))


def hands_with_flowers():
    return [parse_tiles("1f123m"), parse_tiles("456m"), parse_tiles("2f3f789m"), parse_tiles("1z")]


def test_per_player_flower_replacement_resolves_each_chain_before_the_next_player():
    hands = hands_with_flowers()
    aside = replace_flowers(flower_wall("4f5m6m7m"), hands, 0)
    assert aside == [parse_tiles("1f4f"), [], parse_tiles("2f3f"), []]
    assert hands[0] == parse_tiles("123m5m")
    assert hands[2] == parse_tiles("789m6m7m")


def test_flower_replacement_in_rounds_defers_a_replacement_flower_to_the_next_pass():
    hands = hands_with_flowers()
    aside = replace_flowers(flower_wall("4f5m6m7m"), hands, 0, order="rounds")
    assert aside == [parse_tiles("1f4f"), [], parse_tiles("2f3f"), []]
    assert hands[0] == parse_tiles("123m7m")
    assert hands[2] == parse_tiles("789m5m6m")


def test_flower_replacement_starts_with_the_dealer():
    hands = hands_with_flowers()
    replace_flowers(flower_wall("4f5m6m7m"), hands, 2)
    assert hands[2] == parse_tiles("789m5m6m")
    assert hands[0] == parse_tiles("123m7m")  # 1f -> 4f -> 7m after the dealer's two


def test_flower_replacement_checks_its_options_and_the_wall():
    with pytest.raises(ProcedureError, match="flower order"):
        replace_flowers(flower_wall(""), hands_with_flowers(), 0, order="random")
    wall = flower_wall("")
    while not wall.exhausted:
        wall.draw()
    with pytest.raises(WallExhausted):
        replace_flowers(wall, hands_with_flowers(), 0)


def test_unknown_faces_are_never_flowers():
    hands = [[None] * 14, [None] * 13, [None] * 13, [None] * 13]
    assert replace_flowers(flower_wall("1f"), hands, 0) == [[], [], [], []]


def perform(wall, step):
    """One wall operation by name; returns the tile it took."""
    action = {"head": wall.draw, "tail": wall.draw_replacement}.get(step)
    return action() if action else wall.flip_indicator(step.removeprefix("flip_"))


operations = st.lists(st.sampled_from(["head", "tail", "flip_head", "flip_tail"]), max_size=120)


@given(
    st.integers(0, 2**32),
    st.integers(0, 3),
    st.sampled_from(sorted(TILE_SETS)),
    st.sampled_from(["one_throw", "two_throws", "two_throws_second_sum"]),
    st.integers(0, 16),
    operations,
)
def test_every_tile_is_somewhere_exactly_once(seed, dealer, name, method, reserved, steps):
    tiles = tile_set(name)
    hand = new_hand(tiles, seed, dealer, method=method, reserved=reserved)
    wall = hand.wall
    played = [tile for seat_tiles in hand.hands + hand.flowers for tile in seat_tiles]
    applied = []
    for step in steps:
        if wall.exhausted:
            break
        played.append(perform(wall, step))
        applied.append(step)
    state = wall.state
    standing = [state.faces[i] for i in state.standing()]
    assert Counter(played + standing) == Counter(tiles.tiles())
    assert len(standing) == state.remaining == state.live_remaining + reserved
    counted = Counter(removal.source for removal in state.removed)
    assert counted[Source.HEAD] == 53 + applied.count("head")
    assert counted[Source.TAIL] == sum(map(len, hand.flowers)) + applied.count("tail")
    assert counted[Source.INDICATOR] == len(applied) - applied.count("head") - applied.count("tail")


@given(st.integers(0, 2**32), st.integers(0, 3), st.sampled_from(sorted(TILE_SETS)))
def test_same_seed_same_hand(seed, dealer, name):
    first, second = new_hand(tile_set(name), seed, dealer), new_hand(tile_set(name), random.Random(seed), dealer)
    assert (first.dice, first.dice2, first.wall_break, first.hands, first.flowers) == (
        second.dice,
        second.dice2,
        second.wall_break,
        second.hands,
        second.flowers,
    )
    assert first.wall.to_dict() == second.wall.to_dict()


def test_different_seeds_shuffle_differently():
    hands = {str(new_hand(tile_set(136), seed, 0).hands) for seed in range(5)}
    assert len(hands) == 5


def test_given_dice_are_used_and_the_break_follows_them():
    hand = new_hand(tile_set(144), 7, 1, dice=(4, 5), dice2=(6, 6))
    assert (hand.dice, hand.dice2) == ((4, 5), (6, 6))
    assert hand.wall_break == break_wall(1, (4, 5), (6, 6), stacks_per_wall=18)
    one = new_hand(tile_set(136), 7, 0, dice=(2, 6), method="one_throw")
    assert one.dice2 is None
    assert one.wall_break.first_take == StackRef(3, 3)


def test_indicators_of_the_wildcard_rulesets():
    hubei = new_hand(tile_set(136), 3, 0, indicator_at="head")
    assert hubei.wall.indicators == [hubei.indicator]
    assert hubei.wall.live_remaining == 136 - 53 - 1
    harbin = new_hand(tile_set(112), 3, 0, method="two_throws_second_sum", indicator_at="tail")
    assert harbin.wall.state.removed[-1].source == Source.INDICATOR
    assert harbin.wall.live_remaining == 112 - 53 - 1
    guangdong = new_hand(tile_set(136), 3, 0, indicator_at="head", indicator_when="before_deal")
    assert guangdong.wall.state.removed[0].source == Source.INDICATOR
    assert guangdong.indicator == guangdong.wall.state.faces[0]
    with pytest.raises(ProcedureError, match="indicator_when"):
        new_hand(tile_set(136), 3, 0, indicator_at="head", indicator_when="during_deal")


def test_new_hand_rejects_a_bad_seed_and_bad_dice():
    with pytest.raises(ProcedureError, match="seed"):
        new_hand(tile_set(136), "seven", 0)
    with pytest.raises(ProcedureError, match="dice2"):
        new_hand(tile_set(136), 1, 0, dice=(1, 2), dice2=(1, 9))
