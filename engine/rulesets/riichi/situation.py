"""The riichi facts of a winning declaration, read from a ``WinContext`` (settle situation keys) and checked.

Situation keys beside the core ones (``winner``, ``dealer``, ``discarder``, ``round_wind``, ``after_kong``,
``robbing_kong``, ``last_tile``, ``first_turn``): ``riichi``, ``double_riichi``, ``ippatsu`` (bools),
``dora_indicators``, ``ura_dora_indicators`` (tile strings, kan dora included, at most five each), ``honba``
and ``riichi_sticks`` (whole numbers). ``last_tile`` is 海底 on a self-draw and 河底 on a discard;
``first_turn`` is an uninterrupted first go-around (天和 / 地和, 人和 where the option allows it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from engine.errors import RulesetError, quoted
from engine.notation import Hand, MeldKind
from engine.rulesets.base import WinContext
from engine.rulesets.contract import boolean, whole_number
from engine.rulesets.riichi.scorer import Bonus
from engine.rulesets.riichi.yaku import WinFacts
from engine.tiles import EAST, Tile

MAX_INDICATORS = 5
"""The first indicator and one per kan (four kans end the hand or the game)."""

RIICHI_KEYS = (
    "riichi",
    "double_riichi",
    "ippatsu",
    "dora_indicators",
    "ura_dora_indicators",
    "honba",
    "riichi_sticks",
    "red_fives",
    "other_winners",
    "pao",
)
"""``red_fives`` (0-3) is filled in from rank-0 tiles by the settle answer, or passed by a table driver;
``other_winners`` belongs to the ``multi_win`` query (each winner's own keys, e.g. ``riichi``, go inside it)."""
TABLE_KEYS = ("wall_remaining", "dice", "kongs", "kong", "discarder_after_kong")
"""Facts the shared referee gives every ruleset's wins (``Referee._table_facts``, ``_hand_facts``); the scorer
reads none of them (its kans are the hand's melds)."""
_KNOWN = frozenset(RIICHI_KEYS + TABLE_KEYS)


class Counters(NamedTuple):
    honba: int = 0
    riichi_sticks: int = 0
    pao: int | None = None
    """The seat liable for the win (責任払い, ``situation.pao``): it fed the last dragon or wind pung or kan."""


def _indicators(extra: Mapping[str, Any], key: str, read: Callable[[str, str], Sequence[Tile]]) -> tuple[Tile, ...]:
    value = extra.get(key, "")
    if not isinstance(value, str):
        raise RulesetError(f'situation field {key!r}: expected a tile string such as "3m7z", found {quoted(value)}')
    tiles = tuple(read(value, key))
    if len(tiles) > MAX_INDICATORS:
        raise RulesetError(f"situation field {key!r}: {len(tiles)} indicators, at most {MAX_INDICATORS}")
    return tiles


def _pao(ctx: WinContext, options: Mapping[str, Any]) -> int | None:
    pao = ctx.extra.get("pao")
    if pao is None:
        return None
    if type(pao) is not int or not 0 <= pao <= 3 or pao == ctx.winner:
        raise RulesetError(
            f"situation field 'pao': expected the seat 0-3 liable for the win, not the winner's, found {quoted(pao)}"
        )
    if not options["pao"]:
        raise RulesetError("situation field 'pao': the option pao is off")
    return pao


def read_situation(
    hand: Hand, ctx: WinContext, options: Mapping[str, Any], read: Callable[[str, str], Sequence[Tile]]
) -> tuple[WinFacts, Bonus, Counters]:
    """The facts, dora and counters of a declaration; ``RulesetError`` for a situation that cannot happen."""
    extra = ctx.extra
    if not extra.keys() <= _KNOWN:
        unknown = sorted(set(extra) - _KNOWN)
        raise RulesetError(f"situation field {unknown[0]!r} is not a riichi situation key; known: {RIICHI_KEYS}")
    riichi, double, ippatsu = boolean(extra, "riichi"), boolean(extra, "double_riichi"), boolean(extra, "ippatsu")
    kans = 0
    closed = True
    for meld in hand.melds:
        kans += meld.kind is MeldKind.KONG
        closed = closed and meld.is_concealed_kong
    self_drawn = ctx.discarder is None
    if (riichi or double) and not closed:
        raise RulesetError("situation field 'riichi': riichi needs a closed hand (no chi, pon or open kan)")
    if ippatsu and not (riichi or double):
        raise RulesetError("situation field 'ippatsu': ippatsu needs riichi or double_riichi")
    if ctx.after_kong and not self_drawn:
        raise RulesetError("situation field 'after_kong': a win on the replacement tile is a self-draw")
    if ctx.after_kong and not kans:
        raise RulesetError("situation field 'after_kong': the hand declares no kan")
    if ctx.last_tile and (ctx.after_kong or ctx.robbing_kong):
        raise RulesetError("situation field 'last_tile': the last tile is neither a kan replacement nor a robbed kan")
    indicators = _indicators(extra, "dora_indicators", read)
    ura = _indicators(extra, "ura_dora_indicators", read)
    if ura and not (riichi or double):
        raise RulesetError("situation field 'ura_dora_indicators': ura dora are turned over only after riichi")
    red_fives = whole_number(extra, "red_fives", 0)
    if red_fives > 3:
        raise RulesetError(f"situation field 'red_fives': the set has three red fives, found {red_fives}")
    if red_fives and not options["red_fives"]:
        raise RulesetError("hand: a red five (rank 0) is played only with the option red_fives")
    facts = WinFacts(
        closed=closed,
        self_drawn=self_drawn,
        seat_wind=EAST + ctx.seat_wind,
        round_wind=EAST + ctx.round_wind,
        dealer=ctx.winner == ctx.dealer,
        riichi=riichi and not double,
        double_riichi=double,
        ippatsu=ippatsu,
        rinshan=ctx.after_kong,
        chankan=ctx.robbing_kong,
        last_tile=ctx.last_tile,
        first_turn=ctx.first_turn,
        kans=kans,
        open_tanyao=options["open_tanyao"],
        double_yakuman=options["double_yakuman"],
        renhou=options["renhou"],
    )
    counters = Counters(whole_number(extra, "honba", 0), whole_number(extra, "riichi_sticks", 0), _pao(ctx, options))
    return facts, Bonus(indicators, ura, red_fives), counters
