"""黄庄 in Sichuan (108.md SC-14): 查花猪, 查大叫 and 退税 for the players still in when the live wall runs out.

1. 查花猪: a 花猪 still holds a tile of his declared void suit (all three suits always count); each pays every
   non-花猪 still in ``base × 2^cap``; 花猪 do not pay each other and pay nothing under 查大叫.
2. 查大叫: a non-花猪 is ready (有叫) if some tile completes his 13 tiles under the void rule; a kind he holds all
   four of himself is no wait, tiles dead elsewhere still are (死叫 is 已下听, S10). Each player neither ready nor
   花猪 pays every ready player that player's best win as a discard win, ``base × 2^min(maxfan, cap)``.
3. 退税: every player still in who is not ready (花猪 included) returns the kong money he collected, each amount
   to the player who paid it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.analysis import waits
from engine.notation import Hand, Meld
from engine.rulesets.contract import Kong
from engine.rulesets.suited108 import SHAPES, tile_counts
from engine.settlement import Amount, Payments, combine, no_payments
from engine.tiles import Tile, to_counts


@dataclass(frozen=True)
class StillIn:
    """A player who has not won when the wall runs out: his tiles and declared void suit."""

    seat: int
    melds: tuple[Meld, ...]
    concealed: tuple[Tile, ...]
    void_suit: str | None


@dataclass(frozen=True)
class DrawnSettlement:
    payments: Payments
    huazhu: dict[int, bool]
    ready: dict[int, bool]
    max_fan: dict[int, int]
    """Per ready player: the best fan over his winning tiles (uncapped)."""
    breakdown: dict[str, Payments]


def settle_drawn(
    players: Sequence[StillIn],
    kongs: Sequence[Kong],
    *,
    is_huazhu: Callable[[StillIn], bool],
    win_fan: Callable[[Hand, StillIn], int | None],
    value: Callable[[int], Amount],
    huazhu_value: Amount,
) -> DrawnSettlement:
    """The three steps for ``players`` (the seats still in). ``win_fan`` scores one completed hand as a discard
    win (``None``: no win), ``value`` turns a fan into the amount paid, ``huazhu_value`` is the 花猪 fine."""
    huazhu = {player.seat: is_huazhu(player) for player in players}
    max_fan: dict[int, int] = {}
    for player in players:
        if huazhu[player.seat]:
            continue
        best = _best_fan(player, win_fan)
        if best is not None:
            max_fan[player.seat] = best
    ready = {player.seat: player.seat in max_fan for player in players}
    clean = [seat for seat in huazhu if not huazhu[seat]]
    fines = no_payments()
    for pig in (seat for seat in huazhu if huazhu[seat]):
        for other in clean:
            fines[pig] -= huazhu_value
            fines[other] += huazhu_value
    calls = no_payments()
    for payer in (seat for seat in clean if not ready[seat]):
        for winner, fan in max_fan.items():
            calls[payer] -= value(fan)
            calls[winner] += value(fan)
    refunds = no_payments()
    for kong in kongs:
        if kong.seat in ready and not ready[kong.seat]:
            for payer, amount in kong.paid_by.items():
                refunds[kong.seat] -= amount
                refunds[payer] += amount
    breakdown = {"huazhu": fines, "dajiao": calls, "tuishui": refunds}
    return DrawnSettlement(combine(fines, calls, refunds), huazhu, ready, max_fan, breakdown)


def _best_fan(player: StillIn, win_fan: Callable[[Hand, StillIn], int | None]) -> int | None:
    """The best fan over the tiles that complete the player's 13 tiles; ``None`` when he is not ready."""
    held = tile_counts(player.melds, player.concealed)
    best = None
    for tile in waits(to_counts(player.concealed), SHAPES):
        if held[tile] >= 4:
            continue  # a kind he holds all four of himself is no wait
        fan = win_fan(Hand(player.melds, player.concealed, tile), player)
        if fan is not None and (best is None or fan > best):
            best = fan
    return best
