"""组合龙 as a winning form: a knitted straight in the concealed tiles + one set + the pair (the set may be the one
exposed meld). Scored on its own, like summerinsects: the knitted tiles give no further tile fans."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.rulesets.mcr.codes import DRAGONS, KNITTED_STRAIGHTS, TERMINALS, TILE_OF, WINDS, Code
from engine.rulesets.mcr.divisions import readings
from engine.rulesets.mcr.fans import (
    ALL_CHOWS,
    ALL_TYPES,
    CONCEALED_HAND,
    CONCEALED_KONG,
    DRAGON_PUNG,
    FULLY_CONCEALED_HAND,
    KNITTED_STRAIGHT,
    MELDED_KONG,
    NO_HONORS,
    PUNG_OF_TERMINALS_OR_HONORS,
    TILE_HOG,
)
from engine.rulesets.mcr.packs import CHOW, KONG, PUNG, Pack
from engine.rulesets.mcr.traits import code_mask
from engine.rulesets.mcr.waiting import waiting_form_fan

Fans = dict[int, int]

_PATTERN_TILES = tuple(tuple(sorted(TILE_OF[code] for code in pattern)) for pattern in KNITTED_STRAIGHTS)
_PATTERN_MASKS = tuple(code_mask(pattern) for pattern in KNITTED_STRAIGHTS)


def holds_knitted_straight(kinds: int) -> bool:
    """Whether tiles of these kinds (``code_mask``) hold one of the six knitted straights: a few ANDs, so the
    form is looked for only in the hands that can have it."""
    return any(kinds & mask == mask for mask in _PATTERN_MASKS)


def knitted_straight_fans(
    counts: Sequence[int],
    fixed: Sequence[Pack],
    held: Sequence[int],
    win_tile: Code,
    self_drawn: bool,
    unique_wait: Callable[[list[int]], bool],
    body_waits: bool,
) -> tuple[Fans, Pack] | None:
    """The fans of the knitted-straight reading (situation and wind fans excluded) and its fourth set, or None.

    ``counts``: concealed tiles by ``engine.tiles`` id, winning tile included; ``held``: every tile of the hand
    by id; ``unique_wait(rest)``: whether the tiles beside the knitted straight, winning tile removed, wait on
    one tile. ``body_waits``: a winning tile inside the knitted straight may still score 边张/嵌张/单钓."""
    held_patterns = [index for index, tiles in enumerate(_PATTERN_TILES) if all(counts[tile] for tile in tiles)]
    if not held_patterns:
        return None
    pattern, tiles = KNITTED_STRAIGHTS[held_patterns[0]], _PATTERN_TILES[held_patterns[0]]
    rest = list(counts)
    for tile in tiles:
        rest[tile] -= 1
    found = readings(tuple(rest))
    if len(found) != 1:
        return None
    chows, pungs, pair = found[0]
    fourth = fixed[0] if fixed else Pack(CHOW, chows[0]) if chows else Pack(PUNG, pungs[0])
    fans: Fans = {KNITTED_STRAIGHT: 1}
    _fourth_set_fans(fourth, pair, held, fans)
    if fourth.melded:
        if fourth.kind == KONG:
            fans[MELDED_KONG] = 1
    else:
        if fourth.kind == KONG:
            fans[CONCEALED_KONG] = 1
        fans[FULLY_CONCEALED_HAND if self_drawn else CONCEALED_HAND] = 1
    win_id = TILE_OF[win_tile]
    if (body_waits or win_tile not in pattern) and rest[win_id] > 0:
        rest[win_id] -= 1
        if unique_wait(rest):
            fan = waiting_form_fan(chows, pair, win_tile)
            if fan is not None:
                fans[fan] = 1
    return fans, fourth


def _fourth_set_fans(fourth: Pack, pair: Code, held: Sequence[int], fans: Fans) -> None:
    """平和 / 四归一 / 幺九刻 / 箭刻 / 无字 / 五门齐 from the set beside the knitted straight and the pair."""
    if fourth.kind == CHOW:
        if pair < 0x40:
            fans[ALL_CHOWS] = 1
        if held[TILE_OF[pair]] == 4:
            fans[TILE_HOG] = 1
        return
    tile = fourth.tile
    if tile in WINDS:
        fans[PUNG_OF_TERMINALS_OR_HONORS] = 1
        if pair in DRAGONS:
            fans[ALL_TYPES] = 1
    elif tile in DRAGONS:
        fans[DRAGON_PUNG] = 1
        if pair in WINDS:
            fans[ALL_TYPES] = 1
    else:
        if tile in TERMINALS:
            fans[PUNG_OF_TERMINALS_OR_HONORS] = 1
        if pair < 0x40:
            fans[NO_HONORS] = 1
        if fourth.kind != KONG and held[TILE_OF[tile]] == 4:
            fans[TILE_HOG] = 1
