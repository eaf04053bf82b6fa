"""The static tables: built faster and per key (identical to the enumerated ``group_table``), kept on disk, and a
cache file that is damaged, truncated, of another version or of the wrong shape is rebuilt, never trusted."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from engine.analysis import suit_tables, table_cache
from engine.analysis.suit_tables import _build_bits, group_table, splits_of


@pytest.mark.parametrize("chows", [True, False])
def test_bits_built_by_layers_are_the_enumerated_table(chows: bool) -> None:
    assert _build_bits(chows) == group_table(chows)[0]


@pytest.mark.parametrize("chows", [True, False])
def test_splits_of_one_key_are_the_tables_in_its_order(chows: bool) -> None:
    splits = group_table(chows)[1]
    for key, found in splits.items():
        assert splits_of(chows, key) == found, key
    size = 9 if chows else 7
    for key in itertools.product(range(4), repeat=size):
        if key not in splits:
            assert splits_of(chows, key) == (), key


def test_splits_of_keys_beyond_the_table() -> None:
    assert splits_of(True, (5, 0, 0, 0, 0, 0, 0, 0, 0)) == (((("pung", 0),), 0),)  # a fifth copy (a wildcard's)
    assert splits_of(True, (4, 0, 4, 0, 4, 0, 2, 0, 0)) == ()
    assert splits_of(True, (3, 3, 3, 3, 3, 0, 0, 0, 0)) == ()  # fifteen tiles: five sets are one too many
    assert splits_of(False, (14, 0, 0, 0, 0, 0, 0)) == ((tuple([("pung", 0)] * 4), 0),)


class Builder:
    """A table builder that counts its calls."""

    def __init__(self, value: object) -> None:
        self.value = value
        self.calls = 0

    def __call__(self) -> object:
        self.calls += 1
        return self.value


VALUE = ({(1, 2, 3): 4, (0, 0, 0): 1}, b"keys", [1, 2, 3], "text", None)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MJTABLE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "builder.py"
    path.write_text("TABLE = 1\n")
    return path


def _get(source: Path, builder: Builder, valid: bool = True) -> object:
    return table_cache.cached("demo", [str(source)], builder, lambda value: valid and isinstance(value, tuple))


def _file(folder: Path, name: str = "demo") -> Path:
    """The one file of table ``name`` in the folder."""
    (path,) = folder.glob(f"{name}-*.table")
    return path


def test_a_table_is_built_once_then_read(folder: Path, source: Path) -> None:
    builder = Builder(VALUE)
    assert _get(source, builder) == VALUE
    assert _file(folder).is_file()
    assert _get(source, builder) == VALUE
    assert builder.calls == 1


def _damaged(folder: Path, source: Path, change: object) -> tuple[object, Builder, bytes]:
    """The value read after the written file is changed by ``change``, the builder, and the file afterwards."""
    _get(source, Builder(VALUE))
    path = _file(folder)
    data = path.read_bytes()
    path.write_bytes(change(data))  # type: ignore[operator]
    builder = Builder(VALUE)
    return _get(source, builder), builder, path.read_bytes()


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :]


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda data: _flip(data, len(data) - 3), id="payload byte"),
        pytest.param(lambda data: _flip(data, table_cache.HEADER - 1), id="length"),
        pytest.param(lambda data: _flip(data, len(table_cache.MAGIC) + 40), id="digest"),
        pytest.param(lambda data: _flip(data, 0), id="magic"),
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: data[:10], id="truncated header"),
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: data + b"\0", id="trailing byte"),
    ],
)
def test_a_damaged_file_is_rebuilt_and_rewritten(folder: Path, source: Path, change: object) -> None:
    value, builder, after = _damaged(folder, source, change)
    assert value == VALUE
    assert builder.calls == 1
    assert table_cache._read(_file(folder), table_cache.stamp([str(source)])) == VALUE  # whole again
    assert len(after) > table_cache.HEADER


def test_a_payload_that_is_no_marshal_data_is_rebuilt(folder: Path, source: Path) -> None:
    _get(source, Builder(VALUE))
    path = _file(folder)
    payload = b"\xff not marshal"
    header = path.read_bytes()[: len(table_cache.MAGIC) + 32]
    digest = table_cache.hashlib.sha256(payload).digest()
    path.write_bytes(header + digest + len(payload).to_bytes(8, "big") + payload)  # passes the digest
    builder = Builder(VALUE)
    assert _get(source, builder) == VALUE
    assert builder.calls == 1


def test_a_changed_builder_makes_the_file_stale(folder: Path, source: Path) -> None:
    _get(source, Builder(VALUE))
    source.write_text("TABLE = 2\n")
    builder = Builder(("new",))
    assert _get(source, builder) == ("new",)
    assert builder.calls == 1


def test_two_versions_in_one_folder_keep_a_file_each(folder: Path, source: Path) -> None:
    """Two checkouts (or two Pythons) sharing the cache: neither rebuilds the other's table at each start."""
    other = source.with_name("other.py")
    other.write_text("TABLE = 2\n")
    first, second = Builder(VALUE), Builder(("other",))
    for _ in range(3):
        assert _get(source, first) == VALUE
        assert _get(other, second) == ("other",)
    assert first.calls == second.calls == 1
    assert len(list(folder.glob("demo-*.table"))) == 2


