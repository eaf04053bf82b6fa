"""Seeded random MCR hands for the differential tests: winning hands of every form, and near misses.

Winning hands are built from their parts so that every form appears often: 4 sets + pair with 0-4 exposed melds
(chows, pungs, concealed / exposed / added kongs), seven pairs, thirteen orphans, 全不靠 and the knitted straight
(with 0 or 1 exposed meld). A tile pool biases some hands toward one or two suits, pungs or the tiles of a
whole-hand fan, where most fans live, and a few hands come from templates of the rarest shapes (nine gates,
terminal chows, seven shifted pairs). Situation flags are drawn consistent with the tiles (杠上开花 only with
a kong, 抢杠和 only on a tile the hand does not hold, 和绝张 only on a tile held once).
"""

from __future__ import annotations

import random

from engine.analysis.shapes import HONORS, KNITTED_PATTERNS, THIRTEEN_ORPHANS
from engine.notation import Hand, Meld, MeldKind, Situation

SUITS = (0, 9, 18)


def _fits(counts: list[int], tiles: tuple[int, ...] | list[int]) -> bool:
    need: dict[int, int] = {}
    for tile in tiles:
        need[tile] = need.get(tile, 0) + 1
    return all(counts[tile] + n <= 4 for tile, n in need.items())


def _take(counts: list[int], tiles: tuple[int, ...] | list[int]) -> None:
    for tile in tiles:
        counts[tile] += 1


ALL_SETS: tuple[tuple[int, ...], ...] = tuple((tile,) * 3 for tile in range(34)) + tuple(
    (tile, tile + 1, tile + 2) for tile in range(27) if tile % 9 <= 6
)
SUITED = tuple(range(27))
_RANKS = {
    name: tuple(base + r - 1 for base in SUITS for r in ranks)
    for name, ranks in (
        ("terminals", (1, 9)),
        ("low", (1, 2, 3, 4)),
        ("high", (6, 7, 8, 9)),
        ("middle", (4, 5, 6)),
        ("even", (2, 4, 6, 8)),
    )
}
POOLS: tuple[tuple[int, ...], ...] = (
    _RANKS["terminals"],
    _RANKS["terminals"] + HONORS,
    _RANKS["low"],
    _RANKS["high"],
    _RANKS["middle"],
    _RANKS["even"],
    HONORS,
    (19, 20, 21, 23, 25, 32),  # 23468s + 发: all green
    (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31),  # reversible tiles
)
"""Tile pools of the rarer whole-hand fans (terminals, rank ranges, even pungs, honors, green, reversible)."""


def _pool(rng: random.Random) -> tuple[tuple[int, ...], float]:
    """(allowed tiles, pung bias) of one hand: mostly every tile, sometimes one or two suits or a rare pool."""
    roll = rng.random()
    if roll < 0.2:
        suit = rng.choice(SUITS)
        return tuple(range(suit, suit + 9)) + (HONORS if rng.random() < 0.5 else ()), rng.random()
    if roll < 0.3:
        first, second = rng.sample(SUITS, 2)
        return tuple(range(first, first + 9)) + tuple(range(second, second + 9)), rng.random()
    if roll < 0.4:
        return rng.choice(POOLS), rng.random()
    if roll < 0.5:
        return SUITED + HONORS, 0.9
    return SUITED + HONORS, rng.choice((0.2, 0.4, 0.6))


def _random_set(rng: random.Random, pool: tuple[int, ...], pung_bias: float) -> tuple[int, ...]:
    allowed = set(pool)
    chows = [tiles for tiles in ALL_SETS if tiles[0] != tiles[1] and allowed.issuperset(tiles)]
    if chows and rng.random() > pung_bias:
        return rng.choice(chows)
    return (rng.choice(pool),) * 3


def _meld(rng: random.Random, tiles: tuple[int, ...]) -> Meld:
    """An exposed meld for a set: a chow or pung with a random offer, a pung sometimes made a kong."""
    if tiles[0] != tiles[1]:
        return Meld(MeldKind.CHOW, tiles[0], rng.randint(1, 3))
    if rng.random() < 0.35:
        return Meld(MeldKind.KONG, tiles[0], rng.choice((None, None, 1, 2, 3, 5, 6, 7)))
    return Meld(MeldKind.PUNG, tiles[0], rng.randint(1, 3))


