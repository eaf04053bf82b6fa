"""The fans of a winning hand: every reading scored, the best one kept (summerinsects' order and tie-breaks).

``HandSummary`` gathers once per hand what every reading needs (the melds' chows and pungs, the fans every
reading shares, whether the wait is unique); ``reading_fans`` scores one 4 sets + pair reading on it. Readings
are compact (sorted chow middles, sorted pung tiles, pair tile: ``divisions``), and what depends on the chows
alone or the pungs alone comes from tables (``shape_fans``), so a reading costs a few tuple joins and dict
updates. The tables are filled once per process (``prime_tables``, counted as start-up) for the common keys,
and as met for the rest; the tile fans work on a bitmask of the kinds held (``traits``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from operator import mul
from pathlib import Path
from typing import NamedTuple

from engine import tiles as tile_ids
from engine.analysis import suit_tables, table_cache
from engine.native import MCR_NATIVE
from engine.notation import Hand, Meld
from engine.rulesets.mcr.chows import CHOW_SHAPES, prime_chow_shapes, terminal_chows_fan
from engine.rulesets.mcr.codes import CODE_OF, TILE_OF, WINDS, Code, E
from engine.rulesets.mcr.divisions import _SPLITS, prime_splits, readings
from engine.rulesets.mcr.exclusions import apply_exclusions
from engine.rulesets.mcr.fans import (
    ALL_CHOWS,
    ALL_HONORS,
    ALL_PUNGS,
    ALL_TERMINALS_AND_HONORS,
    BIG_FOUR_WINDS,
    BIG_THREE_WINDS,
    CHICKEN_HAND,
    CONCEALED_HAND,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FULLY_CONCEALED_HAND,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    MELDED_HAND,
    POINTS,
    PREVALENT_WIND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_TRIPLE_CHOW,
    QUADRUPLE_CHOW,
    SEAT_WIND,
    SELF_DRAWN,
    SEVEN_PAIRS,
    TILE_HOG,
    TRIPLE_PUNG,
    TWO_DRAGONS_PUNGS,
)
from engine.rulesets.mcr.knitted import holds_knitted_straight, knitted_straight_fans
from engine.rulesets.mcr.packs import CHOW, KONG, Pack, pack_of_meld
from engine.rulesets.mcr.pungs import PUNG_SHAPES, kong_fans, prime_pung_shapes
from engine.rulesets.mcr.situation import WinFlags, situation_fans
from engine.rulesets.mcr.special import honors_and_knitted, nine_gates, seven_pairs_family, thirteen_orphans
from engine.rulesets.mcr.traits import CODE_BIT, code_mask, pack_trait_fan, tile_fans
from engine.rulesets.mcr.waiting import unique_wait, wait_tables, waiting_form_fan
from engine.tiles import Tile

Fans = dict[int, int]


class ScoringOptions(NamedTuple):
    """The rule readings where the references differ (defaults = PyMahjongGB 1.4.0). A named tuple: it is part
    of the hand cache's key, and a tuple hashes in C."""

    infer_last_tile: bool = True
    """和绝张 when the winner's own melds hold the other three copies."""
    knitted_body_waits: bool = True
    """A winning tile inside the knitted straight may score 边张/嵌张/单钓 (MIL offline reading)."""
    exhausted_waits: bool = True
    """A wait on a tile the hand already holds four times still counts (a "formal" multi-wait: no 独听)."""


