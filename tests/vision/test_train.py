import numpy as np

from vision.features import features
from vision.train import build, crops, discriminant


def test_a_small_build_reads_held_out_renders_and_repeats_exactly():
    model = build("uni", per_class=6, seed=3, scenes=3)
    again = build("uni", per_class=6, seed=3, scenes=3)
    assert np.allclose(model.templates, again.templates, atol=1e-4) and np.array_equal(model.labels, again.labels)
    rng = np.random.default_rng(31)
    samples = list(crops("uni", list(range(42)), 1, rng))
    top1 = np.mean([model.kind_scores(features(crop)[None])[0].argmax() == tile for tile, crop in samples])
    answered = np.mean([model.classify(crop)[0].tile == tile for tile, crop in samples])
    assert top1 >= 0.9 and answered >= 0.8


def test_discriminant_separates_what_the_raw_features_confuse():
    rng = np.random.default_rng(0)
    # Two kinds that differ only in one feature, buried under large shared variation in the others.
    shared = rng.normal(0, 5, (200, 6))
    labels = np.repeat([0, 1], 100)
    rows = np.hstack([shared, (labels * 1.0 + rng.normal(0, 0.1, 200))[:, None]])
    projected = rows @ discriminant(rows, labels, ridge=0.01)
    assert projected.shape == (200, 1)
    low, high = sorted([projected[labels == 0].mean(), projected[labels == 1].mean()])
    assert projected[labels == 0].std() < (high - low) / 4
