"""Photos from files: read and decoded with one-line errors naming the file, and without the warnings OpenCV's
decoders print on their own (libpng's "CRC error", libjpeg's "Premature end of JPEG file"), which would break the
commands' promise of JSON lines on stdout and nothing unexplained on stderr.

OpenCV's own log is silenced once, here; libpng and libjpeg write to file descriptor 2 directly, so the decoding
runs with that descriptor pointed at /dev/null (under a lock: only while a photo file is decoded, never for camera
frames, which come through ``VideoCapture``).
"""

from __future__ import annotations

import os
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageError, VisionError

cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)

MAX_BYTES = 64 * 1024 * 1024
"""A photo file larger than this is refused before reading (a 12-megapixel JPEG is a few MB)."""
MAX_PIXELS = 50_000_000
"""A photo whose header claims more pixels than this is refused before decoding (a decompression bomb)."""
MIN_SIDE = 8
"""Pixels: a smaller picture cannot hold a tile face worth reading."""
_stderr_lock = threading.Lock()


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """File descriptor 2 pointed at /dev/null for the duration."""
    with _stderr_lock:
        saved = os.dup(2)
        try:
            with open(os.devnull, "wb") as null:
                os.dup2(null.fileno(), 2)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def declared_size(data: bytes) -> tuple[int, int] | None:
    """Width and height a PNG or JPEG header claims (None for other formats, or no size found)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:2] == b"\xff\xd8":
        at = 2
        while at + 4 <= len(data) and data[at] == 0xFF:
            marker, length = data[at + 1], struct.unpack(">H", data[at + 2 : at + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and at + 9 <= len(data):
                height, width = struct.unpack(">HH", data[at + 5 : at + 9])
                return width, height
            at += 2 + length
    return None


def decode(data: bytes, name: str, min_side: int = MIN_SIDE) -> np.ndarray:
    """A BGR image from a file's bytes; ``name`` is what errors call it."""
    size = declared_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageError(f"{name}: {size[0]}x{size[1]} px is more than {MAX_PIXELS:,} pixels")
    try:
        with _quiet_stderr():
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None:
        raise ImageError(f"{name}: not an image OpenCV can read (corrupt, cut short, or not a picture)")
    if min(image.shape[:2]) < min_side:
        raise ImageError(f"{name}: {image.shape[1]}x{image.shape[0]} px is too small (at least {min_side} a side)")
    return image


def load_image(path: Path, min_side: int = MIN_SIDE) -> np.ndarray:
    """A BGR image from a file, or an ``ImageError`` naming the file and what is wrong with it."""
    if path.is_dir():
        raise ImageError(f"{path}: is a directory, not an image file")
    if not path.exists():
        raise ImageError(f"{path}: no such file")
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ImageError(f"{path}: larger than {MAX_BYTES // 2**20} MB")
        data = path.read_bytes()
    except OSError as error:
        raise ImageError(f"{path}: cannot read ({error.strerror})") from None
    return decode(data, str(path), min_side)


def check_output(path: Path, picture: bool = False) -> None:
    """A ``VisionError`` now, before any work, if ``path`` cannot be the file written: a directory, a missing
    folder or a file in the way, or (``picture``) a name with no image format."""
    if path.is_dir():
        raise VisionError(f"{path}: is a directory; give a file name")
    if not path.parent.is_dir():
        what = "is not a directory" if path.parent.exists() else "does not exist"
        raise VisionError(f"{path}: the folder {path.parent} {what}")
    if picture and not cv2.haveImageWriter(str(path)):
        raise VisionError(f"{path}: no image format for this file name (use .png or .jpg)")


def save_image(path: Path, image: np.ndarray) -> None:
    """Write a picture (the format from the file name), or an ``ImageError`` saying why not."""
    if not cv2.haveImageWriter(str(path)):
        raise ImageError(f"{path}: no image format for this file name (use .png or .jpg)")
    if path.is_dir():
        raise ImageError(f"{path}: is a directory")
    try:
        ok, data = cv2.imencode(path.suffix, image)
    except cv2.error:
        ok = False
    if not ok:
        raise ImageError(f"{path}: cannot encode the picture as {path.suffix}")
    try:
        path.write_bytes(data.tobytes())
    except OSError as error:
        raise ImageError(f"{path}: cannot write ({error.strerror})") from None
