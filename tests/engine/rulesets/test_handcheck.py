"""The hand check before scoring (``concealed_counts``): its count-vector path for sets with four of each playing
kind (136, 144) gives the same counts and the same errors as the general path, on hands right and wrong."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.errors import TileCountError
from engine.notation import Hand, Meld, MeldKind
from engine.rulesets.handcheck import concealed_counts
from engine.tiles import FLOWERS
from engine.tilesets import TILE_SETS, TileSet


def _general(tile_set: TileSet) -> TileSet:
    """The same set, made to take the general path (every tile counted against ``copies``)."""
    copy = dataclasses.replace(tile_set)
    copy.__dict__["four_of_each_kind"] = False
    return copy


def _random_hand(rng: random.Random) -> Hand:
    """A hand that is often wrong: too many copies of a kind, a flower in a meld or in the hand, odd sizes."""
    kinds = rng.sample(range(34), rng.randint(1, 6))
    melds = []
    for _ in range(rng.choice((0, 0, 1, 2, 4))):
        kind = rng.choice(kinds)
        if rng.random() < 0.3 and kind % 9 <= 6 and kind < 27:
            melds.append(Meld(MeldKind.CHOW, kind, 1))
        else:
            melds.append(Meld(rng.choice((MeldKind.PUNG, MeldKind.KONG)), rng.choice((kind, FLOWERS[0])), 2))
    standing = tuple(rng.choice(kinds) for _ in range(13 - 3 * len(melds) + rng.choice((0, 0, 0, 1))))
    win = rng.choice((*kinds, FLOWERS[1])) if rng.random() < 0.05 else rng.choice(kinds)
    flowers = rng.choice((None, 0, 3, 9, (FLOWERS[0],), (FLOWERS[2], FLOWERS[3])))
    return Hand(tuple(melds), standing, win, None, flowers)


def _outcome(hand: Hand, tile_set: TileSet) -> object:
    try:
        return concealed_counts(hand, tile_set)
    except TileCountError as error:
        return str(error)


@pytest.mark.parametrize("name", ["136", "144"])
def test_the_count_vector_path_answers_as_the_general_one(name):
    tile_set = TILE_SETS[name]
    assert tile_set.four_of_each_kind
    general = _general(tile_set)
    rng = random.Random(30)
    outcomes = [
        (_outcome(hand, tile_set), _outcome(hand, general)) for hand in (_random_hand(rng) for _ in range(3000))
    ]
    assert all(fast == slow for fast, slow in outcomes)
    kinds = {type(fast) for fast, _ in outcomes}
    assert kinds == {list, str}  # both right hands and refused ones were met
    assert sum("copies of" in str(fast) for fast, _ in outcomes) > 100


def test_sets_without_four_of_each_kind_take_the_general_path():
    assert not any(tile_set.four_of_each_kind for tile_set in TILE_SETS.values() if tile_set.copies[:34] != (4,) * 34)