class HandSummary:
    """What every reading of one hand shares; the unique-wait test runs only if a reading asks for it."""

    __slots__ = (
        "_counts",
        "_skip",
        "_unique",
        "common_fans",
        "concealed_kongs",
        "fixed_chows",
        "fixed_pungs",
        "fours",
        "held",
        "melded_kongs",
        "melds",
        "prevalent_wind",
        "seat_wind",
        "self_drawn",
        "situation_fans",
        "tile_fans",
        "win_id",
        "win_tile",
    )

    def __init__(
        self,
        melds: tuple[MeldFacts, ...],
        counts: list[int],
        win_id: Tile,
        kinds: int,
        flags: WinFlags,
        winds: tuple[int, int],
        options: ScoringOptions,
    ) -> None:
        """``counts``: the concealed tiles by id, winning tile included; ``kinds``: their ``code_mask``."""
        self.melds = melds
        held = list(counts) if melds else counts  # read only: without melds, the concealed tiles are all
        chows: list[Code] = []
        pungs: list[Code] = []
        melded = melded_kongs = concealed_kongs = 0
        for (kind, tile, exposed), tiles, bits in melds:
            kinds |= bits
            for meld_tile in tiles:
                held[meld_tile] += 1
            melded += exposed
            if kind == CHOW:
                chows.append(tile)
                continue
            pungs.append(tile)
            if kind == KONG:
                melded_kongs += exposed
                concealed_kongs += not exposed
        self.held = held
        """Every tile of the hand by id, melds included."""
        self.fixed_chows = tuple(chows)
        self.fixed_pungs = tuple(pungs)
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.win_id = win_id
        self.win_tile = CODE_OF[win_id]
        self.self_drawn = self_drawn = flags.self_drawn
        self.fours = held.count(4)
        """Kinds held four times (四归一 unless they are a kong)."""
        self.tile_fans = tile_fans(kinds)
        in_standing = counts[win_id]
        self.situation_fans = situation_fans(
            flags, in_standing, held[win_id] - in_standing, melded_kongs + concealed_kongs > 0, options.infer_last_tile
        )
        common = dict(self.situation_fans)
        common.update(_concealment_fans(melded, self_drawn))
        common.update(self.tile_fans)
        self.common_fans = common
        """The fans of every reading that do not depend on it: situation, concealment, tiles held."""
        self.prevalent_wind = E + winds[0]
        self.seat_wind = E + winds[1]
        self._counts = counts
        self._skip = 0 if options.exhausted_waits else sum(1 << tile for tile, n in enumerate(held) if n == 4)
        self._unique: bool | None = None

    def waits_alone(self, rest: list[int]) -> bool:
        """Whether ``rest`` (concealed tiles without the winning tile) waits on the winning tile only."""
        return unique_wait(rest, self.win_id, self._skip)

    @property
    def unique_wait(self) -> bool:
        """Whether the concealed tiles without the winning tile wait on one tile only."""
        if self._unique is None:
            rest = list(self._counts)
            rest[self.win_id] -= 1
            self._unique = self.waits_alone(rest)
        return self._unique


def total(fans: Fans) -> int:
    """Points of the fans (without flowers): points × count, summed in C."""
    return sum(map(mul, map(POINTS.__getitem__, fans), fans.values()))


def _wind_fans(pungs: Sequence[Code], summary: HandSummary, fans: Fans) -> None:
    """圈风刻 / 门风刻 replace the 幺九刻 of their pung, unless a bigger fan already absorbed it."""
    if BIG_FOUR_WINDS in fans:
        return
    absorbed = (
        BIG_THREE_WINDS in fans or ALL_TERMINALS_AND_HONORS in fans or ALL_HONORS in fans or LITTLE_FOUR_WINDS in fans
    )
    for tile in pungs:
        if tile not in WINDS:
            continue
        deduct = 0
        if tile == summary.prevalent_wind:
            fans[PREVALENT_WIND] = 1
            deduct = 1
        if tile == summary.seat_wind:
            fans[SEAT_WIND] = 1
            deduct = 1
        if deduct and not absorbed:
            left = fans.get(PUNG_OF_TERMINALS_OR_HONORS, 0) - 1
            if left > 0:
                fans[PUNG_OF_TERMINALS_OR_HONORS] = left
            else:
                fans.pop(PUNG_OF_TERMINALS_OR_HONORS, None)


def _finish(fans: Fans, pungs: Sequence[Code], summary: HandSummary) -> Fans:
    apply_exclusions(fans)
    if pungs and max(pungs) >= E:  # an honor pung: the wind fans are looked for only then
        _wind_fans(pungs, summary, fans)
    if not fans:
        fans[CHICKEN_HAND] = 1
    return fans


def reading_fans(summary: HandSummary, chows: tuple[Code, ...], pungs: tuple[Code, ...], pair: Code) -> Fans:
    """The fans of one 4 sets + pair reading: the concealed ``chows`` (middles) and ``pungs``, sorted, the pair."""
    win = summary.win_tile
    concealed_chows = chows
    concealed_pungs = len(pungs)
    if not summary.self_drawn and win in pungs and not any(mid - 1 <= win <= mid + 1 for mid in chows):
        concealed_pungs -= 1  # a claimed winning tile in no concealed chow completes an exposed pung
    if summary.fixed_chows:
        chows = tuple(sorted(summary.fixed_chows + chows))
    if summary.fixed_pungs:
        pungs = tuple(sorted(summary.fixed_pungs + pungs))
    fans = dict(summary.common_fans)
    kongs = summary.melded_kongs + summary.concealed_kongs
    if pungs:
        kong_fans(concealed_pungs, summary.melded_kongs, summary.concealed_kongs, fans)
        if len(pungs) == 4 and FOUR_KONGS not in fans and FOUR_CONCEALED_PUNGS not in fans:
            fans[ALL_PUNGS] = 1
    shape_fans(chows, pungs, pair, fans)
    if QUADRUPLE_CHOW not in fans and summary.fours > kongs:
        fans[TILE_HOG] = summary.fours - kongs
    if MELDED_HAND not in fans and FOUR_KONGS not in fans:
        fan = waiting_form_fan(concealed_chows, pair, win)
        if fan is not None and summary.unique_wait:
            fans[fan] = 1
    return _finish(fans, pungs, summary)


