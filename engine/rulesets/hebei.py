"""``hebei``: 河北麻将 (fan.md §5, S002:95, S003:137-139). 136 tiles, no chi, 胡 before 碰/杠, one winner on a
discard (the first in turn order, HB-1), a one-throw break counted by the dice sum (HB-3), the traditional dealer
rotation (the dealer stays on his win and on a drawn hand, else his 下家 deals).

听 is optional and adds nothing; after declaring it a kong is allowed only when the standing tiles left after
the kong still wait on some tile (HB-2). The fan list of the online text is missing, so a win is the standard
shape and no settlement is stated (HB-4: ``payments`` null).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.analysis import ShapeRules, is_win, waits
from engine.errors import SettleError
from engine.notation import Hand, MeldKind
from engine.rulesets.base import BreakMethod, Ruleset, Score, WinContext
from engine.rulesets.contract import boolean, require
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.nochi import NoChi
from engine.rulesets.queries import no_verdict
from engine.rulesets.readings import STANDARD_ONLY
from engine.rulesets.verdicts import rejected, won
from engine.settle.melds import read_melds
from engine.tiles import NUM_KINDS, Tile, tile_code

if TYPE_CHECKING:
    from engine.settle import SettleRequest


def _kong_tile(kong: Any, read: Any) -> tuple[str, Tile, Tile | None]:
    """The kong object's type, tile and the tile just drawn (``drawn``; needed for a concealed or added kong)."""
    if not isinstance(kong, dict) or kong.get("type") not in ("exposed", "added", "concealed"):
        raise SettleError("situation field 'kong': expected {seat, type: exposed|added|concealed, tile, drawn}")
    tiles = read(require(kong, "tile"), "kong.tile")
    drawn_text = kong.get("drawn")
    drawn = None if drawn_text is None else read(drawn_text, "kong.drawn")
    if len(tiles) != 1 or (drawn is not None and len(drawn) != 1):
        raise SettleError("situation field 'kong': 'tile' and 'drawn' are one tile each, such as \"5m\"")
    if kong["type"] != "exposed" and drawn is None:
        raise SettleError(f"situation field 'kong.drawn': a {kong['type']} kong is made after a draw; name the tile")
    return kong["type"], tiles[0], None if drawn is None else drawn[0]


def standing_after_kong(hand: Hand, kind: str, tile: Tile, drawn: Tile | None) -> list[int]:
    """The count vector of the standing tiles once the kong is made (its replacement not yet drawn)."""
    counts = [0] * NUM_KINDS
    for held in (*hand.standing, *(() if drawn is None else (drawn,))):
        counts[held] += 1
    if kind == "added" and not any(m.kind is MeldKind.PUNG and m.tile == tile for m in hand.melds):
        raise SettleError(f"situation field 'kong': an added kong of {tile_code(tile)} needs a pon of it in 'melds'")
    used = {"exposed": 3, "concealed": 4, "added": 1}[kind]
    if counts[tile] < used:
        raise SettleError(f"situation field 'kong': the hand holds {counts[tile]} {tile_code(tile)}, {used} needed")
    counts[tile] -= used
    return counts


class HebeiRuleset(NoChi, Ruleset):
    id = "hebei"
    description = "河北麻将 (S002/S003) — Hebei: no chi, standard shape, sum break, kongs after 听 only if still ready"

    @property
    def shape_rules(self) -> ShapeRules:
        return STANDARD_ONLY

    @property
    def break_method(self) -> BreakMethod:
        return BreakMethod.SUM

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        counts = concealed_counts(hand, self.tile_set)
        chow = any(meld.kind is MeldKind.CHOW for meld in hand.melds)
        if chow:
            return rejected("a chow meld: Hebei has no chi", extra={"illegal": "chi"})
        return won(None) if is_win(counts, STANDARD_ONLY) else rejected("not 4 sets + pair (HB-4)")

    def answer_kong_allowed(self, request: SettleRequest) -> dict[str, Any]:
        """HB-2: after 听 a kong is allowed when the standing tiles left after it still wait on some tile;
        without 听 any kong the hand can make is allowed. ``hand`` is the 13 tiles before the draw."""
        situation = request.situation
        kind, tile, drawn = _kong_tile(require(situation, "kong"), self.read_tiles)
        melds = read_melds(list(request.melds), lambda text: self.read_tiles(text, "melds"))
        hand = Hand(melds, tuple(self.read_tiles(request.hand, "hand")))
        if len(hand.standing) + 3 * len(melds) != 13:
            raise SettleError("field 'hand': the 13 tiles before the draw (standing + 3 × melds)")
        self.tile_set.check([*hand.all_tiles(), *(() if drawn is None else (drawn,))], "hand, melds and kong")
        after = standing_after_kong(hand, kind, tile, drawn)
        held = [*hand.all_tiles(), *(() if drawn is None else (drawn,)), *((tile,) if kind == "exposed" else ())]
        # A tile whose four copies are all the player's own (the kong's, say) is no wait.
        tiles = [wait for wait in waits(after, STANDARD_ONLY) if held.count(wait) < 4]
        ready = boolean(situation, "declared_ready")
        return no_verdict(kong_allowed=bool(tiles) or not ready, waits_after=[tile_code(t) for t in tiles])
