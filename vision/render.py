"""Synthetic overhead frames of a table from the tile artwork: perspective, uneven and changing light, blur,
sensor noise, drop shadows and hands passing over. The simulated camera and the tests see the table through this.

Everything random comes from the ``numpy.random.Generator`` passed in, so a seed gives the same frame.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.tiles import Tile
from vision.artwork import BODY_COLOURS, load_faces
from vision.geometry import DEFAULT_LAYOUT, TILE_H_MM, TILE_W_MM, Layout, apply

CANVAS_PPM = 1.6
"""Pixels per mm of the top-down canvas drawn before the perspective warp (above the camera's ~1 px/mm)."""
MAT_BGR = (52, 88, 34)
FLOOR_BGR = (40, 45, 55)


@dataclass(frozen=True)
class Placed:
    """A face-up tile on the table: centre (mm, table frame) and rotation in degrees (0: its top towards -y,
    upright for seat 0; positive turns it clockwise as the camera sees it)."""

    tile: Tile
    x: float
    y: float
    angle: float = 0.0


@dataclass(frozen=True)
class Hand:
    """A hand above the table: palm centre (mm), the direction the fingers point (degrees) and a size factor."""

    x: float
    y: float
    angle: float
    scale: float = 1.0


@dataclass(frozen=True)
class Scene:
    tiles: tuple[Placed, ...] = ()
    hands: tuple[Hand, ...] = ()
    layout: Layout = field(default_factory=Layout)
    markers: bool = True
    style: str = "uni"


@dataclass(frozen=True)
class Camera:
    """A pinhole view of the table: ``homography`` maps table mm to image pixels."""

    homography: np.ndarray
    width: int = 1280
    height: int = 720


@dataclass(frozen=True)
class Look:
    """Light and sensor: overall gain, colour tint (BGR gains), linear light gradient across the frame, one soft
    shadow (centre and radius as fractions of the frame, depth 0-1), optical blur (sigma px) and noise (sigma)."""

    gain: float = 1.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    gradient: tuple[float, float] = (0.0, 0.0)
    shadow: tuple[float, float, float, float] = (0.5, 0.5, 0.2, 0.0)
    blur: float = 0.5
    noise: float = 2.0


def default_camera(layout: Layout = DEFAULT_LAYOUT, width: int = 1280, height: int = 720) -> Camera:
    """A camera slightly tilted towards seat 2, the table area filling the frame's height."""
    half = layout.area / 2
    table = np.float32([[-half, -half], [half, -half], [half, half], [-half, half]])
    w, h = width, height
    image = np.float32([[w * 0.245, h * 0.03], [w * 0.755, h * 0.03], [w * 0.78, h * 0.975], [w * 0.22, h * 0.975]])
    return Camera(cv2.getPerspectiveTransform(table, image).astype(np.float64), width, height)


PATCH_SPOT = (0.0, 190.0)
"""Where single-tile pictures are taken: on the mat, in seat 0's discard zone."""


def patch_camera(rng: np.random.Generator, size: tuple[int, int], ppm: tuple[float, float] = (0.85, 1.35)) -> Camera:
    """A small camera centred on ``PATCH_SPOT``, at a random scale in ``ppm`` px/mm, turned and tilted a little:
    how one tile looks to the table camera, or in a rough crop of its frame."""
    scale = rng.uniform(*ppm)
    turn = np.deg2rad(rng.uniform(-4, 4))
    c, s = np.cos(turn) * scale, np.sin(turn) * scale
    affine = np.array([[c, -s, size[0] / 2], [s, c, size[1] / 2], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, 1, 0], [rng.normal(0, 4e-4), rng.normal(0, 4e-4), 1]])
    spot = np.array([[1, 0, -PATCH_SPOT[0]], [0, 1, -PATCH_SPOT[1]], [0, 0, 1]])
    return Camera(affine @ tilt @ spot, size[0], size[1])


def tile_photo(tile: Tile, style: str, rng: np.random.Generator, size: tuple[int, int] = (56, 68)) -> np.ndarray:
    """A roughly cropped camera picture of one upright tile with some mat around it (enrollment material)."""
    scene = Scene((Placed(tile, *PATCH_SPOT, float(rng.uniform(-3, 3))),), markers=False, style=style)
    return render(scene, patch_camera(rng, size, (1.1, 1.3)), random_look(rng), rng)