def _standard(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    pool, pung_bias = _pool(rng)
    n_melds = rng.choice((0, 0, 0, 1, 1, 2, 2, 3, 4))
    counts = [0] * 34
    melds: list[Meld] = []
    concealed: list[int] = []
    for index in range(4):
        tiles = _random_set(rng, pool, pung_bias)
        meld = _meld(rng, tiles) if index < n_melds else None
        if meld is not None and meld.kind is MeldKind.KONG:
            tiles = (tiles[0],) * 4
        if not _fits(counts, tiles):
            return None
        _take(counts, tiles)
        if meld is None:
            concealed.extend(tiles)
        else:
            melds.append(meld)
    pair = (rng.choice(pool),) * 2
    if not _fits(counts, pair):
        return None
    return melds, [*concealed, *pair]


def _template(rng: random.Random) -> list[int]:
    """Concealed hands of the rarest shapes: nine gates, terminal chows, seven shifted pairs."""
    suit = rng.choice(SUITS)
    roll = rng.random()
    if roll < 0.4:
        return [suit + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + [suit + rng.randrange(9)]
    if roll < 0.7:
        start = rng.randrange(3)
        return [suit + start + r for r in range(7) for _ in (0, 1)]
    others = [base for base in SUITS if base != suit]
    if rng.random() < 0.5:
        starts = [others[0], others[0] + 6, others[1], others[1] + 6]  # 三色双龙会
    else:
        starts = [suit, suit, suit + 6, suit + 6]  # 一色双龙会
    return [start + r for start in starts for r in range(3)] + [suit + 4] * 2


def _special(rng: random.Random, kind: str) -> tuple[list[Meld], list[int]] | None:
    if kind == "seven_pairs":
        pool, _ = _pool(rng)
        return [], [tile for tile in rng.choices(pool, k=7) for _ in (0, 1)]
    if kind == "template":
        return [], _template(rng)
    if kind == "thirteen_orphans":
        return [], [*THIRTEEN_ORPHANS, rng.choice(THIRTEEN_ORPHANS)]
    if kind == "honors_knitted":
        pool = list(rng.choice(KNITTED_PATTERNS)) + list(HONORS)
        return [], rng.sample(pool, 14)
    pattern = list(rng.choice(KNITTED_PATTERNS))
    extra = _random_set(rng, SUITED + HONORS, 0.5)
    pair = [rng.choice(SUITED + HONORS)] * 2
    if rng.random() < 0.3:
        meld = _meld(rng, extra)
        return [meld], [*pattern, *pair]
    return [], [*pattern, *extra, *pair]


KINDS = (
    ("standard",) * 32
    + ("seven_pairs", "seven_pairs", "thirteen_orphans", "honors_knitted") * 2
    + (
        "knitted_straight",
        "knitted_straight",
        "template",
    )
)


def random_winning_hand(rng: random.Random) -> Hand:
    """A complete hand (14-3k concealed tiles, the last drawn being the winning tile) with a consistent situation."""
    while True:
        kind = rng.choice(KINDS)
        built = _standard(rng) if kind == "standard" else _special(rng, kind)
        if built is None:
            continue
        melds, concealed = built
        counts = [0] * 34
        for meld in melds:
            _take(counts, meld.tiles)
        if not _fits(counts, concealed):
            continue
        rng.shuffle(concealed)
        return _with_situation(rng, melds, concealed)


def _with_situation(rng: random.Random, melds: list[Meld], concealed: list[int]) -> Hand:
    win = concealed[-1]
    standing = tuple(sorted(concealed[:-1]))
    in_melds = sum(meld.tiles.count(win) for meld in melds)
    held = standing.count(win) + 1
    self_drawn = rng.random() < 0.4
    roll = rng.random()
    wall_last = roll < 0.1
    kong = False
    if 0.1 <= roll < 0.2:
        kong = any(meld.kind is MeldKind.KONG for meld in melds) if self_drawn else held == 1 and in_melds == 0
    fourth = held == 1 and rng.random() < 0.15 and not (kong and not self_drawn)
    situation = Situation(rng.randint(0, 3), rng.randint(0, 3), self_drawn, fourth, wall_last, kong)
    flowers = rng.choice((0, 0, 0, 1, 2, 3, 8))
    return Hand(tuple(melds), standing, win, situation, flowers)


def near_miss(rng: random.Random) -> Hand:
    """A winning hand with one concealed tile changed: almost always no win."""
    hand = random_winning_hand(rng)
    standing = list(hand.standing)
    index = rng.randrange(len(standing))
    standing[index] = rng.randrange(34)
    tiles = [tile for meld in hand.melds for tile in meld.tiles] + standing + [hand.win_tile]
    if max(tiles.count(tile) for tile in set(tiles)) > 4:
        return near_miss(rng)
    return Hand(hand.melds, tuple(sorted(standing)), hand.win_tile, hand.situation, hand.flowers)
