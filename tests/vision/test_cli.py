import io
import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from tests.paths import REPO
from vision.artwork import default_artwork_dir
from vision.classify import DEFAULT_MODEL
from vision.cli import main
from vision.render import tile_photo


def run(argv: list[str]) -> tuple[int, list[dict]]:
    out = io.StringIO()
    code = main(["vision", *argv], out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    """Photos of the 'other' set: two per character kind to enroll, one more of each to classify."""
    folder = tmp_path_factory.mktemp("photos")
    rng = np.random.default_rng(8)
    rows = ["file,code"]
    for tile in range(9):
        for shot in range(3):
            name = f"{tile + 1}m-{shot}.png"
            cv2.imwrite(str(folder / name), tile_photo(tile, "other", rng))
            if shot < 2:
                rows.append(f"{name},{tile + 1}m")
    (folder / "labels.csv").write_text("\n".join(rows) + "\n")
    return folder


def test_classify_prints_one_json_line_per_image(tmp_path):
    rng = np.random.default_rng(1)
    paths = []
    for tile in (0, 13, 33):
        paths.append(tmp_path / f"{tile}.png")
        cv2.imwrite(str(paths[-1]), tile_photo(tile, "uni", rng))
    code, lines = run(["classify", "--json", *map(str, paths)])
    assert code == 0
    assert [(line["file"], line["tile"]) for line in lines] == [
        (str(p), t) for p, t in zip(paths, ("1m", "5p", "7z"), strict=True)
    ]
    assert all(0.5 <= line["confidence"] <= 1 for line in lines)


def test_classify_answers_bad_files_and_goes_on(tmp_path):
    text = tmp_path / "notes.png"
    text.write_text("not an image")
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), tile_photo(27, "uni", np.random.default_rng(2)))
    code, lines = run(["classify", "--json", str(tmp_path / "absent.png"), str(text), str(good)])
    assert code == 1
    assert "no such file" in lines[0]["error"] and lines[0]["file"].endswith("absent.png")
    assert "not an image" in lines[1]["error"]
    assert lines[2]["tile"] == "1z"


def test_enroll_then_classify_with_the_enrolled_model(photos, tmp_path):
    code, lines = run(
        ["enroll", "--images", str(photos), "--labels", str(photos / "labels.csv"), "--out", str(tmp_path / "set")]
    )
    assert code == 0 and lines[0]["pictures"] == 18 and lines[0]["kinds"] == 9
    held_out = sorted(photos.glob("*-2.png"))
    code, lines = run(["classify", "--model", str(tmp_path / "set"), "--json", *map(str, held_out)])
    right = sum(line["tile"] == line["file"].rsplit("/", 1)[1].split("-")[0] for line in lines)
    assert right >= 8


def test_enroll_errors_name_the_file_and_line(photos, tmp_path):
    bad = tmp_path / "labels.csv"
    bad.write_text("file,code\n1m-0.png,1m\n1m-1.png,11m\n")
    code, lines = run(["enroll", "--images", str(photos), "--labels", str(bad), "--out", str(tmp_path / "m")])
    assert code == 2 and "line 3" in lines[0]["error"] and "11m" in lines[0]["error"]
    code, lines = run(["classify", "--model", str(tmp_path / "nothing"), "--json", str(bad)])
    assert code == 2 and "not a model directory" in lines[0]["error"]


def test_watch_prints_the_discards_of_the_simulated_table():
    code, lines = run(["watch", "--source", "sim:5:4"])
    assert code == 0
    assert [(line["event"], line["seat"]) for line in lines] == [("discard", seat) for seat in range(4)]
    assert all(line["tile"] != "unknown" for line in lines)


