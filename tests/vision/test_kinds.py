"""The faces the camera reads (``vision.kinds``): their codes, and a face as each ruleset's tile."""

import pytest

from engine.errors import NotationError
from engine.rulesets.registry import get_ruleset
from engine.tiles import NUM_TILE_IDS, parse_tile
from vision.kinds import (
    FIVES,
    NUM_FACES,
    RED_FIVES,
    TENS,
    TableTile,
    face_code,
    face_name_zh,
    face_of,
    parse_face,
    table_faces,
    table_tile,
)

RIICHI_RED = get_ruleset("riichi", {"red_fives": True})
RIICHI = get_ruleset("riichi")
SHIWAN = get_ruleset("shiwan")
MCR = get_ruleset("mcr")


def test_every_face_has_its_own_code_read_back():
    codes = [face_code(face) for face in range(NUM_FACES)]
    assert len(set(codes)) == NUM_FACES
    assert [parse_face(code) for code in codes] == list(range(NUM_FACES))
    assert codes[RED_FIVES[0]] == "0m" and codes[TENS[2]] == "10s" and codes[4] == "5m"
    assert parse_face(" RD ") == parse_tile("7z") and parse_face("F1") == parse_tile("5f")
    assert face_name_zh(TENS[0]) == "十万" and face_name_zh(RED_FIVES[1]) == "赤五饼" and face_name_zh(0) == "一万"


@pytest.mark.parametrize("code", ["11m", "0z", "10z", "00m", "", "m"])
def test_a_code_of_no_face_is_a_notation_error(code):
    with pytest.raises(NotationError):
        parse_face(code)


def test_a_red_five_is_the_marked_five_where_the_set_marks_them_else_a_plain_five():
    for five, red in zip(FIVES, RED_FIVES, strict=True):
        assert table_tile(red, RIICHI_RED) == TableTile(five, marked=True)
        assert table_tile(five, RIICHI_RED) == TableTile(five, marked=False)
        assert table_tile(red, RIICHI) == TableTile(five, marked=False)
        assert table_tile(red, MCR) == TableTile(five, marked=False)


def test_a_ten_is_shiwans_rank_ten_and_no_tile_elsewhere():
    assert [table_tile(ten, SHIWAN) for ten in TENS] == [TableTile(t) for t in SHIWAN.read_tiles("0m0p0s", "t")]
    assert [SHIWAN.tile_code(table_tile(ten, SHIWAN).tile) for ten in TENS] == ["0m", "0p", "0s"]
    assert table_tile(parse_face("5m"), SHIWAN) == TableTile(SHIWAN.read_tiles("5m", "t")[0])
    assert table_tile(parse_face("E"), SHIWAN) == TableTile(SHIWAN.read_tiles("1z", "t")[0])
    for ruleset in (RIICHI, RIICHI_RED, MCR):
        assert all(table_tile(ten, ruleset) is None for ten in TENS)
    assert table_tile(parse_face("RD"), SHIWAN) is None  # no dragons in 十万
    assert table_tile(parse_face("F1"), RIICHI) is None  # no flowers in 136 tiles


def test_the_faces_of_each_table():
    shiwan = table_faces(SHIWAN)
    assert len(shiwan) == 34 and set(TENS) <= set(shiwan) and parse_face("RD") not in shiwan
    assert table_faces(RIICHI_RED) == [*range(34), *RED_FIVES]
    assert table_faces(RIICHI) == list(range(34))
    assert table_faces(MCR) == list(range(NUM_TILE_IDS))


@pytest.mark.parametrize("ruleset", [SHIWAN, RIICHI_RED, RIICHI, MCR], ids=["shiwan", "riichi red", "riichi", "mcr"])
def test_face_of_is_the_inverse_of_table_tile(ruleset):
    for face in table_faces(ruleset):
        tile = table_tile(face, ruleset)
        assert face_of(tile.tile, ruleset, tile.marked) == face
