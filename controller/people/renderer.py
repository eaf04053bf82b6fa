"""The simulated camera's frames rendered in a process of their own.

Rendering a frame draws the whole table top-down at 1.6 px/mm in float32 before the perspective warp: tens of MB
a frame and a cache of tile sprites, which kept the service's resident memory near 180 MB in camera mode. That is
the camera's work, which a real table's camera module does outside the service; in its own process it leaves the
service with the frames only (2.7 MB each, sent through a pipe). ``bench/bench_service.py`` reports both
processes' memory.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from vision.render import Camera, Look, Scene, render


def _serve(connection: Connection, camera: Camera) -> None:
    """The render process: ``("seed", s)`` restarts the noise from ``s``; ``(scene, look)`` answers a frame; None
    ends."""
    rng = np.random.default_rng(0)
    while (request := connection.recv()) is not None:
        if request[0] == "seed":
            rng = np.random.default_rng(request[1])
            continue
        scene, look = request
        connection.send(render(scene, camera, look, rng))


class Renderer:
    """Frames of ``camera`` from a spawned process (not forked: the service runs threads)."""

    def __init__(self, camera: Camera) -> None:
        self.camera = camera
        context = multiprocessing.get_context("spawn")
        self._connection, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, camera), name="mjtable-camera", daemon=True)
        self._process.start()
        child.close()

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def reseed(self, seed: Any) -> None:
        self._connection.send(("seed", seed))

    def render(self, scene: Scene, look: Look) -> np.ndarray:
        self._connection.send((scene, look))
        return self._connection.recv()

    def close(self) -> None:
        with contextlib.suppress(OSError):  # the process is gone already
            self._connection.send(None)
        self._process.join(5)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        self._connection.close()
