"""Payment arithmetic of rules-B §4 / fan.md §1.3-1.4 (the full per-case tables are in rulesets/test_basic.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.settlement import (
    BaseScheme,
    PaymentScheme,
    base_points,
    base_scheme_payments,
    collect,
    combine,
    competition_payments,
    dealer_involved,
    exact,
    payer_shares,
)

# fan.md §1.3, one row per scheme: discard no dealer, self-draw no dealer, discard dealer, self-draw dealer.
BASE_TABLE = [
    ("1-2-4", 1, 2, 2, 4),
    ("1-2-3", 1, 2, 2, 3),
    ("1-2", 1, 2, 1, 2),
]


@pytest.mark.parametrize(("scheme", "discard", "self_draw", "discard_dealer", "self_draw_dealer"), BASE_TABLE)
def test_base_points_table(scheme, discard, self_draw, discard_dealer, self_draw_dealer):
    s = BaseScheme(scheme)
    assert base_points(s, self_drawn=False, with_dealer=False) == discard
    assert base_points(s, self_drawn=True, with_dealer=False) == self_draw
    assert base_points(s, self_drawn=False, with_dealer=True) == discard_dealer
    assert base_points(s, self_drawn=True, with_dealer=True) == self_draw_dealer


def test_dealer_involved_means_winner_or_payer_is_dealer():
    assert dealer_involved(winner=0, payer=2, dealer=0)
    assert dealer_involved(winner=1, payer=0, dealer=0)
    assert not dealer_involved(winner=1, payer=2, dealer=0)


def test_shares_self_draw_everyone_pays_in_full():
    assert payer_shares(2, None, PaymentScheme.NONE) == {0: 1, 1: 1, 3: 1}


@pytest.mark.parametrize(("scheme", "others"), [("全陪", 1), ("半陪", 0.5)])
def test_shares_discard_full_and_half(scheme, others):
    assert payer_shares(2, 3, PaymentScheme(scheme)) == {0: others, 1: others, 3: 1}


def test_shares_discard_none_only_the_discarder():
    assert payer_shares(2, 3, PaymentScheme.NONE) == {3: 1}


def test_shares_only_seats_still_in_pay():
    # Sichuan 血战: seat 0 already won and neither pays nor collects.
    assert payer_shares(2, None, PaymentScheme.FULL, payers=[1, 3]) == {1: 1, 3: 1}


def test_collect_and_combine():
    assert collect(1, {0: 2, 2: 0.5}) == {0: -2, 1: 2.5, 2: -0.5, 3: 0}
    assert combine({0: 1, 1: -1, 2: 0, 3: 0}, {0: 0.5, 1: 0.5, 2: -1, 3: 0}) == {0: 1.5, 1: -0.5, 2: -1, 3: 0}


def test_exact_writes_whole_floats_as_ints():
    assert exact(2.0) == 2 and type(exact(2.0)) is int
    assert exact(0.5) == 0.5


def test_half_payment_is_exact_not_rounded():
    # BA-1: winner 1, dealer 0, discarder 2, 1-2-4 半陪: seat 3 pays half of 1 = 0.5, the dealer half of 2 = 1.
    payments = base_scheme_payments(1, 0, 2, BaseScheme.DOUBLE_DEALER, PaymentScheme.HALF)
    assert payments == {0: -1, 1: 2.5, 2: -1, 3: -0.5}


@given(
    winner=st.integers(0, 3),
    dealer=st.integers(0, 3),
    discarder=st.one_of(st.none(), st.integers(0, 3)),
    base=st.sampled_from(list(BaseScheme)),
    payment=st.sampled_from(list(PaymentScheme)),
    payers=st.one_of(st.none(), st.sets(st.integers(0, 3))),
)
def test_payments_always_sum_to_zero(winner, dealer, discarder, base, payment, payers):
    if discarder == winner:
        discarder = None
    if payers is not None and discarder is not None:
        payers.add(discarder)
    payments = base_scheme_payments(winner, dealer, discarder, base, payment, payers)
    assert sorted(payments) == [0, 1, 2, 3]
    assert sum(payments.values()) == 0
    assert payments[winner] >= (1 if payers is None or payers - {winner} else 0)
    assert all(payments[seat] <= 0 for seat in range(4) if seat != winner)


def test_competition_settlement_eight_plus_fan():
    # rules-A §6: self-draw: each loser pays 8 + F; discard: the discarder 8 + F, the others 8.
    assert competition_payments(0, None, 10) == {0: 54, 1: -18, 2: -18, 3: -18}
    assert competition_payments(0, 2, 10) == {0: 34, 1: -8, 2: -18, 3: -8}
