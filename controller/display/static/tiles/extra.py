"""Makes the tile faces the Unicode artwork has no face for, from its own faces (run once; the PNGs are committed):

- riichi's red fives ``0m.png 0p.png 0s.png`` (赤ドラ): the five with every stroke in red and a red corner mark, so
  that a red five stays told from a plain one even drawn small;
- 十万's tens ``10m.png 10p.png 10s.png``: 十 over 萬 (the 一 of 1m with its down stroke), and ten of the nine's
  dots or sticks in rows of 3, 4 and 3.

``python controller/display/static/tiles/extra.py`` (OpenCV and NumPy: the vision package's own dependencies).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
WIDTH, HEIGHT = 60, 77
RED = np.array([40, 40, 205], dtype=np.float32)  # BGR
ROWS = (3, 4, 3)


def ink(face: np.ndarray) -> np.ndarray:
    """How far each pixel is from the white ground, 0-1."""
    return 1.0 - face.min(axis=2).astype(np.float32) / 255.0


def red_five(face: np.ndarray) -> np.ndarray:
    amount = np.minimum(1.0, 1.7 * ink(face))[..., None]
    out = 255.0 * (1 - amount) + RED * amount
    corner = np.array([[WIDTH - 11, 0], [WIDTH - 1, 0], [WIDTH - 1, 10]], dtype=np.int32)
    out = out.astype(np.uint8)
    cv2.fillConvexPoly(out, corner, tuple(int(c) for c in RED))
    return out


def ten_characters(one: np.ndarray) -> np.ndarray:
    """十 over 萬: a down stroke through the 一 of 1m, in its colour and as thick as the 一 is."""
    out = one.copy()
    top = ink(one[: HEIGHT // 2]) > 0.5
    rows, cols = np.nonzero(top)
    thickness = max(2, int(np.median(np.bincount(cols)[np.bincount(cols) > 0])))
    colour = one[: HEIGHT // 2][top].mean(axis=0)
    middle = (cols.min() + cols.max()) // 2
    half = (cols.max() - cols.min()) // 2
    centre = int(rows.mean())
    cv2.line(out, (middle, max(1, centre - half)), (middle, centre + half), tuple(float(c) for c in colour), thickness)
    return out


def sprite(nine: np.ndarray) -> np.ndarray:
    """The nine's top left element (a dot, a stick): the nine lies in a 3 x 3 grid, the top left cell of its box."""
    rows, cols = np.nonzero(ink(nine) > 0.15)
    top, left = rows.min(), cols.min()
    height, width = (rows.max() - top + 1) // 3, (cols.max() - left + 1) // 3
    return nine[top : top + height, left : left + width]


def ten_of(nine: np.ndarray, middle_red: bool) -> np.ndarray:
    """Ten of the nine's elements in rows of 3, 4 and 3, scaled to fit; the middle row's in red where the nine has
    red in its middle (the dots)."""
    element = sprite(nine)
    row_height = (HEIGHT - 8) / len(ROWS)
    scale = min((WIDTH - 6) / (max(ROWS) * element.shape[1] * 1.08), row_height / (element.shape[0] * 1.08))
    small = cv2.resize(element, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    small = (255 - np.minimum(255, 1.6 * (255 - small.astype(np.float32)))).astype(np.uint8)  # strokes thinned: darker
    h, w = small.shape[:2]
    out = np.full((HEIGHT, WIDTH, 3), 255, np.uint8)
    for r, count in enumerate(ROWS):
        piece = small
        if middle_red and r == 1:
            amount = np.minimum(1.0, 1.7 * ink(small))[..., None]
            piece = (255.0 * (1 - amount) + RED * amount).astype(np.uint8)
        y = int(4 + r * row_height + (row_height - h) / 2)
        gap = (WIDTH - count * w) / (count + 1)
        for k in range(count):
            x = int(gap + k * (w + gap))
            out[y : y + h, x : x + w] = np.minimum(out[y : y + h, x : x + w], piece)
    return out


def main() -> None:
    face = {name: cv2.imread(str(HERE / f"{name}.png")) for name in ("5m", "5p", "5s", "1m", "9p", "9s")}
    for suit in "mps":
        cv2.imwrite(str(HERE / f"0{suit}.png"), red_five(face[f"5{suit}"]))
    cv2.imwrite(str(HERE / "10m.png"), ten_characters(face["1m"]))
    cv2.imwrite(str(HERE / "10p.png"), ten_of(face["9p"], middle_red=True))
    cv2.imwrite(str(HERE / "10s.png"), ten_of(face["9s"], middle_red=False))


if __name__ == "__main__":
    main()
