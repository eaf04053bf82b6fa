"""The settle contract's meld notation (shared/rules/regional/README.md): ``chi:345s:from=left``,
``pon:777p:from=right``, ``kan:2222m:from=opposite``, ``kan:2222m:concealed``, ``kakan:5555s:from=left``.

Melds become ``engine.notation.Meld`` with the MCR ``offer`` numbers the scorers already read: 1 上家 (left),
2 对家 (opposite), 3 下家 (right); an added kong is 4 + the seat its pung came from; a concealed kong has none.
A chow claimed from the left keeps ``offer`` unknown (the contract does not say which of its tiles was taken).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.errors import NotationError, SettleError, quoted
from engine.notation import Meld, MeldKind
from engine.tiles import Tile, format_tiles, is_suited, rank_of

FROM_OFFER = {"left": 1, "opposite": 2, "right": 3}
"""``from=`` of the contract → the relative supplier of ``Meld.offer``."""

_KINDS = {"chi": MeldKind.CHOW, "pon": MeldKind.PUNG, "kan": MeldKind.KONG, "kakan": MeldKind.KONG}
_SIZES = {"chi": 3, "pon": 3, "kan": 4, "kakan": 4}


def _where(where: str, index: int, text: str) -> str:
    return f"{where}[{index}] {quoted(text)}"


def _origin(kind: str, origin: str, place: str) -> int | None:
    if kind == "kan" and origin == "concealed":
        return None
    key, _, value = origin.partition("=")
    if key != "from" or value not in FROM_OFFER:
        expected = "'concealed' or 'from=left|right|opposite'" if kind == "kan" else "'from=left|right|opposite'"
        raise SettleError(f"{place}: expected {expected} after the tiles, found {origin!r}")
    if kind == "chi" and value != "left":
        raise SettleError(f"{place}: a chow can only be claimed from the left (上家), found from={value}")
    offer = FROM_OFFER[value]
    if kind == "chi":
        return None
    return offer + 4 if kind == "kakan" else offer


def read_meld(text: str, read_tiles: Callable[[str], Sequence[Tile]], place: str) -> Meld:
    """One meld; ``read_tiles`` is the ruleset's tile reader, ``place`` names the meld in errors."""
    parts = text.split(":")
    if len(parts) != 3 or parts[0] not in _KINDS:
        raise SettleError(f"{place}: expected kind:tiles:origin with kind chi, pon, kan or kakan")
    kind, tiles_text, origin = parts
    try:
        tiles = sorted(read_tiles(tiles_text))
    except NotationError as error:
        raise SettleError(f"{place}: {error}") from None
    if len(tiles) != _SIZES[kind]:
        raise SettleError(f"{place}: a {kind} has {_SIZES[kind]} tiles, found {len(tiles)}")
    if kind == "chi":
        first = tiles[0]
        if not (is_suited(first) and tiles == [first, first + 1, first + 2] and rank_of(first) <= 7):
            raise SettleError(f"{place}: a chow is three consecutive tiles of one suit")
    elif len(set(tiles)) != 1:
        raise SettleError(f"{place}: a {kind} is {_SIZES[kind]} identical tiles")
    return Meld(_KINDS[kind], tiles[0], _origin(kind, origin, place))


def read_melds(items: object, read_tiles: Callable[[str], Sequence[Tile]], where: str = "melds") -> tuple[Meld, ...]:
    if not isinstance(items, list):
        raise SettleError(f"{where}: expected a list of meld strings, found {items!r}")
    melds = []
    for index, item in enumerate(items):
        if not isinstance(item, str):
            raise SettleError(f"{where}[{index}]: expected a meld string such as 'pon:777p:from=left'")
        melds.append(read_meld(item, read_tiles, _where(where, index, item)))
    return tuple(melds)


_ORIGIN_NAMES = {offer: name for name, offer in FROM_OFFER.items()}


def contract_meld(meld: Meld) -> str:
    """A meld in the contract's notation, the inverse of ``read_meld`` (the referee describes seats with it)."""
    tiles = format_tiles(meld.tiles)
    if meld.kind is MeldKind.CHOW:
        return f"chi:{tiles}:from=left"
    if meld.offer is None:
        return f"kan:{tiles}:concealed"
    if meld.kind is MeldKind.KONG and meld.offer >= 5:
        return f"kakan:{tiles}:from={_ORIGIN_NAMES[meld.offer - 4]}"
    kind = "kan" if meld.kind is MeldKind.KONG else "pon"
    return f"{kind}:{tiles}:from={_ORIGIN_NAMES[meld.offer]}"
