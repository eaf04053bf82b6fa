"""Vision accuracy and speed on rendered tables, measured in one process on one core.

Accuracy: every discard of ``--scenes`` rendered tables (24 each: 1,008 by default) must be found at its place and
read as its kind; anything found where no tile lies is a false discard. Then ``--hands`` simulated hands run
through the tracker: every discard and claim reported once, none invented. Per-class accuracy and the confusion
pairs are printed. The unseen-set proxy: the artwork model on a differently drawn set (the ``other`` style), and
the same after enrolling five photos per kind.

Speed: the median time of one crop classified (features, both ways up, template match) and of one 1280x720 frame
with 20 tiles in the zones (eight zones rectified, segmented, every tile read), as milliseconds and as a ratio to
a reference of known cost measured alongside: a 5x5 Gaussian blur of the same 1280x720 frame.

    python bench/bench_vision.py [--scenes 42] [--hands 2] [--seed 1000] [--confusion matrix.csv]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, before numpy loads its BLAS
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import median_ms
from engine.tiles import NUM_TILE_IDS, tile_code
from vision.artwork import load_faces
from vision.calibrate import from_markers
from vision.classify import Model, load_model
from vision.detect import face_crop
from vision.enroll import enroll
from vision.features import features
from vision.recognize import Recognizer
from vision.render import default_camera, random_look, render, tile_photo
from vision.simtable import SimTable, discard_scene
from vision.track import Tracker
from vision.train import crops


def scenes(model: Model, count: int, seed: int) -> dict:
    """Discards of rendered tables: found, read right, unknown, misread; false finds; confusion pairs."""
    rng = np.random.default_rng(seed)
    camera = default_camera()
    totals = Counter()
    per_class = {tile: Counter() for tile in range(NUM_TILE_IDS)}
    confusion = Counter()
    for _ in range(count):
        scene, truth = discard_scene(rng, 6)
        frame = render(scene, camera, random_look(rng), rng)
        seen = [s for view in Recognizer(from_markers(frame), model).read(frame) for s in view.tiles]
        matched = set()
        for seat, u, v, _, tile in truth:
            near = [i for i, s in enumerate(seen) if s.seat == seat and abs(s.u - u) < 10 and abs(s.v - v) < 10]
            totals["discards"] += 1
            per_class[tile]["n"] += 1
            if not near:
                totals["missed"] += 1
                continue
            matched.update(near)
            read = seen[near[0]].tile
            outcome = "right" if read == tile else "unknown" if read is None else "wrong"
            totals[outcome] += 1
            per_class[tile][outcome] += 1
            confusion[(tile_code(tile), "unknown" if read is None else tile_code(read))] += 1
        totals["false"] += len(seen) - len(matched)
    return {"totals": dict(totals), "per_class": per_class, "confusion": confusion}


def write_confusion(confusion: Counter, path: Path) -> None:
    codes = [tile_code(tile) for tile in range(NUM_TILE_IDS)]
    rows = [",".join(["truth", *codes, "unknown"])]
    rows += [",".join([truth, *(str(confusion[(truth, read)]) for read in [*codes, "unknown"])]) for truth in codes]
    path.write_text("\n".join(rows) + "\n")


def hands(model: Model, count: int, seed: int) -> dict:
    """Simulated hands through the tracker: events compared with what happened."""
    result = Counter()
    for hand in range(count):
        table = SimTable(seed + hand, discards=24)
        tracker, recognizer, truth, events = Tracker(), None, Counter(), Counter()
        for index, (frame, happened) in enumerate(table.frames()):
            recognizer = recognizer or Recognizer(from_markers(frame), model)
            truth.update((t.kind, t.seat, t.tile) for t in happened)
            events.update((e.kind, e.seat, e.tiles[0]) for e in tracker.update(recognizer.read(frame), index, 0.0))
        result["discards"] += sum(n for (kind, _, _), n in truth.items() if kind == "discard")
        result["claims"] += sum(n for (kind, _, _), n in truth.items() if kind == "taken")
        result["right"] += sum((truth & events).values())
        result["invented"] += sum((events - truth).values())
        result["missed"] += sum((truth - events).values())
    return dict(result)


def unseen_set(model: Model, seed: int) -> dict:
    """The artwork model on the 'other' set, and after enrolling five of its photos per kind."""
    rng = np.random.default_rng(seed)
    kinds = sorted(load_faces("other"))
    enrolment = [(face_crop(tile_photo(tile, "other", rng)), tile) for tile in kinds for _ in range(5)]
    test = [(face_crop(tile_photo(tile, "other", rng)), tile) for tile in kinds for _ in range(5)]
    enrolled = enroll(model, enrolment)

    def score(m: Model) -> dict:
        answers = [m.classify(crop)[0] for crop, _ in test]
        top1 = [int(m.kind_scores(features(crop)[None])[0].argmax()) == tile for crop, tile in test]
        right = [a.tile == tile for a, (_, tile) in zip(answers, test, strict=True)]
        return {"top1": float(np.mean(top1)), "answered_right": float(np.mean(right))}

    return {"artwork_model": score(model), "enrolled_5_per_kind": score(enrolled)}



def speed(model: Model, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    samples = [crop for _, crop in crops("uni", list(range(NUM_TILE_IDS)), 2, rng)]
    scene, _ = discard_scene(rng, 5)  # 20 tiles in the zones
    frame = render(scene, default_camera(), random_look(rng), rng)
    recognizer = Recognizer(from_markers(frame), model)
    reference = median_ms(lambda: cv2.GaussianBlur(frame, (5, 5), 0), 200)
    crop_times = []
    for crop in samples * 3:
        crop_times.append(median_ms(lambda crop=crop: model.classify(crop), 1))
    crop = statistics.median(crop_times)
    whole = median_ms(lambda: recognizer.read(frame), 60)
    reference_again = median_ms(lambda: cv2.GaussianBlur(frame, (5, 5), 0), 200)
    ref = (reference + reference_again) / 2
    return {
        "reference_blur_ms": round(ref, 3),
        "crop_ms": round(crop, 3),
        "crop_ratio": round(crop / ref, 2),
        "frame_20_tiles_ms": round(whole, 2),
        "frame_ratio": round(whole / ref, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=42, help="rendered tables of 24 discards")
    parser.add_argument("--hands", type=int, default=2, help="simulated hands of 24 discards through the tracker")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--confusion", type=Path, help="write the full confusion matrix as CSV")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    model = load_model()

    found = scenes(model, args.scenes, args.seed)
    totals = found["totals"]
    n = totals["discards"]
    print(
        f"rendered discards: {n}, read right {totals.get('right', 0)} ({totals.get('right', 0) / n:.2%}), "
        f"unknown {totals.get('unknown', 0)}, misread {totals.get('wrong', 0)}, missed {totals.get('missed', 0)}, "
        f"false discards {totals.get('false', 0)}"
    )
    print(
        "per class (right/n):",
        " ".join(f"{tile_code(t)}:{c.get('right', 0)}/{c['n']}" for t, c in found["per_class"].items() if c["n"]),
    )
    wrong = {pair: n for pair, n in found["confusion"].items() if pair[0] != pair[1]}
    print("confusions (truth->read: count):", wrong or "none")
    if args.confusion:
        write_confusion(found["confusion"], args.confusion)
        print(f"confusion matrix (rows truth, columns read): {args.confusion}")
    tracked = hands(model, args.hands, args.seed) if args.hands else {}
    if tracked:
        print(f"tracked hands: {tracked}")
    unseen = unseen_set(model, args.seed)
    print(f"unseen set (rendered 'other' style): {unseen}")
    timing = speed(model, args.seed)
    print(f"speed (one core): {timing}")
    summary = {
        "discards": n,
        "detected_and_read": round(totals.get("right", 0) / n, 4),
        "false_discards": totals.get("false", 0),
        "tracked": tracked,
        "unseen_set": unseen,
        "speed": timing,
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
