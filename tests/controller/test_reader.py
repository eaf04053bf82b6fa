"""The camera's reader at a table (``controller.people.reader``): faces read as the ruleset's tiles."""

from __future__ import annotations

import numpy as np

from controller.people.reader import TableReader
from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tile
from vision.classify import Prediction
from vision.kinds import RED_FIVES, TENS


class Faces:
    """A model that answers the predictions it is given (``only`` keeps it as it is)."""

    def __init__(self, predictions: list[Prediction]) -> None:
        self.predictions = predictions

    def only(self, faces: list[int]) -> Faces:
        self.faces = faces
        return self

    def read(self, crops: list) -> list[tuple[Prediction, bool]]:
        return [(prediction, False) for prediction in self.predictions]


def test_a_ten_is_shiwans_ten_and_a_face_of_another_set_is_dropped_from_the_choices():
    shiwan = get_ruleset("shiwan")
    ten = Prediction(TENS[0], 0.9, 0.8, ((TENS[0], 0.9), (parse_tile("7z"), 0.06), (parse_tile("9m"), 0.04)))
    model = Faces([ten])
    reader = TableReader(model, shiwan)  # type: ignore[arg-type]
    assert TENS[0] in model.faces and parse_tile("7z") not in model.faces  # no dragons in 十万
    ((read, _),) = reader.read([np.zeros((40, 32))])
    tenth, ninth = shiwan.read_tiles("0m9m", "test")
    assert read.tile == tenth and read.choices == ((tenth, 0.9), (ninth, 0.04))


def test_at_a_standard_table_a_face_is_its_tile_and_a_red_five_its_five():
    mcr = get_ruleset("mcr")
    five = parse_tile("5p")
    red = Prediction(RED_FIVES[1], 0.7, 0.8, ((RED_FIVES[1], 0.7), (five, 0.2), (parse_tile("6p"), 0.1)))
    ((read, _),) = TableReader(Faces([red]), mcr).read([np.zeros((40, 32))])  # type: ignore[arg-type]
    assert read.tile == five and read.choices == ((five, 0.7), (parse_tile("6p"), 0.1))
