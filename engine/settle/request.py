"""One ``mjtable settle`` request (shared/rules/regional/README.md): the top-level fields checked, the tiles read
by the ruleset that is asked (十万 reads a rank 0 as 10), the hand's tiles counted against its tile set."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from engine.errors import SettleError, TileCountError, quoted
from engine.notation import Hand, Situation
from engine.settle.melds import read_melds

if TYPE_CHECKING:
    from engine.rulesets.base import Ruleset, WinContext

_FIELDS = ("rules", "options", "hand", "melds", "win_tile", "situation", "query")


def _typed(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any, expected: str) -> Any:
    value = data.get(key, default)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SettleError(f"field {key!r}: expected {expected}, found {quoted(value)}")
    return value


@dataclass(frozen=True)
class SettleRequest:
    """The fields of one input line; the tiles stay text until a ruleset reads them (``read_hand``)."""

    rules: str
    options: Mapping[str, Any] = field(default_factory=dict)
    hand: str = ""
    melds: tuple[str, ...] = ()
    win_tile: str | None = None
    situation: Mapping[str, Any] = field(default_factory=dict)
    query: str = "score"

    @classmethod
    def from_json(cls, data: Any) -> SettleRequest:
        """Check the top level: a JSON object with the contract's keys, each of its type."""
        if not isinstance(data, dict):
            raise SettleError(f"expected a JSON object with the keys {', '.join(_FIELDS)}, found {data!r}")
        unknown = sorted(set(data) - set(_FIELDS))
        if unknown:
            raise SettleError(f"unknown field {unknown[0]!r}; the fields are {', '.join(_FIELDS)}")
        if "rules" not in data:
            raise SettleError("field 'rules' is missing: name the ruleset, e.g. \"sichuan\"")
        win_tile = data.get("win_tile")
        if win_tile is not None and not isinstance(win_tile, str):
            raise SettleError(f"field 'win_tile': expected a tile such as \"5m\" or null, found {win_tile!r}")
        melds = _typed(data, "melds", list, [], "a list of meld strings")
        return cls(
            rules=_typed(data, "rules", str, None, "a ruleset id string"),
            options=MappingProxyType(dict(_typed(data, "options", dict, {}, "an object of options"))),
            hand=_typed(data, "hand", str, "", 'a tile string such as "123m456p"'),
            melds=tuple(melds),
            win_tile=win_tile,
            situation=MappingProxyType(dict(_typed(data, "situation", dict, {}, "an object"))),
            query=_typed(data, "query", str, "score", "a query name string"),
        )

    def read_hand(self, ruleset: Ruleset, ctx: WinContext | None = None) -> Hand:
        """The declared hand as the scorers see it: melds, standing tiles, the winning tile (required), every
        tile inside the ruleset's set and no face more often than the set holds it; 13 tiles before the winning
        one. ``ctx`` fills the MCR-notation situation that some scorers read beside the ``WinContext``."""
        standing = tuple(ruleset.read_tiles(self.hand, "hand"))
        melds = read_melds(list(self.melds), lambda text: ruleset.read_tiles(text, "melds"))
        if self.win_tile is None:
            raise SettleError("field 'win_tile' is null: this query scores a win and needs the winning tile")
        win = ruleset.read_tiles(self.win_tile, "win_tile")
        if len(win) != 1:
            raise SettleError(f"field 'win_tile': expected exactly one tile, found {self.win_tile!r}")
        expected = 13 - 3 * len(melds)
        if len(standing) != expected:
            raise TileCountError(
                f"hand: {len(standing)} standing tiles beside {len(melds)} melds; expected {expected} "
                "(the winning tile goes in 'win_tile')"
            )
        hand = Hand(melds, standing, win[0], _notation_situation(ctx))
        ruleset.tile_set.check(hand.all_tiles(), "hand, melds and win_tile")
        return hand


def _notation_situation(ctx: WinContext | None) -> Situation | None:
    if ctx is None:
        return None
    return Situation(
        prevalent_wind=ctx.round_wind,
        seat_wind=ctx.seat_wind,
        self_drawn=ctx.self_drawn,
        fourth_tile=ctx.fourth_tile,
        last_tile=ctx.last_tile,
        kong_related=ctx.after_kong or ctx.robbing_kong,
    )