def shape_fans(chows: tuple[Code, ...], pungs: tuple[Code, ...], pair: Code, fans: Fans) -> None:
    """Add the fans of a reading's shape alone (sorted chow middles, sorted pung/kong tiles, pair): single pungs,
    chow and pung patterns, the pair's fans, 全带幺/全带五/全双刻. The chow and pung parts come from tables filled
    per chow or pung tuple, which repeat across hands far more often than whole shapes."""
    pung_items, pung_traits = PUNG_SHAPES[pungs]
    chow_items, chow_traits = CHOW_SHAPES[chows]
    fans.update(pung_items)
    terminal = terminal_chows_fan(chows, pair) if len(chows) == 4 else None
    if terminal is not None:
        fans[terminal] = 1
    else:
        fans.update(chow_items)
    _pair_fans(pair, len(chows), fans)
    trait = pack_trait_fan(chow_traits, pung_traits, pair)
    if trait is not None:
        fans[trait] = 1


@cache
def _concealment_fans(melded_count: int, self_drawn: bool) -> tuple[tuple[int, int], ...]:
    """门前清 / 不求人 with no exposed meld, 全求人 with four on a discard, 自摸 otherwise when self-drawn."""
    if melded_count == 0:
        return ((FULLY_CONCEALED_HAND if self_drawn else CONCEALED_HAND, 1),)
    if melded_count == 4 and not self_drawn:
        return ((MELDED_HAND, 1),)
    return ((SELF_DRAWN, 1),) if self_drawn else ()


def _pair_fans(pair: Code, chow_count: int, fans: Fans) -> None:
    """平和 (four chows, a suited pair); a dragon pair turns 双箭刻 into 小三元, a wind pair 三风刻 into 小四喜."""
    if chow_count == 4:
        if pair < 0x40:
            fans[ALL_CHOWS] = 1
    elif TWO_DRAGONS_PUNGS in fans:
        if pair >= 0x45:
            fans[LITTLE_THREE_DRAGONS] = 1
            del fans[TWO_DRAGONS_PUNGS]
    elif BIG_THREE_WINDS in fans and pair in WINDS:
        fans[LITTLE_FOUR_WINDS] = 1
        del fans[BIG_THREE_WINDS]


MeldFacts = tuple[Pack, tuple[Tile, ...], int]
"""A declared meld as the scorer reads it: its pack, its tiles, the bits of its kinds (``code_mask``)."""


@cache
def meld_facts(meld: Meld) -> MeldFacts:
    """The facts of a meld, once per distinct meld (a hand has few, and they repeat across hands)."""
    tiles = meld.tiles
    return pack_of_meld(meld), tiles, code_mask(frozenset(CODE_OF[tile] for tile in tiles))


@cache
def prime_tables() -> None:
    """Fill the tables a fresh process would otherwise fill hand by hand: the splits of the common group keys,
    the shapes of up to three chows or three pungs, the wait test's static tables. This moves the first-sight cost
    of a shape off the path of a declaration at the table (a hand then costs the same whether its shapes were met
    before or not). Built once (about 0.3 s) and kept on disk (``table_cache``), so a later process reads them in
    a few hundredths of a second; a file that is damaged, or older than this package's MCR code, is built again."""
    wait_tables()
    tables = (*_SPLITS, CHOW_SHAPES, PUNG_SHAPES)
    found = table_cache.cached("mcr-shapes", _SOURCES, _primed, lambda value: _primed_shape(value, len(tables)))
    for table, entries in zip(tables, found, strict=True):
        table.update(entries)


_SOURCES = (
    *sorted(str(path) for path in Path(__file__).parent.glob("*.py")),
    suit_tables.__file__,
    table_cache.__file__,
    tile_ids.__file__,
)
"""The modules whose code decides the primed tables (the cache's version): this package's, the suit tables', the
cache's own and the tile ids' (``codes`` maps them)."""


def _primed() -> tuple[dict, ...]:
    prime_splits()
    prime_chow_shapes()
    prime_pung_shapes()
    return tuple(dict(table) for table in (*_SPLITS, CHOW_SHAPES, PUNG_SHAPES))


def _primed_shape(value: object, size: int) -> bool:
    return isinstance(value, tuple) and len(value) == size and all(isinstance(table, dict) for table in value)


