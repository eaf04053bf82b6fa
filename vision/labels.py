"""Labelled photos for enrolment: a CSV naming each photo and its kind, every problem named with its line.

The kind is the ``code`` column (codes of ``vision/faces/CLASSES.csv`` or compact notation); the photo is the
``file`` column, else the first column (``vision/faces/*/labels.csv`` call it ``png``). Other columns are ignored.
"""

from __future__ import annotations

import csv
from pathlib import Path

from engine.errors import NotationError
from engine.tiles import Tile
from vision.artwork import parse_class_code
from vision.errors import LabelsError

MAX_ROWS = 100_000
"""More labelled photos than a set has kinds times any sensible number of photos each."""


def _columns(labels: Path, header: list[str] | None) -> tuple[str, str]:
    """The photo column and the code column of a header."""
    if not header or "code" not in header:
        raise LabelsError(f"{labels}: expected a header with a 'code' column and a 'file' column; found {header}")
    photo = "file" if "file" in header else header[0]
    if photo == "code":
        raise LabelsError(f"{labels}: the first column is 'code'; name the photos' column 'file'")
    return photo, "code"


def read_labels(labels: Path, images: Path) -> list[tuple[Path, Tile]]:
    """Rows of the CSV with the files resolved in ``images``."""
    if labels.is_dir():
        raise LabelsError(f"{labels}: is a directory, not a CSV file")
    try:
        with labels.open(newline="") as handle:
            reader = csv.DictReader(handle)
            photo, code_column = _columns(labels, reader.fieldnames)
            rows = []
            for line, row in enumerate(reader, start=2):
                if len(rows) == MAX_ROWS:
                    raise LabelsError(f"{labels}: more than {MAX_ROWS:,} rows")
                rows.append((line, row))
    except OSError as error:
        raise LabelsError(f"{labels}: cannot read ({error.strerror})") from None
    except (UnicodeDecodeError, csv.Error) as error:
        raise LabelsError(f"{labels}: not a CSV file ({error})") from None
    out = []
    for line, row in rows:
        name, code = (row.get(photo) or "").strip(), (row.get(code_column) or "").strip()
        if not name or not code:
            raise LabelsError(f"{labels} line {line}: empty {photo} or code")
        try:
            tile = parse_class_code(code)
        except NotationError:
            known = "compact notation, or a code of CLASSES.csv in mjtable's vision/faces"
            raise LabelsError(f"{labels} line {line}: unknown tile code {code[:20]!r} ({known})") from None
        path = images / name
        if not path.is_file():
            raise LabelsError(f"{labels} line {line}: image {name[:80]!r} not found in {images}")
        out.append((path, tile))
    if not out:
        raise LabelsError(f"{labels}: no labelled images")
    return out
