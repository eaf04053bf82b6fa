"""Cost per frame of the service's camera reader when people play (``controller.people.lookout.Lookout.look``): a zone
whose picture has not changed since it was last read skipped (``vision.recognize.SkippingRecognizer``), against
the reference that reads every zone of every frame, over the same frames in the same run, on one core.

Frames: the simulated people's table (``controller.people.peopletable.PeopleTable``, rendering in a process of its own)
plays ``--hands`` hands at the service's settings (each change shown four frames, the tracker's defaults). The
table repeats one rendered image while its scene stays the same; a camera's frames differ by their noise, so each
frame gets fresh sensor noise (``--noise`` sigma, every channel). Each frame is given to both lookouts as it comes
(which goes first alternates), so that a hand's frames need not be held in memory; the two must report the same
sights (checked). Reported: ms per frame p50/p99 of each, the ratio, frames and zones skipped.

``--measure``: the glance differences the threshold ``vision.recognize.UNCHANGED`` is chosen from, on tables
rendered under ``random_look`` light (and the dimmest, most blurred, noisiest one): the same table with fresh noise
(sigma 1-5) and with 3% more or less light, against one tile's face changed to every other face in the nearest
and the farthest zone.

    python bench/bench_lookout.py [--hands 2] [--noise 2.0] [--measure]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, before numpy loads its BLAS
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import itertools
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from gpiozero.pins.mock import MockFactory

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.people.camera import open_renderer
from controller.people.lookout import Lookout
from controller.people.peopletable import PeopleTable
from controller.service.inputs import SimHands
from engine.referee import Phase
from engine.rulesets.registry import get_ruleset
from engine.tiles import NUM_TILE_IDS, tile_code
from firmware_bridge.config import GpioConfig
from vision.calibrate import Calibration
from vision.capture import Frame
from vision.classify import load_model
from vision.geometry import DEFAULT_LAYOUT
from vision.recognize import UNCHANGED, SkippingRecognizer, difference
from vision.render import Look, Scene, default_camera, random_look, render
from vision.simtable import discard_scene

DEAL = {"dealer": 1, "dice": (3, 5), "round_wind": 0, "consecutive_dealer": 1}


def with_noise(image: np.ndarray, sigma: float) -> np.ndarray:
    """``image`` with fresh sensor noise in every channel (``vision.render`` draws its own into one channel)."""
    noise = np.empty(image.shape, np.float32)
    cv2.randn(noise, (0.0,) * 3, (sigma,) * 3)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def _percentiles(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    pick = lambda q: round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)  # noqa: E731
    return {"p50_ms": pick(0.5), "p99_ms": pick(0.99)}


def lookouts(rules: str, hands: int, noise: float) -> dict:
    """Both lookouts over the frames of ``hands`` people's hands (see the module doc)."""
    camera = default_camera(DEFAULT_LAYOUT)
    calibration = Calibration(camera.homography, camera.width, camera.height, DEFAULT_LAYOUT)
    model = load_model()
    arms = {"skipping": Lookout(calibration, model), "reference": Lookout(calibration, model, skip_unchanged=False)}
    seconds: dict[str, list[float]] = {name: [] for name in arms}
    sights: dict[str, list] = {name: [] for name in arms}
    renderer = open_renderer()
    try:
        fingers = SimHands(MockFactory(), GpioConfig(), lambda seat, held: None, 1.0)
        table = PeopleTable(get_ruleset(rules, {}), renderer, fingers)
        cv2.setRNGSeed(1)
        for hand in range(1, hands + 1):
            table.deal(hand, DEAL["dealer"], DEAL["dice"], DEAL["round_wind"], DEAL["consecutive_dealer"])
            for lookout in arms.values():
                lookout.new_hand()
            for frame in table.frames():
                noisy = Frame(with_noise(frame.image, noise), frame.index, frame.time)
                order = list(arms) if frame.index % 2 else list(reversed(arms))
                for name in order:
                    start = time.perf_counter()
                    sights[name] += arms[name].look(noisy)
                    seconds[name].append(time.perf_counter() - start)
                if table.referee is not None and table.referee.phase is Phase.OVER and not table.pending:
                    break
    finally:
        renderer.close()
    if sights["skipping"] != sights["reference"]:
        raise SystemExit("bench_lookout: the skipping lookout reported other sights than the reference")
    recognizer = arms["skipping"].recognizer
    assert isinstance(recognizer, SkippingRecognizer)
    frames = len(seconds["reference"])
    skipping, reference = _percentiles(seconds["skipping"]), _percentiles(seconds["reference"])
    return {
        "rules": rules,
        "hands": hands,
        "frames": frames,
        "sights": len(sights["reference"]),
        "noise": noise,
        "reference": reference,
        "skipping": skipping,
        "ratio_p50": round(skipping["p50_ms"] / reference["p50_ms"], 3),
        "ratio_p99": round(skipping["p99_ms"] / reference["p99_ms"], 3),
        "zones_read": recognizer.zones_read,
        "zones_skipped": recognizer.zones_skipped,
        "zones_skipped_share": round(recognizer.zones_skipped / (recognizer.zones_read + recognizer.zones_skipped), 3),
    }