def test_calibrate_writes_the_table_and_an_annotated_image(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    from vision.render import Scene, default_camera, random_look, render

    rng = np.random.default_rng(0)
    cv2.imwrite(str(frames / "0.png"), render(Scene(), default_camera(), random_look(rng), rng))
    toml, image = tmp_path / "vision.toml", tmp_path / "zones.png"
    code, lines = run(["calibrate", "--source", str(frames), "--out", str(toml), "--image", str(image)])
    assert code == 0 and lines == [{"calibration": str(toml), "image": str(image)}]
    assert "[vision.calibration]" in toml.read_text() and cv2.imread(str(image)) is not None
    code, lines = run(["watch", "--source", str(frames), "--calibration", str(toml)])
    assert code == 0 and lines == []


def test_errors_never_show_a_traceback(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "vision.cli", "vision", "watch", "--source", str(tmp_path / "absent")],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "no such file or folder" in json.loads(result.stdout)["error"]


def test_live_enrollment_prompts_and_keeps_the_tile_shown(tmp_path):
    """A recorded session: 2m shown for five frames, the zone cleared, then 7z shown."""
    from vision.geometry import apply, seat_to_table
    from vision.render import Placed, Scene, default_camera, random_look, render

    camera, rng = default_camera(), np.random.default_rng(6)
    frames = tmp_path / "session"
    frames.mkdir()
    spot = apply(seat_to_table(0), np.array([[0.0, 170.0]]))[0]
    shown = [(1,)] * 5 + [()] * 4 + [(33,)] * 5
    for index, tiles in enumerate(shown):
        scene = Scene(tuple(Placed(tile, *spot) for tile in tiles))
        cv2.imwrite(str(frames / f"{index:03d}.png"), render(scene, camera, random_look(rng), rng))
    code, lines = run(["enroll", "--source", str(frames), "--kinds", "2m7z", "--out", str(tmp_path / "live")])
    assert code == 0
    assert [line.get("enrolled") for line in lines if "enrolled" in line] == ["2m", "7z"]
    assert "place 2m" in lines[0]["prompt"] and lines[-1]["pictures"] == 6 and lines[-1]["kinds"] == 2
    code, lines = run(["enroll", "--source", str(frames), "--kinds", "2m7z1p", "--out", str(tmp_path / "x")])
    assert code == 2 and "missing 1p" in lines[-1]["error"]


def test_watch_and_enroll_take_the_camera_section_of_the_configuration(tmp_path):
    config = tmp_path / "mjtable.toml"
    config.write_text('[camera]\nsource = "sim:5:2"\n')
    code, lines = run(["watch", "--config", str(config)])
    assert code == 0 and [(line["event"], line["seat"]) for line in lines] == [("discard", 0), ("discard", 1)]
    absent, no_model = tmp_path / "absent.toml", tmp_path / "no-model"
    config.write_text(f'[camera]\nsource = "sim:5:2"\ncalibration = "{absent}"\nmodel = "{no_model}"\n')
    code, lines = run(["watch", "--config", str(config)])
    assert code == 2 and lines[0]["error"].startswith(f"{no_model}: not a model directory")
    code, lines = run(["watch", "--config", str(config), "--model", str(DEFAULT_MODEL)])  # the command line wins
    assert code == 2 and lines[0]["error"].startswith(f"{absent}: cannot read")
    code, lines = run(["enroll", "--config", str(config), "--kinds", "2m", "--out", str(tmp_path / "set")])
    assert code == 2 and lines[-1]["error"].startswith(f"{absent}: cannot read")
    code, lines = run(["watch"])
    assert code == 2 and "give --source SOURCE, or --config FILE" in lines[0]["error"]
    config.write_text('[camera]\nsorce = "0"\n')
    code, lines = run(["watch", "--config", str(config)])
    assert code == 2 and "camera.sorce: unknown key" in lines[0]["error"]


def _rendered_tiles(tmp_path):
    """A photo of five tiles lying apart on the mat (no markers), the tile width in px, and where each lies."""
    from vision.geometry import apply
    from vision.render import Look, Placed, Scene, default_camera, render

    camera = default_camera()
    tiles = [(0, -120.0, -40.0), (13, -50.0, 20.0), (22, 10.0, -30.0), (31, 80.0, 40.0), (33, 140.0, 0.0)]
    scene = Scene(tuple(Placed(tile, x, y) for tile, x, y in tiles), markers=False)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), render(scene, camera, Look(), np.random.default_rng(3)))
    centre, right = apply(camera.homography, np.array([[0.0, 0.0], [30.0, 0.0]]))
    where = [(tile, apply(camera.homography, np.array([[x, y]]))[0]) for tile, x, y in tiles]
    return path, float(np.linalg.norm(right - centre)), where


def test_detect_prints_each_tile_with_its_corners_kind_and_confidence(tmp_path):
    from engine.tiles import tile_code

    path, tile_px, where = _rendered_tiles(tmp_path)
    code, lines = run(["detect", "--tile-px", f"{tile_px:.1f}", "--json", str(path)])
    assert code == 0 and lines[-1] == {"file": str(path), "tiles": 5}
    found = lines[:-1]
    assert all(set(line) == {"file", "corners", "tile", "confidence"} for line in found)
    for tile, centre in where:
        line = min(found, key=lambda line: np.linalg.norm(np.mean(line["corners"], axis=0) - centre))
        corners = np.array(line["corners"])
        assert np.linalg.norm(corners.mean(axis=0) - centre) < 4
        width, height = np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[3] - corners[0])
        assert abs(width - tile_px) < 4 and abs(height - tile_px * 4 / 3) < 5
        assert line["tile"] == tile_code(tile) and line["confidence"] >= 0.5


