"""Han and fu to points: basic points, the limits, and who pays what (honba and riichi sticks included).

Basic points = fu × 2^(han + 2), capped at 2,000 (mangan). Limits by han: 5 mangan 2,000; 6-7 haneman 3,000;
8-10 baiman 4,000; 11-12 sanbaiman 6,000; 13+ without a yakuman (数え役満) yakuman 8,000 by default (option
``counted_yakuman``: ``"sanbaiman"`` caps it at 6,000); each yakuman 8,000 (several add up). Kiriage mangan
(4 han 30 fu and 3 han 60 fu rounded up to mangan) is the option ``kiriage``, off by default.

A discard win: the discarder pays 4 × basic (6 × for the dealer) rounded up to 100. A self-draw: the dealer
wins 2 × basic from each player; a non-dealer wins 2 × basic from the dealer and 1 × basic from each other
player, each rounded up to 100. Honba: 300 per counter on a discard win (paid by the discarder), 100 per
counter from each payer on a self-draw. Riichi sticks: 1,000 each, collected from the table by the winner.
"""

from __future__ import annotations

from typing import NamedTuple

LIMITS = ((13, 8000, "yakuman"), (11, 6000, "sanbaiman"), (8, 4000, "baiman"), (6, 3000, "haneman"))
MANGAN = 2000


class Limit(NamedTuple):
    basic: int
    name: str
    """"" below mangan, else mangan / haneman / baiman / sanbaiman / yakuman / counted yakuman / 2x yakuman ..."""


def basic_points(han: int, fu: int, *, yakuman: bool, counted: str = "yakuman", kiriage: bool = False) -> Limit:
    """The basic points of a hand (before the payers' multipliers)."""
    if yakuman:
        times = max(1, han // 13)
        return Limit(MANGAN * 4 * times, "yakuman" if times == 1 else f"{times}x yakuman")
    if han >= 13:
        if counted == "sanbaiman":
            return Limit(6000, "sanbaiman")
        return Limit(8000, "counted yakuman")
    for least, basic, name in LIMITS:
        if han >= least:
            return Limit(basic, name)
    if han >= 5 or (kiriage and (han, fu) in ((4, 30), (3, 60))):
        return Limit(MANGAN, "mangan")
    basic = fu * 2 ** (han + 2)
    return Limit(MANGAN, "mangan") if basic > MANGAN else Limit(basic, "")


def _up(points: int) -> int:
    return -(-points // 100) * 100


def hand_payments(basic: int, winner: int, dealer: int, discarder: int | None, honba: int = 0) -> dict[int, int]:
    """What each loser pays the winner for the hand and the honba (positive amounts; sticks are separate)."""
    if discarder is not None:
        return {discarder: _up(basic * (6 if winner == dealer else 4)) + 300 * honba}
    owed = {}
    for seat in range(4):
        if seat == winner:
            continue
        share = 2 if dealer in (winner, seat) else 1
        owed[seat] = _up(basic * share) + 100 * honba
    return owed
