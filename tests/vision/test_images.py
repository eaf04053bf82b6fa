import struct
import subprocess
import sys
import zlib

import cv2
import numpy as np
import pytest

from tests.paths import REPO
from vision.errors import ImageError
from vision.images import MAX_PIXELS, declared_size, decode, load_image, save_image


def png(width: int = 40, height: int = 30) -> bytes:
    return cv2.imencode(".png", np.full((height, width, 3), 200, np.uint8))[1].tobytes()


def with_chunk(data: bytes, kind: bytes, body: bytes, crc: int | None = None) -> bytes:
    """A PNG with one more chunk after IHDR (a bad CRC makes libpng warn)."""
    crc = zlib.crc32(kind + body) if crc is None else crc
    chunk = struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)
    return data[:33] + chunk + data[33:]


def test_a_good_photo_decodes():
    assert decode(png(), "a.png").shape == (30, 40, 3)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "not an image OpenCV can read"),
        (b"hello", "not an image OpenCV can read"),
        (png()[:60], "not an image OpenCV can read"),
        (cv2.imencode(".jpg", np.zeros((64, 64, 3), np.uint8))[1].tobytes()[:300], "not an image OpenCV can read"),
        (png(4, 30), "4x30 px is too small"),
    ],
    ids=["empty", "text", "cut png", "cut jpeg", "tiny"],
)
def test_bad_bytes_say_what_is_wrong(data, message):
    with pytest.raises(ImageError, match=message):
        decode(data, "x.png")


def test_a_header_claiming_too_many_pixels_is_refused_before_decoding():
    data = bytearray(png())
    data[16:24] = struct.pack(">II", 20000, 20000)
    assert declared_size(bytes(data)) == (20000, 20000)
    with pytest.raises(ImageError, match=f"20000x20000 px is more than {MAX_PIXELS:,} pixels"):
        decode(bytes(data), "bomb.png")
    jpeg = cv2.imencode(".jpg", np.zeros((48, 64, 3), np.uint8))[1].tobytes()
    assert declared_size(jpeg) == (64, 48)


def test_decoder_warnings_do_not_reach_stderr(tmp_path):
    noisy = tmp_path / "noisy.png"
    noisy.write_bytes(with_chunk(png(), b"tEXt", b"Comment\x00hi", crc=0))
    code = f"import pathlib, vision.images as v\nprint(v.load_image(pathlib.Path({str(noisy)!r})).shape)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.stdout.strip() == "(30, 40, 3)" and result.stderr == ""
    unquiet = "import cv2; cv2.imread(" + repr(str(noisy)) + ")"
    result = subprocess.run([sys.executable, "-c", unquiet], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert "libpng warning" in result.stderr  # what the loader keeps off stderr


def test_files_that_are_not_photos_say_which(tmp_path):
    with pytest.raises(ImageError, match="is a directory, not an image file"):
        load_image(tmp_path)
    with pytest.raises(ImageError, match=r"gone\.png: no such file"):
        load_image(tmp_path / "gone.png")
    (tmp_path / "text.png").write_text("hello")
    with pytest.raises(ImageError, match=r"text\.png: not an image"):
        load_image(tmp_path / "text.png")


def test_saving_names_the_problem(tmp_path):
    image = np.zeros((10, 10, 3), np.uint8)
    save_image(tmp_path / "ok.png", image)
    assert cv2.imread(str(tmp_path / "ok.png")).shape == (10, 10, 3)
    with pytest.raises(ImageError, match="no image format for this file name"):
        save_image(tmp_path / "zones.txt", image)
    (tmp_path / "d.png").mkdir()
    with pytest.raises(ImageError, match="is a directory"):
        save_image(tmp_path / "d.png", image)
    with pytest.raises(ImageError, match="cannot write"):
        save_image(tmp_path / "ok.png" / "under.png", image)
