"""The ``mjtable vision`` command group: enroll, classify, watch, calibrate. Every answer is a JSON line; every
error is an ``{"error": ...}`` line naming the file, line or source, never a traceback.

``register(subparsers)`` adds the group to the ``mjtable`` parser; each subcommand sets ``handler``, called as
``args.handler(args, out)`` and returning the exit status. ``python -m vision.cli`` runs the group alone.

Readings are faces of ``vision.kinds`` (``0m`` a red five, ``10m`` 十万); ``classify --rules R`` reads only the faces
of that ruleset's set and adds each face as the ruleset's tile (``table``, in its notation, and ``marked``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from engine.errors import MjtableError, NotationError
from engine.tiles import NUM_TILE_IDS, parse_tiles
from vision import calibrate as calibration_file
from vision.calibrate import Calibration
from vision.capture import Settings, first_frame, open_source
from vision.classify import Model, load_model
from vision.detect import face_crop, find_in_photo
from vision.enroll import Guide, enroll
from vision.errors import CaptureError, ModelError, VisionError
from vision.features import warp_face
from vision.images import check_output, load_image, save_image
from vision.kinds import Face, face_code, parse_face, table_faces, table_tile
from vision.labels import read_labels
from vision.layout import LayoutError, annotate, read_layout
from vision.recognize import Recognizer, Zones
from vision.track import Tracker
from vision.verify import find_checked


def _dump(data: dict[str, Any], out: TextIO) -> None:
    out.write(json.dumps(data, ensure_ascii=False) + "\n")
    out.flush()


def _model(args: argparse.Namespace) -> Model:
    return load_model(args.model)


def _from_config(args: argparse.Namespace, keys: tuple[str, ...]) -> None:
    """``--config FILE``: the ``[camera]`` values of the service's configuration where the command line gave none."""
    if args.config is None:
        return
    from controller.config import load_config  # the service's file: the vision tools need the controller only here

    camera = load_config(args.config).camera
    for key in keys:
        value = getattr(camera, key)
        if getattr(args, key) is None and value:
            setattr(args, key, value if key == "source" else Path(value))


