"""What the wildcard and Guangdong rulesets of wild.md (``hubei-laizi``, ``wuhan``, ``jipinghu``, ``tuidaohu``,
``harbin``) read from a declared hand and from a settle situation: the wildcard face of the hand and the natural
tiles beside it (wild.md §1), the declared melds by kind, and the claim answer. The contract's situation shapes
(seats, per-seat maps, tiles, claim and kong objects) are read by ``engine.rulesets.contract``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.analysis import ShapeRules, is_win_wild
from engine.errors import MissingSituation, RulesetError
from engine.notation import Hand, Meld, MeldKind
from engine.rulesets.base import WildcardRule
from engine.rulesets.contract import read_tile
from engine.tiles import NUM_KINDS, Tile, tile_code
from engine.tilesets import TileSet

STANDARD = ShapeRules(standard=True, seven_pairs=False, thirteen_orphans=False, honors_knitted=False)
SEVEN_PAIRS = ShapeRules(standard=False, seven_pairs=True, thirteen_orphans=False, honors_knitted=False)
"""Seven pairs, a natural four counting as two pairs (Hubei S002:41, 推倒胡 豪华七对)."""


def agreeing(extra: Mapping[str, Any], key: str, seat: int, derived: Any) -> None:
    """The winner's entry of a per-seat map, when given, must agree with what his melds show."""
    value = extra.get(key)
    if isinstance(value, Mapping) and str(seat) in value and value[str(seat)] != derived:
        raise RulesetError(
            f"situation field '{key}.{seat}': {value[str(seat)]!r} does not agree with the winner's melds ({derived!r})"
        )


def wildcard_faces(
    rule: WildcardRule, extra: Mapping[str, Any], tile_set: TileSet, key: str = "indicator"
) -> frozenset[Tile]:
    """The wild faces of the hand from the flipped indicator in ``extra[key]`` (wild.md §1 successor table)."""
    if key not in extra:
        raise MissingSituation(key, "the flipped indicator decides the wildcard")
    return rule.wildcards(read_tile(extra[key], key, tile_set))


def faces_text(faces: Iterable[Tile]) -> str | list[str]:
    """The answer's ``wildcard``: one tile code, or a list for 两头赖子."""
    codes = [tile_code(tile) for tile in sorted(faces)]
    return codes[0] if len(codes) == 1 else codes


@dataclass(frozen=True)
class WildSplit:
    """The standing tiles and the winning tile of a hand, wildcards taken out (wild.md W-1: each stands for any
    face); ``wilds`` counts them. ``hard`` is W-4's literal 硬: no wildcard tile at all, even read as itself."""

    natural: tuple[int, ...]
    wilds: int

    @property
    def hard(self) -> bool:
        return self.wilds == 0


def split_wild(hand: Hand, faces: frozenset[Tile], *, win_tile_wild: bool = True) -> WildSplit:
    """Natural counts and wildcards of the standing tiles + winning tile; ``win_tile_wild`` false reads the
    winning tile as its own face (a tile taken from a discard is never wild where wildcards cannot be claimed)."""
    counts = [0] * NUM_KINDS
    wilds = 0
    for index, tile in enumerate((*hand.standing, hand.win_tile)):
        is_win = index == len(hand.standing)
        if tile in faces and (win_tile_wild or not is_win):
            wilds += 1
        else:
            counts[tile] += 1  # type: ignore[index]
    return WildSplit(tuple(counts), wilds)


@dataclass(frozen=True)
class MeldFacts:
    """The declared melds by kind. ``open`` = 倒铺/开口: a chi, pon or kong on a discard (an added kong includes
    its pon); a concealed kong does not open (HB-7, WH-4)."""

    chows: int
    pungs: int
    exposed_kongs: int
    added_kongs: int
    concealed_kongs: int

    @property
    def kongs(self) -> int:
        return self.exposed_kongs + self.added_kongs + self.concealed_kongs

    @property
    def open_melds(self) -> int:
        """Chi, pon and exposed kongs; an added kong counts as its pon (WH-5)."""
        return self.chows + self.pungs + self.exposed_kongs + self.added_kongs

    @property
    def open(self) -> bool:
        return self.open_melds > 0


def meld_facts(melds: Iterable[Meld]) -> MeldFacts:
    melds = list(melds)
    kongs = [meld for meld in melds if meld.kind is MeldKind.KONG]
    return MeldFacts(
        chows=sum(meld.kind is MeldKind.CHOW for meld in melds),
        pungs=sum(meld.kind is MeldKind.PUNG for meld in melds),
        exposed_kongs=sum(not meld.is_concealed_kong and not meld.is_added_kong for meld in kongs),
        added_kongs=sum(meld.is_added_kong for meld in kongs),
        concealed_kongs=sum(meld.is_concealed_kong for meld in kongs),
    )


def meld_tiles(melds: Iterable[Meld]) -> list[Tile]:
    return [tile for meld in melds for tile in meld.tiles]


def claim_answer(reason: str | None) -> dict[str, Any]:
    """The ``claim_allowed`` answer: no verdict, no settlement, the reason when refused."""
    answer: dict[str, Any] = {"hu": None, "payments": None, "claim_allowed": reason is None}
    if reason is not None:
        answer["reason"] = reason
    return answer


def wild_quick_win(faces: frozenset[Tile], counts: list[int], offered: Tile | None, shapes: ShapeRules) -> bool:
    """The bots' cheap test for a wildcard ruleset: the wildcards among ``counts`` taken out and read as jokers;
    a wildcard on offer (a discard) is never won on."""
    if offered is not None and offered in faces:
        return False
    natural = list(counts)
    wilds = 0
    for face in faces:
        wilds += natural[face]
        natural[face] = 0
    return is_win_wild(natural, wilds, shapes)
