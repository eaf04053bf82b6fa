import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.tiles import NUM_TILE_IDS
from vision.classify import LOOKS, Prediction, load_model, looks
from vision.errors import ModelError
from vision.features import HALF_TURN, features
from vision.render import PATCH_SPOT, Hand, Placed, Scene, patch_camera, random_look, render
from vision.train import crops


def test_held_out_renders_of_every_kind_are_read(model):
    rng = np.random.default_rng(2024)  # seeds the build never used
    samples = list(crops("uni", list(range(NUM_TILE_IDS)), 3, rng))
    answers = [model.classify(crop)[0] for _, crop in samples]
    right = sum(answer.tile == tile for answer, (tile, _) in zip(answers, samples, strict=True))
    assert right / len(samples) >= 0.98
    assert all(answer.tile in (tile, None) for answer, (tile, _) in zip(answers, samples, strict=True))


def test_upside_down_faces_are_read_and_said_to_be_upside_down(model):
    rng = np.random.default_rng(5)
    for tile, crop in crops("uni", [0, 20, 27, 30, 35], 1, rng):  # faces that differ when turned
        upright, turned = model.classify(crop), model.classify(np.ascontiguousarray(crop[::-1, ::-1]))
        assert (upright[0].tile, upright[1]) == (tile, False)
        assert (turned[0].tile, turned[1]) == (tile, True)


def test_half_turn_order_is_the_features_of_the_turned_crop():
    rng = np.random.default_rng(9)
    _, crop = next(crops("uni", [4], 1, rng))
    assert np.allclose(features(crop)[HALF_TURN], features(np.ascontiguousarray(crop[::-1, ::-1])), atol=1e-5)


@pytest.mark.parametrize("hands", [(), (Hand(PATCH_SPOT[0], PATCH_SPOT[1] + 10, 0.0),)], ids=["mat", "hand"])
def test_no_tile_is_unknown(model, hands):
    rng = np.random.default_rng(3)
    for _ in range(10):
        picture = render(
            Scene((), hands, markers=False), patch_camera(rng, (32, 40), (0.9, 1.1)), random_look(rng), rng
        )
        prediction, _ = model.classify(picture)
        assert prediction.tile is None and prediction.code == "unknown"
        assert prediction.confidence < model.threshold


def test_a_crop_across_two_tiles_is_unknown(model):
    rng = np.random.default_rng(4)
    x, y = PATCH_SPOT
    unknown = 0
    for _ in range(10):
        tiles = (Placed(int(rng.integers(42)), x - 15, y), Placed(int(rng.integers(42)), x + 15, y))
        picture = render(Scene(tiles, markers=False), patch_camera(rng, (32, 40), (0.9, 1.1)), random_look(rng), rng)
        unknown += model.classify(picture)[0].tile is None
    assert unknown >= 9


class Counting:
    """A reader that counts the crops it embeds."""

    def __init__(self, inner):
        self.inner, self.crops = inner, 0

    def views(self, crops):
        self.crops += len(crops)
        return self.inner.views(crops)


def test_only_unsure_crops_get_a_second_look_from_views_near_them(model):
    rng = np.random.default_rng(6)
    sample = [crop for _, crop in crops("uni", [3, 12, 21, 30], 1, rng)]
    unsure = np.full((40, 32, 3), 128, np.uint8)
    cv2.line(unsure, (4, 20), (28, 20), (40, 40, 40), 2)  # one stroke: no face the reader is sure of
    first = replace(model, second_look=0.0).read([*sample, unsure])
    again = [i for i, (p, _) in enumerate(first) if p.confidence < model.second_look]
    assert 4 in again and len(again) < 5
    counting = Counting(model.reader)
    readings = replace(model, reader=counting).read([*sample, unsure])
    assert counting.crops == 5 + len(again) * len(LOOKS)
    assert [r for i, r in enumerate(readings) if i not in again] == [r for i, r in enumerate(first) if i not in again]
    moved = looks(sample[0])
    assert len(moved) == len(LOOKS) and all(m.shape == (40, 32, 3) for m in moved)
    assert all(0 < np.abs(m.astype(int) - sample[0]).mean() < 40 for m in moved)  # near the crop, not the crop


def test_prediction_round_trips_through_json():
    for prediction in (Prediction(33, 0.9712, 0.88, ((33, 0.9712), (32, 0.02))), Prediction(None, 0.12, 0.4)):
        again = Prediction.from_dict(json.loads(json.dumps(prediction.to_dict())))
        assert again == prediction


def test_model_save_and_load_round_trip(model, tmp_path):
    model.save(tmp_path / "copy")
    again = load_model(tmp_path / "copy")
    assert np.array_equal(again.labels, model.labels) and np.allclose(again.templates, model.templates, atol=1e-3)
    assert np.array_equal(again.turned, model.turned)
    assert np.allclose(again.reject, model.reject, atol=1e-4) and again.temperature == model.temperature
    crop = next(crops("uni", [7], 1, np.random.default_rng(6)))[1]
    assert again.classify(crop) == model.classify(crop)


def test_the_previous_template_reader_still_loads_and_reads():
    """Sets enrolled with the hand-made features (format 2) keep working."""
    from vision.classify import DEFAULT_MODEL

    previous = load_model(DEFAULT_MODEL.parent / "features")
    samples = list(crops("uni", list(range(NUM_TILE_IDS)), 1, np.random.default_rng(12)))
    readings = previous.read([crop for _, crop in samples])
    assert np.mean([p.tile == tile for (p, _), (tile, _) in zip(readings, samples, strict=True)]) >= 0.95
    upside, turned = previous.classify(np.ascontiguousarray(samples[20][1][::-1, ::-1]))
    assert (upside.tile, turned) == (20, True)


def test_shipped_model_is_small_and_covers_every_kind(model):
    from vision.classify import DEFAULT_MODEL

    assert sum(f.stat().st_size for f in DEFAULT_MODEL.iterdir()) < 2_000_000
    assert model.kinds == list(range(NUM_TILE_IDS))


def test_missing_or_broken_model_says_where(tmp_path):
    with pytest.raises(ModelError, match="not a model directory"):
        load_model(tmp_path)
    (tmp_path / "model.json").write_text("{}")
    (tmp_path / "templates.npz").write_bytes(b"garbage")
    with pytest.raises(ModelError, match=str(tmp_path)):
        load_model(tmp_path)
