import numpy as np

from vision.enroll import enroll


def accuracy(model, faces) -> float:
    return float(np.mean([model.classify(crop)[0].tile == tile for crop, tile in faces]))


def test_enrolling_a_differently_styled_set_makes_it_readable(model, other_set):
    before = accuracy(model, other_set["test"])
    enrolled = enroll(model, other_set["enroll"])
    after = accuracy(enrolled, other_set["test"])
    assert after >= 0.95 and after >= before  # the shipped reader may read an unseen set already; never worse


def test_enrolling_some_kinds_keeps_the_others(model, other_set):
    characters = [(image, tile) for image, tile in other_set["enroll"] if tile < 9]
    enrolled = enroll(model, characters)
    assert set(enrolled.kinds) == set(model.kinds)
    assert np.array_equal(np.sort(enrolled.labels[enrolled.labels >= 9]), np.sort(model.labels[model.labels >= 9]))
