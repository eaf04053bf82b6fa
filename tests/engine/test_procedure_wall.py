"""The live wall: layout, draw order, tail order, indicators, reserved tiles, unknown faces, serialisation.

Positional tests label every place with its address-order index (a wall built from ``range(size)``), so an
expected label is ``address(seat, stack, tier)`` computed by hand from rules-B §2.7-2.10 and fan.md §1.2.
"""

import json

import pytest

from engine.procedure import (
    Position,
    ProcedureError,
    StackRef,
    Tier,
    Wall,
    WallExhausted,
    WallLayout,
    WallState,
    break_wall,
    deal,
)
from engine.tiles import parse_tiles

TOP, BOTTOM = 0, 1


def address(seat, stack, tier, stacks=17):
    return seat * 2 * stacks + (stack - 1) * 2 + tier


def labelled(wall_break, size=136, **options):
    return Wall.build(list(range(size)), wall_break, **options)


# dealer 0, one throw (2, 6): 上家 seat 3's wall, count 2 -> break (3, 2), first take (3, 3)
ONE_THROW = break_wall(0, (2, 6), stacks_per_wall=17)


@pytest.mark.parametrize(("size", "stacks"), [(136, 17), (144, 18), (112, 14), (108, 14)])
def test_layout_sizes(size, stacks):
    layout = WallLayout.for_size(size)
    assert layout.stack_counts == (stacks,) * 4
    assert len(layout.positions()) == len(set(layout.positions())) == size


def test_108_tiles_build_13_stacks_and_a_single_tile_per_wall():
    layout = WallLayout.for_size(108)
    assert layout.wall_tiles == (27,) * 4
    assert layout.tiers(StackRef(2, 14)) == (Tier.BOTTOM,)
    assert layout.tiers(StackRef(2, 13)) == (Tier.TOP, Tier.BOTTOM)
    assert WallLayout((28, 26, 28, 26)).stack_counts == (14, 13, 14, 13)


@pytest.mark.parametrize("bad", [(34, 34, 34), (34, 0, 34, 34), (34, 34, 34, True)])
def test_bad_layouts_are_rejected(bad):
    with pytest.raises(ProcedureError, match="wall_tiles"):
        WallLayout(bad)
    with pytest.raises(ProcedureError, match="size"):
        WallLayout.for_size(138)


def test_draws_go_clockwise_from_first_take_top_then_bottom_onto_the_next_wall():
    wall = labelled(ONE_THROW)
    expected = [address(3, stack, tier) for stack in range(3, 18) for tier in (TOP, BOTTOM)]
    expected += [address(2, 1, TOP), address(2, 1, BOTTOM), address(2, 2, TOP)]
    assert [wall.draw() for _ in expected] == expected
    assert wall.next_position() == Position(2, 2, Tier.BOTTOM)


def test_replacements_come_from_the_break_stack_counter_clockwise_top_first():
    wall = labelled(ONE_THROW)
    expected = [
        address(3, 2, TOP),
        address(3, 2, BOTTOM),
        address(3, 1, TOP),
        address(3, 1, BOTTOM),
        address(0, 17, TOP),  # before seat 3's stack 1 comes seat 0's last stack
        address(0, 17, BOTTOM),
    ]
    assert wall.next_replacement_position().to_dict() == {"wall_of_seat": 3, "stack_index": 2, "tier": "top"}
    assert [wall.draw_replacement() for _ in expected] == expected
    assert wall.next_replacement_position() == Position(0, 16, Tier.TOP)


def test_bottom_first_tail_order_is_an_option():
    wall = labelled(ONE_THROW, tail_order="bottom_first")
    assert [wall.draw_replacement() for _ in range(3)] == [
        address(3, 2, BOTTOM),
        address(3, 2, TOP),
        address(3, 1, BOTTOM),
    ]
    with pytest.raises(ProcedureError, match="tail_order"):
        labelled(ONE_THROW, tail_order="sideways")


def test_head_passes_the_single_tile_of_a_108_wall():
    wall_break = break_wall(0, (4, 5), (6, 6), stacks_per_wall=14)  # 21 = 14 + 7: break (3, 7)
    wall = Wall.build(list(range(108)), wall_break)
    assert wall.next_position() == Position(3, 8, Tier.TOP)
    for _ in range(12):  # stacks 8..13 of seat 3, two tiles each
        wall.draw()
    assert wall.next_position() == Position(3, 14, Tier.BOTTOM)
    assert wall.draw() == 3 * 27 + 26
    assert wall.next_position() == Position(2, 1, Tier.TOP)


def test_standing_places_are_addressed_physically():
    wall = labelled(ONE_THROW)
    wall.draw()
    wall.draw_replacement()
    places = wall.state.standing_places()
    assert len(places) == 134
    assert Position(3, 3, Tier.TOP) not in places and Position(3, 2, Tier.TOP) not in places
    assert places[Position(3, 3, Tier.BOTTOM)] == address(3, 3, BOTTOM)
    assert places[Position(1, 17, Tier.BOTTOM)] == address(1, 17, BOTTOM)
    per_side = [sum(place.wall_of_seat == seat for place in places) for seat in range(4)]
    assert per_side == [34, 34, 34, 32]


def test_indicator_after_the_deal_is_the_next_head_tile_and_leaves_play():
    wall = labelled(ONE_THROW)
    deal(wall, 0)
    live = wall.live_remaining
    assert wall.flip_indicator("head") == address(2, 12, BOTTOM)
    assert wall.indicators == [address(2, 12, BOTTOM)]
    assert wall.live_remaining == live - 1
    assert wall.draw() == address(2, 13, TOP)


