"""The faces the camera reads, and how a table's ruleset turns one into its own tile.

A face is what a tile shows, an ``int`` like the engine's tiles:

=======  ===========  ==============================================================================
faces    codes        what
=======  ===========  ==============================================================================
0-41     1m ... 8f    the engine's tiles (``engine.tiles``): the same ids and codes
42-44    0m 0p 0s     riichi's red fives (赤ドラ): a five of each suit printed in red ink
45-47    10m 10p 10s  十万's ten-rank tiles: 十万, ten dots, ten bamboo
=======  ===========  ==============================================================================

Rules choice (not in the sources): the codes are unique to a face, so that a reading (``Prediction.code``, the JSON
of ``mjtable vision classify``, an enrolment label) names what the tile shows without a ruleset. A red five is
``0m`` as in riichi's notation; a ten is ``10m`` because 十万's own notation also writes its tens with rank 0 (``0m``
is 十万) and the two faces differ. A table maps a face to its ruleset's tile with ``table_tile``: the face's code in
the ruleset's notation (``ruleset_code``: a red five ``0m`` where the set marks its fives and ``5m`` where it does
not, a ten ``0m`` for 十万) read by the ruleset's own ``read_tiles``; a face outside the ruleset's set (a ten on a
riichi table, a dragon on a 十万 table, a flower on a 136-tile table) is no tile of that table (None).
``table_faces`` are the faces a ruleset's set shows, which restrict a model to that table
(``vision.classify.Model.only``), and ``face_of`` is the inverse of ``table_tile`` (what the simulated camera draws).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.errors import MjtableError, NotationError
from engine.tiles import NUM_TILE_IDS, Tile, make_tile, parse_tile, tile_code, tile_name_zh

if TYPE_CHECKING:
    from engine.rulesets.base import Ruleset

Face = int
SUITS = "mps"
RED_FIVES = (42, 43, 44)
"""The red 5m, 5p and 5s."""
TENS = (45, 46, 47)
"""十万's 10m, 10p and 10s."""
NUM_FACES = 48
FIVES = tuple(make_tile(suit, 5) for suit in SUITS)
"""The plain five of each suit, in the order of ``RED_FIVES``."""
CLASS_CODES = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "WD": "5z", "GD": "6z", "RD": "7z"}
CLASS_CODES |= {f"S{n}": f"{n}f" for n in range(1, 5)} | {f"F{n}": f"{n + 4}f" for n in range(1, 5)}
"""``vision/faces/CLASSES.csv`` codes that differ from the compact notation (seasons are 1f-4f, flowers 5f-8f)."""
_SUIT_ZH = {"m": "万", "p": "饼", "s": "条"}


def face_code(face: Face) -> str:
    """The face's code: the engine's for its tiles, ``0m`` for the red 5m, ``10m`` for 十万."""
    if face in RED_FIVES:
        return f"0{SUITS[face - RED_FIVES[0]]}"
    if face in TENS:
        return f"10{SUITS[face - TENS[0]]}"
    return tile_code(face)


def parse_face(code: str) -> Face:
    """A face from its code, a ``CLASSES.csv`` code (``RD``, ``F1``) or compact notation (``7z``, ``5f``);
    ``NotationError`` otherwise."""
    text = code.strip()
    if len(text) in (2, 3) and text[-1] in SUITS and text[:-1] in ("0", "10"):
        base = RED_FIVES if text[:-1] == "0" else TENS
        return base[SUITS.index(text[-1])]
    return parse_tile(CLASS_CODES.get(text, text))


def face_name_zh(face: Face) -> str:
    """赤五万, 十万, or the tile's Chinese name."""
    if face in RED_FIVES:
        return "赤五" + _SUIT_ZH[SUITS[face - RED_FIVES[0]]]
    if face in TENS:
        return "十" + _SUIT_ZH[SUITS[face - TENS[0]]]
    return tile_name_zh(face)


def plain(face: Face) -> Face:
    """The face a red five is a variant of (its five); any other face itself."""
    return FIVES[face - RED_FIVES[0]] if face in RED_FIVES else face


@dataclass(frozen=True)
class TableTile:
    """A face as a ruleset's tile: its id in the ruleset's tiles and whether it is a marked copy (a red five)."""

    tile: Tile
    marked: bool = False


def ruleset_code(face: Face, ruleset: Ruleset) -> str | None:
    """The face's code in the ruleset's notation, or None when its set has no such face at all (a ten on a
    nine-rank table). Whether the ruleset's set holds that tile is ``table_tile``'s check."""
    tile_set = ruleset.tile_set
    if face in TENS:
        return f"0{SUITS[face - TENS[0]]}" if tile_set.ranks == 10 else None
    if face in RED_FIVES:
        five = plain(face)
        return f"0{SUITS[face - RED_FIVES[0]]}" if five in tile_set.marked else tile_code(five)
    return tile_code(face) if 0 <= face < NUM_TILE_IDS else None


def table_tile(face: Face, ruleset: Ruleset) -> TableTile | None:
    """The ruleset's tile for a face the camera read, or None when that face is not in the ruleset's set. A red
    five is the marked copy where the set marks its fives, else a plain five (a set with red fives played without
    them); a plain five is never the marked copy."""
    code = ruleset_code(face, ruleset)
    if code is None:
        return None
    try:
        tiles = ruleset.read_tiles(code, "camera")
    except MjtableError:
        return None
    tile_set = ruleset.tile_set
    if len(tiles) != 1 or not 0 <= tiles[0] < len(tile_set.copies) or not tile_set.copies[tiles[0]]:
        return None
    return TableTile(tiles[0], face in RED_FIVES and plain(face) in tile_set.marked)


def table_faces(ruleset: Ruleset) -> list[Face]:
    """The faces a table of this ruleset shows: its set's tiles, with the red fives only where the set marks its
    fives (a model restricted to these never reads a red five on a table whose fives are all plain)."""
    out = []
    for face in range(NUM_FACES):
        if face in RED_FIVES and plain(face) not in ruleset.tile_set.marked:
            continue
        if table_tile(face, ruleset) is not None:
            out.append(face)
    return out


def face_of(tile: Tile, ruleset: Ruleset, marked: bool = False) -> Face:
    """The face a ruleset's tile shows (``marked``: its marked copy, a red five): what the simulated camera draws.
    ``ValueError`` for a tile that has no face."""
    code = ruleset.tile_code(tile)
    if ruleset.tile_set.ranks == 10 and code[0] == "0":
        return TENS[SUITS.index(code[1])]
    try:
        face = parse_tile(code)
    except NotationError:
        raise ValueError(f"tile {tile} ({code}) of ruleset {ruleset.id!r} has no face") from None
    if marked and face in FIVES and face in ruleset.tile_set.marked:
        return RED_FIVES[FIVES.index(face)]
    return face
