"""Train the default reader (``vision/models/default``) on this machine's CPU, with no download: a small
convolutional network (``vision.learn``) learns from the real photos of ``shared/photos`` (all sets but
``HELD_OUT``, which stay unseen for the tests), rendered artwork (close-ups and whole rendered tables cropped by
the real detector), faces drawn from scratch in random styles (``vision.synthetic``: a set never seen draws its
faces in another hand) and "no tile" crops (mat, hands, a crop across two tiles), under heavy augmentation:
perspective, turn, scale, light, colour cast, glare, blur, low resolution, noise, bent strokes and half turns. The
embedder is exported to ONNX for ``cv2.dnn``; the classifier's rows become the templates. Deterministic for a seed.

Needs the ``train`` extra (JAX, onnx, Pillow) and the CJK fonts of ``vision.synthetic.FONTS``: ``pip install -e
'.[train]'``. About 10 minutes on two cores.

    python -m vision.train [--out vision/models/default] [--epochs 30] [--seed 0] [--hold-out pink]
                           [--drawn 60] [--bend 0.5]
    python -m vision.train --check        # only the "is this a tile" check of the model (vision.verify)
"""

from __future__ import annotations

import argparse
import time
import zlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import NUM_TILE_IDS, Tile
from vision import verify
from vision.artwork import load_faces
from vision.calibrate import Calibration
from vision.classify import (
    CREDIT_FILE,
    DEFAULT_MODEL,
    NETWORK_FILE,
    NOTHING,
    Model,
    NetworkReader,
    condense,
    load_model,
    save_spare,
)
from vision.features import CROP_H, CROP_W, warp_face
from vision.geometry import TILE_H_MM, TILE_W_MM
from vision.kinds import NUM_FACES, RED_FIVES
from vision.net import Embedder, prepare
from vision.photos import Sample, default_photos_dir, scene_samples
from vision.recognize import Zones
from vision.render import PATCH_SPOT, Hand, Placed, Scene, default_camera, patch_camera, random_look, render
from vision.simtable import COLUMNS, discard_scene
from vision.synthetic import Drawn, drawn_tiles, missing_fonts

PATCH = 64
HELD_OUT = ("pink",)
"""Scene sets the shipped reader never sees (with the face-on sets of ``shared/photos/sets``): the tests and
``bench/bench_reader.py`` measure "a set never seen" on them."""
CREDIT = (
    'Trained on photos from "Chinese Mahjong Detection" v4 by riichimahjongdetection on Roboflow Universe '
    "(CC BY 4.0, as republished in alanchoi00/mahjong_detection), see shared/photos/README.md."
)
VALIDATION = 12
"""One photo in this many (by a hash of its name) of the training sets is kept for setting the reject levels."""
BATCH = 128
RATE = 2e-3
REJECT_MARGIN = 0.1
REJECT_RANGE = (0.2, 0.6)
THRESHOLD = 0.5
DRAWN_PER_KIND = 60
"""Faces drawn from scratch per kind (``vision.synthetic``) beside the photos and artwork: readers trained without
the hk set, seeds 0 and 1, read it never seen 0.926 and 0.928 top-1 without them, 0.941 and 0.943 with them (and
``BEND``); without the ivory set 0.958 -> 0.969."""
BEND = 0.5
"""The share of training crops whose strokes are ``bent``."""


def tile_corners(placed: Placed) -> np.ndarray:
    """Table-frame corners of a placed tile's top face, top-left first, clockwise as the tile sees itself."""
    a = np.deg2rad(placed.angle)
    right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    half_w, half_h = right * TILE_W_MM / 2, down * TILE_H_MM / 2
    centre = np.array([placed.x, placed.y])
    return np.array(
        [centre - half_w - half_h, centre + half_w - half_h, centre + half_w + half_h, centre - half_w + half_h]
    )


def crops(style: str, tiles: list[Tile], per_class: int, rng: np.random.Generator) -> Iterator[tuple[Tile, np.ndarray]]:
    """``per_class`` camera-like crops of each tile kind, with the detector's corner error."""
    kinds = sorted(load_faces(style))
    x, y = PATCH_SPOT
    for tile in tiles:
        for _ in range(per_class):
            placed = Placed(tile, x, y, float(rng.uniform(-3, 3)))
            sides = [side for side in (-1, 1) if rng.random() < 0.5]
            neighbours = tuple(
                Placed(
                    int(rng.choice(kinds)),
                    x + side * (TILE_W_MM + rng.uniform(0, 2)),
                    y + rng.normal(0, 1),
                    rng.normal(0, 2),
                )
                for side in sides
            )
            camera = patch_camera(rng, (PATCH, PATCH), (0.8, 1.15))
            frame = render(Scene((placed, *neighbours), markers=False, style=style), camera, random_look(rng), rng)
            corners = cv2.perspectiveTransform(tile_corners(placed)[None], camera.homography)[0]
            yield tile, warp_face(frame, corners + rng.normal(0, 0.6, corners.shape))


