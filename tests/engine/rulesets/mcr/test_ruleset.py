"""The MCR ruleset beyond the corpora: fan table, output contract, the 8-fan minimum, rule options, competition
settlement (8 + F), false wins, drawn hands and the match format (rules-A §6.2-6.3)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from controller.cli import main, win_context
from engine.errors import SettleError
from engine.match import HandResult, Match, Rotation
from engine.notation import parse_hand
from engine.rulesets.base import DrawContext, WinContext
from engine.rulesets.mcr.exclusions import EXCLUDES
from engine.rulesets.mcr.fans import FANS, POINTS
from engine.rulesets.registry import get_ruleset
from tests.paths import ANCHOR

MCR = get_ruleset("mcr")


def score(text: str, **options: object) -> dict:
    ruleset = get_ruleset("mcr", options)
    hand = parse_hand(text)
    return ruleset.evaluate(hand, win_context(hand)).to_dict()


def fans_of(answer: dict) -> dict[str, int]:
    return {fan["name_zh"]: fan["count"] for fan in answer["fans"]}


def test_fan_table_matches_the_names_file() -> None:
    rows = list(csv.DictReader((ANCHOR / "mcr-fan-names.csv").open(encoding="utf-8")))
    assert [(f.id, f.name_zh, f.name_en, f.points) for f in FANS[:82]] == [
        (int(r["index"]), r["name_zh"], r["name_en_pymahjonggb"], int(r["fan_points"])) for r in rows
    ]
    assert POINTS[82] == 5
    assert [(f.id, f.name_zh) for f in FANS[82:]] == [(83, "天和"), (84, "地和"), (85, "人和")]  # option only


def test_an_exclusion_never_removes_a_bigger_fan() -> None:
    for fan, excluded in EXCLUDES.items():
        assert fan not in excluded
        assert all(POINTS[other] <= POINTS[fan] for other in excluded), fan


def test_output_contract_through_the_cli() -> None:
    out = io.StringIO()
    lines = "1112345678999s9s|EE0000\n[123m,1]456p789s1122s3s\n1m\n"
    assert main(["score", "--rules", "mcr"], io.StringIO(lines), out) == 0
    first, second, third = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["hu"] is True and first["total"] == 106 and first["total_without_flowers"] == 106
    assert first["meets_minimum"] is True
    assert {"id": 4, "name_zh": "九莲宝灯", "name_en": "Nine Gates", "points": 88, "count": 1} in first["fans"]
    assert second["hu"] is False
    assert "error" in third


def test_full_flush_example_of_the_contract() -> None:
    answer = score("1112345556789s9s|EE1000|2")
    assert answer["hu"] and answer["total"] == answer["total_without_flowers"] + 2
    assert {"id": 22, "name_zh": "清一色", "name_en": "Full Flush", "points": 24, "count": 1} in answer["fans"]
    assert {"id": 81, "name_zh": "花牌", "name_en": "Flower Tiles", "points": 1, "count": 2} in answer["fans"]


def test_flowers_do_not_count_toward_the_minimum() -> None:
    answer = score("[CCC,1][678s,3]5p5p8p8p9s9s9s8p|SW0000|8")
    assert (answer["total"], answer["total_without_flowers"]) == (12, 4)
    assert answer["hu"] is False and answer["meets_minimum"] is False
    assert score("[CCC,1][678s,3]5p5p8p8p9s9s9s8p|SW0000|8", minimum=4)["hu"] is True


def test_without_flowers_the_set_has_136_tiles_and_a_flower_count_is_refused() -> None:
    """Option ``flowers`` off: Botzone's matches and many online events play the 136 tiles."""
    assert (MCR.tile_set.size, get_ruleset("mcr", {"flowers": False}).tile_set.size) == (144, 136)
    assert score("[CCC,1][678s,3]5p5p8p8p9s9s9s8p|SW0000|0", flowers=False, minimum=4)["hu"] is True
    with pytest.raises(SettleError, match="situation field 'flowers': 8, but option flowers is off"):
        score("[CCC,1][678s,3]5p5p8p8p9s9s9s8p|SW0000|8", flowers=False)


def test_a_non_winning_shape_is_no_hu() -> None:
    answer = score("123m456p789s1234z5z")
    assert answer["hu"] is False and answer["shape_ok"] is False


def test_last_tile_inferred_from_own_melds_is_an_option() -> None:
    hand = "[567m,1][678m,1][789m,1]89mEE7m|EE0000"  # the three other 7m are in the winner's chows
    assert "和绝张" in fans_of(score(hand))
    assert "和绝张" not in fans_of(score(hand, infer_last_tile=False))


def test_knitted_straight_body_waits_is_an_option() -> None:
    closed = "147m258p369s57sEE6s"  # 6s completes 567s and sits in the knitted 369s
    assert "独听・嵌张" in fans_of(score(closed))
    assert "独听・嵌张" not in fans_of(score(closed, knitted_body_waits=False))


def test_exhausted_waits_is_an_option() -> None:
    """1112m waits on 2m and on 3m, whose four copies are in the kong: a "formal" wait, so no 独听 by default."""
    hand = "[3333m,1][456p,1][789s,1]1112m2m"
    assert "独听・单钓" not in fans_of(score(hand))
    assert "独听・单钓" in fans_of(score(hand, exhausted_waits=False))