def random_look(rng: np.random.Generator) -> Look:
    """Light from dim to bright, warm to cold, with a gradient, a shadow, some blur and noise."""
    return Look(
        gain=float(rng.uniform(0.65, 1.25)),
        tint=tuple(float(t) for t in rng.uniform(0.88, 1.12, 3)),  # type: ignore[arg-type]
        gradient=(float(rng.uniform(-0.25, 0.25)), float(rng.uniform(-0.25, 0.25))),
        shadow=(
            float(rng.uniform(0, 1)),
            float(rng.uniform(0, 1)),
            float(rng.uniform(0.1, 0.35)),
            float(rng.uniform(0, 0.4)),
        ),
        blur=float(rng.uniform(0.2, 1.0)),
        noise=float(rng.uniform(1.0, 5.0)),
    )


@functools.cache
def _sprite(tile: Tile, style: str, ppm: float) -> tuple[np.ndarray, np.ndarray]:
    """The tile seen from straight above (BGR float32, alpha): body colour, bevelled rim, face."""
    w, h = round(TILE_W_MM * ppm), round(TILE_H_MM * ppm)
    mask = np.zeros((h, w), np.uint8)
    r = max(1, round(2.5 * ppm))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    # The rim falls off over ~1.2 mm, lit a little more from the top left.
    inside = cv2.distanceTransform(mask, cv2.DIST_L2, 3) / ppm
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    tilt = 1 + 0.04 * ((w / 2 - xx) / w + (h / 2 - yy) / h)
    shade = (0.72 + 0.28 * np.clip(inside / 1.2, 0, 1)) * tilt
    face = cv2.resize(load_faces(style)[tile], (w, h), interpolation=cv2.INTER_AREA)
    colour = face * np.float32(BODY_COLOURS[style]) * shade[..., None]
    return colour.astype(np.float32), (mask > 0).astype(np.float32)


def _hand_mask(hand: Hand, ppm: float, origin: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """A palm with four fingers and a thumb, as a float mask on the canvas."""
    mask = np.zeros(shape, np.uint8)
    s = hand.scale * ppm
    centre = (np.array([hand.x, hand.y]) - origin) * ppm
    a = np.deg2rad(hand.angle)
    fwd, side = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])

    def pt(f: float, q: float) -> tuple[int, int]:
        p = centre + fwd * f * s + side * q * s
        return int(p[0]), int(p[1])

    cv2.ellipse(mask, pt(0, 0), (int(50 * s), int(42 * s)), float(hand.angle), 0, 360, 255, -1)
    for q, length in ((-27, 70), (-9, 80), (9, 76), (26, 62)):
        cv2.line(mask, pt(35, q), pt(35 + length, q * 1.1), 255, max(1, int(17 * s)))
    cv2.line(mask, pt(0, 40), pt(40, 75), 255, max(1, int(20 * s)))
    cv2.line(mask, pt(-20, 0), pt(-160, 0), 255, max(1, int(60 * s)))  # wrist and forearm
    return cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 0.8 * ppm)


def _view_box(camera: Camera, layout: Layout) -> tuple[np.ndarray, int, int]:
    """Table-frame origin (mm) and canvas size covering what the camera sees of the table area."""
    corners = np.array([[0, 0], [camera.width, 0], [camera.width, camera.height], [0, camera.height]], np.float64)
    seen = apply(np.linalg.inv(camera.homography), corners)
    half = layout.area / 2 + 20
    lo = np.clip(seen.min(axis=0), -half, half)
    hi = np.clip(seen.max(axis=0), -half, half)
    size = np.maximum(np.ceil((hi - lo) * CANVAS_PPM).astype(int), 1)
    return lo, int(size[0]), int(size[1])


