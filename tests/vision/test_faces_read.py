"""Red fives and 十万's tens read by the camera (issue 25): the artwork, the colour cue, enrolment from a layout of
each set, a model saved and loaded with them, and the command line."""

import io
import json

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tiles
from vision.artwork import load_faces
from vision.classify import RED_LEVELS, Model, Prediction, load_model
from vision.cli import _kinds, main
from vision.detect import face_crop
from vision.enroll import _ask, artwork_set, enroll
from vision.features import redness
from vision.kinds import FIVES, NUM_FACES, RED_FIVES, TENS, face_code, parse_face, table_faces
from vision.layout import CLASS_ORDER, SHIWAN_ORDER, LayoutError, kinds_for, read_layout
from vision.layout import RED_FIVES as RED_ROW
from vision.render import Look, Placed, Scene, default_camera, render, tile_photo
from vision.track import Event
from vision.train import crops, spare_templates

SHIWAN = get_ruleset("shiwan")
RIICHI_RED = get_ruleset("riichi", {"red_fives": True})


def read(model: Model, samples: list) -> tuple[np.ndarray, np.ndarray]:
    """The truth and the best reading (-1: none) of (face, crop) samples."""
    readings = model.read([crop for _, crop in samples])
    best = [prediction.choices[0][0] if prediction.choices else -1 for prediction, _ in readings]
    return np.array([face for face, _ in samples]), np.array(best)


def layout_photo(rows: list[tuple[str, ...]], spacing: float = 50.0) -> np.ndarray:
    """A set laid out on the rendered table (uni faces) in these rows of codes, ``spacing`` mm apart (five rows 44
    mm apart keep clear of the console's edge; the detector cuts rows 4 mm apart less well than 10)."""
    placed = []
    for r, codes in enumerate(rows):
        for c, code in enumerate(codes):
            x, y = (c - (len(codes) - 1) / 2) * 36.0, (r - (len(rows) - 1) / 2) * spacing
            placed.append(Placed(parse_face(code), x, y))
    return render(Scene(tuple(placed)), default_camera(), Look(), np.random.default_rng(1))


SHIWAN_ROWS = [SHIWAN_ORDER[0:10], SHIWAN_ORDER[10:20], SHIWAN_ORDER[20:30], SHIWAN_ORDER[30:]]
RED_ROWS = [CLASS_ORDER[0:9], CLASS_ORDER[9:18], CLASS_ORDER[18:27], CLASS_ORDER[27:34], RED_ROW]


def test_the_artwork_draws_red_fives_and_tens_by_index_only():
    for style in ("uni", "riichi", "other"):
        faces = load_faces(style)
        assert 42 not in faces and len(faces) in (34, 42)  # what iterates the kinds (training, sets) is unchanged
        for face in (*RED_FIVES, *TENS):
            assert faces[face].shape == faces[0].shape and faces[face].dtype == np.float32
        for five, red in zip(FIVES, RED_FIVES, strict=True):
            crop = [cv2.resize((faces[face] * 230).astype(np.uint8), (32, 40)) for face in (five, red)]
            assert redness([crop[1]])[0] > redness([crop[0]])[0] + 0.2
        for ten, nine in zip(TENS, (8, 17, 26), strict=True):
            assert np.abs(faces[ten] - faces[nine]).mean() > 0.03
    with pytest.raises(KeyError):
        load_faces("uni")[48]