@pytest.mark.parametrize(
    ("winner", "discarder", "blessing", "gone"),
    [(0, None, "天和", "不求人"), (1, None, "人和", "不求人"), (1, 0, "地和", "门前清")],
)
def test_blessings_are_an_option(winner: int, discarder: int | None, blessing: str, gone: str) -> None:
    hand = parse_hand("123m456p789s1123s4s")
    ctx = WinContext(winner=winner, dealer=0, discarder=discarder, first_turn=True)
    plain = {fan.name_zh for fan in MCR.evaluate(hand, ctx).fans}
    blessed = {fan.name_zh for fan in get_ruleset("mcr", {"blessings": True}).evaluate(hand, ctx).fans}
    assert gone in plain and blessing not in plain
    assert blessing in blessed and gone not in blessed and "自摸" not in blessed
    later = WinContext(winner=winner, dealer=0, discarder=discarder)
    assert blessing not in {fan.name_zh for fan in get_ruleset("mcr", {"blessings": True}).evaluate(hand, later).fans}


def test_self_draw_pays_8_plus_fans_each() -> None:
    hand = parse_hand("1112345556789s9s")
    answer = MCR.evaluate(hand, WinContext(winner=2, dealer=0, flowers=1))
    assert answer.total == 32  # 清一色 24, 不求人 4, 双暗刻 2, 幺九刻 1, 花牌 1
    assert answer.payments == {0: -40, 1: -40, 2: 120, 3: -40}


def test_discard_win_pays_8_plus_fans_from_the_discarder_and_8_from_the_others() -> None:
    hand = parse_hand("1112345556789s9s")
    answer = MCR.evaluate(hand, WinContext(winner=2, dealer=0, discarder=3))
    assert answer.payments == {0: -8, 1: -8, 2: 8 * 3 + answer.total, 3: -8 - answer.total}


def test_false_win_costs_the_declarer_ten_to_each_other_player() -> None:
    below = parse_hand("[123m,1]567p345s78m99s6m")
    answer = MCR.evaluate(below, WinContext(winner=1, dealer=0, discarder=0))
    assert answer.hu is False and answer.payments == {0: 10, 1: -30, 2: 10, 3: 10}
    no_shape = parse_hand("123m456p789s1234z5z")
    assert MCR.evaluate(no_shape, WinContext(winner=0, dealer=0)).payments == {0: -30, 1: 10, 2: 10, 3: 10}
    quiet = get_ruleset("mcr", {"false_win_penalty": 0})
    assert quiet.evaluate(below, WinContext(winner=1, dealer=0, discarder=0)).payments == {0: 0, 1: 0, 2: 0, 3: 0}
    assert MCR.false_win_payments(3) == {0: 10, 1: 10, 2: 10, 3: -30}


def test_drawn_game_pays_nothing() -> None:
    assert MCR.settle_draw(DrawContext(dealer=2)) == {0: 0, 1: 0, 2: 0, 3: 0}


def test_table_facts() -> None:
    assert MCR.tile_set.name == "144" and MCR.flowers and MCR.chi_only_from_left and MCR.minimum == 8
    assert MCR.shape_rules.knitted_straight and MCR.shape_rules.seven_pairs


def test_match_is_four_rounds_of_four_hands_with_the_seating_change_before_west() -> None:
    policy = MCR.rotation
    assert policy.rotation is Rotation.COMPETITION and policy.swap_seats_before_west
    match = Match.start(policy, first_dealer=0)
    dealers, winds, seatings = [], [], []
    for hand in range(16):
        dealers.append(match.deal.dealer)
        winds.append(match.deal.round_wind)
        seatings.append(match.seating)
        winner = match.seating.index(0)  # player 0 wins every hand, wherever he sits: still no 连庄
        payments = {seat: (30 if seat == winner else -10) for seat in range(4)}
        match = match.record_hand(HandResult.win(winner, payments))
        assert match.hands_played == hand + 1
    assert match.game_over
    assert dealers == [0, 1, 2, 3] * 4
    assert winds == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    assert seatings[:8] == [(0, 1, 2, 3)] * 8
    assert seatings[8:] == [(1, 0, 3, 2)] * 8  # the original 南 (player 1) deals first in the West round
    assert match.scores == (480, -160, -160, -160)  # the scores follow the players across the seating change
    assert Match.from_dict(match.to_dict()) == match


def test_seating_change_counts_from_the_first_dealer() -> None:
    match = Match.start(MCR.rotation, first_dealer=2)
    for _ in range(8):
        match = match.record_hand(HandResult.draw())
    assert match.deal.round_wind == 2 and match.deal.dealer == 2
    assert match.seating == (1, 0, 3, 2)  # seats 2 (东) ↔ 3 (南), 0 (西) ↔ 1 (北)


@pytest.mark.parametrize("option", ["minimum", "false_win_penalty"])
def test_options_are_described(option: str) -> None:
    assert option in [spec["key"] for spec in MCR.describe()["options"]]
