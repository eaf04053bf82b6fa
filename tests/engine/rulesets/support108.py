"""Shared by the tests of the 108-tile rulesets: one ``mjtable settle`` request answered as the CLI would (an input
that cannot be settled answers its error), and a hypothesis strategy of complete hands (4 sets + pair, or seven
pairs) of suited tiles, never more than four copies of a tile, some pungs declared as melds."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from engine.errors import MjtableError
from engine.notation import Hand, Meld, MeldKind
from engine.settle.answer import settle_object


def settle(rules: str, hand: str, win: str | None, situation: dict, melds=(), query: str = "score", **options) -> Any:
    """The answer to one request; a rejected input answers ``{"error": ...}`` like ``mjtable settle``."""
    request = {"rules": rules, "options": options, "hand": hand, "melds": list(melds), "win_tile": win}
    try:
        return settle_object({**request, "situation": situation, "query": query})
    except MjtableError as error:
        return {"hu": False, "error": str(error)}


def seats(*amounts: int) -> dict[str, int]:
    """A per-seat map as the contract writes it."""
    return {str(seat): amount for seat, amount in enumerate(amounts)}


@st.composite
def winning_hands(draw: st.DrawFn, max_suits: int = 3) -> Hand:
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=max_suits, unique=True))
    tiles_of = st.sampled_from([9 * suit + rank for suit in suits for rank in range(9)])
    counts = [0] * 27
    if draw(st.booleans()):
        pairs = draw(st.lists(tiles_of, min_size=7, max_size=7).filter(lambda p: max(p.count(t) for t in p) <= 2))
        tiles = sorted(tile for tile in pairs for _ in range(2))
        win = draw(st.sampled_from(tiles))
        tiles.remove(win)
        return Hand((), tuple(tiles), win)
    concealed: list[int] = []
    melds: list[Meld] = []
    for _ in range(4):
        chow = draw(st.booleans())
        low = draw(tiles_of.filter(lambda t, chow=chow: not chow or t % 9 <= 6))
        group = [low, low + 1, low + 2] if chow else [low] * 3
        if any(counts[t] + group.count(t) > 4 for t in group):
            continue
        for tile in group:
            counts[tile] += 1
        if not chow and draw(st.booleans()):
            melds.append(Meld(MeldKind.PUNG, low, draw(st.integers(1, 3))))
        else:
            concealed += group
    for _ in range(4 - len(melds) - len(concealed) // 3):  # a set that did not fit: a pung of a tile still free
        free = next(t for t in range(27) if counts[t] <= 1 and t // 9 in suits)
        counts[free] += 3
        concealed += [free] * 3
    pair = draw(tiles_of.filter(lambda t: counts[t] <= 2))
    concealed += [pair, pair]
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    return Hand(tuple(melds), tuple(sorted(concealed)), win)
