"""Which yaku a winning riichi hand holds, in one reading (``reading``), under the situation (``WinFacts``).

Three families: the situation alone (riichi, ippatsu, self-draw, last tile, kan-related, blessings), the tiles
alone (all simples, flushes, terminals and honours, all green, nine gates) and the sets of the reading
(pinfu, sequences, triplets, dragons, winds, outside hands). Yakuman replace every other yaku (and dora).

Rule choices (the common rules; rules-A §13 lists no yaku), each also the oracle's (``mahjong`` 2.1.0):
- open tanyao (喰いタン) is an option, on by default (issue 11);
- pinfu needs a closed hand of four chows, a pair that is no dragon, seat wind or round wind, and a two-sided
  wait in the reading chosen;
- chanta and junchan need at least one chow (without one the hand is honroutou + toitoi);
- a double east (or any wind that is seat and round wind) is two yakuhai;
- ryuuiisou needs no green dragon; nine gates needs a hand without any kan;
- several yakuman add up (複合役満, as on Tenhou); the four double forms (13-sided kokushi, suuankou tanki,
  pure nine gates, daisuushii) count double only with the option ``double_yakuman`` (off by default).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from engine.rulesets.riichi.reading import Group, Reading, SetKind, Wait
from engine.tiles import DRAGONS, GREEN, TERMINALS, WINDS

GREENS = frozenset({19, 20, 21, 23, 25, GREEN})
"""2 3 4 6 8 bamboo and the green dragon (緑一色)."""
_TERMINAL_SET = frozenset(TERMINALS)
_DRAGON_SET = frozenset(DRAGONS)
_OUTSIDE_RANKS = (0, 6)
"""The ranks (0-8) of a chow's lowest tile that hold a terminal: 123 and 789."""
_HONOR_SET = frozenset(range(27, 34))

YakuList = tuple[tuple[str, int], ...]
"""(yaku key, han) pairs."""


class WinFacts(NamedTuple):
    """The situation of a win as the yaku see it (hashable: scores are cached by it)."""

    closed: bool
    self_drawn: bool
    seat_wind: int
    """The tile of the winner's seat wind (27-30)."""
    round_wind: int
    dealer: bool
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    last_tile: bool = False
    first_turn: bool = False
    kans: int = 0
    open_tanyao: bool = True
    double_yakuman: bool = False
    renhou: str = "none"


@lru_cache(maxsize=1024)
def situation_yaku(facts: WinFacts) -> YakuList:
    """Yaku of the situation alone (situations repeat far more than hands: cached)."""
    found: list[tuple[str, int]] = []
    if facts.double_riichi:
        found.append(("double_riichi", 2))
    elif facts.riichi:
        found.append(("riichi", 1))
    if facts.ippatsu:
        found.append(("ippatsu", 1))
    if facts.self_drawn and facts.closed:
        found.append(("menzen_tsumo", 1))
    if facts.rinshan:
        found.append(("rinshan", 1))
    if facts.chankan:
        found.append(("chankan", 1))
    if facts.last_tile:
        found.append(("haitei", 1) if facts.self_drawn else ("houtei", 1))
    if facts.first_turn and facts.closed and facts.kans == 0:
        if facts.self_drawn:
            found.append(("tenhou", 13) if facts.dealer else ("chiihou", 13))
        elif not facts.dealer and facts.renhou != "none":
            found.append(("renhou_yakuman", 13) if facts.renhou == "yakuman" else ("renhou", 5))
    return tuple(found)


def _mask(tiles: Iterable[int]) -> int:
    return sum(1 << tile for tile in set(tiles))


_HONORS = _mask(range(27, 34))
_TERMINALS = _mask(TERMINALS)
_SIMPLES = _mask(range(27)) & ~_TERMINALS
_SUITS = tuple(_mask(range(9 * suit, 9 * suit + 9)) for suit in range(3))
_NOT_GREEN = ~_mask(GREENS)


def tile_yaku(kinds: int, facts: WinFacts) -> YakuList:
    """Yaku of the tile kinds the hand holds (melds included), as a bit mask (bit ``tile`` set for each kind)."""
    found: list[tuple[str, int]] = []
    honors = kinds & _HONORS
    suits = sum(1 for suit in _SUITS if kinds & suit)
    outside = not kinds & _SIMPLES
    if not honors and not kinds & _TERMINALS and (facts.closed or facts.open_tanyao):
        found.append(("tanyao", 1))
    if suits == 1:
        found.append(("honitsu", 3 if facts.closed else 2) if honors else ("chinitsu", 6 if facts.closed else 5))
    if not suits:
        found.append(("tsuuiisou", 13))
    elif outside and not honors:
        found.append(("chinroutou", 13))
    elif outside:
        found.append(("honroutou", 2))
    if not kinds & _NOT_GREEN:
        found.append(("ryuuiisou", 13))
    return tuple(found)


