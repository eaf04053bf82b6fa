"""The camera's reader at a table: the faces it reads (``vision.kinds``: the engine's tiles, red fives, 十万's tens)
as the table's ruleset's tiles, so that the lookout, the tracker and the witness all work in the referee's tiles.

The model is restricted to the faces the ruleset's set shows (``Model.only``): a face of another set is never read
at the table. Each prediction's reading and ranked choices become the ruleset's tiles (``vision.kinds.table_tile``);
a red five is read as its five (the witness does not follow marked copies yet: ``people_can_play`` refuses a set
that marks them). For the standard sets a face is its tile already, and the reader reads as the model does.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from engine.rulesets.base import Ruleset
from vision.classify import Model, Prediction
from vision.kinds import NUM_FACES, Face, table_faces, table_tile


class TableReader:
    """``model`` reading ``ruleset``'s tiles (``read`` as ``vision.classify.Model.read``)."""

    def __init__(self, model: Model, ruleset: Ruleset) -> None:
        self.model = model.only(table_faces(ruleset))
        self.tiles: dict[Face, int] = {}
        """Each face's tile at this table, a red five its five where the set has no marked copy."""
        for face in range(NUM_FACES):
            tile = table_tile(face, ruleset)
            if tile is not None:
                self.tiles[face] = tile.tile

    def read(self, crops: list[np.ndarray]) -> list[tuple[Prediction, bool]]:
        return [(self._tiles_of(prediction), upside_down) for prediction, upside_down in self.model.read(crops)]

    def _tiles_of(self, prediction: Prediction) -> Prediction:
        """The prediction in the table's tiles: a face's tile, its choices' tiles (a tile named twice, a red five
        and its five, keeps its likelier reading)."""
        choices: dict[int, float] = {}
        for face, p in prediction.choices:
            if face in self.tiles:
                tile = self.tiles[face]
                choices[tile] = max(p, choices.get(tile, 0.0))
        ranked = tuple(sorted(choices.items(), key=lambda choice: -choice[1]))
        tile = None if prediction.tile is None else self.tiles.get(prediction.tile)
        return replace(prediction, tile=tile, choices=ranked)
