"""The parts of the display state the table-shaped page draws and the referee's own dicts do not give ready to
draw: melds as tiles with the claimed one marked (the page turns it sideways), where the wall broke, the winner's
hand split into its melds, standing tiles and winning tile, what a drawn hand settled, and one line per finished
hand for ``/history``.

Everything here is public: a meld is on the table, a winning hand is laid down; a concealed kong is marked
``hidden`` so that a page can draw it face down.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from engine.errors import NotationError, RulesetError, TileCountError
from engine.notation import Meld, MeldKind, parse_hand
from engine.referee import Referee
from engine.rulesets.base import Ruleset
from engine.rulesets.registry import get_ruleset
from engine.seats import SeatState
from engine.tiles import tile_code

DRAW_SETTLEMENTS: dict[str, tuple[str, str]] = {
    "sichuan": ("查叫 · 查花猪", "ready hands and flower pigs checked"),
    "tuidaohu": ("杠分照付", "the kongs are paid"),
    "guizhou": ("豆照付", "the dou are paid"),
}
"""What a drawn hand settles under the rulesets that settle one (``settle_draw``), in Chinese and English; any
other ruleset's drawn hand pays nothing (rules-B §2.13)."""


def meld_view(meld: Meld, code: Callable[[int], str] = tile_code) -> dict[str, Any]:
    """``{"tiles": [...], "side": i}``: ``side`` is the index of the claimed tile, turned sideways on the page.
    A chow's claimed tile is the one its offer names; a pung's or kong's lies on the side of the seat that gave
    it (上家 left, 对家 middle, 下家 right), as players lay it. A concealed kong is ``hidden``; a meld whose supplier
    is unknown has no ``side``. ``code`` writes a tile (a ruleset's own: 十万's ``0m`` is its 10万)."""
    out: dict[str, Any] = {"tiles": [code(tile) for tile in meld.tiles]}
    if meld.is_concealed_kong:
        out["hidden"] = True
    elif meld.kind is MeldKind.CHOW and meld.offer is not None:
        out["side"] = meld.offer - 1
    elif meld.supplier is not None:
        out["side"] = {1: 0, 2: 1, 3: len(meld.tiles) - 1}[meld.supplier]
    return out


def seat_view(
    seat: SeatState, code: Callable[[int], str] = tile_code, red: Collection[int] = (), sideways: int | None = None
) -> dict[str, Any]:
    """One seat's public tiles: its river in the order played, its melds, its flowers, written by ``code``; the
    river's ``red`` fives (by index) are written with rank 0 (riichi's ``0m``), and a ready declaration's discard
    (立直) is the river's ``sideways`` index."""
    river = [code(tile) for tile in seat.discards]
    for at in red:
        river[at] = "0" + river[at][1:]
    return {
        "discards": river,
        "melds": [meld_view(meld, code) for meld in seat.melds],
        "flowers": [code(tile) for tile in seat.flowers],
        **({} if sideways is None else {"sideways": sideways}),
    }


def points_board(
    ruleset: Ruleset, ready: Collection[int], scores: Sequence[float], number: int | None
) -> dict[str, Any]:
    """A match that keeps points (riichi) as a parlor's board shows it during the hand: each seat's points less
    the stake of a ready declaration it put on the table (立直棒: the ``ready`` seats), and the hand's number in its
    round (東1局: the ``number``-th dealer of the round; ``None`` while the view does not know the round's first
    dealer)."""
    rule = ruleset.ready_declaration
    stake = 0 if rule is None else rule.stake
    return {
        "points": [score - (stake if seat in ready else 0) for seat, score in enumerate(scores)],
        "number": number,
        "stake": stake,
    }


def wall_break(referee: Referee) -> dict[str, int]:
    """Where the dealt wall opened: the wall (by its seat) and the stack, counted from its owner's right end, that
    the first tiles were taken from."""
    first = referee.wall.state.first_take
    return {"seat": first.wall_of_seat, "stack": first.stack_index}