def test_old_versions_beyond_the_kept_are_removed(folder: Path, source: Path) -> None:
    (folder / "demo.table").parent.mkdir(parents=True)
    (folder / "demo.table").write_bytes(b"a file of a build before the stamped names")
    (folder / "demo-extra.table").write_bytes(b"not one of demo's versions")
    written: list[Path] = []
    for version in range(table_cache.KEPT + 2):
        source.write_text(f"TABLE = {version}\n")
        assert _get(source, Builder(VALUE)) == VALUE
        newest = table_cache._path(folder, "demo", table_cache.stamp([str(source)]))  # type: ignore[arg-type]
        os.utime(newest, (1000 + version, 1000 + version))  # written in this order, whatever the clock's grain
        written.append(newest)
    assert sorted(folder.glob("demo-????????????????.table")) == sorted(written[-table_cache.KEPT :])
    assert not (folder / "demo.table").exists()
    assert (folder / "demo-extra.table").exists()


def test_another_format_makes_the_file_stale(folder: Path, source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _get(source, Builder(VALUE))
    monkeypatch.setattr(table_cache, "FORMAT", table_cache.FORMAT + 1)
    builder = Builder(("new",))
    assert _get(source, builder) == ("new",)
    assert builder.calls == 1


def test_a_table_of_the_wrong_shape_is_rebuilt(folder: Path, source: Path) -> None:
    _get(source, Builder(VALUE))
    builder = Builder(VALUE)
    assert _get(source, builder, valid=False) == VALUE
    assert builder.calls == 1


def test_a_missing_source_uses_no_file(folder: Path, tmp_path: Path) -> None:
    builder = Builder(VALUE)
    for _ in range(2):
        assert _get(tmp_path / "gone.py", builder) == VALUE
    assert builder.calls == 2
    assert not folder.exists()


def test_the_cache_can_be_turned_off(tmp_path: Path, source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJTABLE_CACHE_DIR", "")
    monkeypatch.chdir(tmp_path)
    builder = Builder(VALUE)
    for _ in range(2):
        assert _get(source, builder) == VALUE
    assert builder.calls == 2
    assert table_cache.cache_dir() is None


def test_a_folder_that_cannot_be_written_still_answers(
    tmp_path: Path, source: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("MJTABLE_CACHE_DIR", str(blocker / "cache"))
    builder = Builder(VALUE)
    assert _get(source, builder) == VALUE
    assert builder.calls == 1


def test_the_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MJTABLE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert table_cache.cache_dir() == tmp_path / "mjtable"


def test_the_bit_tables_from_a_damaged_cache_are_right(folder: Path) -> None:
    expected = (group_table(True)[0], group_table(False)[0])
    suit_tables.bit_tables.cache_clear()
    try:
        assert suit_tables.bit_tables() == expected
        path = _file(folder, "suit-bits")
        data = path.read_bytes()
        path.write_bytes(_flip(data, len(data) - 100))
        suit_tables.bit_tables.cache_clear()
        assert suit_tables.bit_tables() == expected
        suit_tables.bit_tables.cache_clear()
        assert suit_tables.bit_tables() == expected  # read from the rewritten file
    finally:
        suit_tables.bit_tables.cache_clear()