def _paste(canvas: np.ndarray, colour: np.ndarray, alpha: np.ndarray, matrix: np.ndarray) -> None:
    """Alpha-composite a sprite onto the canvas through a 2x3 affine matrix, only over its bounding box."""
    h, w = alpha.shape
    box = cv2.transform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), matrix)[0]
    x0, y0 = np.maximum(np.floor(box.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(box.max(axis=0)).astype(int) + 1, (canvas.shape[1], canvas.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return
    shifted = matrix.copy()
    shifted[:, 2] -= (x0, y0)
    size = (int(x1 - x0), int(y1 - y0))
    a = cv2.warpAffine(alpha, shifted, size)[..., None]
    c = cv2.warpAffine(colour, shifted, size)
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + c * a


def _markers(canvas: np.ndarray, layout: Layout, origin: np.ndarray) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = round(layout.marker * CANVAS_PPM)
    quiet = round(5 * CANVAS_PPM)
    for marker_id, centre in enumerate(layout.marker_centres()):
        image = cv2.aruco.generateImageMarker(dictionary, marker_id, side).astype(np.float32)
        image = cv2.copyMakeBorder(image, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=255.0) * 0.9
        x, y = np.round((centre - origin) * CANVAS_PPM - image.shape[1] / 2).astype(int)
        h, w = image.shape
        if min(x, y) >= 0 and x + w <= canvas.shape[1] and y + h <= canvas.shape[0]:
            canvas[y : y + h, x : x + w] = image[..., None]


def _canvas(scene: Scene, origin: np.ndarray, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    canvas = np.empty((height, width, 3), np.float32)
    canvas[:] = FLOOR_BGR
    cx, cy = np.round(-origin * CANVAS_PPM).astype(int)
    half = round((scene.layout.area / 2 + 15) * CANVAS_PPM)
    cv2.rectangle(canvas, (cx - half, cy - half), (cx + half, cy + half), MAT_BGR, -1)
    console = round(110 * CANVAS_PPM)
    cv2.rectangle(canvas, (cx - console, cy - console), (cx + console, cy + console), (38, 38, 42), -1)
    if scene.markers:
        _markers(canvas, scene.layout, origin)
    for placed in scene.tiles:
        colour, alpha = _sprite(placed.tile, scene.style, CANVAS_PPM)
        h, w = alpha.shape
        centre = (np.array([placed.x, placed.y]) - origin) * CANVAS_PPM
        matrix = cv2.getRotationMatrix2D((w / 2, h / 2), -placed.angle, 1.0)
        matrix[:, 2] += centre - (w / 2, h / 2)
        shadow = matrix.copy()
        shadow[:, 2] += 1.2 * CANVAS_PPM
        _paste(canvas, np.zeros_like(colour), cv2.GaussianBlur(alpha, (0, 0), 1.5) * 0.45, shadow)
        _paste(canvas, colour, alpha, matrix)
    for hand in scene.hands:
        mask = _hand_mask(hand, CANVAS_PPM, origin, (height, width))
        shade = cv2.GaussianBlur(np.roll(mask, (round(25 * CANVAS_PPM),) * 2, axis=(0, 1)), (0, 0), 10)
        canvas *= 1 - 0.45 * shade[..., None]
        skin = np.float32((120, 150, 205)) * float(rng.uniform(0.7, 1.1))
        canvas[:] = canvas * (1 - mask[..., None]) + skin * mask[..., None]
    return canvas


def render(scene: Scene, camera: Camera, look: Look, rng: np.random.Generator) -> np.ndarray:
    """One BGR uint8 frame of the scene through the camera, under the given light."""
    origin, width, height = _view_box(camera, scene.layout)
    canvas = _canvas(scene, origin, width, height, rng)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    to_table = np.array([[1 / CANVAS_PPM, 0, origin[0]], [0, 1 / CANVAS_PPM, origin[1]], [0, 0, 1]])
    frame = cv2.warpPerspective(
        canvas,
        camera.homography @ to_table,
        (camera.width, camera.height),
        flags=cv2.INTER_LINEAR,
        borderValue=FLOOR_BGR,
    )
    frame *= _light(look, camera.width, camera.height)[..., None] * np.float32(look.tint)
    if look.blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), look.blur)
    noise = np.empty_like(frame)
    cv2.randn(noise, 0, look.noise)  # seeded below from rng: numpy's normal() is ten times slower here
    frame += noise
    return np.clip(frame, 0, 255).astype(np.uint8)


def _light(look: Look, width: int, height: int) -> np.ndarray:
    """Smooth light field, computed on a coarse grid and scaled up (it has no detail to lose)."""
    h, w = height // 8, width // 8
    yn, xn = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = xn / w, yn / h
    sx, sy, radius, depth = look.shadow
    light = look.gain * (1 + look.gradient[0] * (xn - 0.5) + look.gradient[1] * (yn - 0.5))
    light *= 1 - depth * np.exp(-((xn - sx) ** 2 + ((yn - sy) * h / w) ** 2) / (2 * radius**2))
    return cv2.resize(light.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