@pytest.mark.slow
def test_no_red_five_of_the_riichi_artwork_is_read_as_a_five_nor_a_five_as_red(model):
    """A riichi set with red fives enrolled from three photos of each face, and the shipped reader restricted to
    that table without enrolling (its spare red-five templates and the colour): no five read as red nor red as a
    five, and the shipped reader sure of its readings (without the spare templates it answered a quarter of them)."""
    faces = table_faces(RIICHI_RED)
    rng = np.random.default_rng(77)
    enrolled = enroll(model, [(face_crop(tile_photo(face, "riichi", rng)), face) for face in faces for _ in range(3)])
    samples = list(crops("riichi", [*FIVES, *RED_FIVES], 50, np.random.default_rng(5)))
    for table, top in ((enrolled.only(faces), 0.99), (model.only(faces), 0.95)):
        truth, best = read(table, samples)
        answered = [prediction.tile is not None for prediction, _ in table.read([crop for _, crop in samples])]
        assert np.mean(answered) >= 0.95
        assert (np.isin(truth, RED_FIVES) & np.isin(best, FIVES)).sum() == 0
        assert (np.isin(truth, FIVES) & np.isin(best, RED_FIVES)).sum() == 0
        assert (truth == best).mean() >= top
    plain = model.only(table_faces(get_ruleset("riichi")))  # no red fives on the table: never read
    _, best = read(plain, samples)
    assert not np.isin(best, RED_FIVES).any()


@pytest.mark.slow
def test_a_shiwan_set_enrolled_from_its_layout_reads_its_tens(model):
    photo = layout_photo(SHIWAN_ROWS)
    layout = read_layout(photo)
    assert layout.kinds == [parse_face(code) for code in SHIWAN_ORDER]
    table = enroll(model, layout.faces(photo)).only(table_faces(SHIWAN))
    samples = list(crops("uni", layout.kinds, 8, np.random.default_rng(9)))
    truth, best = read(table, samples)
    tens = np.isin(truth, TENS)
    assert (truth == best).mean() >= 0.97 and (truth == best)[tens].mean() >= 0.9
    assert not (np.isin(best, TENS) & ~tens).any()


@pytest.mark.slow
def test_a_riichi_layout_with_red_fives_enrolls_them_and_its_own_red_levels(model, tmp_path):
    photo = layout_photo(RED_ROWS, 44.0)
    layout = read_layout(photo)
    assert layout.kinds == [*(parse_face(code) for code in CLASS_ORDER[:34]), *RED_FIVES]
    enrolled = enroll(model, layout.faces(photo))
    assert set(RED_FIVES) <= set(enrolled.kinds) and enrolled.red_levels != RED_LEVELS
    enrolled.save(tmp_path / "set")
    loaded = load_model(tmp_path / "set")
    assert loaded.kinds == enrolled.kinds and loaded.red_levels == pytest.approx(enrolled.red_levels, abs=1e-4)
    assert loaded.spare is not None and np.array_equal(loaded.spare[1], model.spare[1])  # the set keeps them
    assert "0m" in json.loads((tmp_path / "set" / "model.json").read_text())["kinds"]
    samples = list(crops("uni", [*FIVES, *RED_FIVES], 10, np.random.default_rng(3)))
    truth, best = read(loaded.only(table_faces(RIICHI_RED)), samples)
    assert (truth == best).mean() >= 0.8  # uni's red fives are its fives recoloured: thin strokes, a weaker cue


def test_a_prediction_of_a_new_face_goes_to_json_and_back():
    prediction = Prediction(RED_FIVES[1], 0.9, 0.8, ((RED_FIVES[1], 0.9), (TENS[0], 0.05), (FIVES[1], 0.01)))
    data = prediction.to_dict()
    assert data["tile"] == "0p" and data["choices"][1][0] == "10m"
    assert Prediction.from_dict(json.loads(json.dumps(data))) == prediction


