"""The ``mjtable settle`` answer of a riichi win: fields, yaku names, the payment breakdown.

Answer fields: ``hu``, ``han``, ``fu``, ``yaku`` (``{"key", "name_ja", "name_en", "han"}`` per yaku; dora as one
entry with its count), ``limit`` ("" below mangan, else mangan ... yakuman), ``basic_points``, ``payments`` (net
per seat: hand, honba and riichi sticks), ``breakdown`` (those three parts per seat), ``fans`` (the common
contract list, ``name_zh`` holding the Japanese name) and ``reason`` when it is no win.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from functools import cache, lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from engine.errors import RulesetError, SettleError
from engine.procedure.dice import check_seat
from engine.rulesets.base import FanEntry, Score, WinContext
from engine.rulesets.riichi.points import hand_payments
from engine.rulesets.riichi.scorer import HandValue
from engine.rulesets.riichi.situation import Counters
from engine.rulesets.riichi.yakulist import YAKU
from engine.settlement import Payments, collect, combine, no_payments

if TYPE_CHECKING:
    from engine.settle import SettleRequest

RIICHI_STICK = 1000
_RUNS = re.compile(r"([0-9]+)([mpsz])")
"""A run of rank digits and its suit letter in compact notation (a meld string holds one among its words)."""


SEATS = range(4)
SEAT_KEYS = tuple(map(str, SEATS))
"""The seats' keys in an answer."""


@cache
def yaku_entry(key: str, han: int) -> FanEntry:
    yaku = YAKU[key]
    return FanEntry(key, yaku.name_ja, yaku.name_en, han)


YAKUMAN_BASIC = 8000
PAO_YAKU = frozenset({"daisangen", "daisuushii"})
"""The yakuman a seat can be liable for (責任払い, Tenhou and most rules); 四槓子 too under the option pao_suukantsu."""


def win_parts(
    value: HandValue, ctx: WinContext, counters: Counters, pao_yaku: frozenset[str] = PAO_YAKU
) -> dict[str, Payments]:
    """The three parts of a win's settlement, each a per-seat net map: the hand, the honba, the sticks."""
    basic, winner, dealer, discarder = value.limit.basic, ctx.winner, ctx.dealer, ctx.discarder
    liable = counters.pao
    if liable is None or liable == discarder:
        return _parts(basic, winner, dealer, discarder, counters.honba, counters.riichi_sticks)
    covered = sum(han for key, han in value.yaku if key in pao_yaku) // 13
    if not covered:
        names = " or ".join(sorted(pao_yaku))
        raise RulesetError(f"situation field 'pao': the hand has no {names} that a seat could be liable for")
    fed = min(basic, covered * YAKUMAN_BASIC)
    owed = hand_payments(fed, winner, dealer, liable)[liable]  # the liable yakuman as a ron off the liable seat
    if discarder is None:  # a self-draw: the liable seat pays it alone, with the honba (Tenhou)
        rest = _parts(basic - fed, winner, dealer, None, 0, counters.riichi_sticks)
        hand, honba = {liable: owed}, {liable: 300 * counters.honba}
    else:  # a ron off another seat: half each; the discarder pays the honba
        rest = _parts(basic - fed, winner, dealer, discarder, counters.honba, counters.riichi_sticks)
        hand, honba = {liable: owed // 2, discarder: owed - owed // 2}, {}
    return {
        "hand": combine(rest["hand"], collect(winner, hand)),
        "honba": combine(rest["honba"], collect(winner, honba)),
        "riichi_sticks": rest["riichi_sticks"],
    }


@lru_cache(maxsize=4096)
def _parts(basic: int, winner: int, dealer: int, discarder: int | None, honba: int, sticks: int) -> dict[str, Payments]:
    """Cached by its arguments: the maps are read, never changed (``Score`` and ``combine`` copy them)."""
    hand = hand_payments(basic, winner, dealer, discarder)
    with_honba = hand_payments(basic, winner, dealer, discarder, honba)
    on_table = no_payments()
    on_table[winner] = RIICHI_STICK * sticks
    return {
        "hand": collect(winner, hand),
        "honba": collect(winner, {seat: with_honba[seat] - hand[seat] for seat in hand}),
        "riichi_sticks": on_table,
    }


def _seat_keyed(part: Payments) -> dict[str, Any]:
    return dict(zip(SEAT_KEYS, map(part.__getitem__, SEATS), strict=True))


def answer_fields(value: HandValue, parts: Mapping[str, Payments] | None) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "han": value.han,
        "fu": value.fu,
        "yaku": [dict(_yaku_field(key, han)) for key, han in value.yaku],
        "limit": value.limit.name,
        "basic_points": value.limit.basic,
    }
    if parts is not None:
        fields["breakdown"] = {name: _seat_keyed(part) for name, part in parts.items()}
    return fields


@cache
def _yaku_field(key: str, han: int) -> Mapping[str, Any]:
    yaku = YAKU[key]
    return MappingProxyType({"key": key, "name_ja": yaku.name_ja, "name_en": yaku.name_en, "han": han})


def settle_answer(score: Score) -> dict[str, Any]:
    """``Score.to_settle`` with ``payments`` including the riichi sticks from the table."""
    data = score.to_settle()
    breakdown = score.extra.get("breakdown")
    if breakdown is not None:  # the hand and honba are the score's payments already
        sticks = breakdown["riichi_sticks"]
        data["payments"] = {seat: amount + sticks[seat] for seat, amount in data["payments"].items()}
    return data


def as_seats(part: Mapping[str, Any]) -> Payments:
    return {int(seat): amount for seat, amount in part.items()}


def with_red_fives(request: SettleRequest) -> WinContext:
    """The request's context with ``red_fives`` = the rank-0 tiles written in hand, melds and winning tile."""
    texts = " ".join(text for text in (request.hand, request.win_tile or "", *request.melds) if isinstance(text, str))
    red = 0
    if "0" in texts:  # most hands hold no red five: their text is not searched
        per_suit = Counter(suit for digits, suit in _RUNS.findall(texts) for digit in digits if digit == "0")
        for suit, count in per_suit.items():
            if count > 1:
                raise SettleError(f"hand: {count} red fives 0{suit}; the set has one red five per suit")
        red = sum(per_suit.values())
    situation = request.situation
    if "red_fives" in situation:
        raise SettleError("situation field 'red_fives': write red fives as rank 0 in the tiles (0m 0p 0s) instead")
    return WinContext.from_dict({**situation, "red_fives": red} if red else situation)


def answer_discarder(request: SettleRequest) -> int:
    discarder = request.situation.get("discarder")
    if discarder is None:
        raise SettleError("situation field 'discarder': several winners need the seat that discarded")
    return check_seat(discarder, "discarder")