def test_detect_answers_every_photo(tmp_path):
    path, tile_px, _ = _rendered_tiles(tmp_path)
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((200, 300, 3), 90, np.uint8))
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), np.full((20, 20, 3), 90, np.uint8))
    code, lines = run(["detect", "--tile-px", f"{tile_px:.1f}", str(blank), str(small), str(tmp_path), str(path)])
    assert code == 1
    assert lines[0] == {"file": str(blank), "tiles": 0}
    assert "smaller than one tile" in lines[1]["error"] and "is a directory" in lines[2]["error"]
    assert lines[-1] == {"file": str(path), "tiles": 5}


@pytest.mark.parametrize("value", ["0", "-3", "nan", "inf", "3000", "x"])
def test_detect_refuses_a_tile_size_out_of_range(value, capsys):
    with pytest.raises(SystemExit) as stop:
        run(["detect", "--tile-px", value, "photo.png"])
    assert stop.value.code == 2 and "--tile-px: expected" in capsys.readouterr().err


def test_enroll_out_must_be_a_directory_that_can_be_made(photos, tmp_path):
    labels = ["--images", str(photos), "--labels", str(photos / "labels.csv")]
    (tmp_path / "file").write_text("")
    code, lines = run(["enroll", *labels, "--out", str(tmp_path / "file")])
    assert code == 2 and lines == [{"error": f"--out {tmp_path / 'file'}: is a file, not a model directory"}]
    code, lines = run(["enroll", *labels, "--out", "/proc/nope"])
    assert code == 2 and "--out /proc/nope: cannot create the model directory" in lines[0]["error"]
    code, lines = run(["enroll", *labels, "--out", str(tmp_path / "file" / "under")])
    assert code == 2 and "cannot create the model directory" in lines[0]["error"]


def test_enroll_takes_the_artwork_labels_whose_file_column_is_png(tmp_path):
    folder = default_artwork_dir() / "uni"
    code, lines = run(
        ["enroll", "--images", str(folder), "--labels", str(folder / "labels.csv"), "--out", str(tmp_path)]
    )
    assert code == 0 and lines[0]["pictures"] == 42 and lines[0]["kinds"] == 42


def test_calibrate_names_a_bad_output_before_taking_a_frame(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), np.full((72, 128, 3), 60, np.uint8))
    corners = ["--corners", "10,10;110,10;110,60;10,60"]
    (tmp_path / "file").write_text("")
    for out, message in [
        (tmp_path, "is a directory; give a file name"),
        (tmp_path / "file" / "vision.toml", "is not a directory"),
        (tmp_path / "absent" / "vision.toml", "does not exist"),
    ]:
        code, lines = run(["calibrate", "--source", str(frames), *corners, "--out", str(out)])
        assert code == 2 and lines == [{"error": f"{out}: {lines[0]['error'].split(': ', 1)[1]}"}]
        assert message in lines[0]["error"]
    toml = tmp_path / "vision.toml"
    code, lines = run(["calibrate", "--source", str(frames), *corners, "--out", str(toml), "--image", "zones.txt"])
    assert code == 2 and "zones.txt: no image format for this file name" in lines[0]["error"]
    assert not toml.exists()  # nothing half done
    code, lines = run(["calibrate", "--source", str(frames), *corners, "--out", str(toml)])
    assert code == 0 and toml.exists()


def test_classify_says_a_directory_is_a_directory(tmp_path):
    code, lines = run(["classify", str(tmp_path)])
    assert code == 1 and lines == [{"file": str(tmp_path), "error": f"{tmp_path}: is a directory, not an image file"}]


def test_corrupt_photos_leave_stderr_silent(tmp_path):
    good = cv2.imencode(".png", tile_photo(5, "uni", np.random.default_rng(0)))[1].tobytes()
    noisy = tmp_path / "noisy.png"  # a text chunk with a wrong CRC: libpng warns, the picture is fine
    noisy.write_bytes(good[:33] + b"\x00\x00\x00\x02tEXta\x00\x00\x00\x00\x00" + good[33:])
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(cv2.imencode(".jpg", tile_photo(5, "uni", np.random.default_rng(0)))[1].tobytes()[:400])
    result = subprocess.run(
        [sys.executable, "-m", "vision.cli", "vision", "classify", str(noisy), str(cut)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert result.stderr == ""
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["tile"] == "6m" and "cut short" in lines[1]["error"]


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["enroll", "--source", "sim", "--shots", "0", "--out", "x"], "--shots"),
        (["watch", "--source", "sim", "--frames", "-1"], "--frames"),
        (["watch", "--source", "sim", "--fps", "0"], "--fps"),
        (["watch", "--source", "sim", "--width", "100000"], "--width"),
        (["calibrate", "--source", "sim", "--out", "x", "--corners", "1,2;3"], "--corners"),
    ],
)
def test_numbers_out_of_range_are_refused_with_the_flag(argv, flag, capsys):
    with pytest.raises(SystemExit) as stop:
        run(argv)
    assert stop.value.code == 2 and f"argument {flag}:" in capsys.readouterr().err
