"""Tenhou's walls dealt again from the SHUFFLE seeds (``engine.records.tenhou_wall``): for all 229 hands of the 22
real mjlogs, the 136 ids of the wall are each there once, and every tile the record shows sits where Tenhou's
layout puts it: the deal, the dice, each live draw in turn, each kan's replacement, the dora and ura indicators."""

from __future__ import annotations

import pytest

from engine.records import Call, CallKind, Draw, RecordError
from engine.records.tenhou_wall import SEED_PREFIX, tenhou_walls
from tests.engine.records.corpus import MJLOGS, game
from tests.paths import needs_records

KANS = (CallKind.ANKAN, CallKind.DAIMINKAN, CallKind.KAKAN)


@needs_records
@pytest.mark.parametrize("name", [path.name for path in MJLOGS])
def test_every_tile_of_every_hand_is_where_the_wall_puts_it(name):
    record = game(name)
    walls = tenhou_walls(record.wall_seed, len(record.hands))
    for hand, wall in zip(record.hands, walls, strict=True):
        assert sorted(wall.tiles) == list(range(136))
        assert wall.dice == hand.dice
        dealt = wall.deal(hand.dealer)
        assert [sorted(tile.id for tile in tiles) for tiles in hand.deal] == [sorted(tiles) for tiles in dealt]
        assert [tile.id for tile in hand.dora] == list(wall.dora[: len(hand.dora)])
        assert [tile.id for tile in hand.ura] == list(wall.ura[: len(hand.ura)])
        live, replacements, after_kan = iter(wall.live), iter(wall.replacements), False
        for move in hand.moves:
            if isinstance(move, Draw):
                assert move.tile.id == next(replacements if after_kan else live), f"hand {hand.index}"
                after_kan = False
            elif isinstance(move, Call) and move.kind in KANS:
                after_kan = True
        drawn = sum(isinstance(move, Draw) for move in hand.moves)
        assert drawn <= len(wall.live)  # each kan ends the live wall one tile earlier: 70 draws in all


@needs_records
def test_a_hand_with_four_kans_takes_all_four_replacements():
    """The layout's replacement order 1, 0, 3, 2 is seen whole: some hand of the corpus declares four kans."""
    most = 0
    for path in MJLOGS:
        for hand in game(path.name).hands:
            most = max(most, sum(isinstance(move, Call) and move.kind in KANS for move in hand.moves))
    assert most == 4


@pytest.mark.parametrize(
    ("seed", "says"),
    [
        ("", "base64"),
        ("mt19937ar-sha512-n288-hex,00", "base64"),
        (SEED_PREFIX + "!!!", "not valid base64"),
        (SEED_PREFIX + "AAAAAAA=", "whole 32-bit words"),
        (SEED_PREFIX, "0 bytes"),
    ],
)
def test_damaged_seeds_are_named(seed, says):
    with pytest.raises(RecordError, match=says):
        tenhou_walls(seed, 1)
