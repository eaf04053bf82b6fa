"""``shiwan``: 十万麻将, minimal reading (fan.md §7, S002:93). 136 tiles: 万/饼/条 of ranks 1-10 and the winds, no
dragons. A win is 4 sets + pair with chows that do not wrap (SW-1); the scoring is cut off in the source, so the
answer has ``fans`` [], ``total`` null and ``payments`` null. A tile outside the set is an input error (SW-2).

The tiles are 十万's own ids (``shiwan.tiles``); ``engine.notation.Hand`` and ``Meld`` only carry them (a chow's
tiles are consecutive ids in both models), and the shared analysis never sees them. Every command goes through the
ruleset's tile hooks (``Ruleset.parse_hand``, ``read_tiles``, ``tile_code``, ``format_tiles``, ``format_meld``,
``waits_of``, ``quick_win``), which this ruleset answers in those ids: ``mjtable score`` and ``waits`` read the MCR
notation with ranks 0-9 (``shape.NOTATION``), ``deal`` lays out ``TILE_SET`` (34 kinds × 4, as the ids run) with the
shared wall procedure, which never looks at a face, and writes it with 十万's codes.

The shared referee plays the hands. It asks the tile set what a suit is (``TileSet.ranks`` = 10: ids 0-29 are three
suits of ten consecutive ids, a chow three consecutive ids of one suit, so 8-9-10 is one and 9-10-1 is not), counts
tiles by id (34 kinds fit the engine's count vectors), and asks the ruleset whether a hand wins (``evaluate``, and
``quick_win`` for the bots). Nothing else of the referee reads a face, so this one tile-set fact is all it needs:
a mapping of 十万's faces onto the engine's ids would have had no room for rank 10, and a referee of its own was a
second copy of the turn order (the table this ruleset had before).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from engine.analysis import ShapeRules
from engine.errors import SettleError, TileCountError
from engine.notation import Hand, Meld, MeldKind, parse_hand
from engine.rulesets.base import Ruleset, Score, WinContext
from engine.rulesets.readings import STANDARD_ONLY
from engine.rulesets.shiwan.shape import NOTATION, ShiwanMeld, concealed_counts, is_win, read_meld, shanten, waits
from engine.rulesets.shiwan.tiles import (
    COPIES,
    NUM_KINDS,
    RANKS,
    check_copies,
    code,
    counts_of,
    format_tiles,
    read_tiles,
)
from engine.rulesets.verdicts import rejected, won
from engine.tiles import FLOWERS
from engine.tilesets import TileSet

if TYPE_CHECKING:
    from engine.settle import SettleRequest

HAND_SIZE = 13
TILE_SET = TileSet(
    "十万",
    "万/饼/条 1-10 + 东南西北, four each (136), in 十万's own ids",
    (COPIES,) * NUM_KINDS + (0,) * len(FLOWERS),
    ranks=RANKS,
)
"""The set the wall is built from: ids 0-33 four times each, no flowers, suits of ten ranks (``shiwan.tiles``)."""
_ORIGIN_OFFER = {"from=left": 1, "from=opposite": 2, "from=right": 3}


def to_meld(meld: ShiwanMeld, origin: str) -> Meld:
    """The engine's meld record holding 十万 ids (``offer`` as in ``engine.settle.melds``)."""
    if meld.kind == "chi":
        return Meld(MeldKind.CHOW, meld.tiles[0])
    kind = MeldKind.PUNG if meld.kind == "pon" else MeldKind.KONG
    offer = _ORIGIN_OFFER.get(origin)
    return Meld(kind, meld.tiles[0], None if offer is None else offer + (4 if meld.kind == "kakan" else 0))


