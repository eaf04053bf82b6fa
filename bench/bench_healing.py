"""Misreads healed at the people's table: hands played on the simulated people's table with an eye that misreads a
share of the tiles as the recogniser confuses them (``controller.people.misreads``), and the share of hands that end
with exactly the result of the same hand played by the bots, at each share of misread tiles (0%, 1%, 3% by default).
The service runs its real loop, journal and witness; no frame is rendered (the fast "perfect eye" path, made faulty).

    python bench/bench_healing.py [--hands 200] [--seed 1] [--rules basic] [--shares 0,0.01,0.03] [--json]
                                  [--no-corrections]

The simulated people correct what the display shows open (a reading the camera was unsure of, or could not make sense
of) when it is not what lies on the table, as the seats do; ``--no-corrections`` measures the witness's healing alone.
    python bench/bench_healing.py --derive [--model DIR] [--per-kind 40]

``--derive`` measures the recogniser's confusions again and writes ``controller/people/misreads.json``: ``--per-kind``
crops of each of the 42 kinds rendered in the far zone's dim and blurred light (camera noise, 0.8-1.0 px per mm), read
by the model (the shipped one by default): per kind its misread rate and the ranked readings of its misreads; and
``RIGHT_KEPT`` crops per kind in the table's ordinary light (``vision.render.tile_photo``): the ranked readings of
right readings (a table that misreads 1-3% of its tiles is not in the dimmest light).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, before numpy loads its BLAS
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import logging
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.people.misreads import CONFUSION, Confusion, load_confusion
from engine.tiles import NUM_TILE_IDS, Tile

RIGHT_KEPT = 8
"""Right readings kept per kind (their probabilities are what matters)."""
LIGHT = {"blur": (1.0, 2.0), "noise": (3.0, 8.0), "ppm": (0.8, 1.0)}
"""The far zone in dim, blurred light: where the recogniser misreads (about one tile in ten)."""


def derive(model_dir: Path | None, per_kind: int, seed: int) -> Confusion:
    """The model's confusions on rendered crops (see the module doc)."""
    import numpy as np

    from vision.classify import load_model
    from vision.detect import face_crop
    from vision.render import PATCH_SPOT, Placed, Scene, patch_camera, random_look, render, tile_photo

    model = load_model(model_dir)
    rng = np.random.default_rng(seed)
    rate: dict[Tile, float] = {}
    misread: dict[Tile, list] = {}
    right: dict[Tile, list] = {}
    for tile in range(NUM_TILE_IDS):
        crops = []
        for _ in range(per_kind):
            scene = Scene((Placed(tile, *PATCH_SPOT, float(rng.uniform(-3, 3))),), markers=False, style="uni")
            look = replace(random_look(rng), blur=float(rng.uniform(*LIGHT["blur"])))
            look = replace(look, noise=float(rng.uniform(*LIGHT["noise"])))
            crops.append(face_crop(render(scene, patch_camera(rng, (56, 68), LIGHT["ppm"]), look, rng)))
        readings = [prediction.choices for prediction, _ in model.read(crops) if prediction.choices]
        wrong = [ranked for ranked in readings if ranked[0][0] != tile]
        rate[tile] = len(wrong) / max(1, len(readings))
        misread[tile] = wrong
        ordinary = [face_crop(tile_photo(tile, "uni", rng)) for _ in range(2 * RIGHT_KEPT)]
        readings = [prediction.choices for prediction, _ in model.read(ordinary) if prediction.choices]
        right[tile] = [ranked for ranked in readings if ranked[0][0] == tile][:RIGHT_KEPT]
    source = f"{model.description or 'model'}; {per_kind} rendered crops per kind, seed {seed}, light {LIGHT}"
    return Confusion(rate, misread, right, source)


def measure(
    hands: int, seed: int, rules: str, shares: list[float], confusion: Confusion, correcting: bool = True
) -> list[dict]:
    from tests.controller.healing import play

    rows = []
    for share in shares:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as state:
            outcome = play(Path(state), share, hands, seed, confusion, rules, correcting=correcting)
        rows.append(
            {
                "share_misread": share,
                "hands": outcome.hands,
                "tiles_read": outcome.tiles,
                "tiles_misread": outcome.misread,
                "identical": outcome.same,
                "identical_share": round(outcome.share, 4),
                "voided": outcome.voided,
                "corrected_by_seats": outcome.corrected,
                "asked_of_seats": outcome.asked,
                "asked_per_hand": round(outcome.asked / max(outcome.hands, 1), 2),
                "seconds": round(time.perf_counter() - started, 1),
                "differing_hands": [d["hand"] for d in outcome.differing],
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="basic")
    parser.add_argument("--shares", default="0,0.01,0.03")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--no-corrections", action="store_true", help="the seats never correct the display: the witness's healing alone"
    )
    parser.add_argument("--derive", action="store_true", help="measure the recogniser's confusions again")
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--per-kind", type=int, default=40)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if args.derive:
        confusion = derive(args.model, args.per_kind, args.seed)
        CONFUSION.write_text(json.dumps(confusion.to_dict(), separators=(",", ":")) + "\n")
        mean = confusion.mean_rate
        print(f"wrote {CONFUSION}: misread rate {mean:.3f} over {len(confusion.rate)} kinds ({confusion.source})")
        return
    try:
        shares = [float(text) for text in args.shares.split(",")]
    except ValueError:
        parser.error(f"--shares {args.shares!r}: expected shares 0-1 separated by commas, such as 0,0.01,0.03")
    rows = measure(args.hands, args.seed, args.rules, shares, load_confusion(), not args.no_corrections)
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            print(
                f"{row['share_misread']:.0%} misread: {row['hands']} hands, {row['tiles_misread']} of "
                f"{row['tiles_read']} tiles misread, {row['identical']} identical to the bots' "
                f"({row['identical_share']:.1%}), {row['voided']} voided, {row['asked_of_seats']} readings shown to "
                f"their seats ({row['asked_per_hand']} a hand), {row['corrected_by_seats']} corrected, "
                f"{row['seconds']} s"
            )


if __name__ == "__main__":
    main()