def test_indicator_from_the_tail_and_a_second_flip():
    wall = labelled(ONE_THROW)
    assert wall.flip_indicator("tail") == address(3, 2, TOP)
    assert wall.flip_indicator("tail") == address(3, 2, BOTTOM)
    assert wall.indicators == [address(3, 2, TOP), address(3, 2, BOTTOM)]
    assert wall.draw_replacement() == address(3, 1, TOP)
    with pytest.raises(ProcedureError, match="indicator"):
        wall.flip_indicator("middle")


@pytest.mark.parametrize("reserved", [0, 1, 14, 16])
def test_exhaustion_keeps_reserved_tiles_unplayed(reserved):
    wall = labelled(ONE_THROW, reserved=reserved)
    deal(wall, 0)
    wall.draw_replacement()
    draws = 0
    while not wall.exhausted:
        wall.draw()
        draws += 1
    assert draws == 136 - 53 - 1 - reserved
    assert wall.state.remaining == reserved
    before = wall.state
    for attempt in (wall.draw, wall.draw_replacement, lambda: wall.flip_indicator("head")):
        with pytest.raises(WallExhausted):
            attempt()
        assert wall.state == before


def test_replacements_can_come_out_of_the_reserved_tiles():
    fixed = labelled(ONE_THROW, reserved=4)
    feeding = labelled(ONE_THROW, reserved=4, reserve_mode="feeds_replacements")
    for wall in (fixed, feeding):
        wall.draw()
        for _ in range(6):
            wall.draw_replacement()
    assert fixed.live_remaining == 136 - 7 - 4
    assert feeding.state.unplayed == 0
    assert feeding.live_remaining == 136 - 7
    with pytest.raises(ProcedureError, match="reserve_mode"):
        labelled(ONE_THROW, reserve_mode="borrow")


def test_a_jump_that_would_eat_a_reserved_tile_is_refused_whole():
    wall = labelled(ONE_THROW, reserved=136 - 48 - 1)  # one live tile left after the 12 grabs
    for _ in range(48):
        wall.draw()
    before = wall.state
    with pytest.raises(WallExhausted, match="2 tile"):
        wall.take_stack_tops((1, 3))
    assert wall.state == before


def test_reserved_cannot_exceed_the_wall():
    with pytest.raises(ProcedureError, match="reserved"):
        labelled(ONE_THROW, reserved=137)
    with pytest.raises(ProcedureError, match="reserved"):
        labelled(ONE_THROW, reserved="2")


def test_head_and_tail_meet_without_overlap():
    wall = labelled(ONE_THROW)
    taken = []
    while not wall.exhausted:
        taken.append(wall.draw() if len(taken) % 3 else wall.draw_replacement())
    assert sorted(taken) == list(range(136))


def test_unknown_wall_counts_like_the_known_one():
    known, unknown = labelled(ONE_THROW, reserved=4), Wall.unknown(136, ONE_THROW, reserved=4)
    known_hands, unknown_hands = deal(known, 0), deal(unknown, 0)
    assert [len(hand) for hand in unknown_hands] == [len(hand) for hand in known_hands] == [14, 13, 13, 13]
    assert all(tile is None for hand in unknown_hands for tile in hand)
    taken = {}
    for name, wall in (("known", known), ("unknown", unknown)):
        taken[name] = [wall.draw(), wall.draw_replacement(), wall.flip_indicator("head"), wall.draw_replacement()]
    assert taken["unknown"] == [None] * 4
    assert None not in taken["known"]
    assert unknown.state.removed == known.state.removed
    assert unknown.live_remaining == known.live_remaining == 136 - 53 - 4 - 4
    assert unknown.next_position() == known.next_position()
    assert not unknown.state.known and known.state.known


def test_a_known_wall_needs_every_face():
    with pytest.raises(ProcedureError, match="unknown"):
        Wall.build([0] * 135 + [None], ONE_THROW)
    with pytest.raises(ProcedureError, match="135 tiles"):
        Wall.build([0] * 135, ONE_THROW, WallLayout.for_size(136))


def test_state_round_trips_through_json():
    tiles = parse_tiles("123456789m123456789p123456789s1234567z" * 4)
    wall = Wall.build(tiles, ONE_THROW, reserved=3, tail_order="bottom_first", reserve_mode="feeds_replacements")
    deal(wall, 0)
    wall.draw_replacement()
    wall.flip_indicator("head")
    restored = Wall.from_dict(json.loads(json.dumps(wall.to_dict())))
    assert restored.state == wall.state
    assert restored.draw() == wall.draw()
    unknown = Wall.unknown(136, ONE_THROW)
    unknown.draw()
    assert Wall.from_dict(json.loads(json.dumps(unknown.to_dict()))).state == unknown.state


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("faces", ["9z"] * 136),
        ("removed", [[0, "sideways"]]),
        ("removed", [[0, "head"], [0, "tail"]]),
        ("first_take", {"wall_of_seat": 0, "stack_index": 18}),
        ("wall_tiles", [34, 34]),
    ],
)
def test_a_bad_journal_entry_names_the_field(field, value):
    data = Wall.unknown(136, ONE_THROW).to_dict()
    with pytest.raises(ProcedureError, match=field):
        WallState.from_dict({**data, field: value})
