"""The tile reader on real photos (``shared/photos``): the shipped reader against the previous template reader
(``vision/models/features``), in the same run, on one core.

- Never seen: the scene sets the shipped reader was trained without (``vision.train.HELD_OUT``; heaps left out:
  tiles lying on each other are not what the table's camera reads) and the face-on sets, over the 34 kinds.
- Enrolled: for each set, ``--per-kind`` tiles of each kind enrolled from as few of its overhead photos (what the
  table camera sees: ``vision.accuracy.TABLE_VIEW``) as possible, tested on the set's other overhead photos (all its
  kinds; the ``hk`` set has flowers and seasons, and the shipped reader learned from it); and, for information, on
  its other photos of every view but heaps (standing hands, close-ups).
- Speed: the median time of one crop read (``classify``), and of the 20 crops of a frame read at once (``read``),
  with the ratio of the two readers.
- Bulk enrolment: ``--bulk`` crops at once (real ones, blank ones, 2x2 ones) end in a model, not a traceback.

    python bench/bench_reader.py [--model DIR] [--reference DIR] [--per-kind 5] [--bulk 10000]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, before numpy loads its BLAS
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import median_ms
from vision import accuracy
from vision.classify import DEFAULT_MODEL, Model, load_model
from vision.enroll import enroll
from vision.photos import face_sets, scene_samples
from vision.scenes import VIEWS
from vision.train import HELD_OUT

REFERENCE = DEFAULT_MODEL.parent / "features"



def speed(models: dict[str, Model], crops: list[np.ndarray]) -> dict:
    out = {}
    for name, model in models.items():
        model.read(crops[:20])  # warm up
        one = statistics.median(median_ms(lambda c=c, m=model: m.classify(c), 1) for c in crops)
        frame = median_ms(lambda m=model: m.read(crops[:20]), 30)
        out[name] = {"crop_ms": round(one, 3), "frame_20_crops_ms": round(frame, 2)}
    names = list(models)
    if len(names) == 2:
        out["ratio_crop"] = round(out[names[0]]["crop_ms"] / out[names[1]]["crop_ms"], 2)
        out["ratio_frame"] = round(out[names[0]]["frame_20_crops_ms"] / out[names[1]]["frame_20_crops_ms"], 2)
    return out


def bulk(model: Model, samples: list, count: int) -> dict:
    rng = np.random.default_rng(5)
    faces = []
    for index in range(count):
        if index % 50 == 0:
            faces.append((np.full((40, 32, 3), 200, np.uint8), 30))  # blank
        elif index % 50 == 1:
            faces.append((rng.integers(0, 255, (2, 2, 3), dtype=np.uint8), 31))  # tiny
        else:
            sample = samples[index % len(samples)]
            faces.append((sample.crop((32, 40)), sample.tile))
    started = time.perf_counter()
    enrolled = enroll(model, faces)
    return {"crops": count, "seconds": round(time.perf_counter() - started, 1), "templates": len(enrolled.labels)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--reference", type=Path, default=REFERENCE)
    parser.add_argument("--hold-out", default=",".join(HELD_OUT), help="scene sets the model never saw")
    parser.add_argument("--per-kind", type=int, default=5)
    parser.add_argument("--bulk", type=int, default=10_000, help="crops enrolled at once (0: skip)")
    args = parser.parse_args()
    if not 1 <= args.per_kind <= 50:
        parser.error(f"--per-kind {args.per_kind}: expected 1-50")
    if not 0 <= args.bulk <= 100_000:
        parser.error(f"--bulk {args.bulk}: expected 0-100000")
    cv2.setNumThreads(1)
    models = {"shipped": load_model(args.model), "template_reader": load_model(args.reference)}
    hold_out = tuple(filter(None, args.hold_out.split(",")))
    samples = [s for s in scene_samples() if s.view != "heap"]
    faces = [face for group in face_sets().values() for face in group]
    summary: dict = {"never_seen": {}, "enrolled": {}}
    for name, model in models.items():
        held = [s for s in samples if s.set in hold_out]
        score = accuracy.never_seen(model, held, faces)
        summary["never_seen"][name] = score.to_dict()
        print(f"never seen ({', '.join(hold_out)} + face-on sets, 34 kinds), {name}: {score.to_dict()}", flush=True)
    for group in sorted({s.set for s in samples} - {"mixed"}):
        for name, model in models.items():
            of_set = [s for s in samples if s.set == group]
            score, kinds = accuracy.enrolled(model, of_set, args.per_kind)
            every_view, _ = accuracy.enrolled(model, of_set, args.per_kind, views=VIEWS)
            summary["enrolled"].setdefault(group, {})[name] = {
                "kinds": kinds,
                **score.to_dict(),
                "every_view": every_view.to_dict(),
            }
            print(f"enrolled {args.per_kind}/kind, set {group} ({kinds} kinds), {name}: {score.to_dict()}", flush=True)
            print(f"  the same on its photos of every view but heaps: {every_view.to_dict()}", flush=True)
    crops, _ = accuracy.sample_crops(samples[:: max(1, len(samples) // 300)])
    summary["speed"] = speed(models, crops)
    print(f"speed (one core): {summary['speed']}", flush=True)
    if args.bulk:
        summary["bulk_enrolment"] = bulk(models["shipped"], samples, args.bulk)
        print(f"bulk enrolment: {summary['bulk_enrolment']}", flush=True)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
