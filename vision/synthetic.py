"""Tile faces drawn from scratch in random styles, for training only (the ``train`` extra): every set draws its
characters in another font, its dots and bamboo in other shapes, colours and weights, and a reader that learned
from two real sets and two artworks takes a third set's 三萬 for 二萬 (issue 29). The suits are drawn by their
rules (the numeral over 萬, the dots' and sticks' patterns) and their style is drawn at random: the fonts of the
machine's CJK packages (``FONTS``), ink colours, stroke weights, sizes and places, tile body and mat.

The 1s is a bird of random shapes and colours (a peacock, a sparrow: sets differ): a reader that saw only the
other drawn kinds took a new set's bird for a drawn honour. No flowers or seasons: the real photos teach those.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from engine.tiles import Tile, parse_tile, tile_code

if TYPE_CHECKING:
    from PIL import ImageFont

FACE = (120, 160)
"""Px (w, h) of a drawn face."""
GLYPH_PX = 96
"""Px a character is rendered at before it is fitted to its place."""
FONTS = (
    "/usr/share/fonts/truetype/arphic/ukai.ttc",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
)
"""CJK fonts of Debian packages (``fonts-arphic-ukai``, ``-uming``, ``fonts-noto-cjk``, ``fonts-wqy-*``): brush,
serif and sans strokes."""
NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
INKS = {
    "blue": (150, 60, 20),
    "navy": (110, 40, 30),
    "green": (60, 130, 20),
    "dark green": (50, 90, 30),
    "red": (40, 40, 190),
    "black": (30, 30, 30),
}
"""BGR inks sets print in."""

DOTS = {
    1: [(0.5, 0.5, 0.4)],
    2: [(0.5, 0.27, 0.21), (0.5, 0.73, 0.21)],
    3: [(0.24, 0.2, 0.17), (0.5, 0.5, 0.17), (0.76, 0.8, 0.17)],
    4: [(x, y, 0.19) for y in (0.28, 0.72) for x in (0.28, 0.72)],
    5: [(x, y, 0.16) for y in (0.22, 0.78) for x in (0.24, 0.76)] + [(0.5, 0.5, 0.16)],
    6: [(x, 0.2, 0.15) for x in (0.28, 0.72)] + [(x, y, 0.15) for y in (0.56, 0.84) for x in (0.28, 0.72)],
    7: [(0.22, 0.12, 0.12), (0.5, 0.24, 0.12), (0.78, 0.36, 0.12)]
    + [(x, y, 0.12) for y in (0.62, 0.87) for x in (0.28, 0.72)],
    8: [(x, y, 0.12) for y in (0.13, 0.38, 0.62, 0.87) for x in (0.28, 0.72)],
    9: [(x, y, 0.13) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)],
}
"""Dot centres and radii (fractions of the face's width and height; radius of its width) by number."""
STICKS = {
    2: [(0.5, 0.27, 0), (0.5, 0.73, 0)],
    3: [(0.5, 0.27, 0), (0.3, 0.73, 0), (0.7, 0.73, 0)],
    4: [(x, y, 0) for y in (0.27, 0.73) for x in (0.3, 0.7)],
    5: [(x, y, 0) for y in (0.27, 0.73) for x in (0.22, 0.78)] + [(0.5, 0.5, 0)],
    6: [(x, y, 0) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.17, 0)] + [(x, y, 0) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)],
    8: [(x, 0.27, t) for x, t in ((0.14, 20), (0.38, -20), (0.62, 20), (0.86, -20))]
    + [(x, 0.73, t) for x, t in ((0.14, -20), (0.38, 20), (0.62, -20), (0.86, 20))],
    9: [(x, y, 0) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}
"""Stick centres and tilts (degrees) by number; a stick is about a third of the face high."""


@dataclass(frozen=True)
class Drawn:
    """A drawn tile lying on a mat, as ``vision.train.real_view`` cuts a photo's: ``patch`` and the face's ``quad``
    (top-left first, clockwise), upright."""

    patch: np.ndarray
    quad: np.ndarray
    tile: Tile


def _ink(rng: np.random.Generator, *names: str) -> np.ndarray:
    return np.clip(np.float32(INKS[str(rng.choice(names))]) * rng.uniform(0.8, 1.2, 3) / 255, 0, 1).astype(np.float32)


def _bgr(ink: np.ndarray) -> tuple[float, float, float]:
    """An ink as OpenCV's drawing functions take a colour."""
    return float(ink[0]), float(ink[1]), float(ink[2])


