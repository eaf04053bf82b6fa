"""Tile detection on real photos and its speed on the table's frames, the shipped detector against a reference
detector (by default the one before detection was reworked for real photos), measured in one process on one core.

Real photos: the overhead photos of ``shared/photos/scenes`` (``vision/scenes_views.csv`` says which: tiles lying
face up seen from above; standing hands, close-ups and heaps are left out), each given the tile size a calibration
would (``vision.scenes.tile_size``: the width and height of an upright face in the photo's stretched pixels, from
the median label box, or for rows laid at an angle solved from the boxes and their spacing along the row; the
detector gets both, as ``vision detect --tile-px W,H`` does). A labelled tile is found when
a detection's box overlaps its box at IoU >= 0.5 (each used once); a detection that matches no label is a false
tile. The reference detector gets the same scaled photo and its ``find_tiles``.

Speed: the median time to find the tiles of every zone (eight rectified, segmented, parted) of a rendered 1280x720
frame with 20 discards, for both detectors, and the whole frame read (found and read by the current reader), as
milliseconds and as ratios to a 5x5 Gaussian blur of the same frame.

Per series of photos (``vision.scenes.series``), the shipped detector's figures; its parameters were tuned on the
trays and the green mat, the red mat and the hands are held out (``HELD_OUT``). ``--view heap`` (or another view)
measures photos the table never sees, for information.

    python bench/bench_detect.py [--reference REV] [--photos N] [--view VIEW] [--series SERIES] [--json]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, before numpy loads its BLAS
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

cv2.setNumThreads(1)
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.timing import median_ms  # noqa: E402
from vision import detect as shipped  # noqa: E402
from vision import recognize, scenes  # noqa: E402
from vision.calibrate import from_markers  # noqa: E402
from vision.classify import load_model  # noqa: E402
from vision.photos import default_photos_dir  # noqa: E402
from vision.render import default_camera, random_look, render  # noqa: E402
from vision.simtable import discard_scene  # noqa: E402

REFERENCE = "c2f73cd~1"
"""The commit whose vision/detect.py is the reference: the detector before the real-photo work."""


def load_reference(revision: str) -> ModuleType:
    """``vision/detect.py`` as it was at ``revision``, imported under another name."""
    source = subprocess.run(
        ["git", "show", f"{revision}:vision/detect.py"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    path = Path(tempfile.mkdtemp()) / "reference_detect.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("reference_detect", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def scaled(image: np.ndarray, tile_w: float, tile_h: float) -> tuple[np.ndarray, float, np.ndarray]:
    """The photo at the zones' 1 px per mm, that scale, and the matrix back to its pixels (as ``find_in_photo``
    does): the reference detector's arguments."""
    fx, fy = 30.0 / tile_w, 40.0 / tile_h
    size = (max(1, round(image.shape[1] * fx)), max(1, round(image.shape[0] * fy)))
    work = cv2.resize(image, size, interpolation=cv2.INTER_AREA if fx * fy < 1 else cv2.INTER_LINEAR)
    return work, 1.0, np.diag([image.shape[1] / size[0], image.shape[0] / size[1], 1.0])


HELD_OUT = ("red mat", "hands")
"""Series (``vision.scenes.series``) the detector's parameters were not tuned on (issue 17): their figure is the
one for photos never seen."""


