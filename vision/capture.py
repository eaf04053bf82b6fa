"""Frame sources: a USB/IP camera through OpenCV, the Pi camera through picamera2, a replay of a video file or
an image folder, and the simulated table. Every source hands out ``Frame``s with a timestamp from the clock it
was given (replays and the simulation use their own frame time, so runs repeat exactly).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.errors import CaptureError, ImageError, VisionError
from vision.images import load_image
from vision.simtable import SimTable, Truth

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    index: int
    time: float


class Source(Protocol):
    def frames(self) -> Iterator[Frame]: ...


@dataclass(frozen=True)
class Settings:
    """Capture resolution and rate asked of a live camera (from the configuration)."""

    width: int = 1280
    height: int = 720
    fps: float = 10.0

    def to_dict(self) -> dict[str, int | float]:
        return {"width": self.width, "height": self.height, "fps": self.fps}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        try:
            settings = cls(int(data.get("width", 1280)), int(data.get("height", 720)), float(data.get("fps", 10.0)))
        except (TypeError, ValueError) as error:
            raise CaptureError(f"capture settings: {error}") from None
        if settings.width <= 0 or settings.height <= 0 or settings.fps <= 0:
            raise CaptureError(f"capture settings: width, height and fps must be positive, found {settings.to_dict()}")
        return settings


class OpenCVCamera:
    """A camera OpenCV can open: a device number (USB) or a stream URL."""

    def __init__(self, device: int | str, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.device, self.settings, self.clock = device, settings, clock

    def frames(self) -> Iterator[Frame]:
        capture = cv2.VideoCapture(self.device)
        if not capture.isOpened():
            raise CaptureError(f"camera {self.device!r}: cannot open")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.settings.width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.settings.height)
        capture.set(cv2.CAP_PROP_FPS, self.settings.fps)
        size = (int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        log.info("camera %r opened at %dx%d", self.device, *size)
        try:
            index = 0
            while True:
                ok, image = capture.read()
                if not ok:
                    raise CaptureError(f"camera {self.device!r}: no frame after {index} frames")
                yield Frame(image, index, self.clock())
                index += 1
        finally:
            capture.release()


class PiCamera:
    """The Raspberry Pi camera through picamera2 (Debian ``python3-picamera2`` on the Pi)."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings, self.clock = settings, clock

    def frames(self) -> Iterator[Frame]:
        try:
            from picamera2 import Picamera2  # only on a Pi
        except ImportError:
            raise CaptureError(
                "picamera: picamera2 is not installed (on the Pi: apt install python3-picamera2)"
            ) from None
        camera = Picamera2()
        size = (self.settings.width, self.settings.height)
        camera.configure(camera.create_video_configuration(main={"size": size, "format": "BGR888"}))
        camera.start()
        log.info("Pi camera started at %dx%d", *size)
        try:
            index = 0
            while True:
                yield Frame(camera.capture_array(), index, self.clock())
                index += 1
        finally:
            camera.stop()


class Replay:
    """A recorded video file or a folder of images (in name order), at a nominal frame rate."""

    def __init__(self, path: Path, fps: float = 10.0) -> None:
        self.path, self.fps = path, fps

    def frames(self) -> Iterator[Frame]:
        if self.path.is_dir():
            files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not files:
                raise CaptureError(f"{self.path}: no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
            log.info("replaying %d images from %s", len(files), self.path)
            for index, file in enumerate(files):
                try:
                    image = load_image(file, min_side=1)  # a frame is a frame, however small
                except ImageError as error:
                    raise CaptureError(str(error)) from None
                yield Frame(image, index, index / self.fps)
            return
        capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            raise CaptureError(f"{self.path}: not a video OpenCV can read")
        log.info("replaying video %s", self.path)
        try:
            index = 0
            while True:
                ok, image = capture.read()
                if not ok:
                    if index == 0:
                        raise CaptureError(f"{self.path}: no frames")
                    return
                yield Frame(image, index, index / self.fps)
                index += 1
        finally:
            capture.release()


class SimulatedCamera:
    """The simulated table's frames; ``truth`` collects what really happened, frame by frame."""

    def __init__(self, table: SimTable, fps: float = 10.0) -> None:
        self.table, self.fps = table, fps
        self.truth: list[Truth] = []

    def frames(self) -> Iterator[Frame]:
        for index, (image, events) in enumerate(self.table.frames()):
            self.truth += events
            yield Frame(image, index, index / self.fps)


def open_source(spec: str, settings: Settings = Settings(), clock: Callable[[], float] = time.monotonic) -> Source:
    """A source from its command-line spelling: ``sim[:SEED[:DISCARDS]]``, ``picamera``, a device number, a
    stream URL, a video file or an image folder."""
    if spec == "sim" or spec.startswith("sim:"):
        parts = spec.split(":")[1:]
        if len(parts) > 2 or not all(part.isascii() and part.isdigit() and len(part) < 20 for part in parts):
            raise CaptureError(f"source {spec!r}: expected sim, sim:SEED or sim:SEED:DISCARDS")
        seed = int(parts[0]) if parts else 0
        discards = int(parts[1]) if len(parts) > 1 else 24
        try:
            return SimulatedCamera(SimTable(seed, discards), settings.fps)
        except ValueError as error:
            raise CaptureError(f"source {spec!r}: {error}") from None
    if spec == "picamera":
        return PiCamera(settings, clock)
    if spec.isascii() and spec.isdigit() and len(spec) < 20:
        return OpenCVCamera(int(spec), settings, clock)
    if "://" in spec:
        return OpenCVCamera(spec, settings, clock)
    path = Path(spec)
    if not path.exists():
        raise CaptureError(f"source {spec!r}: no such file or folder (or use sim, picamera, a device number, a URL)")
    return Replay(path, settings.fps)


def first_frame(spec: str, settings: Settings = Settings(), timeout_s: float = 10.0) -> Frame:
    """The first frame of a source, which is then closed. It is read in a thread of its own so that a camera whose
    driver hangs (waiting for a sensor that is not connected) is reported after ``timeout_s`` instead of hanging
    the caller; that thread is left to finish, or not, on its own."""
    answers: queue.Queue[Frame | BaseException | None] = queue.Queue(maxsize=1)

    def read() -> None:
        try:
            frames = open_source(spec, settings).frames()
            try:
                answer: Frame | BaseException | None = next(frames, None)
            finally:
                frames.close()
        except Exception as error:  # a driver's own exception is the answer, handed to the caller to name
            answer = error
        answers.put(answer)

    threading.Thread(target=read, name=f"first-frame {spec}", daemon=True).start()
    try:
        answer = answers.get(timeout=timeout_s)
    except queue.Empty:
        raise CaptureError(f"source {spec!r}: no frame within {timeout_s:g} s") from None
    if isinstance(answer, VisionError):
        raise answer
    if isinstance(answer, BaseException):
        raise CaptureError(f"source {spec!r}: {type(answer).__name__}: {answer}") from answer
    if answer is None:
        raise CaptureError(f"source {spec!r}: no frame")
    return answer
