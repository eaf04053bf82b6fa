import pytest

from vision.artwork import default_artwork_dir
from vision.errors import LabelsError
from vision.labels import read_labels


def write_labels(folder, text: str):
    path = folder / "labels.csv"
    path.write_text(text)
    return path


def test_labels_accept_classes_csv_codes_and_compact_codes(tmp_path):
    for name in ("a.png", "b.png", "c.png"):
        (tmp_path / name).write_bytes(b"")
    path = write_labels(tmp_path, "file,code\na.png,RD\nb.png,F1\nc.png,3p\n")
    assert [tile for _, tile in read_labels(path, tmp_path)] == [33, 38, 11]


def test_without_a_file_column_the_first_column_names_the_photo(tmp_path):
    (tmp_path / "a.png").write_bytes(b"")
    path = write_labels(tmp_path, "png,note,code\na.png,x,7z\n")
    assert read_labels(path, tmp_path) == [(tmp_path / "a.png", 33)]


def test_the_artwork_labels_of_shared_tiles_are_read():
    folder = default_artwork_dir() / "uni"
    rows = read_labels(folder / "labels.csv", folder)
    assert len(rows) == 42 and {tile for _, tile in rows} == set(range(42))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,tile\na.png,1m\n", "expected a header with a 'code' column"),
        ("code,file\n1m,a.png\n", None),
        ("code,png\n1m,a.png\n", "the first column is 'code'"),
        ("file,code\na.png,XX\n", "line 2: unknown tile code 'XX'"),
        ("file,code\na.png,1m\nmissing.png,2m\n", "line 3: image 'missing.png' not found"),
        ("file,code\na.png,\n", "line 2: empty file or code"),
        ("file,code\n", "no labelled images"),
        ("", "expected a header"),
        ("file,code\n" + "a.png," + "x" * 200_000 + "\n", "not a CSV file"),
    ],
)
def test_bad_labels_name_the_line_and_the_problem(tmp_path, text, message):
    (tmp_path / "a.png").write_bytes(b"")
    if message is None:
        assert read_labels(write_labels(tmp_path, text), tmp_path) == [(tmp_path / "a.png", 0)]
        return
    with pytest.raises(LabelsError, match=message):
        read_labels(write_labels(tmp_path, text), tmp_path)


def test_a_missing_or_directory_labels_file_says_which(tmp_path):
    with pytest.raises(LabelsError, match=r"nope\.csv: cannot read"):
        read_labels(tmp_path / "nope.csv", tmp_path)
    with pytest.raises(LabelsError, match="is a directory"):
        read_labels(tmp_path, tmp_path)
    (tmp_path / "bin.csv").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(LabelsError, match="not a CSV file"):
        read_labels(tmp_path / "bin.csv", tmp_path)
