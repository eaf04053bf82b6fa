"""What the wildcard and Guangdong rulesets of wild.md (``hubei-laizi``, ``wuhan``, ``jipinghu``, ``tuidaohu``,
``harbin``) read from a declared hand and from a settle situation: the wildcard face of the hand and the natural
tiles beside it (wild.md §1), the declared melds by kind, per-seat situation maps, claim and kong objects.

One reader serves the settle contract and the referee: the referee writes the same situation keys
(``Ruleset.win_facts``) that ``mjtable settle`` receives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.analysis import ShapeRules, is_win_wild
from engine.errors import RulesetError
from engine.notation import Hand, Meld, MeldKind
from engine.rulesets.base import KongType, WildcardRule
from engine.rulesets.suited108 import read_seat
from engine.tiles import NUM_KINDS, Tile, parse_tiles, tile_code
from engine.tilesets import TileSet

SEATS = range(4)

STANDARD = ShapeRules(standard=True, seven_pairs=False, thirteen_orphans=False, honors_knitted=False)
SEVEN_PAIRS = ShapeRules(standard=False, seven_pairs=True, thirteen_orphans=False, honors_knitted=False)
"""Seven pairs, a natural four counting as two pairs (Hubei S002:41, 推倒胡 豪华七对)."""


def read_tile(value: Any, where: str, tile_set: TileSet) -> Tile:
    """One tile of ``tile_set`` written as the contract writes it (``"5m"``); the referee passes the same text."""
    try:
        tiles = parse_tiles(value) if isinstance(value, str) else []
    except ValueError:
        tiles = []
    if len(tiles) != 1 or not tile_set.copies[tiles[0]]:
        raise RulesetError(
            f"situation field {where!r}: expected one tile of the {tile_set.name}-tile set, found {value!r}"
        )
    return tiles[0]


def read_tiles(value: Any, where: str, tile_set: TileSet) -> list[Tile]:
    """A list of tiles (``["1m", "5z"]``) or one compact string (``"15m"``)."""
    items = value if isinstance(value, list) else [value]
    tiles: list[Tile] = []
    for item in items:
        try:
            tiles += parse_tiles(item) if isinstance(item, str) else [-1]
        except ValueError:
            tiles.append(-1)
    if any(tile < 0 or not tile_set.copies[tile] for tile in tiles):
        raise RulesetError(f'situation field {where!r}: expected tiles such as ["1m", "5z"], found {value!r}')
    return tiles


def seat_map(extra: Mapping[str, Any], key: str, kind: type, default: Any) -> dict[int, Any]:
    """A per-seat map keyed ``"0"``-``"3"`` of ``kind`` values (bool or a whole number ≥ 0); absent seats and an
    absent key take ``default``."""
    value = extra.get(key, {})
    if not isinstance(value, Mapping):
        raise RulesetError(f'situation field {key!r}: expected an object keyed "0"-"3", found {value!r}')
    found = dict.fromkeys(SEATS, default)
    for seat_key, item in value.items():
        if seat_key not in ("0", "1", "2", "3"):
            raise RulesetError(f'situation field {key!r}: expected seat keys "0"-"3", found {seat_key!r}')
        if type(item) is not kind or (kind is int and item < 0):
            expected = "true or false" if kind is bool else "a whole number 0 or more"
            raise RulesetError(f"situation field '{key}.{seat_key}': expected {expected}, found {item!r}")
        found[int(seat_key)] = item
    return found


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
        raise RulesetError(f"situation field {key!r} is missing: the flipped indicator decides the wildcard")
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


@dataclass(frozen=True)
class Claim:
    """The contract's claim object (README "claim"): ``type`` chi/pon/kan/hu on ``tile`` discarded by ``source``,
    with the claimant's own tiles ``using``."""

    seat: int
    type: str
    tile: Tile
    source: int
    using: tuple[Tile, ...]

    @classmethod
    def read(cls, data: Any, tile_set: TileSet) -> Claim:
        if not isinstance(data, Mapping):
            raise RulesetError("situation field 'claim': expected {seat, type, tile, from, using}")
        for key in ("seat", "type", "tile", "from"):
            if key not in data:
                raise RulesetError(f"situation field 'claim': the claim has no {key!r}")
        if data["type"] not in ("chi", "pon", "kan", "hu"):
            raise RulesetError(f"situation field 'claim.type': expected chi, pon, kan or hu, found {data['type']!r}")
        seat, source = read_seat(data["seat"], "claim.seat"), read_seat(data["from"], "claim.from")
        if seat == source:
            raise RulesetError("situation field 'claim.from': a player cannot claim his own discard")
        using = tuple(read_tiles(data.get("using", []), "claim.using", tile_set))
        return cls(seat, data["type"], read_tile(data["tile"], "claim.tile", tile_set), source, using)

    def shape_reason(self) -> str | None:
        """Why the claimed tile and ``using`` make no chow / pung / kong (``None`` when they do)."""
        tiles = sorted((self.tile, *self.using))
        if self.type == "chi":
            if self.seat != (self.source + 1) % 4:
                return "chi only from the 上家 (the seat before the claimant)"
            first = tiles[0]
            if len(tiles) != 3 or first >= 27 or tiles != [first, first + 1, first + 2] or first % 9 > 6:
                return "the claimed tile and 'using' are not a chow"
        elif self.type in ("pon", "kan"):
            size = 3 if self.type == "pon" else 4
            if len(tiles) != size or len(set(tiles)) != 1:
                return f"a {self.type} is {size} identical tiles: the claimed tile and 'using'"
        return None


def claim_answer(reason: str | None) -> dict[str, Any]:
    """The ``claim_allowed`` answer: no verdict, no settlement, the reason when refused."""
    answer: dict[str, Any] = {"hu": None, "payments": None, "claim_allowed": reason is None}
    if reason is not None:
        answer["reason"] = reason
    return answer


@dataclass(frozen=True)
class Kong:
    """The contract's kong object: ``seat`` made a kong of ``type`` on ``tile``; ``source`` = the discarder of an
    exposed kong."""

    seat: int
    type: KongType
    tile: Tile
    source: int | None = None

    @classmethod
    def read(cls, data: Any, where: str, tile_set: TileSet) -> Kong:
        if not isinstance(data, Mapping) or any(key not in data for key in ("seat", "type", "tile")):
            raise RulesetError(f"situation field {where!r}: expected a kong object {{seat, type, tile, from}}")
        try:
            kind = KongType(data["type"])
        except ValueError:
            raise RulesetError(
                f"situation field '{where}.type': expected exposed, added or concealed, found {data['type']!r}"
            ) from None
        seat = read_seat(data["seat"], f"{where}.seat")
        source = None
        if kind is KongType.EXPOSED:
            if "from" not in data:
                raise RulesetError(f"situation field {where!r}: an exposed kong names its discarder in 'from'")
            source = read_seat(data["from"], f"{where}.from")
            if source == seat:
                raise RulesetError(f"situation field '{where}.from': the konger cannot supply his own kong")
        return cls(seat, kind, read_tile(data["tile"], f"{where}.tile", tile_set), source)


def read_kongs(extra: Mapping[str, Any], tile_set: TileSet) -> list[Kong]:
    items = extra.get("kongs", [])
    if not isinstance(items, list):
        raise RulesetError(f"situation field 'kongs': expected a list of kong objects, found {items!r}")
    return [Kong.read(item, f"kongs[{index}]", tile_set) for index, item in enumerate(items)]


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