def photos(reference: ModuleType, limit: int | None, view: str = "overhead", only: str | None = None) -> dict:
    """Found and false tiles of both detectors over the photos of one view (of one series, given ``only``), and the
    shipped detector's per series of photos (held-out series marked)."""
    folder = default_photos_dir() / "scenes"
    views = scenes.read_views()
    names = [name for name, seen in sorted(views.items()) if seen == view and only in (None, scenes.series(name))]
    names = names[:limit]
    totals = {"photos": len(names), "labelled": 0}
    per_series: dict[str, list[int]] = {}
    for name in ("shipped", "reference"):
        totals |= {f"{name}_found": 0, f"{name}_detections": 0, f"{name}_s": 0.0}
    finders = {
        "shipped": lambda image, w, h: [tile.quad for tile in shipped.find_in_photo(image, w, h).tiles],
        "reference": lambda image, w, h: [tile.quad for tile in reference.find_tiles(*scaled(image, w, h)).tiles],
    }
    for name in names:
        for which, find in finders.items():
            started = time.perf_counter()
            result = scenes.detected(folder, name, find)
            totals[f"{which}_s"] += time.perf_counter() - started
            totals[f"{which}_found"] += result.matched
            totals[f"{which}_detections"] += result.detections
            if which == "shipped":
                counts = per_series.setdefault(scenes.series(name), [0, 0, 0])
                for i, value in enumerate((result.labelled, result.matched, result.detections)):
                    counts[i] += value
        totals["labelled"] += result.labelled
    for which in ("shipped", "reference"):
        found, detections = totals[f"{which}_found"], totals[f"{which}_detections"]
        totals[f"{which}_recall"] = round(found / totals["labelled"], 4)
        totals[f"{which}_false_share"] = round((detections - found) / max(detections, 1), 4)
        totals[f"{which}_s"] = round(totals[f"{which}_s"], 1)
    for label, (labelled, found, detections) in sorted(per_series.items()):
        name = f"series {label}{' (held out)' if label in HELD_OUT else ''}"
        false = (detections - found) / max(detections, 1)
        totals[name] = f"{found}/{labelled} found ({found / labelled:.4f}), {false:.4f} false"
    return totals



def speed(reference: ModuleType, seed: int, repeat: int) -> dict:
    """Finding the 20 discards of a rendered frame with each detector, and reading the frame."""
    rng = np.random.default_rng(seed)
    scene, _ = discard_scene(rng, 5)
    frame = render(scene, default_camera(), random_look(rng), rng)
    calibration = from_markers(frame)
    zones = recognize.Zones(calibration)

    def locate(find: Callable) -> int:
        recognize.find_tiles = find
        try:
            return sum(len(located) for _, _, located, _ in zones.locate(frame))
        finally:
            recognize.find_tiles = shipped.find_tiles

    counts = {"shipped": locate(shipped.find_tiles), "reference": locate(reference.find_tiles)}
    blur = median_ms(lambda: cv2.GaussianBlur(frame, (5, 5), 0), 200)
    times = {}
    for _ in range(3):  # interleaved, so that a busy moment of the machine hits both
        for name, find in (("shipped", shipped.find_tiles), ("reference", reference.find_tiles)):
            times.setdefault(name, []).append(median_ms(lambda find=find: locate(find), repeat))
    reader = recognize.Recognizer(calibration, load_model())
    whole = median_ms(lambda: reader.read(frame), repeat)
    blur = (blur + median_ms(lambda: cv2.GaussianBlur(frame, (5, 5), 0), 200)) / 2
    out = {"tiles_found": counts, "reference_blur_ms": round(blur, 3)}
    for name, values in times.items():
        out[f"{name}_find_ms"] = round(min(values), 2)
        out[f"{name}_find_ratio"] = round(min(values) / blur, 2)
    out["shipped_vs_reference"] = round(min(times["shipped"]) / min(times["reference"]), 2)
    out["frame_read_ms"] = round(whole, 2)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", default=REFERENCE, help="git revision of the reference vision/detect.py")
    parser.add_argument("--photos", type=int, help="only the first N overhead photos")
    parser.add_argument("--view", default="overhead", choices=scenes.VIEWS, help="the photos of another view")
    series = [label for label, _ in scenes.SERIES] + ["other"]
    parser.add_argument("--series", choices=series, help="only the photos of one series")
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per measurement")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    args = parser.parse_args()
    reference = load_reference(args.reference)
    result = {
        "speed": speed(reference, args.seed, args.repeat),
        "photos": photos(reference, args.photos, args.view, args.series),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for part, values in result.items():
            for key, value in values.items():
                print(f"{part}.{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
