import numpy as np
import pytest

from vision import learn
from vision.classify import NOTHING
from vision.net import Embedder, prepare
from vision.train import batch, crops, fit


class Tiny:
    """A training material of a few rendered faces, a photo-like one (way up not known) and a no-tile crop."""

    def __init__(self) -> None:
        rng = np.random.default_rng(8)
        self.items = [(tile, False, crop) for tile, crop in crops("uni", [0, 9, 18, 33], 2, rng)]
        self.items += [(5, None, self.items[0][2]), (NOTHING, None, np.full((40, 32, 3), 60, np.uint8))]

    def __len__(self) -> int:
        return len(self.items)

    def item(self, index: int, rng: np.random.Generator):
        return self.items[index]


@pytest.mark.slow  # 11 s: three small training runs
def test_training_repeats_exactly_for_a_seed_and_differs_for_another():
    first, again = fit(Tiny(), 2, seed=3, log=False), fit(Tiny(), 2, seed=3, log=False)
    other = fit(Tiny(), 2, seed=4, log=False)
    assert first.keys() == again.keys() and all(np.array_equal(first[k], again[k]) for k in first)
    assert not np.allclose(first["c0"], other["c0"])


def test_targets_say_the_way_up_only_when_it_is_known():
    material = Tiny()
    _, targets = batch(material, np.arange(len(material)), np.random.default_rng(0))
    assert targets.shape == (len(material), learn.CLASSES)
    assert (targets[:8].sum(axis=1) == 1).all()  # rendered: one row, its kind upright or turned
    assert list(np.flatnonzero(targets[:8].argmax(axis=1) // 2 == np.repeat([0, 9, 18, 33], 2))) == list(range(8))
    assert list(np.flatnonzero(targets[8])) == [10, 11]  # a photo's tile: either way up of 6m
    assert list(np.flatnonzero(targets[9])) == [learn.NOTHING_ROW]


def test_the_exported_network_computes_what_was_trained(tmp_path):
    params = learn.init(1)
    learn.export_onnx(params, tmp_path / "reader.onnx")
    faces = [crop for _, crop in crops("uni", [3, 30], 1, np.random.default_rng(2))]
    trained = np.array(learn.embed(params, prepare(faces).transpose(0, 2, 3, 1)))
    trained /= np.linalg.norm(trained, axis=1, keepdims=True)
    assert np.allclose(Embedder(tmp_path / "reader.onnx")(faces), trained, atol=1e-4)
