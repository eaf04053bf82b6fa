"""``mjtable doctor``'s camera check: the ``[camera]`` source gives a frame, the calibration's zones lie inside it,
the model loads. Every problem is named with its key, all in one answer, so one run lists everything to fix.

Imported only when a camera is configured: it loads OpenCV, which the rest of the doctor does not need.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from controller.config import CameraSection
from controller.errors import ControllerError
from vision import calibrate
from vision.calibrate import Calibration
from vision.capture import first_frame
from vision.classify import load_model
from vision.errors import VisionError

FRAME_TIMEOUT_S = 10.0
"""A camera gives its first frame within a few seconds of opening; one that has not in this long is not working."""


def _calibration(camera: CameraSection, image: np.ndarray | None) -> tuple[Calibration | None, str]:
    """The calibration and where it came from: the file, else the markers of the frame (as ``vision watch``)."""
    if camera.calibration:
        return calibrate.load(Path(camera.calibration)), camera.calibration
    if image is None:
        return None, ""
    return calibrate.from_markers(image), "the markers in the frame"


def _zone_problem(calibration: Calibration, where: str, image: np.ndarray, source: str) -> str | None:
    """What is wrong between the calibration and the frame: zones outside it (named), or another frame size."""
    height, width = image.shape[:2]
    outside = calibrate.zones_outside(calibration, width, height)
    if outside:
        return (
            f"camera.calibration: {where}: zones outside the {width}x{height} frame of {source!r}: "
            f"{', '.join(outside)} (calibrated on a {calibration.width}x{calibration.height} frame)"
        )
    if (calibration.width, calibration.height) != (width, height):
        return (
            f"camera.calibration: {where} was made on a {calibration.width}x{calibration.height} frame, "
            f"{source!r} gives {width}x{height}: re-run 'mjtable vision calibrate'"
        )
    return None


def check_camera(camera: CameraSection, timeout_s: float = FRAME_TIMEOUT_S) -> str:
    """What the camera setup is, or a ``ControllerError`` naming every key that is wrong."""
    found: list[str] = []
    problems: list[str] = []
    image = None
    try:
        image = first_frame(camera.source, timeout_s=timeout_s).image
        found.append(f"source {camera.source!r}: a {image.shape[1]}x{image.shape[0]} frame")
    except VisionError as error:
        problems.append(f"camera.source: {error}")
    try:
        calibration, where = _calibration(camera, image)
    except VisionError as error:
        problems.append(f"camera.calibration: {error}")
    else:
        if calibration is not None and image is not None:
            problem = _zone_problem(calibration, where, image, camera.source)
            if problem:
                problems.append(problem)
            else:
                found.append(f"calibration {where}: all 8 zones inside the frame")
    try:
        model = load_model(Path(camera.model) if camera.model else None)
        found.append(f"model {camera.model or 'default'}: {len(model.kinds)} kinds")
    except VisionError as error:
        problems.append(f"camera.model: {error}")
    if problems:
        raise ControllerError("; ".join(problems))
    return "; ".join(found)
