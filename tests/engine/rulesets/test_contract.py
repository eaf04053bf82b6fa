"""The readers of the settle contract's shared shapes (shared/rules/regional/README.md "Shared shapes"): one kong
object for every ruleset, errors naming the field and its path."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import MjtableError
from engine.rulesets.base import KongType
from engine.rulesets.contract import Kong, boolean, read_kongs, read_tile, seat_map
from engine.tiles import parse_tile
from engine.tilesets import TILE_SETS

SET_108 = TILE_SETS["108"]
SET_136 = TILE_SETS["136"]


def test_kong_object_reads_every_field_of_the_readme():
    # README "kong object": seat, type, tile, plus from (exposed), paid_by, just_made.
    data = {"seat": 2, "type": "exposed", "tile": "5m", "from": 0, "paid_by": {"0": 4}, "just_made": True}
    kong = Kong.read(data, "kong", SET_108)
    assert (kong.seat, kong.type, kong.tile, kong.supplier) == (2, KongType.EXPOSED, parse_tile("5m"), 0)
    assert dict(kong.paid_by) == {0: 4}
    assert kong.just_made


def test_from_of_an_added_or_concealed_kong_is_ignored():
    # README: "from" belongs to an exposed kong (the seat that discarded the tile).
    kong = Kong.read({"seat": 1, "type": "added", "tile": "5m", "from": 3}, "kong", SET_108)
    assert kong.supplier is None


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"seat": 1, "type": "exposed", "tile": "5m", "from": 1}, "kongs[0].from"),
        ({"seat": 1, "type": "exposed", "tile": "5m", "from": 7}, "kongs[0].from"),
        ({"seat": 9, "type": "added", "tile": "5m"}, "kongs[0].seat"),
        ({"seat": 1, "type": "open", "tile": "5m"}, "kongs[0].type"),
        ({"seat": 1, "type": "added", "tile": "5z"}, "kongs[0].tile"),
        ({"seat": 1, "type": "added", "tile": "5m", "just_made": 1}, "kongs[0].just_made"),
        ({"seat": 1, "type": "added", "tile": "5m", "paid_by": {"4": 1}}, "kongs[0].paid_by"),
    ],
)
def test_a_bad_kong_names_its_path(data, path):
    with pytest.raises(MjtableError, match=re.escape(f"'{path}'")):
        read_kongs({"kongs": [data]}, SET_108)


def test_a_tile_outside_the_rulesets_set_is_refused():
    # 108.md §0: the 108-tile set has no honors; the same face is a tile of the 136-tile set.
    assert read_tile("5z", "bao", SET_136) == parse_tile("5z")
    with pytest.raises(MjtableError, match=r"'bao'.*108-tile set"):
        read_tile("5z", "bao", SET_108)


@given(st.integers(0, 3), st.integers(0, 3), st.sampled_from(["exposed", "added", "concealed"]))
def test_payers_of_a_kong(seat, supplier, kind):
    # README "kong object" and 108.md SC-10: an exposed kong is paid by the seat that discarded the tile; an added
    # or concealed kong by each other player.
    data = {"seat": seat, "type": kind, "tile": "5m", "from": supplier}
    if kind == "exposed" and supplier == seat:
        with pytest.raises(MjtableError, match="cannot supply his own kong"):
            Kong.read(data, "kong", SET_108)
        return
    kong = Kong.read(data, "kong", SET_108)
    others = [other for other in range(4) if other != seat]
    assert kong.payers() == ([supplier] if kind == "exposed" else others)
    assert kong.payers(players_out=others) == []


def test_same_declaration_ignores_what_was_paid():
    made = Kong.read({"seat": 0, "type": "added", "tile": "5m", "paid_by": {"1": 1}}, "kongs[0]", SET_136)
    asked = Kong.read({"seat": 0, "type": "added", "tile": "5m"}, "kong", SET_136)
    assert made != asked and made.same_declaration(asked)
    assert not made.same_declaration(None)


def test_flags_and_seat_maps_name_the_key():
    assert boolean({}, "declared_ready", True) is True
    with pytest.raises(MjtableError, match="'declared': expected true or false"):
        boolean({"declared": "yes"}, "declared")
    assert seat_map({"open_melds": {"2": True}}, "open_melds", bool, False) == {0: False, 1: False, 2: True, 3: False}
    with pytest.raises(MjtableError, match=re.escape("'kong_count.1': expected a whole number")):
        seat_map({"kong_count": {"1": -1}}, "kong_count", int, 0)
