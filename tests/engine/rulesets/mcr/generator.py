"""Seeded random MCR hands for the differential tests: winning hands of every form, and near misses.

Winning hands are built from their parts so that every form appears often: 4 sets + pair with 0-4 exposed melds
(chows, pungs, concealed / exposed / added kongs), seven pairs, thirteen orphans, 全不靠 and the knitted straight
(with 0 or 1 exposed meld). A theme biases some hands toward one suit, pungs or neighbouring chows, where most
fans live. Situation flags are drawn consistent with the tiles (杠上开花 only with a kong, 抢杠和 only on a tile
the hand does not hold, 和绝张 only on a tile held once).
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


def _pick_tile(rng: random.Random, suits: tuple[int, ...], honors: bool) -> int:
    pool = [base + r for base in suits for r in range(9)] + (list(HONORS) if honors else [])
    return rng.choice(pool)


def _random_set(rng: random.Random, suits: tuple[int, ...], honors: bool, pung_bias: float) -> tuple[int, ...]:
    tile = _pick_tile(rng, suits, honors)
    if tile < 27 and rng.random() > pung_bias:
        start = tile - tile % 9 + min(tile % 9, 6)
        return (start, start + 1, start + 2)
    return (tile,) * 3


def _meld(rng: random.Random, tiles: tuple[int, ...]) -> Meld:
    """An exposed meld for a set: a chow or pung with a random offer, a pung sometimes made a kong."""
    if tiles[0] != tiles[1]:
        return Meld(MeldKind.CHOW, tiles[0], rng.randint(1, 3))
    if rng.random() < 0.35:
        return Meld(MeldKind.KONG, tiles[0], rng.choice((None, None, 1, 2, 3, 5, 6, 7)))
    return Meld(MeldKind.PUNG, tiles[0], rng.randint(1, 3))


def _theme(rng: random.Random) -> tuple[tuple[int, ...], bool, float]:
    """(suits, honors allowed, pung bias) of one hand."""
    roll = rng.random()
    if roll < 0.25:
        return (rng.choice(SUITS),), rng.random() < 0.5, rng.random()
    if roll < 0.4:
        return tuple(rng.sample(SUITS, 2)), rng.random() < 0.5, rng.random()
    if roll < 0.5:
        return SUITS, True, 0.9
    return SUITS, True, rng.choice((0.2, 0.4, 0.6))


def _standard(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    suits, honors, pung_bias = _theme(rng)
    n_melds = rng.choice((0, 0, 0, 1, 1, 2, 2, 3, 4))
    counts = [0] * 34
    melds: list[Meld] = []
    concealed: list[int] = []
    for index in range(4):
        tiles = _random_set(rng, suits, honors, pung_bias)
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
    pair = (_pick_tile(rng, suits, honors),) * 2
    if not _fits(counts, pair):
        return None
    return melds, [*concealed, *pair]


def _special(rng: random.Random, kind: str) -> tuple[list[Meld], list[int]] | None:
    if kind == "seven_pairs":
        suits, honors, _ = _theme(rng)
        tiles = [_pick_tile(rng, suits, honors) for _ in range(7)]
        return [], [tile for tile in tiles for _ in (0, 1)]
    if kind == "thirteen_orphans":
        return [], [*THIRTEEN_ORPHANS, rng.choice(THIRTEEN_ORPHANS)]
    if kind == "honors_knitted":
        pool = list(rng.choice(KNITTED_PATTERNS)) + list(HONORS)
        return [], rng.sample(pool, 14)
    pattern = list(rng.choice(KNITTED_PATTERNS))
    extra = _random_set(rng, SUITS, True, 0.5)
    pair = [_pick_tile(rng, SUITS, True)] * 2
    if rng.random() < 0.3:
        meld = _meld(rng, extra)
        return [meld], [*pattern, *pair]
    return [], [*pattern, *extra, *pair]


KINDS = ("standard",) * 16 + ("seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")


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