def _model_dir(path: Path) -> Path:
    """A model directory to write, made now so that a bad ``--out`` is named before any work is done."""
    if path.exists() and not path.is_dir():
        raise ModelError(f"--out {path}: is a file, not a model directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ModelError(f"--out {path}: cannot create the model directory ({error.strerror})") from None
    return path


def _save(model: Model, folder: Path) -> None:
    try:
        model.save(folder)
    except OSError as error:
        raise ModelError(f"--out {folder}: cannot write the model ({error.strerror})") from None


def _enroll(args: argparse.Namespace, out: TextIO) -> int:
    _model_dir(args.out)
    if args.images is None and args.layout is None:
        _from_config(args, ("source", "calibration"))  # the model [camera] names is the output, not the base
    answer: dict[str, Any] = {}
    if args.layout is not None or args.layout_camera:
        faces, answer["annotated"] = _layout(args)
    elif args.source is not None:
        faces = _guided(args, out)
    elif args.images is not None and args.labels is not None:
        faces = [(face_crop(load_image(path)), tile) for path, tile in read_labels(args.labels, args.images)]
    else:
        raise VisionError(
            "enroll: give --layout PHOTO or --layout-camera, --images DIR and --labels CSV, or --source SOURCE"
        )
    model = enroll(_model(args), faces)
    _save(model, args.out)
    kinds = len({tile for _, tile in faces})
    answer = {"model": str(args.out), "pictures": len(faces), "kinds": kinds, **answer}
    _dump({**answer, "description": model.description}, out)
    return 0


def _layout(args: argparse.Namespace) -> tuple[list[tuple[np.ndarray, Face]], str]:
    """The faces of a set laid out in one photo (a file, or a frame of the table camera), and the annotated
    picture written for the person to check; a refused layout is drawn too, and the error names the picture."""
    annotated = args.annotated or args.out / "layout.png"
    check_output(annotated, picture=True)
    tile_px = args.tile_px
    if args.layout is not None:
        image = load_image(args.layout)
    else:
        if args.source is None:
            raise VisionError("enroll --layout-camera: give --source SOURCE, or --config FILE whose [camera] names one")
        image = first_frame(args.source, _settings(args)).image
        if tile_px is None and args.calibration is not None:
            tile_px = calibration_file.tile_px(calibration_file.load(args.calibration))
    try:
        layout = read_layout(image, tile_px)
    except LayoutError as error:
        save_image(annotated, annotate(image, error.tiles))
        raise LayoutError(f"{error} (see {annotated})", error.tiles) from None
    save_image(annotated, annotate(image, layout.tiles, layout.kinds))
    return layout.faces(image), str(annotated)


def _kinds(text: str) -> list[Face]:
    """``--kinds``: compact notation (``123m7z``), or face codes apart (``5m 0m 10m`` or ``5m,0m,10m``)."""
    try:
        return parse_tiles(text)
    except NotationError:
        pass
    try:
        return [parse_face(code) for code in text.replace(",", " ").split()]
    except NotationError:
        raise VisionError(
            f"--kinds {text[:60]!r}: expected compact notation (123m7z) or face codes such as '5m 0m 10m'"
        ) from None


def _guided(args: argparse.Namespace, out: TextIO) -> list[tuple[np.ndarray, Face]]:
    """Live enrollment: prompts as JSON lines, faces from the table camera."""
    kinds = _kinds(args.kinds) if args.kinds else list(range(NUM_TILE_IDS))
    guide: Guide | None = None
    for frame in open_source(args.source, _settings(args)).frames():
        if guide is None:
            calibration = _calibration(args, frame.image)
            guide = Guide(Zones(calibration, ("discard",)), list(kinds), args.shots)
            _dump(guide.first_prompt(), out)
        for message in guide.see(frame.image):
            _dump(message, out)
        if guide.done:
            return guide.faces
    missing = " ".join(face_code(face) for face in (kinds if guide is None else guide.kinds))
    raise CaptureError(f"source {args.source!r} ended before every kind was enrolled (missing {missing})")


def _calibration(args: argparse.Namespace, image: np.ndarray) -> Calibration:
    """The table geometry from --calibration, else from the markers in this frame."""
    if args.calibration is not None:
        return calibration_file.load(args.calibration)
    return calibration_file.from_markers(image)


def _detect(args: argparse.Namespace, out: TextIO) -> int:
    """Every tile of each photo: its face corners (top-left first, as the face reads), its kind and how sure."""
    model = _model(args)
    status = 0
    for path in args.images:
        try:
            image = load_image(path)
            if min(image.shape[:2]) < min(size for size in args.tile_px if size is not None):
                raise VisionError(f"{path}: {image.shape[1]}x{image.shape[0]} px is smaller than one tile")
            if model.check is None:
                found = [tile.quad for tile in find_in_photo(image, *args.tile_px).tiles]
            else:  # the reader's own check: what is no tile dropped, a tile cut across moved, missed ones found
                found = find_checked(model, model.check, image, *args.tile_px)
        except VisionError as error:
            _dump({"file": str(path), "error": str(error)}, out)
            status = 1
            continue
        for quad in found:
            prediction, upside_down = model.classify(warp_face(image, quad))
            corners = np.roll(quad, 2, axis=0) if upside_down else quad
            _dump(
                {
                    "file": str(path),
                    "corners": [[round(float(x), 1) + 0.0, round(float(y), 1) + 0.0] for x, y in corners],
                    "tile": prediction.code,
                    "confidence": round(prediction.confidence, 4),
                },
                out,
            )
        _dump({"file": str(path), "tiles": len(found)}, out)
    return status


def _ruleset(args: argparse.Namespace) -> Any:
    """``--rules`` with ``--options`` (a JSON object), or None."""
    if args.rules is None:
        if args.options is not None:
            raise VisionError("classify: --options needs --rules")
        return None
    from engine.rulesets.registry import get_ruleset

    try:
        options = json.loads(args.options or "{}")
    except (json.JSONDecodeError, RecursionError) as error:
        raise VisionError(f"--options: not JSON ({error})") from None
    if not isinstance(options, dict):
        raise VisionError("--options: expected a JSON object such as '{\"red_fives\": true}'")
    return get_ruleset(args.rules, options)


def _classify(args: argparse.Namespace, out: TextIO) -> int:
    ruleset = _ruleset(args)
    model = _model(args) if ruleset is None else _model(args).only(table_faces(ruleset))
    status = 0
    for path in args.images:
        try:
            prediction, _ = model.classify(face_crop(load_image(path)))
        except VisionError as error:
            _dump({"file": str(path), "error": str(error)}, out)
            status = 1
            continue
        answer = {"file": str(path), "tile": prediction.code, "confidence": round(prediction.confidence, 4)}
        if ruleset is not None:
            tile = None if prediction.tile is None else table_tile(prediction.tile, ruleset)
            answer["table"] = None if tile is None else ruleset.tile_code(tile.tile)
            answer["marked"] = tile is not None and tile.marked
        _dump(answer, out)
    return status


def _settings(args: argparse.Namespace) -> Settings:
    return Settings.from_dict({"width": args.width, "height": args.height, "fps": args.fps})


def _watch(args: argparse.Namespace, out: TextIO) -> int:
    _from_config(args, ("source", "calibration", "model"))
    if args.source is None:
        raise VisionError("watch: give --source SOURCE, or --config FILE whose [camera] names a source")
    source = open_source(args.source, _settings(args))
    model = _model(args)
    tracker = Tracker()
    recognizer = None
    for frame in source.frames():
        if args.frames is not None and frame.index >= args.frames:
            break
        recognizer = recognizer or Recognizer(_calibration(args, frame.image), model)
        for event in tracker.update(recognizer.read(frame.image), frame.index, frame.time):
            if args.all or event.kind == "discard":
                _dump(event.to_dict(), out)
    return 0


def _corners(text: str) -> np.ndarray:
    try:
        points = np.array([[float(v) for v in point.split(",")] for point in text.split(";")])
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected four x,y points separated by ';', found {text[:60]!r}") from None
    if points.shape != (4, 2):
        raise argparse.ArgumentTypeError(f"expected four x,y points separated by ';', found {text[:60]!r}")
    return points


def _calibrate(args: argparse.Namespace, out: TextIO) -> int:
    check_output(args.out)
    if args.image is not None:
        check_output(args.image, picture=True)
    image = first_frame(args.source, _settings(args)).image
    if args.corners is None:
        result = calibration_file.from_markers(image)
    else:
        result = calibration_file.from_corners(args.corners, image.shape[1], image.shape[0])
    calibration_file.save(result, args.out)
    answer = {"calibration": str(args.out)}
    if args.image is not None:
        save_image(args.image, calibration_file.annotate(image, result))
        answer["image"] = str(args.image)
    _dump(answer, out)
    return 0


Handler = Callable[[argparse.Namespace, TextIO], int]
MIN_TILE_PX, MAX_TILE_PX = 8, 2000
TILE_PX_HELP = f"width of a tile's face in the photo, px ({MIN_TILE_PX}-{MAX_TILE_PX}; the height is 4/3 of it)"
FACE_PX_HELP = (
    f"W or W,H: width (along x) and height (along y) of an upright tile's face in the photo, px ({MIN_TILE_PX}-"
    f"{MAX_TILE_PX}; H defaults to 4/3 of W: give both for a stretched photo, non-square pixels)"
)


def _ranged(kind: type, low: float, high: float) -> Callable[[str], Any]:
    """An argparse type: a number of ``kind`` within [low, high]."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number {low:g} to {high:g}, found {text[:40]!r}") from None
        if not low <= value <= high:  # also refuses nan
            raise argparse.ArgumentTypeError(f"expected {low:g} to {high:g}, found {text[:40]!r}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def _face_px(text: str) -> tuple[float, float | None]:
    """An argparse type: ``W`` or ``W,H``, each a size in px within the tile sizes' range."""
    parts = text.split(",")
    if len(parts) > 2:
        raise argparse.ArgumentTypeError(f"expected W or W,H, found {text[:40]!r}")
    sizes = [_ranged(float, MIN_TILE_PX, MAX_TILE_PX)(part) for part in parts]
    return sizes[0], sizes[1] if len(sizes) == 2 else None


def _guarded(handler: Handler) -> Handler:
    """Errors of the vision package (and of the engine's notation) as one JSON line and exit status 2."""

    def run(args: argparse.Namespace, out: TextIO) -> int:
        try:
            return handler(args, out)
        except MjtableError as error:
            _dump({"error": str(error)}, out)
            return 2

    return run


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``vision`` and its subcommands to a parser's subcommands."""
    vision = subparsers.add_parser("vision", help="overhead camera: enroll a tile set, classify faces, watch discards")
    commands = vision.add_subparsers(dest="vision_command", required=True)

    def sub(name: str, help_text: str, handler: Handler) -> argparse.ArgumentParser:
        parser = commands.add_parser(name, help=help_text)
        parser.set_defaults(handler=_guarded(handler))
        return parser

    def with_model(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--model", type=Path, help="model directory (default: the shipped artwork model)")

    def with_config(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--config", type=Path, help="mjtable.toml: its [camera] keys are the defaults")

    def with_source(parser: argparse.ArgumentParser, required: bool = True) -> None:
        spellings = "sim[:SEED[:DISCARDS]], picamera, a device number, URL, video or image folder"
        parser.add_argument("--source", required=required, help=spellings)
        parser.add_argument("--width", type=_ranged(int, 16, 8192), default=1280)
        parser.add_argument("--height", type=_ranged(int, 16, 8192), default=720)
        parser.add_argument("--fps", type=_ranged(float, 0.1, 120), default=10.0)

    parser = sub("enroll", "templates of the table's own set, from labelled photos or live from the camera", _enroll)
    parser.add_argument(
        "--layout",
        type=Path,
        help="one photo of the whole set laid out in CLASSES.csv order (also a 十万 set, red fives)",
    )
    parser.add_argument("--layout-camera", action="store_true", help="the layout photo from the table camera")
    parser.add_argument("--tile-px", type=_ranged(float, MIN_TILE_PX, MAX_TILE_PX), help=f"layout: {TILE_PX_HELP}")
    parser.add_argument("--annotated", type=Path, help="layout: the checked picture to write (default OUT/layout.png)")
    parser.add_argument("--images", type=Path, help="folder of photos, one tile face each, upright")
    parser.add_argument("--labels", type=Path, help="CSV with columns file,code (or the file first and a code column)")
    parser.add_argument("--out", type=Path, required=True, help="model directory to write")
    with_model(parser)
    with_source(parser, required=False)
    with_config(parser)
    parser.add_argument("--calibration", type=Path, help="TOML from 'mjtable vision calibrate' (default: markers)")
    parser.add_argument(
        "--kinds", help="live: the kinds to enroll, compact notation or face codes '5m 0m 10m' (default: all 42)"
    )
    parser.add_argument("--shots", type=_ranged(int, 1, 50), default=3, help="live: frames kept per kind (1-50)")

    parser = sub("classify", "the kind of each roughly cropped tile photo, one JSON line each", _classify)
    parser.add_argument("--json", action="store_true", help="JSON lines (the only output format)")
    parser.add_argument("--rules", help="read only this ruleset's faces and give each as its tile ('table', 'marked')")
    parser.add_argument("--options", help="with --rules: its options as a JSON object, e.g. '{\"red_fives\": true}'")
    parser.add_argument("images", type=Path, nargs="+")
    with_model(parser)

    parser = sub("detect", "every tile of each photo: face corners, kind and confidence, one JSON line each", _detect)
    parser.add_argument("--tile-px", type=_face_px, required=True, help=FACE_PX_HELP)
    parser.add_argument("--json", action="store_true", help="JSON lines (the only output format)")
    parser.add_argument("images", type=Path, nargs="+")
    with_model(parser)

    parser = sub("watch", "discards (and with --all, takes and revealed hands) as JSON lines", _watch)
    with_source(parser, required=False)
    with_config(parser)
    with_model(parser)
    parser.add_argument("--calibration", type=Path, help="TOML from 'mjtable vision calibrate' (default: find markers)")
    parser.add_argument("--frames", type=_ranged(int, 1, 10**9), help="stop after this many frames")
    parser.add_argument("--all", action="store_true", help="also print taken tiles and revealed hands")

    parser = sub("calibrate", "table geometry from the corner markers (or four corners) of one frame", _calibrate)
    with_source(parser)
    parser.add_argument("--out", type=Path, required=True, help="TOML file to write ([vision.calibration])")
    parser.add_argument("--image", type=Path, help="also save the frame with the zones drawn")
    parser.add_argument("--corners", type=_corners, help="marker centres in pixels: x,y;x,y;x,y;x,y (ids 0-3)")
    return vision


def main(argv: list[str] | None = None, stdout: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mjtable")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args, stdout or sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
