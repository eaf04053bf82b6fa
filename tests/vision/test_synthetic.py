from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.tiles import parse_tile
from vision import synthetic
from vision.features import CROP_H, CROP_W
from vision.synthetic import DOTS, DRAWN, FACE, STICKS, draw_face, drawn_tile, drawn_tiles
from vision.train import BEND_PX, bent, photometric, real_view
from vision.train import main as train_main

FONTS = [Path(path) for path in synthetic.FONTS]


def ink_rows(face: np.ndarray) -> np.ndarray:
    """The rows of a drawn face that hold ink."""
    return np.flatnonzero((face.min(axis=2) < 0.6).any(axis=1))


def test_every_kind_drawn_has_ink_on_a_white_face_of_the_drawn_size():
    rng = np.random.default_rng(0)
    for tile in DRAWN:
        face = draw_face(tile, FONTS, rng)
        assert face.shape == (FACE[1], FACE[0], 3)
        if tile != parse_tile("5z"):  # the white dragon may be blank
            assert (face.min(axis=2) < 0.6).mean() > 0.01, tile
        assert face.max() == pytest.approx(1.0)


def test_a_numerals_stroke_keeps_its_shape_over_the_character():
    """一萬: the numeral is one flat stroke above 萬, not a block stretched to its box (each font, each seed)."""
    for seed in range(8):
        face = draw_face(parse_tile("1m"), FONTS, np.random.default_rng(seed))
        rows = ink_rows(face)
        bands = np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1)
        assert len(bands) >= 2, seed  # the numeral, then 萬 below a gap
        assert len(bands[0]) < 0.12 * FACE[1], (seed, len(bands[0]))


def test_each_number_has_its_count_of_dots_and_sticks():
    assert {n: len(places) for n, places in DOTS.items()} == {n: n for n in range(1, 10)}
    assert {n: len(places) for n, places in STICKS.items()} == {n: n for n in range(2, 10)}
    assert all(0 < x < 1 and 0 < y < 1 for places in DOTS.values() for x, y, _ in places)


def test_drawn_tiles_repeat_for_a_seed_and_lie_inside_their_patch():
    first, again = drawn_tiles(1, np.random.default_rng(3)), drawn_tiles(1, np.random.default_rng(3))
    assert [d.tile for d in first] == DRAWN
    assert all(np.array_equal(a.patch, b.patch) for a, b in zip(first, again, strict=True))
    other = drawn_tile(DRAWN[0], FONTS, np.random.default_rng(4))
    assert not np.array_equal(first[0].patch, other.patch)
    for drawn in first:
        h, w = drawn.patch.shape[:2]
        assert (drawn.quad >= 0).all() and (drawn.quad[:, 0] <= w).all() and (drawn.quad[:, 1] <= h).all()
        assert real_view(drawn, np.random.default_rng(0)).shape == (CROP_H, CROP_W, 3)


def test_a_missing_font_is_named_before_any_training(monkeypatch, capsys):
    monkeypatch.setattr(synthetic, "FONTS", (*synthetic.FONTS, "/nowhere/brush.ttc"))
    with pytest.raises(FileNotFoundError, match=r"/nowhere/brush\.ttc"):
        drawn_tiles(1, np.random.default_rng(0))
    with pytest.raises(SystemExit) as exit_:
        train_main(["--drawn", "5", "--out", "/nowhere/model"])
    assert exit_.value.code == 2
    assert "--drawn 5: fonts missing: /nowhere/brush.ttc (apt-get install" in capsys.readouterr().err


def test_bent_strokes_move_a_little_and_no_bend_leaves_the_training_as_it_was():
    crop = np.full((CROP_H, CROP_W, 3), 230, np.uint8)
    cv2.line(crop, (CROP_W // 2, 4), (CROP_W // 2, CROP_H - 4), (30, 30, 30), 2)
    moved = bent(crop, np.random.default_rng(1))
    assert not np.array_equal(moved, crop)
    columns = [np.flatnonzero(moved[y, :, 0] < 130) for y in range(6, CROP_H - 6)]
    centres = np.array([c.mean() for c in columns if len(c)])
    assert np.abs(centres - (CROP_W // 2 + 0.5)).max() <= BEND_PX[1] + 0.5
    assert np.array_equal(bent(np.full_like(crop, 90), np.random.default_rng(1)), np.full_like(crop, 90))
    once = photometric(crop, np.random.default_rng(5))
    assert np.array_equal(photometric(crop, np.random.default_rng(5), 0.0), once)
    assert not np.array_equal(photometric(crop, np.random.default_rng(5), 1.0), once)