@functools.lru_cache(maxsize=len(FONTS) * 2)
def _font(path: Path, index: int) -> ImageFont.FreeTypeFont:
    """A font face loaded once (a CJK collection is tens of MB; 2,000 faces ask for one of 16)."""
    from PIL import ImageFont

    return ImageFont.truetype(str(path), GLYPH_PX, index=index)


def _glyph(text: str, font: Path, rng: np.random.Generator) -> np.ndarray:
    """A float32 mask of ``text`` in ``font``, cut to its ink."""
    from PIL import Image, ImageDraw

    loaded = _font(font, int(rng.integers(0, 2)) if font.suffix == ".ttc" else 0)
    image = Image.new("L", (GLYPH_PX * len(text) + 32, GLYPH_PX + 48), 0)
    ImageDraw.Draw(image).text((16, 16), text, fill=255, font=loaded)
    mask = np.asarray(image, np.float32) / 255
    rows, cols = np.flatnonzero(mask.max(axis=1) > 0.2), np.flatnonzero(mask.max(axis=0) > 0.2)
    mask = mask[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    weight = int(rng.integers(-1, 3))  # thinner or bolder strokes than the font's
    kernel = np.ones((3, 3), np.uint8)
    if weight > 0:
        mask = cv2.dilate(mask, kernel, iterations=weight)
    elif weight < 0:
        mask = cv2.erode(mask, kernel)
    return mask


def _put(face: np.ndarray, mask: np.ndarray, box: tuple[float, float, float, float], ink: np.ndarray) -> None:
    """Paint ``mask`` in ``ink`` as large as it fits in ``box`` (x, y, w, h as fractions of the face), centred,
    keeping its shape (a 一 stays a stroke)."""
    h, w = face.shape[:2]
    scale = min(box[2] * w / mask.shape[1], box[3] * h / mask.shape[0])
    bw, bh = max(2, min(w, int(mask.shape[1] * scale))), max(2, min(h, int(mask.shape[0] * scale)))
    x0 = min(max(int((box[0] + box[2] / 2) * w - bw / 2), 0), w - bw)
    y0 = min(max(int((box[1] + box[3] / 2) * h - bh / 2), 0), h - bh)
    alpha = cv2.resize(mask, (bw, bh), interpolation=cv2.INTER_AREA)[..., None]
    region = face[y0 : y0 + bh, x0 : x0 + bw]
    region[:] = region * (1 - alpha) + ink * alpha


def _dot(face: np.ndarray, x: float, y: float, r: float, ink: np.ndarray, rng: np.random.Generator) -> None:
    h, w = face.shape[:2]
    centre, radius = (int(x * w), int(y * h)), max(3, int(r * w * rng.uniform(0.85, 1.1)))
    colour = _bgr(ink)
    style = int(rng.integers(0, 3))
    thickness = max(1, int(radius * rng.uniform(0.12, 0.3)))
    cv2.circle(face, centre, radius, colour, thickness, cv2.LINE_AA)
    if style == 0:  # a ring in a ring, a filled middle
        cv2.circle(face, centre, max(1, int(radius * 0.35)), colour, -1, cv2.LINE_AA)
    elif style == 1:  # petals round a middle
        for angle in np.arange(0, 360, 45) + rng.uniform(0, 45):
            a = np.deg2rad(angle)
            spot = (int(centre[0] + np.cos(a) * radius * 0.6), int(centre[1] + np.sin(a) * radius * 0.6))
            cv2.circle(face, spot, max(1, int(radius * 0.15)), colour, -1, cv2.LINE_AA)
        cv2.circle(face, centre, max(1, int(radius * 0.25)), colour, -1, cv2.LINE_AA)
    else:  # filled, with a white eye
        cv2.circle(face, centre, radius, colour, -1, cv2.LINE_AA)
        cv2.circle(face, centre, max(1, int(radius * 0.4)), (1.0, 1.0, 1.0), -1, cv2.LINE_AA)
        cv2.circle(face, centre, max(1, int(radius * 0.15)), colour, -1, cv2.LINE_AA)


def _stick(face: np.ndarray, x: float, y: float, tilt: float, size: float, weight: float, ink: np.ndarray) -> None:
    """A bamboo stick: a rounded bar with a node in its middle and at its ends."""
    h, w = face.shape[:2]
    length, width = size * h * 0.3, size * w * weight
    a = np.deg2rad(tilt)
    axis = np.array([np.sin(a), np.cos(a)]) * length / 2
    centre = np.array([x * w, y * h])
    colour = _bgr(ink)
    ends = [tuple(int(v) for v in centre + s * axis) for s in (-1, 1)]
    cv2.line(face, ends[0], ends[1], colour, max(2, int(width)), cv2.LINE_AA)
    for s in (-1, 0, 1):
        spot = tuple(int(v) for v in centre + s * axis * 0.95)
        cv2.ellipse(face, spot, (max(2, int(width * 0.8)), max(1, int(width * 0.3))), -tilt, 0, 360, colour, -1)
    cv2.line(face, ends[0], ends[1], (1.0, 1.0, 1.0), max(1, int(width * 0.2)))


def _bird(face: np.ndarray, rng: np.random.Generator) -> None:
    """A bird standing on the face: a tilted body, a wing, a head with a beak and crest, a fanned tail, legs, each
    part in one of three random inks."""
    h, w = face.shape[:2]
    inks = [_bgr(_ink(rng, *INKS)) for _ in range(3)]
    scale = rng.uniform(0.8, 1.1)
    cx, cy = w * rng.uniform(0.4, 0.6), h * rng.uniform(0.42, 0.58)
    tilt = rng.uniform(-40, 40)
    body = (int(w * 0.3 * scale), int(h * 0.15 * scale))
    a = np.deg2rad(tilt)
    along = np.array([np.cos(a), np.sin(a)])
    head = np.array([cx, cy]) + along * body[0] * 1.1 + np.array([0, -body[1] * 1.2])
    for _ in range(int(rng.integers(3, 7))):  # the tail, fanned behind
        spread = np.deg2rad(tilt + 180 + rng.uniform(-50, 50))
        end = np.array([cx, cy]) + np.array([np.cos(spread), np.sin(spread)]) * w * rng.uniform(0.35, 0.6) * scale
        cv2.line(face, (int(cx), int(cy)), (int(end[0]), int(end[1])), inks[2], int(rng.integers(2, 6)), cv2.LINE_AA)
        cv2.circle(face, (int(end[0]), int(end[1])), int(rng.integers(3, 7)), inks[int(rng.integers(3))], -1)
    cv2.ellipse(face, (int(cx), int(cy)), body, tilt, 0, 360, inks[0], -1, cv2.LINE_AA)
    cv2.ellipse(face, (int(cx), int(cy - body[1] * 0.3)), (body[0] // 2, body[1] // 2), tilt - 20, 0, 360, inks[1], -1)
    cv2.circle(face, (int(head[0]), int(head[1])), int(body[1] * 0.7), inks[1], -1, cv2.LINE_AA)
    beak = head + along * body[1] * 0.9
    cv2.line(face, (int(head[0]), int(head[1])), (int(beak[0]), int(beak[1])), inks[2], 3)
    cv2.line(face, (int(head[0]), int(head[1])), (int(head[0]), int(head[1] - body[1])), inks[2], 2)
    for side in (-1, 1):
        foot = (int(cx + side * body[0] * 0.3), int(cy + body[1] * 2.2))
        cv2.line(face, (int(cx + side * body[0] * 0.3), int(cy)), foot, inks[2], 2)


def draw_face(tile: Tile, fonts: list[Path], rng: np.random.Generator) -> np.ndarray:
    """A face of ``tile`` in a random style: float32 BGR ink on white (1.0), ``FACE`` px."""
    w, h = FACE
    face = np.ones((h, w, 3), np.float32)
    code = tile_code(tile)
    number, suit = int(code[0]), code[1]
    font = fonts[int(rng.integers(len(fonts)))]
    if suit == "m":
        start, high, gap = rng.uniform(0.04, 0.1), rng.uniform(0.25, 0.42), rng.uniform(0.02, 0.08)
        numeral = _glyph(NUMERALS[number - 1], font, rng)
        span = rng.uniform(0.55, 0.85)
        _put(face, numeral, ((1 - span) / 2, start, span, high), _ink(rng, "blue", "navy", "black", "green"))
        wan = _glyph("萬" if rng.random() < 0.9 else "万", font, rng)
        span = rng.uniform(0.6, 0.9)
        below = start + high + gap
        _put(face, wan, ((1 - span) / 2, below, span, 0.96 - below), _ink(rng, "red", "red", "black"))
    elif suit == "z" and number <= 4:
        span = rng.uniform(0.6, 0.85)
        _put(face, _glyph(WINDS[number - 1], font, rng), ((1 - span) / 2, 0.12, span, 0.76), _ink(rng, *INKS))
    elif code == "5z":
        if rng.random() < 0.7:  # a frame; else a blank face
            ink = _bgr(_ink(rng, "blue", "navy", "black"))
            inset = rng.uniform(0.1, 0.2)
            cv2.rectangle(face, (int(w * inset), int(h * inset)), (int(w * (1 - inset)), int(h * (1 - inset))), ink, 5)
    elif code in ("6z", "7z"):
        span = rng.uniform(0.65, 0.9)
        ink = _ink(rng, "green", "dark green") if code == "6z" else _ink(rng, "red")
        _put(face, _glyph("發" if code == "6z" else "中", font, rng), ((1 - span) / 2, 0.12, span, 0.76), ink)
    elif suit == "p":
        inks = [_ink(rng, *INKS) for _ in range(3)]
        for index, (x, y, r) in enumerate(DOTS[number]):
            _dot(face, x, y, r, inks[index * 3 // len(DOTS[number])], rng)
    elif code == "1s":
        _bird(face, rng)
    elif suit == "s":
        inks = [_ink(rng, "green", "dark green", "blue", "red") for _ in range(2)]
        size = rng.uniform(0.8, 1.05) * (0.8 if number in (7, 9) else 1.0)
        weight = rng.uniform(0.09, 0.2)
        for index, (x, y, tilt) in enumerate(STICKS[number]):
            _stick(face, x, y, tilt, size, weight, inks[int(index % 3 == 1 and rng.random() < 0.5)])
    else:
        raise ValueError(f"{code}: not drawn")
    return face


DRAWN = [parse_tile(code) for code in [f"{n}m" for n in range(1, 10)] + [f"{n}p" for n in range(1, 10)]]
DRAWN += [parse_tile(f"{n}s") for n in range(1, 10)] + [parse_tile(f"{n}z") for n in range(1, 8)]
"""The kinds ``draw_face`` draws."""


def drawn_tile(tile: Tile, fonts: list[Path], rng: np.random.Generator) -> Drawn:
    """``tile``'s random face on a tile body of a random colour, lying on a mat, its face's corners."""
    face = draw_face(tile, fonts, rng)
    body = np.float32([rng.uniform(200, 250), rng.uniform(215, 250), rng.uniform(220, 255)])
    w, h = FACE
    margin = int(rng.uniform(0.02, 0.1) * w)
    pad = w // 2
    patch = np.empty((h + 2 * margin + 2 * pad, w + 2 * margin + 2 * pad, 3), np.float32)
    patch[:] = rng.uniform(20, 160, 3)
    top, left = pad, pad
    tile_h, tile_w = h + 2 * margin, w + 2 * margin
    patch[top : top + tile_h, left : left + tile_w] = body
    side = int(rng.uniform(0, 0.2) * tile_h)  # the tile's thick side, below its face
    patch[top + tile_h : top + tile_h + side, left : left + tile_w] = body * rng.uniform(0.6, 0.9)
    patch[top + margin : top + margin + h, left + margin : left + margin + w] = face * body
    quad = np.float32([[left, top], [left + tile_w, top], [left + tile_w, top + tile_h], [left, top + tile_h]])
    return Drawn(np.clip(patch, 0, 255).astype(np.uint8), quad, tile)


def missing_fonts() -> str | None:
    """What to say when a font of ``FONTS`` is not on this machine (all are needed, or a reader trained here would
    differ from one trained elsewhere), or None."""
    missing = [path for path in FONTS if not Path(path).exists()]
    if not missing:
        return None
    return (
        f"fonts missing: {', '.join(missing)} (apt-get install fonts-arphic-ukai fonts-arphic-uming "
        "fonts-noto-cjk fonts-wqy-microhei fonts-wqy-zenhei)"
    )


def drawn_tiles(per_kind: int, rng: np.random.Generator) -> list[Drawn]:
    """``per_kind`` drawn tiles of each kind of ``DRAWN``, in every font of ``FONTS``."""
    if (missing := missing_fonts()) is not None:
        raise FileNotFoundError(missing)
    fonts = [Path(path) for path in FONTS]
    return [drawn_tile(tile, fonts, rng) for tile in DRAWN for _ in range(per_kind)]
