"""Hypothesis strategies for tiles and hands, shared by the engine tests."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.notation import Hand, Meld, MeldKind, Situation
from engine.tiles import FLOWERS, NUM_KINDS

playing_tiles = st.integers(min_value=0, max_value=NUM_KINDS - 1)
any_tiles = st.integers(min_value=0, max_value=FLOWERS[-1])


@st.composite
def melds(draw: st.DrawFn) -> Meld:
    kind = draw(st.sampled_from(list(MeldKind)))
    if kind is MeldKind.CHOW:
        suit = draw(st.integers(0, 2))
        tile = suit * 9 + draw(st.integers(0, 6))
        offer = draw(st.one_of(st.none(), st.integers(1, 3)))
    else:
        tile = draw(playing_tiles)
        top = 7 if kind is MeldKind.KONG else 3
        offer = draw(st.one_of(st.none(), st.integers(1, top)))
    return Meld(kind, tile, offer)


situations = st.builds(
    Situation,
    st.integers(0, 3),
    st.integers(0, 3),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)

flowers = st.one_of(
    st.none(),
    st.integers(0, 8),
    st.lists(st.sampled_from(FLOWERS), unique=True, max_size=8).map(tuple),
)


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Any hand the notation can express (not necessarily legal: tile counts are not limited)."""
    hand_melds = tuple(draw(st.lists(melds(), max_size=4)))
    standing = tuple(draw(st.lists(playing_tiles, max_size=13)))
    win_tile = draw(st.one_of(st.none(), playing_tiles))
    if win_tile is None and not standing and not hand_melds:
        win_tile = 0
    situation = draw(st.one_of(st.none(), situations))
    hand_flowers = draw(flowers)
    if hand_flowers is not None and situation is None:
        situation = Situation()
    return Hand(hand_melds, standing, win_tile, situation, hand_flowers)
