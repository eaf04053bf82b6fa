"""A labelled overhead photo as a camera tilted off overhead would see it (issue 29: perspective up to 20 degrees):
the table camera is mounted above the table but not always square to it, and the scenes' photos are nearly all
taken from straight above, so the detector's figures say nothing of a tilt unless the photos are tilted too."""

from __future__ import annotations

import cv2
import numpy as np

from vision.scenes import Box

FOCAL = 1.0
"""The camera's focal length in image widths (a field of view of about 53 degrees across, a phone's or a Pi
camera's)."""


def tilt_homography(width: int, height: int, degrees: float) -> np.ndarray:
    """The homography taking a photo to what a camera turned ``degrees`` about the photo's horizontal axis through
    its centre sees (the far side smaller), scaled and moved so that the whole photo stays inside the same size
    (black around it: no tile colour)."""
    focal = FOCAL * width
    camera = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    angle = np.deg2rad(degrees)
    turn = np.array([[1, 0, 0], [0, np.cos(angle), -np.sin(angle)], [0, np.sin(angle), np.cos(angle)]])
    warp = camera @ turn @ np.linalg.inv(camera)
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    seen = cv2.perspectiveTransform(corners[None], warp)[0]
    low, high = seen.min(axis=0), seen.max(axis=0)
    scale = min(width / (high[0] - low[0]), height / (high[1] - low[1]))
    fit = np.array([[scale, 0, -low[0] * scale], [0, scale, -low[1] * scale], [0, 0, 1]])
    return fit @ warp


def tilted(image: np.ndarray, boxes: list[Box], degrees: float) -> tuple[np.ndarray, list[Box]]:
    """A photo and its labelled boxes seen ``degrees`` off overhead (``tilt_homography``): each box becomes the box
    around its warped corners (a tile's face is a trapezium now, its label axis-aligned as the scenes' are)."""
    height, width = image.shape[:2]
    warp = tilt_homography(width, height, degrees)
    seen = cv2.warpPerspective(image, warp, (width, height), flags=cv2.INTER_LINEAR)
    out = []
    for box in boxes:
        corners = np.array([[box.x0, box.y0], [box.x1, box.y0], [box.x1, box.y1], [box.x0, box.y1]], np.float64)
        warped = cv2.perspectiveTransform(corners[None], warp)[0]
        out.append(Box(*warped.min(axis=0), *warped.max(axis=0), kind=box.kind))
    return seen, out