def read_hand(request: SettleRequest) -> Hand:
    """The declared hand in 十万 ids: 13 tiles before the winning one, no face more than four times."""
    standing = tuple(read_tiles(request.hand, "hand"))
    melds = []
    for index, text in enumerate(request.melds):
        place = f"melds[{index}] {text!r}"
        melds.append(to_meld(read_meld(text, place), str(text).split(":")[-1]))
    if request.win_tile is None:
        raise SettleError("field 'win_tile' is null: this query scores a win and needs the winning tile")
    win = read_tiles(request.win_tile, "win_tile")
    if len(win) != 1:
        raise SettleError(f"field 'win_tile': expected exactly one tile, found {request.win_tile!r}")
    if len(standing) + 3 * len(melds) != HAND_SIZE:
        raise TileCountError(
            f"hand: {len(standing)} standing tiles beside {len(melds)} melds; expected {HAND_SIZE - 3 * len(melds)}"
        )
    hand = Hand(tuple(melds), standing, win[0])
    check_copies(hand.all_tiles(), "hand, melds and win_tile")
    return hand


def check_hand(hand: Hand) -> None:
    """A declared win that can exist: 13 tiles before the winning one, no face more than four times, no flowers."""
    if len(hand.standing) + 3 * len(hand.melds) != HAND_SIZE:
        raise TileCountError(
            f"{len(hand.standing)} standing tiles beside {len(hand.melds)} melds before the winning tile; expected "
            f"{HAND_SIZE - 3 * len(hand.melds)}"
        )
    if hand.flower_count:
        raise TileCountError(f"{hand.flower_count} flowers: the 十万 set has none")
    check_copies(hand.all_tiles(), "hand")


class ShiwanRuleset(Ruleset):
    id = "shiwan"
    description = "十万麻将 (S002) — 十万: suits of ranks 1-10 + winds (136 tiles), 4 sets + pair, chows do not wrap"

    @property
    def shape_rules(self) -> ShapeRules:
        """For the shared code's sake only: 十万's own check is ``shiwan.shape.is_win`` on its ten-rank ids."""
        return STANDARD_ONLY

    @property
    def tile_set(self) -> TileSet:
        return TILE_SET

    def read_tiles(self, text: str, where: str) -> list[int]:
        return read_tiles(text, where)

    def parse_hand(self, text: str) -> Hand:
        """``mjtable score`` / ``waits``: the MCR notation with ranks 0-9 (0 = 10) and the winds (SW-2 otherwise)."""
        return parse_hand(text, NOTATION)

    def tile_code(self, tile: int) -> str:
        return code(tile)

    def format_tiles(self, tiles: Iterable[int]) -> str:
        return format_tiles(tiles)

    def format_meld(self, meld: Meld) -> str:
        offer = "" if meld.offer is None else f",{meld.offer}"
        return f"[{format_tiles(meld.tiles)}{offer}]"

    def format_hand(self, hand: Hand) -> str:
        """The melds, the standing tiles and the winning tile in the notation ``parse_hand`` reads (0 = 10)."""
        tiles = [*hand.standing, *(() if hand.win_tile is None else (hand.win_tile,))]
        return "".join(map(self.format_meld, hand.melds)) + format_tiles(tiles)

    def quick_win(self, referee: Any, seat: int, counts: list[int], offered: int | None) -> bool:
        return is_win(counts)

    def waits_of(self, melds: Sequence[Meld], standing: Sequence[int]) -> tuple[list[int], int]:
        """SW-1's waits and shanten on the ten-rank suits; a tile whose four copies are in the hand is no wait."""
        held = [*standing, *(tile for meld in melds for tile in meld.tiles)]
        check_copies(held, "hand")
        used, counts = counts_of(held), counts_of(standing)
        return [tile for tile in waits(counts) if used[tile] < COPIES], shanten(counts)

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        """SW-1 on a hand of 十万 ids (``read_hand``, ``parse_hand``); ``TileCountError`` for one that cannot exist."""
        check_hand(hand)
        if is_win(concealed_counts(hand.standing, hand.win_tile)):  # type: ignore[arg-type]
            return won(None)
        return rejected("not 4 sets + pair (chows of ranks 1-10 that do not wrap)")

    def answer_score(self, request: SettleRequest) -> dict[str, Any]:
        ctx = WinContext.from_dict(request.situation)
        return self.evaluate(read_hand(request), ctx).to_settle()