def table_crops(style: str, scenes: int, rng: np.random.Generator) -> list[tuple[Tile, bool, np.ndarray]]:
    """The discards of rendered tables as the real detector crops them: (kind, upside down, crop)."""
    camera = default_camera()
    zones = Zones(Calibration(camera.homography, camera.width, camera.height), ("discard",))
    out = []
    for _ in range(scenes):
        scene, truth = discard_scene(rng, COLUMNS, style)
        frame = render(scene, camera, random_look(rng), rng)
        for seat, _, located, _ in zones.locate(frame):
            for tile in located:
                near = [t for t in truth if t[0] == seat and abs(t[1] - tile.u) + abs(t[2] - tile.v) < 10]
                if len(near) == 1:
                    out.append((near[0][4], abs(near[0][3]) > 90, tile.found.crop(frame)))
    return out


def no_tiles(count: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Crops where no single tile is: bare mat, a hand over it, the halves of two tiles side by side."""
    x, y = PATCH_SPOT
    out = []
    for index in range(count):
        camera = patch_camera(rng, (CROP_W, CROP_H), (0.8, 1.2))
        if index % 3 == 0:
            scene = Scene((), markers=False)
        elif index % 3 == 1:
            scene = Scene((), (Hand(x + rng.normal(0, 8), y + rng.normal(0, 8), rng.uniform(0, 360)),), markers=False)
        else:
            offset = TILE_W_MM / 2 + rng.uniform(-2, 2)
            kinds = rng.integers(NUM_TILE_IDS, size=2)
            scene = Scene((Placed(int(kinds[0]), x - offset, y), Placed(int(kinds[1]), x + offset, y)), markers=False)
        out.append(render(scene, camera, random_look(rng), rng))
    return out


def photometric(crop: np.ndarray, rng: np.random.Generator, bend: float = 0.0) -> np.ndarray:
    """Another light, camera, lens and ink: level and colour cast, inks of other colours (channels swapped, grey),
    contrast, glare, low resolution, blur, noise; a share ``bend`` of the crops first ``bent`` (another font)."""
    if bend and rng.random() < bend:
        crop = bent(crop, rng)
    x = crop.astype(np.float32) * rng.uniform(0.5, 1.4) * rng.uniform(0.8, 1.2, 3).astype(np.float32)
    if rng.random() < 0.25:  # sets differ in their inks' colours (red, green, blue, black): shape must decide
        x = x[..., rng.permutation(3)]
    elif rng.random() < 0.15:
        x = np.repeat(x.mean(axis=2, keepdims=True), 3, axis=2)
    if rng.random() < 0.3:
        x = (x - x.mean()) * rng.uniform(0.5, 1.0) + x.mean()
    if rng.random() < 0.25:
        glare = np.zeros(x.shape[:2], np.float32)
        centre = (int(rng.uniform(0, CROP_W)), int(rng.uniform(0, CROP_H)))
        axes = (int(rng.uniform(3, 14)), int(rng.uniform(3, 14)))
        cv2.ellipse(glare, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        x = x + cv2.GaussianBlur(glare, (0, 0), rng.uniform(1, 4))[..., None] * rng.uniform(40, 160)
    if rng.random() < 0.3:
        small = (int(CROP_W * rng.uniform(0.45, 0.8)), int(CROP_H * rng.uniform(0.45, 0.8)))
        x = cv2.resize(cv2.resize(x, small, interpolation=cv2.INTER_AREA), (CROP_W, CROP_H))
    if rng.random() < 0.5:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.2))
    x = x + rng.normal(0, rng.uniform(0, 6), x.shape)
    return np.clip(x, 0, 255).astype(np.uint8)


BEND_PX = (0.5, 1.5)
"""Px (of a crop) the most displaced point of a ``bent`` crop moves."""
BEND_SMOOTH = 4.0
"""Px: how smooth the displacement is across a crop (a stroke bends, it does not break)."""


def bent(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The crop's strokes displaced smoothly by up to ``BEND_PX``: another set draws the same face in another hand."""
    field = rng.normal(0, 1, (2, *crop.shape[:2])).astype(np.float32)
    field = np.stack([cv2.GaussianBlur(plane, (0, 0), BEND_SMOOTH) for plane in field])
    field *= rng.uniform(*BEND_PX) / (np.abs(field).max() + 1e-6)
    ys, xs = np.mgrid[0 : crop.shape[0], 0 : crop.shape[1]].astype(np.float32)
    return cv2.remap(crop, xs + field[0], ys + field[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def real_view(sample: Sample | Drawn, rng: np.random.Generator, shift: float = 0.0) -> np.ndarray:
    """A photo's (or a drawn) tile as another detection could cut it: turned a little, rescaled, stretched, corners
    off by a few per cent, moved; ``shift`` (in tile widths) moves it sideways onto its neighbours."""
    quad = sample.quad.astype(np.float32)
    centre, size = quad.mean(axis=0), np.ptp(quad, axis=0)
    angle = np.deg2rad(rng.normal(0, 5))
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    scale = rng.uniform(0.92, 1.12) * np.array([rng.uniform(0.92, 1.08), 1.0], np.float32)
    moved = centre + np.array([shift, 0.0], np.float32) * size + rng.normal(0, 0.05, 2).astype(np.float32) * size
    quad = (quad - centre) @ turn.T * scale + moved + rng.normal(0, 0.025, (4, 2)).astype(np.float32) * size
    target = np.float32([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]])
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    size = (CROP_W, CROP_H)
    return cv2.warpPerspective(sample.patch, matrix, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _held_out(sample: Sample, hold_out: tuple[str, ...]) -> bool:
    return sample.set in hold_out


def _validation(sample: Sample) -> bool:
    return zlib.crc32(sample.photo.encode()) % VALIDATION == 0


class Material:
    """Everything the network learns from, as items (kind or ``NOTHING``, upside down or None for unknown, a
    function of the generator giving a fresh view)."""

    def __init__(self, hold_out: tuple[str, ...], seed: int, log: bool = True, drawn: int = 0) -> None:
        rng = np.random.default_rng(seed)
        samples = [s for s in scene_samples() if not _held_out(s, hold_out)]
        self.real = [s for s in samples if not _validation(s)]
        self.validation = [s for s in samples if _validation(s)]
        self.renders = [(tile, False, crop) for tile, crop in crops("uni", list(range(NUM_TILE_IDS)), 40, rng)]
        self.renders += [(tile, False, crop) for tile, crop in crops("riichi", sorted(load_faces("riichi")), 15, rng)]
        self.renders += table_crops("uni", 40, rng)
        self.nothing = no_tiles(600, rng)
        self.drawn = drawn_tiles(drawn, rng) if drawn else []
        if log:
            print(
                f"material: {len(self.real)} real tiles ({len(self.validation)} kept for validation), "
                f"{len(self.renders)} rendered, {len(self.nothing)} no-tile crops, {len(self.drawn)} drawn",
                flush=True,
            )

    def __len__(self) -> int:
        return len(self.real) + len(self.renders) + len(self.nothing) + len(self.drawn)

    def item(self, index: int, rng: np.random.Generator) -> tuple[int, bool | None, np.ndarray]:
        """Kind (or ``NOTHING``), upside down (None: the photo does not say), crop."""
        if index < len(self.real):
            sample = self.real[index]
            if rng.random() < 0.06:  # half of it and half of what lies beside it
                return NOTHING, None, real_view(sample, rng, rng.choice([-1, 1]) * rng.uniform(0.45, 0.6))
            return sample.tile, None, real_view(sample, rng)
        index -= len(self.real)
        if index < len(self.renders):
            tile, upside_down, crop = self.renders[index]
            matrix = cv2.getRotationMatrix2D((CROP_W / 2, CROP_H / 2), rng.normal(0, 3), rng.uniform(0.95, 1.06))
            matrix[:, 2] += rng.normal(0, 0.8, 2)
            return tile, upside_down, cv2.warpAffine(crop, matrix, (CROP_W, CROP_H), borderMode=cv2.BORDER_REPLICATE)
        index -= len(self.renders)
        if index < len(self.nothing):
            return NOTHING, None, self.nothing[index]
        drawn = self.drawn[index - len(self.nothing)]
        return drawn.tile, False, real_view(drawn, rng)


def batch(
    material: Material, indices: np.ndarray, rng: np.random.Generator, bend: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Prepared NHWC crops (each half-turned at random, a share ``bend`` ``bent``) and their target rows."""
    from vision.learn import CLASSES, NOTHING_ROW

    images, targets = [], np.zeros((len(indices), CLASSES), np.float32)
    for row, index in enumerate(indices):
        tile, upside_down, crop = material.item(int(index), rng)
        turn = rng.random() < 0.5
        images.append(photometric(np.ascontiguousarray(crop[::-1, ::-1]) if turn else crop, rng, bend))
        if tile == NOTHING:
            targets[row, NOTHING_ROW] = 1
        elif upside_down is None:
            targets[row, 2 * tile : 2 * tile + 2] = 1
        else:
            targets[row, 2 * tile + int(upside_down != turn)] = 1
    return prepare(images).transpose(0, 2, 3, 1), targets


def fit(material: Material, epochs: int, seed: int, log: bool = True, bend: float = 0.0) -> dict:
    """The trained network's parameters (Adam, cosine-decayed rate)."""
    import jax.numpy as jnp

    from vision import learn

    rng = np.random.default_rng(seed + 1)
    params = learn.init(seed)
    moments = learn.adam_init(params)
    steps = max(1, len(material) // BATCH)
    total, count, started = steps * epochs, 0, time.monotonic()
    for epoch in range(epochs):
        order = rng.permutation(len(material))
        losses = []
        for index in range(steps):
            images, targets = batch(material, order[index * BATCH : (index + 1) * BATCH], rng, bend)
            rate = RATE * 0.5 * (1 + np.cos(np.pi * count / total))
            data = (jnp.asarray(images), jnp.asarray(targets), jnp.ones(len(images)))
            params, moments, value = learn.step(params, moments, jnp.asarray(count), jnp.float32(rate), data)
            losses.append(value)
            count += 1
        if log:
            loss = float(jnp.mean(jnp.stack(losses)))
            print(f"epoch {epoch + 1}/{epochs}: loss {loss:.3f}, {time.monotonic() - started:.0f} s", flush=True)
    return {name: np.asarray(value) for name, value in params.items()}


def calibrate(model: Model, samples: list[Sample]) -> Model:
    """Per kind, a reject level just below its validation photos' usual similarity (seen sets' photos the network
    did not learn from)."""
    scores, _, _ = model.scores(*model.embed([sample.crop((CROP_W, CROP_H)) for sample in samples]))
    labels = np.array([sample.tile for sample in samples])
    top = scores.max(axis=1)
    reject = np.full(NUM_FACES, REJECT_RANGE[0], np.float32)
    for kind in np.unique(labels):
        reject[kind] = np.clip(np.percentile(top[labels == kind], 10) - REJECT_MARGIN, *REJECT_RANGE)
    return replace(model, reject=reject)


def build(
    out: Path,
    epochs: int,
    seed: int,
    hold_out: tuple[str, ...] = HELD_OUT,
    log: bool = True,
    drawn: int = DRAWN_PER_KIND,
    bend: float = BEND,
) -> Model:
    """Train, export the network into ``out`` and return the model read from it (not yet saved); ``drawn`` faces
    per kind drawn from scratch (``vision.synthetic``), a share ``bend`` of the crops ``bent``."""
    from vision.learn import CLASSES, NOTHING_ROW, export_onnx

    material = Material(hold_out, seed, log, drawn)
    params = fit(material, epochs, seed, log, bend)
    out.mkdir(parents=True, exist_ok=True)
    export_onnx(params, out / NETWORK_FILE)
    (out / CREDIT_FILE).write_text(CREDIT + "\n")
    rows = params["rows"] / np.linalg.norm(params["rows"], axis=1, keepdims=True)
    labels = np.where(np.arange(CLASSES) == NOTHING_ROW, NOTHING, np.arange(CLASSES) // 2).astype(np.int16)
    turned = (np.arange(CLASSES) % 2 == 1) & (labels != NOTHING)
    description = (
        f"network, {epochs} epochs, seed {seed}, {drawn} drawn faces a kind, {bend} bent; "
        f"never saw the {', '.join(hold_out)} scene set(s) nor "
        f"shared/photos/sets (credit: {CREDIT_FILE})"
    )
    model = Model(
        NetworkReader(Embedder(out / NETWORK_FILE)),
        rows.astype(np.float32),
        labels,
        turned,
        float(np.exp(params["scale"])),
        threshold=THRESHOLD,
        description=description,
    )
    return calibrate(model, material.validation)


SPARE_STYLES = ("uni", "riichi")
SPARE_PER_STYLE = 60
SPARE_FACES = RED_FIVES
"""The red fives only: the colour splits a five from its red five whatever the templates, so artwork templates
only make the network's reading of an all-red face sure (red fives of the riichi artwork: answered 25% -> 100%).
Artwork tens would be taken for the real-photo nines (uni 9p read as 10p 18 times in 20): a 十万 set enrols."""


def spare_templates(
    model: Model, per_style: int = SPARE_PER_STYLE, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Templates of the ``SPARE_FACES`` (red fives), from rendered artwork crops of both styles
    (the detector's corner error, random light), both ways up, condensed as enrolment does: what ``Model.only``
    gives a table that asks for a face the network was not trained on. Deterministic for a seed."""
    rng = np.random.default_rng(seed)
    samples = [pair for style in SPARE_STYLES for pair in crops(style, list(SPARE_FACES), per_style, rng)]
    faces = np.array([face for face, _ in samples], np.int32)
    upright, _ = model.embed([crop for _, crop in samples])
    upside, _ = model.embed([np.ascontiguousarray(crop[::-1, ::-1]) for _, crop in samples])
    templates, keys = condense(np.vstack([upright[:, 0], upside[:, 0]]), np.r_[faces * 2, faces * 2 + 1], seed=seed)
    return templates, (keys // 2).astype(np.int16), keys % 2 == 1


def tile_check(model: Model, seed: int = 0) -> verify.TileCheck:
    """The model's "is this a tile" check (``vision.verify``), fitted on the detector's proposals in every overhead
    photo of ``shared/photos/scenes`` (the tile size given off by up to ``verify.OFF_SIZE``) and crops of them where no
    tile is whole. Deterministic for a seed; about a minute."""
    names = verify.overhead_names()
    factors = verify.fitting_factors(names, seed)
    rng = np.random.default_rng(seed)
    folder = default_photos_dir() / "scenes"
    return verify.fit_on(model, [verify.propose(folder, name, factors[name], rng) for name in names])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hold-out", default=",".join(HELD_OUT), help="scene sets left out (comma-separated)")
    parser.add_argument(
        "--drawn", type=int, default=DRAWN_PER_KIND, help="faces drawn from scratch per kind (vision.synthetic)"
    )
    parser.add_argument("--bend", type=float, default=BEND, help="the share of crops whose strokes are bent (0-1)")
    parser.add_argument("--spare", action="store_true", help="only (re)write the model's spare.npz (red fives)")
    parser.add_argument("--check", action="store_true", help="only (re)write the model's tilecheck.npz (is a tile)")
    args = parser.parse_args(argv)
    if args.check:
        check = tile_check(load_model(args.out), seed=args.seed)
        check.save(args.out)
        print(f"{args.out}: {verify.FILE}, levels {check.level:.3f} (proposals), {check.strict:.3f} (neighbours)")
        return 0
    if args.spare:
        spare = spare_templates(load_model(args.out), seed=args.seed)
        save_spare(args.out, spare)
        print(f"{args.out}: {len(spare[0])} spare templates of {len(set(spare[1].tolist()))} faces")
        return 0
    if not 1 <= args.epochs <= 1000:
        parser.error(f"--epochs {args.epochs}: expected 1-1000")
    if not 0 <= args.drawn <= 1000:
        parser.error(f"--drawn {args.drawn}: expected 0-1000")
    if not 0 <= args.bend <= 1:
        parser.error(f"--bend {args.bend}: expected 0-1")
    if args.drawn and (missing := missing_fonts()) is not None:
        parser.error(f"--drawn {args.drawn}: {missing}")
    cv2.setNumThreads(1)
    started = time.monotonic()
    hold_out = tuple(filter(None, args.hold_out.split(",")))
    model = build(args.out, args.epochs, args.seed, hold_out, drawn=args.drawn, bend=args.bend)
    model = replace(model, spare=spare_templates(model, seed=args.seed))
    model = replace(model, check=tile_check(model, seed=args.seed))
    model.save(args.out)
    levels = model.reject[model.kinds]
    print(
        f"{args.out}: {len(model.labels)} templates, temperature {model.temperature:.1f}, "
        f"reject {levels.min():.3f}-{levels.max():.3f}, {time.monotonic() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
