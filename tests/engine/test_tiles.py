import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError, TileCountError
from engine.tiles import (
    EAST,
    RED,
    WHITE,
    format_tiles,
    from_counts,
    parse_tile,
    parse_tiles,
    rank_of,
    suit_of,
    tile_code,
    tile_name_en,
    tile_name_zh,
    to_counts,
)
from engine.tilesets import TILE_SETS, tile_set
from tests.engine.strategies import any_tiles, playing_tiles


def test_compact_form_reads_suits_honors_and_flowers_in_order():
    tiles = parse_tiles("123m456p789s1234567z1f8f")
    assert [tile_code(t) for t in tiles] == (
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z", "1f", "8f"]
    )


def test_honor_numbering_is_east_south_west_north_white_green_red():
    assert [tile_name_zh(t) for t in parse_tiles("1234567z")] == list("东南西北白发中")
    assert parse_tile("1z") == EAST and parse_tile("5z") == WHITE and parse_tile("7z") == RED
    assert tile_name_zh(parse_tile("1f")) == "春" and tile_name_zh(parse_tile("8f")) == "竹"
    assert tile_name_en(parse_tile("9p")) == "9 Dots"


@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        ("12x", 2, "rank digit or a suit letter"),
        ("123", 3, "suit letter"),
        ("0m", 0, "rank 1-9"),
        ("18z", 1, "rank 1-7"),
        ("9f", 0, "rank 1-8"),
        ("m", 0, "rank digit before"),
    ],
)
def test_bad_strings_name_the_position_and_what_was_expected(text, position, expected):
    with pytest.raises(NotationError) as caught:
        parse_tiles(text)
    assert caught.value.position == position
    assert expected in str(caught.value)


@given(st.lists(any_tiles, max_size=30))
def test_compact_round_trip_keeps_order(tiles):
    assert parse_tiles(format_tiles(tiles)) == tiles


@given(st.lists(playing_tiles, max_size=20))
def test_counts_round_trip(tiles):
    assert from_counts(to_counts(tiles)) == sorted(tiles)


@given(any_tiles)
def test_code_suit_and_rank_agree(tile):
    assert tile_code(tile) == f"{rank_of(tile)}{suit_of(tile)}"


def test_tile_set_sizes_and_composition():
    assert {name: ts.size for name, ts in TILE_SETS.items()} == {"136": 136, "144": 144, "108": 108, "112": 112}
    assert tile_set(112).copies[RED] == 4 and tile_set(112).copies[EAST] == 0
    assert tile_set(108).kinds() == list(range(27))


def test_tile_set_check_names_the_offending_tile():
    with pytest.raises(TileCountError, match="5 copies of 1m"):
        tile_set(136).check(parse_tiles("11111m"))
    with pytest.raises(TileCountError, match="1z is not in the 108-tile set"):
        tile_set(108).check(parse_tiles("1z"))
    tile_set(144).check(parse_tiles("1111m1f"))