def run(argv):
    out = io.StringIO()
    code = main(["vision", *argv], out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.slow
def test_the_command_line_enrolls_a_shiwan_layout_and_classifies_as_its_tiles(tmp_path):
    photo = tmp_path / "layout.png"
    cv2.imwrite(str(photo), layout_photo(SHIWAN_ROWS))
    code, lines = run(["enroll", "--layout", str(photo), "--out", str(tmp_path / "set")])
    assert code == 0 and lines[0]["pictures"] == 34 and lines[0]["kinds"] == 34
    rng = np.random.default_rng(4)
    paths, truth = [], []
    for face in (*TENS, *TENS, *TENS, 8):
        paths.append(tmp_path / f"{len(paths)}.png")
        truth.append(face_code(face))
        cv2.imwrite(str(paths[-1]), tile_photo(face, "uni", rng))
    argv = ["classify", "--json", "--model", str(tmp_path / "set"), "--rules", "shiwan", *map(str, paths)]
    code, lines = run(argv)
    assert code == 0 and len(lines) == len(paths)
    as_tiles = {"10m": "0m", "10p": "0p", "10s": "0s", "9m": "9m", "unknown": None}
    assert all(line["table"] == as_tiles.get(line["tile"], line["tile"]) and not line["marked"] for line in lines)
    assert sum(line["tile"] == code for line, code in zip(lines, truth, strict=True)) >= 8  # of 10


def test_classify_names_a_bad_ruleset_or_options_without_a_traceback(tmp_path):
    photo = tmp_path / "5m.png"
    cv2.imwrite(str(photo), tile_photo(FIVES[0], "uni", np.random.default_rng(2)))
    code, lines = run(["classify", "--json", "--rules", "riichi", "--options", '{"red_fives": true}', str(photo)])
    assert code == 0 and lines[0]["tile"] == "5m" and lines[0]["table"] == "5m" and lines[0]["marked"] is False
    code, lines = run(["classify", "--json", "--rules", "nope", str(photo)])
    assert code == 2 and "unknown ruleset" in lines[0]["error"]
    code, lines = run(["classify", "--json", "--rules", "riichi", "--options", "{red", str(photo)])
    assert code == 2 and lines[0]["error"].startswith("--options: not JSON")
    code, lines = run(["classify", "--json", "--rules", "riichi", "--options", "[1]", str(photo)])
    assert code == 2 and "expected a JSON object" in lines[0]["error"]
    code, lines = run(["classify", "--json", "--options", "{}", str(photo)])
    assert code == 2 and "--options needs --rules" in lines[0]["error"]
    code, lines = run(["classify", "--json", "--rules", "riichi", "--options", '{"red_fives": 3}', str(photo)])
    assert code == 2 and "red_fives" in lines[0]["error"]


def test_enroll_labels_take_face_codes_and_name_a_bad_one(tmp_path):
    rng = np.random.default_rng(6)
    rows = ["file,code"]
    for face in (*TENS, *FIVES, *RED_FIVES):
        for shot in range(3):
            name = f"{face}-{shot}.png"
            cv2.imwrite(str(tmp_path / name), tile_photo(face, "uni" if face in TENS else "riichi", rng))
            rows.append(f"{name},{face_code(face)}")
    (tmp_path / "labels.csv").write_text("\n".join(rows) + "\n")
    argv = ["enroll", "--images", str(tmp_path), "--labels", str(tmp_path / "labels.csv"), "--out", str(tmp_path / "m")]
    code, lines = run(argv)
    assert code == 0 and lines[0]["kinds"] == 9
    assert set(load_model(tmp_path / "m").kinds) >= {*TENS, *RED_FIVES}
    red = tmp_path / "red.png"
    cv2.imwrite(str(red), tile_photo(RED_FIVES[1], "riichi", rng))
    rules = ["--rules", "riichi", "--options", '{"red_fives": true}']
    code, lines = run(["classify", "--json", "--model", str(tmp_path / "m"), *rules, str(red)])
    assert code == 0 and (lines[0]["tile"], lines[0]["table"], lines[0]["marked"]) == ("0p", "5p", True)
    (tmp_path / "bad.csv").write_text("file,code\n45-0.png,10z\n")
    argv[4] = str(tmp_path / "bad.csv")
    code, lines = run(argv)
    assert code == 2 and "line 2" in lines[0]["error"] and "10z" in lines[0]["error"]


@pytest.mark.slow
def test_a_shiwan_layout_short_of_a_wind_is_refused_naming_the_rows_found():
    rows = [*SHIWAN_ROWS[:3], SHIWAN_ROWS[3][:3]]
    with pytest.raises(LayoutError, match=r"found 33 tiles in rows of 10, 10, 10, 3: expected rows of") as error:
        read_layout(layout_photo(rows))
    assert "10, 10, 10, 4 (suits of ranks 1-10 and winds (a 十万 set))" in str(error.value)


def test_live_enrolment_takes_face_codes_and_names_bad_kinds(tmp_path):
    argv = ["enroll", "--source", "sim:1:1", "--out", str(tmp_path / "m"), "--kinds"]
    code, lines = run([*argv, "5m 11m"])
    assert code == 2 and "--kinds '5m 11m'" in lines[0]["error"] and "face codes" in lines[0]["error"]
    assert _kinds("5m,0m 10p") == [FIVES[0], RED_FIVES[0], TENS[1]] and _kinds("19m5z") == parse_tiles("19m5z")


def test_the_shipped_model_reads_its_42_kinds_and_keeps_red_fives_spare(model):
    assert model.kinds == list(range(42))  # a table that does not ask for them never reads a red five
    assert model.spare is not None and set(model.spare[1].tolist()) == set(RED_FIVES)
    table = model.only(table_faces(RIICHI_RED))
    assert set(table.kinds) == {*range(34), *RED_FIVES}
    assert not (table.labels == 34).any()  # no flowers on a riichi table
    assert set(model.only(table_faces(SHIWAN)).kinds) == set(table_faces(SHIWAN)) - set(TENS)  # tens: enrol


@pytest.mark.slow
def test_spare_templates_are_the_red_fives_both_ways_up_and_the_same_for_a_seed(model):
    first, second = spare_templates(model, per_style=4), spare_templates(model, per_style=4)
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    templates, labels, turned = first
    assert set(labels.tolist()) == set(RED_FIVES) and turned.any() and not turned.all()
    assert np.allclose(np.linalg.norm(templates, axis=1), 1, atol=1e-3)


@pytest.mark.parametrize(
    ("lengths", "last"),
    [
        ((9, 9, 9, 7, 3), ["RD", "GD", "WD", "0m", "0p", "0s"]),
        ((9, 9, 9, 4, 3, 3), ["RD", "GD", "WD", "0m", "0p", "0s"]),
    ],
)
def test_both_riichi_layouts_with_red_fives_end_with_them(lengths, last):
    kinds = kinds_for(lengths)
    assert len(kinds) == sum(lengths) == 37 and kinds[-6:] == [parse_face(code) for code in last]
    assert kinds_for((10, 10, 10, 4)) == [parse_face(code) for code in SHIWAN_ORDER]
    assert kinds_for((9, 9, 9, 4, 3)) == [parse_face(code) for code in CLASS_ORDER[:34]]  # a set without red fives


def test_live_enrolment_asks_for_a_red_five_and_a_ten_by_name():
    assert _ask(RED_FIVES[0])["prompt"].startswith("place 0m (赤五万) face up")
    assert _ask(TENS[2])["prompt"].startswith("place 10s (十条) face up")


@given(st.text(max_size=6))
def test_any_text_is_a_face_or_a_notation_error(text):
    try:
        face = parse_face(text)
    except NotationError:
        return
    assert 0 <= face < NUM_FACES and parse_face(face_code(face)) == face


def test_a_tracked_event_names_a_red_five_and_a_ten_by_their_codes():
    hand = Event("hand", 2, (TENS[0], RED_FIVES[2], None, 8), 7, 1.5)
    assert hand.to_dict()["tiles"] == ["10m", "0s", "unknown", "9m"]
    assert Event.from_dict(json.loads(json.dumps(hand.to_dict()))) == hand
    discard = Event("discard", 0, (RED_FIVES[1],), 3, 0.25, 10.0, 20.0, 0.9)
    assert discard.to_dict()["tile"] == "0p" and Event.from_dict(discard.to_dict()) == discard


def test_the_simulated_shiwan_table_reads_its_tens_from_an_artwork_set(model):
    faces = table_faces(SHIWAN)
    table = artwork_set(model, faces)
    assert set(table.kinds) == set(faces)
    samples = list(crops("uni", faces, 6, np.random.default_rng(21)))
    truth, best = read(table, samples)
    assert (truth == best).mean() >= 0.98 and (truth == best)[np.isin(truth, TENS)].mean() >= 0.95
    _, shipped = read(model.only(faces), samples)
    assert not np.isin(shipped, TENS).any()  # the shipped model alone has no tens to read
