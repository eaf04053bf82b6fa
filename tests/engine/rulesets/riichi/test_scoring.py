"""Hand-worked riichi cases: yaku, fu, the han/fu point table and its limits, honba, sticks, the options.

Expected values come from the standard Japanese point tables (non-dealer ron 1 han 30 fu = 1,000, 3 han 30 fu =
3,900, 4 han 30 fu = 7,700, mangan 8,000 / dealer 12,000, haneman 12,000, baiman 16,000, sanbaiman 24,000,
yakuman 32,000 / dealer 48,000; self-draws 300/500 for 1 han 30 fu, 400/700 for pinfu tsumo, 2,000/4,000 for a
mangan; honba 300 a counter) and the fu table (20 base, 30 for a closed ron, seven pairs 25, triplets 2/4/8,
kans 8/16/32, wait and pair 2, double wind 4), all worked out by hand per case below.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import MjtableError
from engine.rulesets.registry import get_ruleset
from engine.settle import SettleRequest


def settle(hand: str, win: str, melds: list[str] | None = None, options: dict | None = None, **situation: Any) -> dict:
    """One ``score`` request; situation defaults: seat 1 wins (South), seat 0 deals, East round."""
    facts = {"winner": 1, "dealer": 0, "discarder": None, "round_wind": "E", **situation}
    request = SettleRequest.from_json(
        {
            "rules": "riichi",
            "options": options or {},
            "hand": hand,
            "melds": melds or [],
            "win_tile": win,
            "situation": facts,
        }
    )
    return get_ruleset("riichi", options).settle(request)


def keys(answer: dict) -> set[str]:
    return {entry["key"] for entry in answer["yaku"]}


# --- fu and the point table -----------------------------------------------------------------------------------


def test_pinfu_tsumo_is_20_fu_and_pays_400_700() -> None:
    """234m 567m 23p+4p 678s 99s, non-dealer tsumo: menzen tsumo + pinfu, 2 han 20 fu: 400 / 700."""
    answer = settle("234567m23p678s99s", "4p")
    assert keys(answer) == {"menzen_tsumo", "pinfu"}
    assert (answer["han"], answer["fu"]) == (2, 20)
    assert answer["payments"] == {"0": -700, "1": 1500, "2": -400, "3": -400}


def test_kanchan_and_seat_wind_pair_make_40_fu_for_1300() -> None:
    """Riichi ron on the 8s kanchan (79s), pair of South for the South seat: 30 + 2 + 2 = 34 → 40 fu; 1 han 40 fu
    non-dealer ron = 1,300."""
    answer = settle("123m456p79s567s22z", "8s", discarder=2, riichi=True)
    assert keys(answer) == {"riichi"}
    assert (answer["han"], answer["fu"]) == (1, 40)
    assert answer["payments"] == {"0": 0, "1": 1300, "2": -1300, "3": 0}


def test_double_wind_pair_counts_4_fu() -> None:
    """The dealer (East) in the East round with an East pair: 30 + 4 (連風牌) + 2 (penchan 12m+3m) = 36 → 40 fu;
    riichi 1 han 40 fu dealer ron = 2,000."""
    answer = settle("12m456p789s567s11z", "3m", winner=0, discarder=1, riichi=True)
    assert (answer["han"], answer["fu"]) == (1, 40)
    assert answer["payments"]["0"] == 2000


def test_seven_pairs_are_25_fu() -> None:
    """Riichi + chiitoitsu ron: 3 han 25 fu = 3,200."""
    answer = settle("1133m5577p22s446z", "6z", discarder=3, riichi=True)
    assert keys(answer) == {"riichi", "chiitoitsu"}
    assert (answer["han"], answer["fu"]) == (3, 25)
    assert answer["payments"]["1"] == 3200


def test_concealed_terminal_kan_is_32_fu() -> None:
    """Closed kan of 1m (32) + open pon of haku (4) + 9p tanki (2) + tsumo (2) + 20 = 60 fu; haku 1 han on an
    open hand: 1 han 60 fu self-draw = 500 / 1,000."""
    answer = settle("234p678s9p", "9p", melds=["kan:1111m:concealed", "pon:555z:from=left"])
    assert keys(answer) == {"haku"}
    assert (answer["han"], answer["fu"]) == (1, 60)
    assert answer["payments"] == {"0": -1000, "1": 2000, "2": -500, "3": -500}


def test_open_hand_without_fu_is_raised_to_30() -> None:
    """Open tanyao, all chows, ryanmen ron: 20 fu would be a closed-only pinfu; an open hand counts 30: 1 han 30 fu
    = 1,000."""
    answer = settle("456m23p678s55s", "4p", melds=["chi:234m:from=left"], discarder=0)
    assert (answer["han"], answer["fu"]) == (1, 30)
    assert answer["payments"]["1"] == 1000


@pytest.mark.parametrize(
    ("dora", "han", "limit", "ron"),
    [
        ("", 3, "", 3900),  # riichi pinfu tanyao: 3 han 30 fu
        ("1m", 4, "", 7700),  # + one dora (2m): 4 han 30 fu, no kiriage
        ("1m5m", 5, "mangan", 8000),  # + 6m
        ("1m5m3p", 6, "haneman", 12000),  # + 4p
        ("1m5m3p6s", 9, "baiman", 16000),  # + the three 7s
    ],
)
def test_han_limits_on_a_non_dealer_ron(dora: str, han: int, limit: str, ron: int) -> None:
    """Riichi + pinfu + tanyao ron on 234m 567m 34p(+2p or 5p) 678s 77s, dora from the indicators."""
    answer = settle("234567m34p678s77s", "2p", discarder=0, riichi=True, dora_indicators=dora)
    assert answer["han"] == han and answer["limit"] == limit
    assert answer["payments"]["1"] == ron


def test_kiriage_rounds_4_han_30_fu_up_to_mangan() -> None:
    answer = settle(
        "234567m34p678s77s", "2p", discarder=0, riichi=True, dora_indicators="1m", options={"kiriage": True}
    )
    assert (answer["han"], answer["fu"], answer["payments"]["1"]) == (4, 30, 8000)


def test_sanbaiman_and_counted_yakuman() -> None:
    """123m 123m 456m 789m 99m, tsumo on 6m after riichi: riichi, tsumo, chinitsu 6, pinfu, iipeikou, ittsu 2 =
    12 han = sanbaiman 6,000 / 12,000; a dora indicator 2m (two 3m) makes 14: counted yakuman 8,000 / 16,000, or
    sanbaiman with the option."""
    hand, win = "1122334578999m", "6m"
    sanbai = settle(hand, win, riichi=True)
    assert sanbai["han"] == 12 and sanbai["limit"] == "sanbaiman"
    assert keys(sanbai) == {"riichi", "menzen_tsumo", "chinitsu", "pinfu", "iipeikou", "ittsu"}
    assert sanbai["payments"] == {"0": -12000, "1": 24000, "2": -6000, "3": -6000}
    counted = settle(hand, win, riichi=True, dora_indicators="2m")
    assert counted["han"] >= 13 and counted["limit"] == "counted yakuman"
    assert counted["payments"] == {"0": -16000, "1": 32000, "2": -8000, "3": -8000}
    capped = settle(hand, win, riichi=True, dora_indicators="2m", options={"counted_yakuman": "sanbaiman"})
    assert capped["payments"]["1"] == 24000


def test_honba_and_riichi_sticks() -> None:
    """2 honba on a ron: +600 from the discarder; 3 sticks: +3,000 from the table; on a tsumo +100 per honba from
    each payer."""
    ron = settle("234567m34p678s77s", "2p", discarder=0, riichi=True, honba=2, riichi_sticks=3)
    assert ron["payments"] == {"0": -4500, "1": 7500, "2": 0, "3": 0}
    assert ron["breakdown"]["riichi_sticks"]["1"] == 3000
    tsumo = settle("234567m23p678s99s", "4p", honba=1)
    assert tsumo["payments"] == {"0": -800, "1": 1800, "2": -500, "3": -500}


def test_dealer_tsumo_and_dealer_ron() -> None:
    """Dealer pinfu tsumo 2 han 20 fu: 700 all; dealer riichi ron 1 han 40 fu: 2,000 (above)."""
    answer = settle("234567m23p678s99s", "4p", winner=0)
    assert answer["payments"] == {"0": 2100, "1": -700, "2": -700, "3": -700}


# --- yaku -----------------------------------------------------------------------------------------------------


def test_no_yaku_is_no_win() -> None:
    """An open hand without yakuhai or all simples: dora are no yaku."""
    answer = settle("456m23p678s99s", "4p", melds=["chi:123m:from=left"], discarder=0, dora_indicators="3p")
    assert answer["hu"] is False and answer["payments"] is None and "yaku" in answer["reason"]


def test_open_tanyao_is_an_option() -> None:
    hand = dict(hand="456m23p678s55s", win="4p", melds=["chi:234m:from=left"], discarder=0)
    assert settle(**hand)["hu"] is True
    assert settle(**hand, options={"open_tanyao": False})["hu"] is False


def test_yakuhai_winds_and_dragons() -> None:
    """Pon of East for the dealer in the East round counts twice (seat and round wind), chun once."""
    answer = settle("789p2s777z", "2s", melds=["pon:111z:from=left", "chi:345m:from=left"], winner=0, discarder=1)
    assert {"seat_wind", "round_wind", "chun"} <= keys(answer) and answer["han"] == 3


def test_ron_on_a_shanpon_wait_makes_the_triplet_open() -> None:
    """111m 333p 555s concealed, 77z + 99p shanpon: tsumo on 9p is suuankou; ron is sanankou + toitoi only."""
    tsumo = settle("111m333p555s77z99p", "9p")
    assert keys(tsumo) == {"suuankou"} and tsumo["payments"]["1"] == 32000
    ron = settle("111m333p555s77z99p", "9p", discarder=2)
    assert {"sanankou", "toitoi"} <= keys(ron) and "suuankou" not in keys(ron)


def test_suuankou_tanki_double_only_with_the_option() -> None:
    single = settle("111m333p555s777z9p", "9p", discarder=2)
    assert keys(single) == {"suuankou_tanki"} and single["payments"]["1"] == 32000
    double = settle("111m333p555s777z9p", "9p", discarder=2, options={"double_yakuman": True})
    assert double["han"] == 26 and double["payments"]["1"] == 64000


def test_thirteen_orphans() -> None:
    """Dealer ron: 48,000; the 13-sided wait with double yakuman: 96,000."""
    one = settle("19m19p19s1234566z", "7z", winner=0, discarder=1)
    assert keys(one) == {"kokushi"} and one["payments"]["0"] == 48000
    thirteen = settle("19m19p19s1234567z", "1m", winner=0, discarder=1, options={"double_yakuman": True})
    assert keys(thirteen) == {"kokushi_13"} and thirteen["payments"]["0"] == 96000


def test_nine_gates() -> None:
    """1112345678999m + 5m: the pure form (waiting on all nine); 1112345678899m + 9m: the plain form."""
    pure = settle("1112345678999m", "5m", discarder=2)
    assert keys(pure) == {"junsei_chuuren"} and pure["han"] == 13
    plain = settle("1112345678899m", "9m", discarder=2)
    assert keys(plain) == {"chuuren"}


@pytest.mark.parametrize(
    ("hand", "melds", "win", "yakuman"),
    [
        ("11z22s", ["pon:555z:from=left", "pon:666z:from=left", "pon:777z:from=right"], "1z", "daisangen"),
        ("33z44z222s", ["pon:111z:from=left", "pon:222z:from=left"], "3z", "shousuushii"),
        (
            "1p",
            ["pon:111z:from=left", "pon:222z:from=left", "pon:333z:from=right", "pon:444z:from=left"],
            "1p",
            "daisuushii",
        ),
        (
            "6z",
            ["pon:111z:from=left", "pon:222z:from=left", "pon:555z:from=right", "pon:777z:from=left"],
            "6z",
            "tsuuiisou",
        ),
        (
            "9p",
            ["pon:111m:from=left", "pon:999m:from=left", "pon:111s:from=right", "pon:999s:from=left"],
            "9p",
            "chinroutou",
        ),
        ("234s6z", ["pon:888s:from=left", "chi:234s:from=left", "pon:666s:from=right"], "6z", "ryuuiisou"),
        (
            "9p",
            ["kan:1111m:concealed", "kan:2222p:from=left", "kakan:3333s:from=left", "kan:4444z:concealed"],
            "9p",
            "suukantsu",
        ),
    ],
)
def test_yakuman(hand: str, melds: list[str], win: str, yakuman: str) -> None:
    answer = settle(hand, win, melds=melds, discarder=0)
    assert yakuman in keys(answer) and answer["han"] % 13 == 0
    assert answer["payments"]["1"] == 32000 * (answer["han"] // 13)


def test_no_dora_beside_a_yakuman() -> None:
    """Daisangen with an indicator 4z (dora: haku, held three times) stays one yakuman."""
    melds = ["pon:555z:from=left", "pon:666z:from=left", "pon:777z:from=right"]
    answer = settle("11z22s", "1z", melds=melds, discarder=0, dora_indicators="4z")
    assert keys(answer) == {"daisangen"} and answer["han"] == 13


def test_blessings_need_the_first_turn() -> None:
    """天和 for the dealer, 地和 for a non-dealer, 人和 only with the option renhou."""
    assert keys(settle("234567m23p678s99s", "4p", winner=0, first_turn=True)) == {"tenhou"}
    assert keys(settle("234567m23p678s99s", "4p", first_turn=True)) == {"chiihou"}
    ron = dict(hand="234567m23p678s99s", win="4p", discarder=0, first_turn=True)
    assert "renhou" not in keys(settle(**ron))
    assert keys(settle(**ron, options={"renhou": "yakuman"})) == {"renhou_yakuman"}
    assert "renhou" in keys(settle(**ron, options={"renhou": "han5"}))


def test_situational_yaku() -> None:
    assert "rinshan" in keys(settle("234567m23p99s", "4p", melds=["kan:6666s:concealed"], after_kong=True))
    assert "haitei" in keys(settle("234567m23p678s99s", "4p", last_tile=True))
    assert "houtei" in keys(settle("234567m23p678s99s", "4p", last_tile=True, discarder=2))
    assert "chankan" in keys(settle("234567m23p678s99s", "4p", robbing_kong=True, discarder=2))
    ippatsu = settle("234567m23p678s99s", "4p", riichi=True, ippatsu=True, ura_dora_indicators="8s")
    assert {"riichi", "ippatsu", "ura_dora"} <= keys(ippatsu)
    assert "double_riichi" in keys(settle("234567m23p678s99s", "4p", double_riichi=True))


def test_red_fives_with_the_option() -> None:
    """0m/0p/0s are red fives: one han each with the option, refused without it."""
    answer = settle("234067m23p678s99s", "4p", options={"red_fives": True})
    assert answer["han"] == 3 and "aka_dora" in keys(answer)
    with pytest.raises(MjtableError, match="red_fives"):
        settle("234067m23p678s99s", "4p")
    red = {"red_fives": True}
    in_a_kan = settle("234067m23p99s", "4p", melds=["kan:0555s:concealed"], after_kong=True, options=red)
    assert {"key": "aka_dora", "name_ja": "赤ドラ", "name_en": "Red five", "han": 2} in in_a_kan["yaku"]
    with pytest.raises(MjtableError, match="one red five per suit"):
        settle("234007m23p678s9s", "9s", options={"red_fives": True})


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ({"riichi": True, "melds": ["chi:123m:from=left"]}, "closed hand"),
        ({"ippatsu": True}, "ippatsu needs riichi"),
        ({"ura_dora_indicators": "1m"}, "only after riichi"),
        ({"after_kong": True}, "no kan"),
        ({"colour": "red"}, "not a riichi situation key"),
        ({"honba": -1}, "honba"),
        ({"dora_indicators": "1m1m1m1m1m1m"}, "at most 5"),
        ({"dora_indicators": "9s9s9s"}, "copies"),
        ({"dora_indicators": "1f"}, "1f is not in the 136-tile set"),
        ({"riichi": True, "ura_dora_indicators": "2f"}, "2f is not in the 136-tile set"),
    ],
)
def test_impossible_situations_are_refused(situation: dict, message: str) -> None:
    melds = situation.pop("melds", None)
    hand = "456m23p678s99s" if melds else "234567m23p678s99s"
    with pytest.raises(MjtableError, match=message):
        settle(hand, "4p", melds=melds, **situation)