def reading_yaku(reading: Reading, facts: WinFacts, counts: tuple[int, ...], win: int) -> YakuList:
    """Yaku of the sets of one reading. ``counts`` are the 14 concealed tiles' counts (for nine gates)."""
    if reading.form == "kokushi":
        return (("kokushi_13", _double(facts)) if counts[win] == 2 else ("kokushi", 13),)
    if reading.form == "chiitoitsu":
        return (("chiitoitsu", 2),)
    found: list[tuple[str, int]] = []
    closed = facts.closed
    pair = reading.pair
    chows: list[int] = []
    triplets: list[Group] = []
    for group in reading.sets:
        if group.kind is SetKind.CHI:
            chows.append(group.tile)
        else:
            triplets.append(group)
    chows.sort()
    triplet_tiles = {group.tile for group in triplets}
    valued = pair in _DRAGON_SET or pair == facts.seat_wind or pair == facts.round_wind
    if closed and len(chows) == 4 and not valued and reading.wait is Wait.RYANMEN:
        found.append(("pinfu", 1))
    if closed and len(chows) >= 2:
        doubles = sum(chows.count(low) // 2 for low in set(chows))
        if doubles >= 2:
            found.append(("ryanpeikou", 3))
        elif doubles == 1:
            found.append(("iipeikou", 1))
    honors = not triplet_tiles.isdisjoint(_HONOR_SET)
    if honors:
        for tile, key in zip(DRAGONS, ("haku", "hatsu", "chun"), strict=True):
            if tile in triplet_tiles:
                found.append((key, 1))
        if facts.seat_wind in triplet_tiles:
            found.append(("seat_wind", 1))
        if facts.round_wind in triplet_tiles:
            found.append(("round_wind", 1))
    if len(chows) >= 3:
        found.extend(_sequence_yaku(chows, closed))
    if chows:
        found.extend(_outside_yaku(reading, closed))
    if triplets:
        found.extend(_triplet_yaku(reading, triplets, facts))
    if honors:
        found.extend(_honor_set_yaku(triplet_tiles, pair, facts))
    if closed and not facts.kans:
        found.extend(_nine_gates(counts, win, facts))
    return tuple(found)


def _sequence_yaku(chows: list[int], closed: bool) -> YakuList:
    """Sanshoku and ittsu, of three chows or more (the caller's test)."""
    found: list[tuple[str, int]] = []
    lows = set(chows)
    if any(all(rank + 9 * suit in lows for suit in range(3)) for rank in range(7)):
        found.append(("sanshoku_doujun", 2 if closed else 1))
    if any({9 * suit, 9 * suit + 3, 9 * suit + 6} <= lows for suit in range(3)):
        found.append(("ittsu", 2 if closed else 1))
    return tuple(found)


def _outside_yaku(reading: Reading, closed: bool) -> YakuList:
    """Chanta / junchan: every set and the pair hold a terminal or honour, with at least one chow (the caller's
    test)."""
    honors = False
    for group in reading.sets:
        tile = group.tile
        if tile >= 27:
            honors = True
        elif tile % 9 not in _OUTSIDE_RANKS if group.kind is SetKind.CHI else tile not in _TERMINAL_SET:
            return ()
    pair = reading.pair
    if pair is not None:
        if pair >= 27:
            honors = True
        elif pair not in _TERMINAL_SET:
            return ()
    if honors:
        return (("chanta", 2 if closed else 1),)
    return (("junchan", 3 if closed else 2),)


def _triplet_yaku(reading: Reading, triplets: list[Group], facts: WinFacts) -> YakuList:
    found: list[tuple[str, int]] = []
    if len(triplets) == 4:
        found.append(("toitoi", 2))
    concealed = sum(group.concealed for group in triplets)
    if concealed == 4 and facts.closed:
        found.append(("suuankou_tanki", _double(facts)) if reading.wait is Wait.TANKI else ("suuankou", 13))
    elif concealed == 3:
        found.append(("sanankou", 2))
    suited = {group.tile for group in triplets if group.tile < 27}
    if len(suited) >= 3 and any(all(rank + 9 * suit in suited for suit in range(3)) for rank in range(9)):
        found.append(("sanshoku_doukou", 2))
    if facts.kans == 3:
        found.append(("sankantsu", 2))
    elif facts.kans == 4:
        found.append(("suukantsu", 13))
    return tuple(found)


def _honor_set_yaku(triplet_tiles: set[int], pair: int | None, facts: WinFacts) -> YakuList:
    dragons = len(triplet_tiles.intersection(DRAGONS))
    winds = len(triplet_tiles.intersection(WINDS))
    if dragons == 3:
        return (("daisangen", 13),)
    found: list[tuple[str, int]] = []
    if dragons == 2 and pair in DRAGONS:
        found.append(("shousangen", 2))
    if winds == 4:
        found.append(("daisuushii", _double(facts)))
    elif winds == 3 and pair in WINDS:
        found.append(("shousuushii", 13))
    return tuple(found)


def _nine_gates(counts: tuple[int, ...], win: int, facts: WinFacts) -> YakuList:
    """九蓮宝燈: 1112345678999 + one tile of the same suit, all concealed without a kan; pure when the 13 tiles
    before the win were exactly that shape (the winning tile then is the one held twice, or four times)."""
    if not facts.closed or facts.kans or win >= 27:
        return ()
    suit = win // 9
    ranks = counts[9 * suit : 9 * suit + 9]
    if sum(ranks) != 14 or sum(counts) != 14:
        return ()
    base = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    if any(n < need for n, need in zip(ranks, base, strict=True)):
        return ()
    pure = ranks[win - 9 * suit] in (2, 4)
    return (("junsei_chuuren", _double(facts)) if pure else ("chuuren", 13),)


def _double(facts: WinFacts) -> int:
    """Han of a double-form yakuman: two yakuman with the option ``double_yakuman``, else one."""
    return 26 if facts.double_yakuman else 13