def shown_hand(notation: str, ruleset: Ruleset | None = None) -> dict[str, Any]:
    """A winning hand as laid down: its melds, its standing tiles and the winning tile apart, self-drawn or not,
    read and written by ``ruleset`` where it has faces of its own (十万's tens). A hand its notation does not read
    (riichi's red fives) is shown as written (``{}`` here)."""
    parse, code = (parse_hand, tile_code) if ruleset is None else (ruleset.parse_hand, ruleset.tile_code)
    try:
        hand = parse(notation)
    except (NotationError, TileCountError):
        return {}
    return {
        "melds": [meld_view(meld, code) for meld in hand.melds],
        "tiles": [code(tile) for tile in hand.standing],
        "win_tile": None if hand.win_tile is None else code(hand.win_tile),
        "self_drawn": hand.context.self_drawn,
    }


def rules_of(rules: str | None) -> Ruleset | None:
    """The ruleset named by the state's ``rules`` (its default options: enough to read its tiles); ``None`` for none."""
    try:
        return None if rules is None else get_ruleset(rules)
    except RulesetError:
        return None


def per_seat(payments: dict[str, Any] | None) -> list[float]:
    """``{"0": 36, "1": -8, ...}`` → ``[36, -8, ...]``: the page lists the four seats in order."""
    return [(payments or {}).get(str(seat), 0) for seat in range(4)]


def _ending(line: dict[str, Any], payments: list[float], rules: str | None) -> dict[str, Any]:
    """A voided hand says so; a drawn hand that moved points says what it settled."""
    if line.get("voided"):
        return {"voided": True}
    if line["drawn"] and any(payments):
        return {"settled": DRAW_SETTLEMENTS.get(str(rules), ("流局结算", "settled at the draw"))}
    return {}


def result_view(line: dict[str, Any], rules: str | None) -> dict[str, Any]:
    """A hand's result line as the page shows it: each win with the winner's hand laid out, the hand's payments
    per seat, and for a drawn hand what it settled."""
    ruleset = rules_of(rules)
    wins = [{**shown_hand(win["hand"], ruleset), **win} for win in line["wins"]]  # the referee's self_drawn wins
    payments = per_seat(line.get("payments"))
    return {"drawn": line["drawn"], "wins": wins, "payments": payments, **_ending(line, payments, rules)}


def history_entry(line: dict[str, Any], rules: str | None, dealt: Sequence[Any] | None = None) -> dict[str, Any]:
    """One finished hand for ``/history``: who dealt, who won with which fans, what each seat paid or got, and
    the match's totals after it. Fans are ``[name_zh, name_en, points, count]``: the page lists many hands. A
    line without a dealer or round wind (a test's bare result) leaves them ``None``.

    A match that keeps points (riichi) adds ``dealt``, the points the hand was dealt with (the plot of a match
    starts at the first hand's: 25,000 each, not 0), the round (``東1局``) and 本場, and at the match's end its
    final standings (``engine.match.Match.final_standings``: place order, points, result with uma and oka), and a
    drawn hand ended by an abortive draw its name (``abortive``: 九種九牌 …)."""
    wins = [
        {
            "seat": win["seat"],
            "total": win["score"].get("total"),
            "fans": [[fan["name_zh"], fan["name_en"], fan["points"], fan["count"]] for fan in win["score"]["fans"]],
        }
        for win in line["wins"]
    ]
    payments = per_seat(line.get("payments"))
    return {
        "hand": line["hand"],
        "match": line.get("match", 0),
        "dealer": line.get("dealer"),
        "round_wind": line.get("round_wind"),
        "drawn": line["drawn"],
        "wins": wins,
        "payments": payments,
        "scores": line["scores"],
        **_ending(line, payments, rules),
        **({} if dealt is None else {"dealt": list(dealt)}),
        **{key: line[key] for key in ("round", "honba", "final_standings", "abortive") if key in line},
    }
