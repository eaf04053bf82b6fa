"""The camera's reader at a table: the faces it reads (``vision.kinds``: the engine's tiles, red fives, 十万's tens)
as the table's ruleset's tiles, so that the lookout, the tracker and the witness all work in the referee's tiles.

The model is restricted to the faces the ruleset's set shows (``Model.only``): a face of another set is never read
at the table. Each prediction's reading and ranked choices become the ruleset's tiles (``vision.kinds.table_tile``),
except a marked copy (a red five where the set marks its fives), which keeps its face (``RED_FIVES``: ids past the
engine's tiles) so that the tracker follows it as the tile it is; the lookout splits it into its tile and the mark
(``split``) where it makes a sight. Where the set does not mark its fives a red five is read as its five. For the
standard sets a face is its tile already, and the reader reads as the model does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from engine.rulesets.base import Ruleset
from engine.tiles import Tile
from vision.classify import Model, Prediction
from vision.kinds import NUM_FACES, RED_FIVES, Face, plain, table_faces, table_tile

Reading = int
"""What the table's reader reads: a ruleset's tile, or a red five's face for a marked copy."""


def likeliest(readings: Iterable[tuple[int, float]]) -> dict[int, float]:
    """Ranked readings with each one named once, at its likelier probability (a red five and its five read as one
    tile), in the order first named."""
    merged: dict[int, float] = {}
    for reading, p in readings:
        merged[reading] = max(p, merged.get(reading, 0.0))
    return merged


def split(reading: Reading) -> tuple[Tile, bool]:
    """A reading as the ruleset's tile and whether it is the marked copy."""
    return (plain(reading), True) if reading in RED_FIVES else (reading, False)


class TableReader:
    """``model`` reading ``ruleset``'s tiles (``read`` as ``vision.classify.Model.read``)."""

    def __init__(self, model: Model, ruleset: Ruleset) -> None:
        self.model = model.only(table_faces(ruleset))
        self.tiles: dict[Face, Reading] = {}
        """Each face's reading at this table: its tile, a red five its face where the set marks it (else its five)."""
        for face in range(NUM_FACES):
            tile = table_tile(face, ruleset)
            if tile is not None:
                self.tiles[face] = face if tile.marked else tile.tile

    def read(self, crops: list[np.ndarray]) -> list[tuple[Prediction, bool]]:
        return [(self._tiles_of(prediction), upside_down) for prediction, upside_down in self.model.read(crops)]

    def _tiles_of(self, prediction: Prediction) -> Prediction:
        """The prediction in the table's readings: a face's reading, its choices' (a reading named twice, a red
        five and its five where the set does not mark it, keeps its likelier probability)."""
        choices = likeliest((self.tiles[face], p) for face, p in prediction.choices if face in self.tiles)
        ranked = tuple(sorted(choices.items(), key=lambda choice: -choice[1]))
        tile = None if prediction.tile is None else self.tiles.get(prediction.tile)
        return replace(prediction, tile=tile, choices=ranked)
