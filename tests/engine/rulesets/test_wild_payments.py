"""Payments of the wild.md rulesets over random situations: they sum to zero, and they agree with the answer's
own fields (Hubei's doublings, §2.5; 推倒胡's horses, TD-5; Harbin's 包付, §6.1)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.rulesets.regional import ask, paid

SEAT_KEYS = st.sampled_from(["0", "1", "2", "3"])
HORSE_TILES = st.sampled_from(["1m", "2m", "3m", "4m", "5p", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"])


@settings(max_examples=40, deadline=None)
@given(
    discarder=st.sampled_from([None, 0, 2, 3]),
    wild=st.dictionaries(SEAT_KEYS, st.integers(0, 3)),
    opened=st.dictionaries(st.sampled_from(["0", "2", "3"]), st.booleans()),
    kongs=st.dictionaries(st.sampled_from(["0", "2", "3"]), st.integers(0, 2)),
)
def test_hubei_shares_follow_the_doublings(discarder, wild, opened, kongs):
    # §2.5: each payer pays 底分 × M × 2^(W + L(P)); M = 1 for this 屁和; the answer's doublings are W + L(P).
    answer = ask(
        "hubei-laizi", "123m456p789s22s67m", "8m", winner=1, dealer=0, discarder=discarder, indicator="1z",
        discarded_wildcards=wild, open_melds=opened, kong_count=kongs,
    )  # fmt: skip
    payments = paid(answer)
    assert sum(payments) == 0
    for seat, exponent in answer["doublings"].items():
        assert payments[int(seat)] == -(2**exponent)


@settings(max_examples=40, deadline=None)
@given(
    winner=st.integers(0, 3),
    self_drawn=st.booleans(),
    horses=st.dictionaries(SEAT_KEYS, st.lists(HORSE_TILES, max_size=2)),
)
def test_tuidaohu_horses_move_money_between_seats_only(winner, self_drawn, horses):
    # TD-5: horses repeat transfers, so the total stays zero; a horse of the winner's own on himself doubles his
    # hand gain.
    discarder = None if self_drawn else (winner + 1) % 4
    base = ask("tuidaohu", "111m999p555s77z88s", "7z", winner=winner, dealer=0, discarder=discarder, indicator="1z")
    answer = ask(
        "tuidaohu", "111m999p555s77z88s", "7z", winner=winner, dealer=0, discarder=discarder, indicator="1z",
        horses=horses,
    )  # fmt: skip
    assert sum(paid(answer)) == 0
    assert answer["breakdown"]["hand"] == base["payments"]
    own = ask(
        "tuidaohu", "111m999p555s77z88s", "7z", winner=winner, dealer=0, discarder=discarder, indicator="1z",
        horses={str(winner): ["1m"]},
    )  # fmt: skip
    assert own["payments"][str(winner)] == 2 * base["payments"][str(winner)]


@settings(max_examples=40, deadline=None)
@given(
    standing=st.dictionaries(st.sampled_from(["0", "2", "3"]), st.booleans()),
    ready=st.booleans(),
)
def test_harbin_chuchong_pays_what_the_three_would(standing, ready):
    # §6.1: with 出冲 the discarder pays the others' shares too: the winner's gain is unchanged but for the
    # discarder's own share (3 instead of 1, before 卡当).
    situation = {"winner": 1, "dealer": 0, "discarder": 0, "declared_ready": True, "open_melds": standing}
    normal = ask("harbin", "456p777s99m34s", "5s", ["chi:123m:from=left"], **situation)
    chong = ask("harbin", "456p777s99m34s", "5s", ["chi:123m:from=left"], **situation, ready={"0": ready})
    assert sum(paid(chong)) == 0
    if ready:
        assert chong["payments"] == normal["payments"]
    else:
        assert paid(chong)[2] == paid(chong)[3] == 0
        assert chong["payments"]["1"] == normal["payments"]["1"] - abs(normal["payments"]["0"]) + 3
