"""PyMahjongGB 1.4.0 as a test-time oracle (engine.md §1.2): a project hand → its fan multiset, or None when
the oracle says it is no win. Never imported by the product."""

from __future__ import annotations

from collections import Counter

from engine.notation import Hand, MeldKind

_SUIT_LETTERS = ("W", "B", "T")
_HONOR_NAMES = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
"""东南西北白发中 → PyMahjongGB's F1-F4 and J3 (白) J2 (发) J1 (中)."""


def oracle_tile(tile: int) -> str:
    if tile >= 27:
        return _HONOR_NAMES[tile - 27]
    return f"{_SUIT_LETTERS[tile // 9]}{tile % 9 + 1}"


def _pack(meld) -> tuple[str, str, int]:  # type: ignore[no-untyped-def]
    if meld.kind is MeldKind.CHOW:
        return ("CHI", oracle_tile(meld.tile + 1), meld.offer or 1)
    if meld.kind is MeldKind.PUNG:
        return ("PENG", oracle_tile(meld.tile), meld.offer or 1)
    offer = 0 if meld.offer is None else meld.offer - 4 if meld.offer >= 5 else meld.offer
    return ("GANG", oracle_tile(meld.tile), offer)


def oracle_fans(calculator, hand: Hand) -> Counter[str] | None:  # type: ignore[no-untyped-def]
    """Fan name (中文) → count as PyMahjongGB scores ``hand``; None for ``ERROR_NOT_WIN``."""
    s = hand.context
    try:
        result = calculator(
            tuple(_pack(meld) for meld in hand.melds),
            tuple(oracle_tile(tile) for tile in hand.standing),
            oracle_tile(hand.win_tile),
            hand.flower_count,
            s.self_drawn,
            s.fourth_tile,
            s.kong_related,
            s.last_tile,
            s.seat_wind,
            s.prevalent_wind,
            verbose=True,
        )
    except TypeError as error:
        if "ERROR_NOT_WIN" in str(error):
            return None
        raise
    return Counter({name_zh: count for _, count, name_zh, _ in result})
