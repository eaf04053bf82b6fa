"""The 番型 of Guangdong 推倒胡 (wild.md §5.1, S003:61) and the best reading of a hand with 鬼牌 (W-2).

A hand's value is the sum of its 番型 (TD-3); which tile each 鬼牌 stands for changes which 番型 apply, so every
completion the wildcards allow (``engine.analysis.wild_assignments``) is read and the highest sum kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.analysis import ShapeRules, decompositions, is_win, wild_assignments
from engine.notation import Meld, MeldKind
from engine.rulesets.base import WinContext
from engine.tiles import DRAGONS, NUM_KINDS, TERMINALS, WINDS, Tile, is_honor

SHAPES = ShapeRules(standard=True, seven_pairs=True, thirteen_orphans=True, honors_knitted=False)

FANXING: dict[str, tuple[str, int]] = {
    "jihu": ("鸡胡", 2),
    "pengpenghu": ("碰碰胡", 8),
    "hunyise": ("混一色", 8),
    "qiangganghu": ("抢杠胡", 8),
    "gangshangkaihua": ("杠上开花", 8),
    "gangshangpao": ("杠上炮", 8),
    "haidilaoyue": ("海底捞月", 8),
    "qingyise": ("清一色", 16),
    "qidui": ("七对", 16),
    "haohua-qidui": ("豪华七对", 32),
    "hunyaojiu": ("混幺九", 32),
    "xiaosanyuan": ("小三元", 48),
    "xiaosixi": ("小四喜", 48),
    "ziyise": ("字一色", 64),
    "qingyaojiu": ("清幺九", 64),
    "tianhu": ("天胡", 64),
    "dihu": ("地胡", 64),
    "shisanyao": ("十三幺", 88),
    "dasanyuan": ("大三元", 88),
    "dasixi": ("大四喜", 88),
}
SITUATIONAL = frozenset({"qiangganghu", "gangshangkaihua", "gangshangpao", "haidilaoyue", "tianhu", "dihu"})
"""番型 of the moment, not of the tiles: a hand with none but these is still a 鸡胡 for the discard ban (TD-3)."""
EXCLUDES = {
    "hunyaojiu": {"pengpenghu"},
    "ziyise": {"pengpenghu"},
    "qingyaojiu": {"pengpenghu", "hunyaojiu"},
    "dasixi": {"pengpenghu"},
    "haohua-qidui": {"qidui"},
}
"""TD-4: exclusions exactly as listed (豪华七对 replaces 七对)."""
_YAOJIU = frozenset(TERMINALS) | frozenset(WINDS) | frozenset(DRAGONS)


def tile_kinds(counts: Sequence[int]) -> set[str]:
    """The colour 番型 of the 14 tiles (melds included), whatever their shape: 混一色, 清一色, 字一色 (S003:61:
    字一色 is "字牌的刻子、对子", so seven pairs of honours are one too)."""
    tiles = [tile for tile in range(NUM_KINDS) if counts[tile]]
    suits = {tile // 9 for tile in tiles if not is_honor(tile)}
    honors = any(is_honor(tile) for tile in tiles)
    kinds = set()
    if len(suits) == 1:
        kinds.add("hunyise" if honors else "qingyise")
    if not suits:
        kinds.add("ziyise")
    return kinds


def terminal_kinds(counts: Sequence[int]) -> set[str]:
    """混幺九 or 清幺九 of a 4 sets + pair reading (melds included). Both are hands of pungs and a pair (wild.md §5.1,
    S003:61: 混幺九 "不计碰碰胡", 清幺九 "组成的碰碰胡"), so they belong to the standard reading only: seven pairs of
    terminals and honours are 七对, and 十三幺 is 十三幺 alone. Terminals and honours cannot make a chow, so such a
    reading is all pungs. TD-4: 混幺九 needs both an honour and a terminal (honours alone are 字一色)."""
    tiles = [tile for tile in range(NUM_KINDS) if counts[tile]]
    if not all(tile in _YAOJIU for tile in tiles):
        return set()
    honors = any(is_honor(tile) for tile in tiles)
    suited = not all(is_honor(tile) for tile in tiles)
    if honors and suited:
        return {"hunyaojiu"}
    return {"qingyaojiu"} if suited else set()


def set_kinds(triplets: Iterable[Tile], chows: int, pair: Tile) -> set[str]:
    """The 番型 of a 4 sets + pair reading: 碰碰胡 and the dragon and wind sets."""
    triplets = list(triplets)
    kinds = set() if chows else {"pengpenghu"}
    dragons = sum(tile in DRAGONS for tile in triplets)
    winds = sum(tile in WINDS for tile in triplets)
    if dragons == 3:
        kinds.add("dasanyuan")
    elif dragons == 2 and pair in DRAGONS:
        kinds.add("xiaosanyuan")
    if winds == 4:
        kinds.add("dasixi")
    elif winds == 3 and pair in WINDS:
        kinds.add("xiaosixi")
    return kinds


def situation_kinds(ctx: WinContext, discarder_after_kong: bool) -> set[str]:
    kinds = set()
    if ctx.robbing_kong:
        kinds.add("qiangganghu")
    if ctx.self_drawn and ctx.after_kong:
        kinds.add("gangshangkaihua")
    if ctx.self_drawn and ctx.last_tile:
        kinds.add("haidilaoyue")
    if discarder_after_kong and not ctx.self_drawn and not ctx.robbing_kong:
        kinds.add("gangshangpao")
    if ctx.first_turn:
        kinds.add("tianhu" if ctx.winner == ctx.dealer and ctx.self_drawn else "dihu")
    return kinds


def reading_kinds(concealed: Sequence[int], melds: Sequence[Meld]) -> list[set[str]]:
    """The tile 番型 of every reading of a complete concealed count vector beside ``melds``."""
    counts = list(concealed)
    for meld in melds:
        for tile in meld.tiles:
            counts[tile] += 1
    colours = tile_kinds(counts)
    terminals = terminal_kinds(counts)
    melded = [meld.tile for meld in melds if meld.kind is not MeldKind.CHOW]
    meld_chows = sum(meld.kind is MeldKind.CHOW for meld in melds)
    found = []
    for split in decompositions(concealed, SHAPES):
        if split.form == "standard":
            triplets = melded + [tile for kind, tile in split.sets if kind == "pung"]
            chows = meld_chows + sum(kind == "chow" for kind, _ in split.sets)
            found.append(colours | terminals | set_kinds(triplets, chows, split.pair))  # type: ignore[arg-type]
        elif split.form == "seven_pairs":
            four = any(n == 4 for n in concealed)
            found.append(colours | {"haohua-qidui" if four else "qidui"})
        else:
            found.append(colours | {"shisanyao"})
    return found


def completions(natural: Sequence[int], wilds: int) -> list[list[int]]:
    """Complete concealed count vectors the 鬼牌 can make of the natural tiles (W-1), enough to find the best
    reading; none: no win."""
    if not wilds:
        return [list(natural)] if is_win(natural, SHAPES) else []
    found = []
    for faces in wild_assignments(natural, wilds, SHAPES, useful_faces(natural)):
        counts = list(natural)
        for tile in faces:
            counts[tile] += 1
        found.append(counts)
    return found


def useful_faces(natural: Sequence[int]) -> list[Tile]:
    """The faces a 鬼牌 needs to be tried as, for the best 番型 sum: a face that joins a natural tile in a set or
    pair (the tile itself or a suit neighbour within two ranks), and for sets and pairs of 鬼牌 alone every
    honour and the 1 and 9 of each suit: such a set is best a pung (no 番型 wants a chow), and a terminal or honour
    pung loses no 番型 that a middle one of the same suit keeps (幺九 only gain). 十三幺 needs only these faces."""
    useful = set(_YAOJIU)
    for tile in range(NUM_KINDS):
        if natural[tile]:
            if is_honor(tile):
                useful.add(tile)
            else:
                base = tile - tile % 9
                useful.update(range(max(base, tile - 2), min(base + 8, tile + 2) + 1))
    return sorted(useful)


def value(kinds: set[str]) -> int:
    """Σ 番型 after the exclusions; 鸡胡's 2 only when nothing else applies (TD-3)."""
    kept = set(kinds)
    for kind in kinds:
        kept -= EXCLUDES.get(kind, set())
    return sum(FANXING[kind][1] for kind in kept) if kept else FANXING["jihu"][1]


def final_kinds(kinds: set[str]) -> list[str]:
    kept = set(kinds)
    for kind in kinds:
        kept -= EXCLUDES.get(kind, set())
    return sorted(kept) or ["jihu"]


def best_kinds(natural: Sequence[int], wilds: int, melds: Sequence[Meld], situation: set[str]) -> list[str] | None:
    """The 番型 of the highest-valued reading (W-2), or ``None`` when the hand is no winning shape."""
    best: list[str] | None = None
    best_value = -1
    for counts in completions(natural, wilds):
        for kinds in reading_kinds(counts, melds):
            kinds |= situation
            if value(kinds) > best_value:
                best, best_value = final_kinds(kinds), value(kinds)
    return best
