"""Static tables kept on disk between runs, so a command's start-up loads them instead of building them.

The one place the engine touches a file, and only as a cache: whatever is read is checked before it is used, and
anything that fails a check is built again (and the file rewritten), never trusted. A file holds

    MAGIC | stamp (32 bytes) | digest of the payload (32 bytes) | payload length (8 bytes) | payload (marshal)

The stamp is a SHA-256 of ``FORMAT``, the interpreter's version and the source text of the modules that build the
table (``sources``), so a change to any of them, or another Python, makes the file stale. The file's name carries
the start of the stamp (``NAME-STAMP.table``): two checkouts or two Pythons sharing the folder each keep their
own file instead of rebuilding each other's at every start; the oldest beyond ``KEPT`` of a name are removed when a
new one is written. The digest catches a damaged or truncated file before ``marshal`` reads a byte of it. Writes
go to a temporary file renamed into place, so a reader never meets a half-written table, and two processes writing
at once leave one whole file.

The directory is ``$MJTABLE_CACHE_DIR``, else ``$XDG_CACHE_HOME/mjtable``, else ``~/.cache/mjtable``;
``MJTABLE_CACHE_DIR=""`` turns the cache off. A directory that cannot be made or written is no error: the table is
then built in memory, as without a cache.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

FORMAT = 1
"""The layout of a cache file; raising it makes every file stale."""
MAGIC = b"MJTABLE-TABLE\n"
HEADER = len(MAGIC) + 32 + 32 + 8
KEPT = 3
"""Files of one table kept side by side (the versions in use on this machine; each about 0.7 MB)."""


def cache_dir() -> Path | None:
    """Where the tables live, or None when the cache is off."""
    chosen = os.environ.get("MJTABLE_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mjtable"


def stamp(sources: Iterable[str]) -> bytes | None:
    """The version of a table: its builders' source text, the interpreter and ``FORMAT``; None when a source
    cannot be read (then nothing tells a stale file, so none is used)."""
    digest = hashlib.sha256(f"{FORMAT}\0{sys.version}\0{sys.implementation.cache_tag}".encode())
    for source in sources:
        try:
            digest.update(Path(source).read_bytes())
        except OSError:
            return None
        digest.update(b"\0")
    return digest.digest()


def _read(path: Path, version: bytes) -> object | None:
    """The payload of ``path`` when every check passes, else None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) < HEADER or not data.startswith(MAGIC):
        return None
    at = len(MAGIC)
    if data[at : at + 32] != version:
        return None
    digest, length = data[at + 32 : at + 64], int.from_bytes(data[at + 64 : HEADER], "big")
    payload = data[HEADER:]
    if length != len(payload) or hashlib.sha256(payload).digest() != digest:
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):  # a file that passed the digest yet is no marshal data
        return None


def _write(path: Path, version: bytes, value: object) -> None:
    payload = marshal.dumps(value)
    data = MAGIC + version + hashlib.sha256(payload).digest() + len(payload).to_bytes(8, "big") + payload
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:  # a read-only home, a full disk: the table is still right, it is only not kept
        return
    _prune(path)


def _path(folder: Path, name: str, version: bytes) -> Path:
    return folder / f"{name}-{version.hex()[:16]}.table"


def _prune(written: Path) -> None:
    """Remove the oldest files of ``written``'s table beyond ``KEPT``, and the stamp-less name of older builds."""
    name = written.name.rsplit("-", 1)[0]
    try:
        others = [path for path in written.parent.glob(f"{name}-{'?' * 16}.table") if path != written]
        others.sort(key=lambda path: path.stat().st_mtime, reverse=True)
        for path in [*others[KEPT - 1 :], written.parent / f"{name}.table"]:
            path.unlink(missing_ok=True)
    except OSError:  # another process removed it first, or the folder is read-only: only space is at stake
        return


def cached(name: str, sources: Iterable[str], build: Callable[[], T], valid: Callable[[object], bool]) -> T:
    """The table ``name``: read from the cache when the file is whole, current and ``valid`` says it has the
    table's shape; otherwise ``build()``, written back for the next run. ``build`` must return plain data
    (``marshal``: tuples, dicts, ints, strings, None)."""
    folder = cache_dir()
    version = stamp(sources) if folder is not None else None
    if folder is None or version is None:
        return build()
    path = _path(folder, name, version)
    value = _read(path, version)
    if value is not None and valid(value):
        return value  # type: ignore[return-value]
    built = build()
    _write(path, version, built)
    return built
