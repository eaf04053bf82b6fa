"""Dealing (配牌, rules-B §2.9) and the flower replacements that follow it (补花, rules-B §2.10)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from engine.procedure.dice import SEATS, check_seat
from engine.procedure.errors import ProcedureError
from engine.procedure.wall import Wall
from engine.tiles import Tile, is_flower

Hands = list[list[Tile | None]]
FlowerOrder = Literal["per_player", "rounds"]

GRAB_ROUNDS = 3
"""Steps 1-3: each player takes one 墩 per step (rules-B §2.9; §9.2 reads 二把 as one 墩 to reach 12)."""
GRAB_TILES = 4
"""One 墩 = 2 stacks = 4 tiles, taken in one grab (rules-B §2.9)."""
JUMP_STACKS = (1, 3)
"""跳牌: the dealer takes the first and third stacks after the last taken position (rules-B §2.9 step 4)."""


def play_order(dealer: int) -> list[int]:
    """Seats from the dealer in play order (counter-clockwise, fan.md §0)."""
    check_seat(dealer, "dealer")
    return [(dealer + k) % SEATS for k in range(SEATS)]


def deal(wall: Wall, dealer: int) -> Hands:
    """Deal as the players physically do; returns hands by seat (``None`` for faces the wall cannot see).

    Three rounds of one 墩 (the next 4 head tiles) per player from the dealer; then the 跳牌 and one tile to
    each other player. Which tiers the last step takes is not in the sources (rules-B §9.3); this follows the
    common practice of rules-B §2.9: the dealer takes the upper tiles of stacks 1 and 3 counted from the head,
    then 下家, 对家, 上家 each take the next head tile, which with whole stacks is the bottom of stack 1, the
    top of stack 2 and the bottom of stack 2; the next draw is the bottom of stack 3. Dealer 14, others 13.
    A grab is the next four head tiles, so a half stack (108 tiles) or a tile flipped before the deal shifts
    the grabs along the wall instead of leaving a gap.
    """
    return deal_marked(wall, dealer)[0]


def deal_marked(wall: Wall, dealer: int) -> tuple[Hands, list[list[Tile]]]:
    """``deal``, and the marked copies (red fives) each seat was dealt, by seat."""
    order = play_order(dealer)
    hands: Hands = [[] for _ in range(SEATS)]
    marked: list[list[Tile]] = [[] for _ in range(SEATS)]

    def give(seat: int, take: Callable[[], list[Tile | None]]) -> None:
        before = len(wall.state.removed)
        hands[seat] += take()
        state = wall.state
        marked[seat] += [state.faces[r.index] for r in state.removed[before:] if r.index in state.marked]  # type: ignore[misc]

    for _ in range(GRAB_ROUNDS):
        for seat in order:
            give(seat, lambda: [wall.draw() for _ in range(GRAB_TILES)])
    give(dealer, lambda: wall.take_stack_tops(JUMP_STACKS))
    for seat in order[1:]:
        give(seat, lambda: [wall.draw()])
    return hands, marked


def replace_flowers(
    wall: Wall,
    hands: Hands,
    dealer: int,
    flower: Callable[[Tile], bool] = is_flower,
    order: FlowerOrder = "per_player",
) -> list[list[Tile]]:
    """Set the dealt flowers aside and replace each from the tail; returns the flowers by seat.

    ``hands`` are changed in place. The source says only "各家按顺序" (rules-B §9.6); seats go in play order
    from the dealer (the competition order 庄, 南, 西, 北 of rules-A P7). "per_player" (default): a player
    replaces every flower, including flowers drawn as replacements, before the next player starts.
    "rounds": each pass replaces the flowers every player holds at that moment, one tile each, and passes
    repeat until no flower is left. Unknown faces (``None``) are never flowers.
    """
    if order not in ("per_player", "rounds"):
        raise ProcedureError(f"flower order: expected 'per_player' or 'rounds', got {order!r}")
    aside: list[list[Tile]] = [[] for _ in range(SEATS)]

    def replace_held(seat: int) -> bool:
        held = [tile for tile in hands[seat] if tile is not None and flower(tile)]
        for tile in held:
            hands[seat].remove(tile)
            aside[seat].append(tile)
            hands[seat].append(wall.draw_replacement())
        return bool(held)

    seats = play_order(dealer)
    if order == "per_player":
        for seat in seats:
            while replace_held(seat):
                pass
    else:
        while [seat for seat in seats if replace_held(seat)]:
            pass
    return aside
