"""Red fives and 十万's tens on rendered crops (issue 25), in one run on one core:

- Red fives: a riichi set (the riichi artwork, its red fives ``Man5-Dora`` ...) read by the shipped reader restricted
  to a riichi table with red fives (the fives' templates and the colour, no enrolment), and by the same reader after
  enrolling three photos of each face: red fives read as fives and fives read as red, top-1 over the six kinds.
- Tens: a 十万 set (uni faces, tens composed by ``vision.artwork``) enrolled from one rendered layout photo (rows
  10, 10, 10, 4), read on rendered crops of its 34 faces: top-1, of the tens, other faces read as tens.
- Speed: one crop read (``read`` of one crop) and a frame's 20 crops read at once, by the shipped model (every table
  before this issue), the riichi table with red fives (the colour cue) and the enrolled 十万 table, interleaved so
  that other load falls on all alike: the best of ``--repeats`` and the ratio to the shipped model (an enrolled set
  has more templates than the shipped model: 12 per kind and way up), and the riichi table without its colour cue
  (the same templates); and the colour cue alone (``redness`` of one crop).

    python bench/bench_faces.py [--per-kind 50] [--repeats 12]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, before numpy loads its BLAS
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.rulesets.registry import get_ruleset
from vision.classify import Model, load_model
from vision.detect import face_crop
from vision.enroll import enroll
from vision.features import redness
from vision.kinds import FIVES, RED_FIVES, TENS, parse_face, table_faces
from vision.layout import SHIWAN_ORDER, read_layout
from vision.render import Look, Placed, Scene, default_camera, render, tile_photo
from vision.train import crops


def best_readings(model: Model, samples: list) -> tuple[np.ndarray, np.ndarray]:
    readings = model.read([crop for _, crop in samples])
    best = [prediction.choices[0][0] if prediction.choices else -1 for prediction, _ in readings]
    return np.array([face for face, _ in samples]), np.array(best)


def red_fives(shipped: Model, per_kind: int) -> Model:
    faces = table_faces(get_ruleset("riichi", {"red_fives": True}))
    rng = np.random.default_rng(77)
    enrolled = enroll(shipped, [(face_crop(tile_photo(face, "riichi", rng)), face) for face in faces for _ in range(3)])
    samples = list(crops("riichi", [*FIVES, *RED_FIVES], per_kind, np.random.default_rng(5)))
    table = enrolled.only(faces)
    for name, model in (("shipped", shipped.only(faces)), ("enrolled", table)):
        truth, best = best_readings(model, samples)
        as_five = int((np.isin(truth, RED_FIVES) & np.isin(best, FIVES)).sum())
        as_red = int((np.isin(truth, FIVES) & np.isin(best, RED_FIVES)).sum())
        print(
            f"red fives, {name}: {len(samples)} crops, red read as five {as_five}, five read as red {as_red}, "
            f"top-1 {(truth == best).mean():.3f}"
        )
    return table


def tens(shipped: Model, per_kind: int) -> Model:
    placed = []
    for row in range(4):
        codes = SHIWAN_ORDER[10 * row : 10 * row + 10]
        for column, code in enumerate(codes):
            placed.append(Placed(parse_face(code), (column - (len(codes) - 1) / 2) * 36.0, (row - 1.5) * 50.0))
    photo = render(Scene(tuple(placed)), default_camera(), Look(), np.random.default_rng(1))
    layout = read_layout(photo)
    table = enroll(shipped, layout.faces(photo)).only(table_faces(get_ruleset("shiwan")))
    samples = list(crops("uni", layout.kinds, per_kind, np.random.default_rng(9)))
    truth, best = best_readings(table, samples)
    ten = np.isin(truth, TENS)
    print(
        f"十万 enrolled from a layout: {len(samples)} crops, top-1 {(truth == best).mean():.3f}, "
        f"tens {(truth == best)[ten].mean():.3f}, other faces read as tens {int((np.isin(best, TENS) & ~ten).sum())}"
    )
    return table


def speed(models: dict[str, Model], repeats: int) -> None:
    crops_ = [crop for _, crop in crops("riichi", list(range(34)), 3, np.random.default_rng(3))]
    for batch in (1, 20):
        times: dict[str, list[float]] = {name: [] for name in models}
        for _ in range(repeats):
            for name, model in models.items():
                start = time.perf_counter()
                for i in range(0, len(crops_), batch):
                    model.read(crops_[i : i + batch])
                times[name].append((time.perf_counter() - start) / len(crops_) * 1e3)
        base = min(times["shipped"])
        text = ", ".join(f"{name} {min(t):.3f} ms ({min(t) / base:.2f}x)" for name, t in times.items())
        print(f"read time per crop, {batch} at once: {text}")
    cue = []
    for _ in range(repeats):
        start = time.perf_counter()
        for crop in crops_:
            redness([crop])
        cue.append((time.perf_counter() - start) / len(crops_) * 1e3)
    print(f"colour cue (redness of one crop): {min(cue):.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=12)
    args = parser.parse_args()
    shipped = load_model()
    red = red_fives(shipped, args.per_kind)
    shiwan = tens(shipped, max(1, args.per_kind // 2))
    plain = np.select([red.labels == r for r in RED_FIVES], FIVES, red.labels).astype(red.labels.dtype)
    no_cue = replace(red, labels=plain)  # the same templates, its red fives' counted as fives: no colour cue
    speed({"shipped": shipped, "riichi red": red, "riichi red, no cue": no_cue, "十万": shiwan}, args.repeats)


if __name__ == "__main__":
    main()