def _glances(glancer: SkippingRecognizer, scene: Scene, look: Look, rng: np.random.Generator) -> list[np.ndarray]:
    """Every zone's glance of a frame of ``scene``."""
    camera = default_camera(DEFAULT_LAYOUT)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    frame = with_noise(render(scene, camera, replace(look, noise=0.0), rng), look.noise)
    return [glancer.glance(frame, index) for index in range(len(glancer.zones))]  # type: ignore[misc]


def measure(tables: int, seed: int) -> dict:
    """The glance differences of unchanged tables and of one face changed (see the module doc)."""
    camera = default_camera(DEFAULT_LAYOUT)
    glancer = SkippingRecognizer(Calibration(camera.homography, camera.width, camera.height), load_model())
    rng = np.random.default_rng(seed)
    unchanged: list[float] = []
    faces: list[tuple[float, str]] = []
    for table in range(tables):
        look = random_look(rng) if table else Look(gain=0.65, blur=1.0, noise=5.0)
        scene, _ = discard_scene(rng, 9)
        first = _glances(glancer, scene, look, rng)
        for gain in (1.0, 1.0, 1.03, 0.97):  # fresh noise twice, then the light 3% up and 3% down
            again = _glances(glancer, scene, replace(look, gain=look.gain * gain), rng)
            unchanged += [difference(a, b) for a, b in zip(first, again, strict=True)]
        for seat in (0, 2):  # the nearest zone and the farthest
            placed = scene.tiles[seat * 9 + 4]
            alone = [
                _glances(glancer, replace(scene, tiles=(replace(placed, tile=tile),)), look, rng)[2 * seat]
                for tile in range(NUM_TILE_IDS)
            ]
            for a, b in itertools.combinations(range(NUM_TILE_IDS), 2):
                faces.append((difference(alone[a], alone[b]), f"{tile_code(a)}/{tile_code(b)} seat {seat}"))
    faces.sort()
    return {
        "threshold": UNCHANGED,
        "unchanged_max": round(max(unchanged), 2),
        "unchanged_p99": round(float(np.percentile(unchanged, 99)), 2),
        "face_changed_min": [(round(value, 2), pair) for value, pair in faces[:3]],
        "face_changed_p1": round(float(np.percentile([value for value, _ in faces], 1)), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--rules", default="basic")
    parser.add_argument("--noise", type=float, default=2.0, help="sensor noise sigma added to every frame")
    parser.add_argument("--measure", action="store_true", help="the glance differences behind the threshold")
    parser.add_argument("--tables", type=int, default=6, help="with --measure: rendered tables")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    report = measure(args.tables, 7) if args.measure else lookouts(args.rules, args.hands, args.noise)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