def hand_fans(
    hand: Hand, flags: WinFlags, winds: tuple[int, int], options: ScoringOptions
) -> tuple[tuple[int, int], ...] | None:
    """(fan, count) of the best reading of a complete hand (flowers not included), or None when it is no win.

    ``hand.standing`` and ``hand.win_tile`` are the concealed tiles; ``winds`` = (prevalent, seat), 0-3 = E S W N.
    The compiled engine (``engine/_mcr_native.c``) answers every form when it is built; what it declines (a hand
    with more readings than it keeps), and every hand without it, take the pure path below."""
    win_id = hand.win_tile
    assert win_id is not None
    if MCR_NATIVE is not None:
        answer = MCR_NATIVE.hand_fans(hand.standing, win_id, _packs(hand.melds), *flags, *winds, *options)
        if answer is not None:
            return answer or None
    return pure_hand_fans(hand, flags, winds, options)


@lru_cache(maxsize=4096)
def _packs(melds: tuple[Meld, ...]) -> tuple[Pack, ...]:
    """The melds as the compiled engine reads them. Bounded: the tuples of up to four melds are too many to keep
    every one a long replay meets (a single meld's facts, ``meld_facts``, are few and all kept)."""
    return tuple(meld_facts(meld)[0] for meld in melds)


def pure_hand_fans(
    hand: Hand, flags: WinFlags, winds: tuple[int, int], options: ScoringOptions
) -> tuple[tuple[int, int], ...] | None:
    """``hand_fans`` in Python, for every hand."""
    prime_tables()
    win_id = hand.win_tile
    assert win_id is not None
    counts = [0] * 34
    kinds = CODE_BIT[win_id]
    for tile in hand.standing:
        counts[tile] += 1
        kinds |= CODE_BIT[tile]
    counts[win_id] += 1
    summary = HandSummary(tuple(map(meld_facts, hand.melds)), counts, win_id, kinds, flags, winds, options)
    melds = summary.melds
    special = _special_fans(summary, counts, kinds, options) if len(melds) <= 1 else None
    if special is not None and SEVEN_PAIRS not in special:
        return tuple(special.items())
    best, best_total = special, total(special) if special else 0
    for chows, pungs, pair in readings(counts):
        fans = reading_fans(summary, chows, pungs, pair)
        points = total(fans)
        if points > best_total or (
            points == best_total
            and (fans.get(PURE_TRIPLE_CHOW) == 1 or TRIPLE_PUNG in fans or (special and SEVEN_PAIRS in special))
        ):
            best, best_total = fans, points
    return None if best is None else tuple(best.items())


def _special_fans(
    summary: HandSummary, counts: list[int], concealed_kinds: int, options: ScoringOptions
) -> Fans | None:
    """The special forms, in summerinsects' order: seven pairs, honors and knitted, thirteen orphans, knitted
    straight, nine gates (only the knitted straight admits an exposed meld). Each is tried only when the count
    vector allows it (all pairs, 13-14 kinds, 9 kinds, 14 tiles of one suit), so most hands try none."""
    win = summary.win_tile
    concealed = not summary.melds
    kinds_held = 34 - counts.count(0)
    if concealed:
        fans = None
        if 1 not in counts and 3 not in counts:
            fans = seven_pairs_family(_by_code(counts), win)
            if fans is not None and SEVEN_PAIRS in fans:
                fans.update(summary.tile_fans)
                hogs = counts.count(4)
                if hogs:
                    fans[TILE_HOG] = hogs
        if fans is None and kinds_held >= 13:
            codes = frozenset(_by_code(counts))
            fans = honors_and_knitted(codes) or thirteen_orphans(codes)
        if fans is not None:
            fans.update(summary.situation_fans)
            apply_exclusions(fans)
            return fans
    if kinds_held >= 9 and holds_knitted_straight(concealed_kinds):
        knitted = knitted_straight_fans(
            counts,
            tuple(pack for pack, _, _ in summary.melds),
            summary.held,
            win,
            summary.self_drawn,
            summary.waits_alone,
            options.knitted_body_waits,
        )
        if knitted is not None:
            fans, fourth = knitted
            fans.update(summary.situation_fans)
            return _finish(fans, (fourth.tile,) if fourth.kind != CHOW else (), summary)
    if concealed and win < 0x40 and counts[TILE_OF[win & 0xF0 | 1] : TILE_OF[win & 0xF0 | 1] + 9].count(0) == 0:
        fans = nine_gates(_by_code(counts), win)
        if fans is not None:
            fans.update(summary.situation_fans)
            apply_exclusions(fans)
            return fans
    return None


def _by_code(counts: list[int]) -> dict[Code, int]:
    """The concealed tiles as code → count (the special forms read them so)."""
    return {CODE_OF[tile]: n for tile, n in enumerate(counts) if n}
