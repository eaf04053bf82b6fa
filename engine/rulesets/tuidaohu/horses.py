"""买马 of Guangdong 推倒胡 (wild.md §5.1, TD-5, TD-6): where each horse tile points, and what it wins or loses.

A horse points at a seat counted counter-clockwise from the winner (from the discarder when several win on one
discard): 1 5 9 东 → that seat itself, 2 6 南 中 → its 下家, 3 7 西 发 → its 对家, 4 8 北 白 → its 上家. "每张马牌
与对应玩家输赢相同": a horse on a winner collects from every loser what that loser paid the winner; a horse on a
loser pays every winner what that loser paid him (TD-5, owner-based; transfers to oneself cancel).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.settlement import Amount, Payments, collect, combine, no_payments
from engine.tiles import EAST, GREEN, NORTH, RED, SOUTH, WEST, WHITE, Tile, is_honor, rank_of

Transfer = tuple[int, int, Amount]
"""(payer, winner, amount) of the hand settlement, kongs excluded ("杠牌不计入马牌")."""

_HONOR_STEPS = {EAST: 0, SOUTH: 1, WEST: 2, NORTH: 3, RED: 1, GREEN: 2, WHITE: 3}


def horse_step(tile: Tile) -> int:
    """How many seats after the counting seat a horse tile points (0 = that seat)."""
    return _HONOR_STEPS[tile] if is_honor(tile) else (rank_of(tile) - 1) % 4


def horse_targets(horses: Mapping[int, Sequence[Tile]], origin: int) -> dict[int, list[int]]:
    """Per owner, the seats his horses point at, in the order of his tiles."""
    return {owner: [(origin + horse_step(tile)) % 4 for tile in tiles] for owner, tiles in horses.items()}


def horse_payments(transfers: Iterable[Transfer], horses: Mapping[int, Sequence[Tile]], origin: int) -> Payments:
    """TD-5: each horse repeats the transfers of the seat it points at, for or against its owner."""
    transfers = list(transfers)
    parts = [no_payments()]
    for owner, targets in horse_targets(horses, origin).items():
        for target in targets:
            for payer, winner, amount in transfers:
                if winner == target:
                    parts.append(_pay(payer, owner, amount))
                if payer == target:
                    parts.append(_pay(owner, winner, amount))
    return combine(*parts)


def hand_payments(transfers: Iterable[Transfer]) -> Payments:
    return combine(no_payments(), *(_pay(payer, winner, amount) for payer, winner, amount in transfers))


def _pay(payer: int, receiver: int, amount: Amount) -> Payments:
    return no_payments() if payer == receiver else collect(receiver, {payer: amount})
