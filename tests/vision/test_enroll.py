import numpy as np
import pytest

from vision.enroll import enroll, load_image, read_labels
from vision.errors import ImageError, LabelsError


def accuracy(model, faces) -> float:
    return float(np.mean([model.classify(crop)[0].tile == tile for crop, tile in faces]))


def test_enrolling_a_differently_styled_set_makes_it_readable(model, other_set):
    before = accuracy(model, other_set["test"])
    enrolled = enroll(model, other_set["enroll"])
    after = accuracy(enrolled, other_set["test"])
    assert before < 0.7  # the artwork model has never seen these faces: it mostly answers unknown
    assert after >= 0.93 and after > before + 0.4


def test_enrolling_some_kinds_keeps_the_others(model, other_set):
    characters = [(image, tile) for image, tile in other_set["enroll"] if tile < 9]
    enrolled = enroll(model, characters)
    assert set(enrolled.kinds) == set(model.kinds)
    assert np.array_equal(np.sort(enrolled.labels[enrolled.labels >= 9]), np.sort(model.labels[model.labels >= 9]))


def write_labels(folder, text: str):
    path = folder / "labels.csv"
    path.write_text(text)
    return path


def test_labels_accept_classes_csv_codes_and_compact_codes(tmp_path):
    for name in ("a.png", "b.png", "c.png"):
        (tmp_path / name).write_bytes(b"")
    path = write_labels(tmp_path, "file,code\na.png,RD\nb.png,F1\nc.png,3p\n")
    assert [tile for _, tile in read_labels(path, tmp_path)] == [33, 38, 11]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,tile\na.png,1m\n", "expected a header with columns file,code"),
        ("file,code\na.png,XX\n", "line 2: unknown tile code 'XX'"),
        ("file,code\na.png,1m\nmissing.png,2m\n", "line 3: image 'missing.png' not found"),
        ("file,code\na.png,\n", "line 2: empty file or code"),
        ("file,code\n", "no labelled images"),
    ],
)
def test_bad_labels_name_the_line_and_the_problem(tmp_path, text, message):
    (tmp_path / "a.png").write_bytes(b"")
    with pytest.raises(LabelsError, match=message):
        read_labels(write_labels(tmp_path, text), tmp_path)


def test_missing_labels_file_and_bad_images_say_which(tmp_path):
    with pytest.raises(LabelsError, match=r"nope\.csv: cannot read"):
        read_labels(tmp_path / "nope.csv", tmp_path)
    (tmp_path / "text.png").write_text("hello")
    with pytest.raises(ImageError, match=r"text\.png: not an image"):
        load_image(tmp_path / "text.png")
    with pytest.raises(ImageError, match=r"gone\.png: no such file"):
        load_image(tmp_path / "gone.png")
