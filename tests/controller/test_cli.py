import io
import json
import select
import subprocess
import sys
from collections import Counter

from controller.cli import main
from engine.rulesets.registry import all_rulesets, get_ruleset
from engine.tiles import parse_tiles
from tests.paths import PHOTOS, REPO, needs_photos


def run(argv: list[str], stdin: str = "") -> tuple[int, list[dict]]:
    out = io.StringIO()
    code = main(argv, io.StringIO(stdin), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_score_answers_every_line_in_order_and_survives_bad_lines():
    lines = [
        "[123m,1][777p,3]55m789p23s4s|EE1000",  # standard shape, self-drawn by the dealer
        "11223344556677m",  # seven pairs
        "123m456p789s1122z5z",  # not a win
        "123m456p789s11x",  # bad character
        "",
        "1111m",  # too few tiles
    ]
    code, answers = run(["score", "--rules", "basic"], "\n".join(lines) + "\n")
    assert code == 0 and len(answers) == len(lines)
    first, second, third = answers[:3]
    assert first["hu"] is True and first["fans"] == []
    # 1-2-4: a self-drawing dealer collects 4 from each of the three others.
    assert first["total"] == 12 and first["payments"] == {"0": 12, "1": -4, "2": -4, "3": -4}
    assert second["hu"] is True
    assert third["hu"] is False
    assert "position 14" in answers[3]["error"] and "line 4" in answers[3]["error"]
    assert "empty line" in answers[4]["error"]
    assert "expected 13" in answers[5]["error"]


def test_score_options_change_the_verdict():
    hand = "1133557799m1122p\n"
    assert run(["score"], hand)[1][0]["hu"] is True
    assert run(["score", "--options", '{"seven_pairs": false}'], hand)[1][0]["hu"] is False


def test_waits_and_shanten():
    lines = ["1112345678999m ", "19m19s19pESWNCFP ", "[CCCC][FFFF][PPPP][NNNN]E ", "1m2m4m5m7m8m1p2p4p5p7p8p9s"]
    _, answers = run(["waits"], "\n".join(lines) + "\n")
    assert answers[0] == {"waits": [f"{r}m" for r in range(1, 10)], "shanten": 0}
    assert answers[1]["waits"] == ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert answers[2] == {"waits": ["1z"], "shanten": 0}
    assert answers[3]["waits"] == [] and answers[3]["shanten"] >= 2


def test_deal_is_exact_and_reproducible():
    _, first = run(["deal", "--seed", "42", "--dice", "2,6"])
    _, again = run(["deal", "--seed", "42", "--dice", "2,6"])
    assert first == again
    deal = first[0]
    assert deal["dice"] == [2, 6] and deal["break"]["start_wall_of_seat"] == 3 and deal["break"]["count"] == 2
    hands = {seat: parse_tiles(text) for seat, text in deal["hands"].items()}
    assert [len(hands[str(seat)]) for seat in range(4)] == [14, 13, 13, 13]
    wall_tiles = [
        tile for stacks in deal["walls"].values() for stack in stacks for tile in parse_tiles("".join(stack.values()))
    ]
    assert Counter(wall_tiles) == Counter({tile: 4 for tile in range(34)})
    assert deal["live_remaining"] == 136 - 53


def test_simulate_same_seed_same_output(capsys):
    code, first = run(["simulate", "--hands", "5", "--seed", "9"])
    _, again = run(["simulate", "--hands", "5", "--seed", "9"])
    assert code == 0 and first == again and len(first) == 6
    assert first[-1]["summary"]["hands"] == 5
    assert "hands/s" in capsys.readouterr().err


def test_rules_lists_rulesets_with_options():
    _, rules = run(["rules", "--json"])
    basic = next(rule for rule in rules if rule["id"] == "basic")
    assert {option["key"] for option in basic["options"]} >= {"base_scheme", "payment_scheme", "dealer_rotation"}


def test_bad_ruleset_and_options_are_errors_not_tracebacks():
    code, answers = run(["score", "--rules", "nope"], "11m\n")
    assert code == 2 and "unknown ruleset 'nope'" in answers[0]["error"]
    code, answers = run(["score", "--options", "[1]"], "")
    assert code == 2 and "JSON object" in answers[0]["error"]
    code, answers = run(["score", "--options", '{"base_scheme": "9-9"}'], "")
    assert code == 2 and "base_scheme" in answers[0]["error"]


def test_console_entry_point_runs_as_a_process():
    process = subprocess.run(
        [sys.executable, "-m", "controller.cli", "score"],
        input="11223344556677m\n",
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    assert json.loads(process.stdout)["hu"] is True


def test_score_answers_each_line_as_it_arrives():
    """A caller that writes a line and waits for its answer (a coprocess) is never left waiting."""
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "score"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        for hand, expected in (("11223344556677m", True), ("123m456p789s1122z5z", False)):
            process.stdin.write(hand + "\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 20)
            assert ready, "no answer within 20 s"
            assert json.loads(process.stdout.readline())["hu"] is expected
    finally:
        process.stdin.close()
        process.wait(timeout=20)


def test_vision_commands_are_reached_through_mjtable(tmp_path):
    missing = tmp_path / "none.png"
    out = io.StringIO()
    code = main(["vision", "classify", "--json", str(missing)], stdout=out)
    answer = json.loads(out.getvalue())
    assert code == 1 and answer["file"] == str(missing) and "no such file" in answer["error"]


def test_deal_lays_out_each_rulesets_own_tiles():
    """Every ruleset's `deal` shows its own set (``Ruleset.tile_set``) written in its own notation: the walls read
    back with ``Ruleset.read_tiles`` are that set exactly. 十万 (fan.md §7): 万/饼/条 1-10 and the winds, no 中发白."""
    for cls in all_rulesets():
        ruleset = get_ruleset(cls.id)
        _, (deal,) = run(["deal", "--rules", cls.id, "--seed", "1"])
        faces = [face for stacks in deal["walls"].values() for stack in stacks for face in stack.values() if face]
        wall = Counter(ruleset.read_tiles("".join(faces), "walls"))
        assert wall == Counter(ruleset.tile_set.tiles()), cls.id
        hands = [ruleset.read_tiles(hand, "hands") for hand in deal["hands"].values()]
        assert sorted(map(len, hands)) == [13, 13, 13, 14], cls.id
        assert not Counter(tile for hand in hands for tile in hand) - wall, cls.id
    _, (deal,) = run(["deal", "--rules", "shiwan", "--seed", "1"])
    faces = Counter(face for stacks in deal["walls"].values() for stack in stacks for face in stack.values())
    assert faces["0m"] == faces["0p"] == faces["0s"] == 4 and not faces["5z"] + faces["6z"] + faces["7z"]
    assert sum(faces.values()) == 136 and len(faces) == 34


def test_shiwan_score_waits_and_settle_agree():
    """十万 through every batch command: one hand, one verdict (SW-1: 8-9-10 is a chow, 9-10-1 is not)."""
    situation = {"winner": 1, "dealer": 0, "discarder": 2}
    hands = [("123456789m123p5p", "5p", True), ("890m123p456p789s1z", "1z", True), ("190m123p456p789s1z", "1z", False)]
    _, scored = run(["score", "--rules", "shiwan"], "".join(f"{hand}{win}\n" for hand, win, _ in hands))
    _, waited = run(["waits", "--rules", "shiwan"], "".join(f"{hand}\n" for hand, _, _ in hands))
    requests = [
        json.dumps({"rules": "shiwan", "hand": hand, "win_tile": win, "situation": situation}) + "\n"
        for hand, win, _ in hands
    ]
    _, settled = run(["settle"], "".join(requests))
    for (hand, win, hu), score, wait, settle in zip(hands, scored, waited, settled, strict=True):
        assert score["hu"] is settle["hu"] is hu, hand
        assert (win in wait["waits"]) is hu, hand
    assert waited[1] == {"waits": ["1z"], "shanten": 0}
    _, melded = run(["score", "--rules", "shiwan"], "[890s,1]123p456p789mEE\n")
    assert melded[0]["hu"] is True


def test_shiwan_refuses_dragons_in_every_command():
    """SW-2: 白 (5z, P) is not a 十万 tile; every command answers one line naming the tile and its position."""
    _, scored = run(["score", "--rules", "shiwan"], "123456789m123p5z5z\n123456789m123pPP\n")
    _, waited = run(["waits", "--rules", "shiwan"], "123456789m123p5z\n")
    request = {"rules": "shiwan", "hand": "123456789m123p5z", "win_tile": "5z", "situation": {"winner": 1, "dealer": 0}}
    _, settled = run(["settle"], json.dumps(request) + "\n")
    for answer, tile in ((scored[0], "5z"), (scored[1], "P"), (waited[0], "5z"), (settled[0], "5z")):
        assert set(answer) <= {"error", "hu"} and answer.get("hu") in (None, False)
        assert f"{tile} (白)" in answer["error"] and "position 14" in answer["error"] and "\n" not in answer["error"]


def test_score_points_to_settle_for_what_mcr_notation_cannot_say():
    out = io.StringIO()
    main(["score", "--rules", "hubei-laizi"], stdin=io.StringIO("123m456p789s11122z|EE1000|0\n"), stdout=out)
    error = json.loads(out.getvalue())["error"]
    assert "situation field 'indicator' is missing" in error and error.endswith("send the hand to 'mjtable settle'")


def test_rules_reads_as_a_list_by_default_and_a_closed_pipe_is_no_traceback():
    out = io.StringIO()
    assert main(["rules"], stdout=out) == 0
    text = out.getvalue()
    assert text.startswith("basic — 通用规则") and "    payment_scheme: 全陪 | 半陪 | 不陪 (default 全陪)\n" in text
    assert "    base: a number 0.01-1000000 (default 1)\n" in text and "{" not in text.split("\n", 1)[0]
    listing = subprocess.Popen([sys.executable, "-m", "controller.cli", "rules"], cwd=REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)  # fmt: skip
    listing.stdout.close()  # the reader is gone before a byte is written, as after `mjtable rules | head -c 1`
    assert listing.wait(timeout=30) == 0 and listing.stderr.read() == b""


@needs_photos
def test_a_camera_command_whose_reader_left_ends_with_no_traceback():
    """``mjtable vision detect ... | head -1``: the tiles of a photo of trays, the pipe closed before the first."""
    photo = sorted((PHOTOS / "scenes" / "images").glob("IMG_2023*.jpg"))[0]
    command = [sys.executable, "-m", "controller.cli", "vision", "detect", "--tile-px", "40,53", "--json", str(photo)]
    detecting = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    detecting.stdout.close()
    assert detecting.wait(timeout=60) == 0 and detecting.stderr.read() == b""
