"""The reader's "is this a tile" check on the detector's proposals (``vision.verify``), and detections paired with
labelled boxes (``vision.scenes.pairs``)."""

from __future__ import annotations

import numpy as np

from vision import verify
from vision.render import tile_photo
from vision.scenes import Box, match, pairs


def test_each_label_pairs_with_at_most_one_detection_the_best_overlap_first():
    labels = [Box(0, 0, 30, 40), Box(30, 0, 60, 40)]
    found = [Box(2, 0, 32, 40), Box(1, 0, 31, 40), Box(45, 0, 75, 40), Box(100, 100, 130, 140)]
    # the second detection overlaps the first label best; the first then has none left; the third's IoU is under 0.5
    assert pairs(found, labels) == {1: 0}
    assert match(found, labels) == 1
    assert pairs([Box(31, 0, 61, 40)], labels) == {0: 1}


def _proposals(rng: np.random.Generator, count: int, shift: float) -> np.ndarray:
    rows = rng.normal(0, 1, (count, 6)).astype(np.float32)
    rows[:, 0] += shift
    return rows


def test_the_check_keeps_its_share_of_tiles_and_drops_what_lies_apart_deterministically():
    rng = np.random.default_rng(3)
    rows = np.vstack([_proposals(rng, 400, 2.0), _proposals(rng, 60, -2.0)])
    is_tile = np.r_[np.ones(400, bool), np.zeros(60, bool)]
    check = verify.fit(rows, is_tile)
    kept = check.keep(rows)
    assert kept[is_tile].mean() >= verify.KEEP - 0.003
    assert kept[~is_tile].mean() < 0.2
    again = verify.fit(rows, is_tile)
    assert np.array_equal(again.weights, check.weights) and again.level == check.level
    fresh = np.vstack([_proposals(rng, 200, 2.0), _proposals(rng, 200, -2.0)])
    kept = check.keep(fresh)
    assert kept[:200].mean() > 0.95 and kept[200:].mean() < 0.2
    assert check.keep(np.zeros((0, 6), np.float32)).shape == (0,)


def test_the_check_is_saved_beside_a_model_and_read_back(tmp_path):
    check = verify.TileCheck(np.arange(5, dtype=np.float32), -1.5, 0.25)
    assert verify.TileCheck.load(tmp_path) is None
    check.save(tmp_path)
    back = verify.TileCheck.load(tmp_path)
    assert np.array_equal(back.weights, check.weights) and (back.bias, back.level) == (-1.5, 0.25)


def test_a_proposals_features_are_its_embedding_and_the_readers_two_similarities(model):
    rng = np.random.default_rng(1)
    crops = [tile_photo(tile, "uni", rng) for tile in (0, 9, 27)] + [np.full((40, 32, 3), (40, 120, 40), np.uint8)]
    rows = verify.features(model, crops)
    embedding, _ = model.embed(crops)
    assert rows.shape == (4, embedding.shape[2] + 2)
    assert np.allclose(rows[:, :-2], embedding[:, 0], atol=1e-6)
    assert (rows[:3, -2] > rows[3, -2]).all()  # a face is more like a face than bare mat is
    assert verify.features(model, []).shape == (0, 0)
