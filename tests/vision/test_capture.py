import contextlib
import os
import re
import threading
import time

import cv2
import numpy as np
import pytest

from vision.capture import OpenCVCamera, PiCamera, Replay, Settings, SimulatedCamera, first_frame, open_source
from vision.errors import CaptureError


def test_image_folder_replays_in_name_order_with_frame_times(tmp_path):
    for index in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"frame{index}.png"), np.full((8, 8, 3), index * 50, np.uint8))
    (tmp_path / "notes.txt").write_text("ignored")
    frames = list(open_source(str(tmp_path)).frames())
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 50, 100]
    assert [f.time for f in frames] == [0.0, 0.1, 0.2]


def test_video_file_replays(tmp_path):
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG")
    for value in (20, 120, 220):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    frames = list(Replay(path).frames())
    assert len(frames) == 3 and abs(int(frames[2].image.mean()) - 220) < 10


def test_simulated_camera_records_what_happened_in_which_frame():
    camera = open_source("sim:4:2")
    assert isinstance(camera, SimulatedCamera)
    count = 0
    for frame in camera.frames():
        assert frame.image.shape == (720, 1280, 3)
        assert all(t.frame <= frame.index for t in camera.truth)
        assert all(t.frame == frame.index for t in camera.truth[count:])  # events of this frame carry its index
        count = len(camera.truth)
    assert [t.kind for t in camera.truth if t.kind == "discard"] == ["discard", "discard"]


def test_live_sources_are_chosen_by_their_spelling():
    assert isinstance(open_source("0"), OpenCVCamera)
    assert isinstance(open_source("rtsp://table.local/stream"), OpenCVCamera)
    assert isinstance(open_source("picamera"), PiCamera)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("sim:x", "expected sim, sim:SEED"),
        ("sim:1:999", "discards: expected 1 to 72"),
        ("/no/such/dir", "no such file"),
    ],
)
def test_bad_sources_say_what_is_wrong(spec, message):
    with pytest.raises(CaptureError, match=message):
        open_source(spec)


def test_empty_folder_and_unreadable_files_are_errors(tmp_path):
    with pytest.raises(CaptureError, match="no images"):
        list(Replay(tmp_path).frames())
    (tmp_path / "broken.png").write_text("nope")
    with pytest.raises(CaptureError, match=r"broken\.png: not an image"):
        list(Replay(tmp_path).frames())
    (tmp_path / "clip.avi").write_text("nope")
    with pytest.raises(CaptureError, match=r"clip\.avi"):
        list(Replay(tmp_path / "clip.avi").frames())


def test_device_that_does_not_exist_is_an_error():
    with pytest.raises(CaptureError, match="cannot open"):
        next(iter(OpenCVCamera(97, Settings()).frames()))


def test_settings_round_trip_and_refuse_nonsense():
    settings = Settings(640, 480, 15.0)
    assert Settings.from_dict(settings.to_dict()) == settings
    assert Settings.from_dict({}) == Settings()
    with pytest.raises(CaptureError, match="must be positive"):
        Settings.from_dict({"fps": 0})
    with pytest.raises(CaptureError, match="capture settings"):
        Settings.from_dict({"width": "wide"})


def test_first_frame_reads_one_frame_and_names_a_source_that_gives_none(tmp_path):
    cv2.imwrite(str(tmp_path / "0.png"), np.full((6, 9, 3), 77, np.uint8))
    cv2.imwrite(str(tmp_path / "1.png"), np.full((6, 9, 3), 200, np.uint8))
    frame = first_frame(str(tmp_path))
    assert frame.index == 0 and frame.image.shape == (6, 9, 3) and int(frame.image[0, 0, 0]) == 77
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CaptureError, match=re.escape(f"{empty}: no images")):
        first_frame(str(empty))


def test_first_frame_gives_up_on_a_source_that_hangs(tmp_path):
    """A FIFO nobody writes to blocks OpenCV's open, as a camera driver waiting for a missing sensor does: the
    caller gets a named error after the timeout; opening the FIFO's other end then lets the reader end."""
    fifo = tmp_path / "camera"
    os.mkfifo(fifo)
    with pytest.raises(CaptureError, match=r"camera': no frame within 0.3 s"):
        first_frame(str(fifo), timeout_s=0.3)
    reader = next(thread for thread in threading.enumerate() if thread.name == f"first-frame {fifo}")
    deadline = time.monotonic() + 10
    while reader.is_alive() and time.monotonic() < deadline:
        with contextlib.suppress(OSError):  # ENXIO while no reader has the FIFO open
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        time.sleep(0.02)
    assert not reader.is_alive()
