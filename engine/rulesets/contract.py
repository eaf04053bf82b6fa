"""Readers of the settle contract's situation shapes (shared/rules/regional/README.md): required keys, flags,
numbers, seats, per-seat maps, tiles, and the kong and claim objects.

One reader serves ``mjtable settle`` and the referee, which writes the same situation keys (``Ruleset.win_facts``).
Every error names the field and its path (``kongs[0].from``). It stands below the queries and ``Ruleset`` that
use it: of the interface it reads only its words (``engine.rulesets.terms``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import MissingSituation, SettleError, quoted
from engine.procedure.dice import check_seat
from engine.rulesets.terms import KongType
from engine.settlement import Amount, exact
from engine.tiles import SUITS, Tile, parse_tiles
from engine.tilesets import TileSet

SEAT_KEYS = ("0", "1", "2", "3")
"""How the contract writes a seat as an object key."""

# --- keys and scalars ---------------------------------------------------------------------------------------


def require(situation: Mapping[str, Any], key: str) -> Any:
    """A situation key the query cannot do without."""
    if key not in situation:
        raise MissingSituation(key)
    return situation[key]


def boolean(situation: Mapping[str, Any], key: str, default: bool = False) -> bool:
    """An optional true/false key; absent = ``default``."""
    value = situation.get(key, default)
    if type(value) is not bool:
        raise SettleError(f"situation field {key!r}: expected true or false, found {quoted(value)}")
    return value


def whole_number(situation: Mapping[str, Any], key: str, default: int | None, least: int = 0) -> int | None:
    """An optional whole number ≥ ``least``; absent or null = ``default``."""
    value = situation.get(key)
    if value is None:
        return default
    if type(value) is not int or value < least:
        raise SettleError(f"situation field {key!r}: expected a whole number {least} or more, found {quoted(value)}")
    return value


def number(situation: Mapping[str, Any], key: str, default: float) -> float:
    value = situation.get(key, default)
    if type(value) not in (int, float):
        raise SettleError(f"situation field {key!r}: expected a number, found {quoted(value)}")
    return value


# --- seats --------------------------------------------------------------------------------------------------


def read_seat(value: Any, where: str) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise SettleError(f"situation field {where!r}: expected a seat 0-3, found {quoted(value)}")
    return value


def optional_seat(situation: Mapping[str, Any], key: str) -> int | None:
    value = situation.get(key)
    return None if value is None else read_seat(value, key)


def contract_seats(value: Any, key: str) -> tuple[int, ...]:
    """A list of seats (``winners``, ``tenpai``)."""
    if not isinstance(value, list):
        raise SettleError(f"situation field {key!r}: expected a list of seats, found {quoted(value)}")
    return tuple(check_seat(seat, key) for seat in value)


SEAT_COUNT_MAX = 4
"""The most a per-seat count can be: each counts the melds of a hand (four at most) or the copies of one face
(four). Unbounded, a count fed ``2**n`` doublings (``{"2": 10**18}`` took 17 s and 1.5 GB, then MemoryError)."""


def seat_map(situation: Mapping[str, Any], key: str, kind: type, default: Any) -> dict[int, Any]:
    """A per-seat map keyed ``"0"``-``"3"`` of ``kind`` values (bool or a whole number 0-``SEAT_COUNT_MAX``);
    absent seats and an absent key take ``default``."""
    value = situation.get(key, {})
    if not isinstance(value, Mapping):
        raise SettleError(f'situation field {key!r}: expected an object keyed "0"-"3", found {quoted(value)}')
    found = dict.fromkeys(range(4), default)
    for seat_key, item in value.items():
        if seat_key not in SEAT_KEYS:
            raise SettleError(f'situation field {key!r}: expected seat keys "0"-"3", found {seat_key!r}')
        if type(item) is not kind or (kind is int and not 0 <= item <= SEAT_COUNT_MAX):
            expected = "true or false" if kind is bool else f"a whole number 0-{SEAT_COUNT_MAX}"
            raise SettleError(f"situation field '{key}.{seat_key}': expected {expected}, found {item!r}")
        found[int(seat_key)] = item
    return found


def _amounts(value: Any, where: str) -> dict[int, Amount]:
    """The amounts of the seats a map names (a kong's ``paid_by``)."""
    if not isinstance(value, Mapping):
        raise SettleError(f'situation field {where!r}: expected an object keyed "0"-"3", found {quoted(value)}')
    amounts: dict[int, Amount] = {}
    for key, amount in value.items():
        if key not in SEAT_KEYS or isinstance(amount, bool) or not isinstance(amount, int | float):
            raise SettleError(f'situation field {where!r}: expected seat keys "0"-"3" with amounts, found {key!r}')
        amounts[int(key)] = exact(amount)
    return amounts


# --- tiles --------------------------------------------------------------------------------------------------


def read_suit(value: Any, where: str) -> str:
    """A declared suit (定缺): ``"m"``, ``"p"`` or ``"s"``."""
    if not isinstance(value, str) or value not in SUITS[:3] or len(value) != 1:
        raise SettleError(f'situation field {where!r}: expected a suit "m", "p" or "s", found {quoted(value)}')
    return value


def read_tile(value: Any, where: str, tile_set: TileSet) -> Tile:
    """One tile of ``tile_set`` written as the contract writes it (``"5m"``)."""
    try:
        tiles = parse_tiles(value) if isinstance(value, str) else []
    except ValueError:
        tiles = []
    if len(tiles) != 1 or not tile_set.copies[tiles[0]]:
        raise SettleError(
            f"situation field {where!r}: expected one tile of the {tile_set.name}-tile set, found {quoted(value)}"
        )
    return tiles[0]


def read_tiles(value: Any, where: str, tile_set: TileSet) -> list[Tile]:
    """A list of tiles (``["1m", "5z"]``) or one compact string (``"15m"``), each of ``tile_set``."""
    items = value if isinstance(value, list) else [value]
    tiles: list[Tile] = []
    for item in items:
        try:
            tiles += parse_tiles(item) if isinstance(item, str) else [-1]
        except ValueError:
            tiles.append(-1)
    if any(tile < 0 or not tile_set.copies[tile] for tile in tiles):
        raise SettleError(f'situation field {where!r}: expected tiles such as ["1m", "5z"], found {quoted(value)}')
    return tiles


def tile_kinds(situation: Mapping[str, Any], key: str) -> frozenset[Tile]:
    """A list of faces in compact notation (``["5z"]`` or ``["5z", "1m"]``); absent = none."""
    value = situation.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise SettleError(f'situation field {key!r}: expected a list of tiles such as ["5z"], found {quoted(value)}')
    try:
        return frozenset(tile for item in value for tile in parse_tiles(item))
    except ValueError as error:
        raise SettleError(f"situation field {key!r}: {error}") from None


# --- kong and claim objects ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kong:
    """One kong as the contract describes it (README "kong object"): ``seat`` made a kong of ``type`` on
    ``tile``."""

    seat: int
    type: KongType
    tile: Tile
    supplier: int | None = None
    """``from``: the discarder of an exposed kong (直杠 / 点豆); ``None`` for an added or concealed kong."""
    paid_by: Mapping[int, Amount] = field(default_factory=dict)
    """What each player already paid the konger for it (Sichuan 刮风下雨)."""
    just_made: bool = False
    """Made right before the winning discard (杠上炮 / 热炮)."""

    @classmethod
    def read(cls, data: Any, where: str, tile_set: TileSet) -> Kong:
        if not isinstance(data, Mapping):
            raise SettleError(f"situation field {where!r}: expected a kong object {{seat, type, tile, ...}}")
        for key in ("seat", "type", "tile"):
            if key not in data:
                raise SettleError(f"situation field {where!r}: the kong has no {key!r}")
        try:
            kind = KongType(data["type"])
        except ValueError:
            raise SettleError(
                f"situation field '{where}.type': expected exposed, added or concealed, found {data['type']!r}"
            ) from None
        seat = read_seat(data["seat"], f"{where}.seat")
        supplier = data.get("from")
        if kind is KongType.EXPOSED:
            if supplier is None:
                raise SettleError(f"situation field {where!r}: an exposed kong names the discarder in 'from'")
            if read_seat(supplier, f"{where}.from") == seat:
                raise SettleError(f"situation field '{where}.from': the konger cannot supply his own kong")
        just_made = data.get("just_made", False)
        if type(just_made) is not bool:
            raise SettleError(f"situation field '{where}.just_made': expected true or false, found {just_made!r}")
        return cls(
            seat,
            kind,
            read_tile(data["tile"], f"{where}.tile", tile_set),
            supplier if kind is KongType.EXPOSED else None,
            _amounts(data.get("paid_by", {}), f"{where}.paid_by"),
            just_made,
        )

    def payers(self, players_out: Collection[int] = ()) -> list[int]:
        """Who pays a kong's money: the supplier of an exposed kong, every other seat for an added or concealed
        one (108.md SC-10 / GZ-6, wild.md §5.1); players already out pay nothing."""
        seats = [self.supplier] if self.supplier is not None else [seat for seat in range(4) if seat != self.seat]
        return [seat for seat in seats if seat not in players_out]

    def same_declaration(self, other: Kong | None) -> bool:
        """The same kong made (seat, type, tile, supplier), whatever was paid for it since."""
        return other is not None and (self.seat, self.type, self.tile, self.supplier) == (
            other.seat,
            other.type,
            other.tile,
            other.supplier,
        )


def read_kongs(situation: Mapping[str, Any], tile_set: TileSet) -> list[Kong]:
    """``situation.kongs``: the kongs made in the hand (may be empty)."""
    items = situation.get("kongs", [])
    if not isinstance(items, list):
        raise SettleError(f"situation field 'kongs': expected a list of kong objects, found {items!r}")
    return [Kong.read(item, f"kongs[{index}]", tile_set) for index, item in enumerate(items)]


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
            raise SettleError("situation field 'claim': expected {seat, type, tile, from, using}")
        for key in ("seat", "type", "tile", "from"):
            if key not in data:
                raise SettleError(f"situation field 'claim': the claim has no {key!r}")
        if data["type"] not in ("chi", "pon", "kan", "hu"):
            raise SettleError(f"situation field 'claim.type': expected chi, pon, kan or hu, found {data['type']!r}")
        seat, source = read_seat(data["seat"], "claim.seat"), read_seat(data["from"], "claim.from")
        if seat == source:
            raise SettleError("situation field 'claim.from': a player cannot claim his own discard")
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
