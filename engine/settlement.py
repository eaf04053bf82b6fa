"""Payment arithmetic shared by the rulesets (rules-B §4): base schemes, who pays, per-seat net results.

Payments are net changes per seat, ``{0: a, 1: b, 2: c, 3: d}``, summing to 0. Amounts are kept exact: a half
(半陪, fan.md BA-1) stays 0.5, and a whole-valued float is written back as an ``int`` so answers read ``2``, not
``2.0``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum

Amount = int | float
Payments = dict[int, Amount]
SEATS = range(4)


class BaseScheme(StrEnum):
    """Base score per payer (rules-B §4.1, fan.md §1.3)."""

    DOUBLE_DEALER = "1-2-4"
    """自摸翻倍，庄家翻倍: self-draw doubles, the dealer doubles."""
    PLUS_DEALER = "1-2-3"
    """自摸翻倍，庄家加倍: self-draw doubles, the dealer adds one base unit."""
    NO_DEALER = "1-2"
    """自摸翻倍，不论庄家: self-draw doubles, the dealer is like everyone else."""


class PaymentScheme(StrEnum):
    """Who pays on a discard win (rules-B §4.2, fan.md §1.4). A self-draw is paid by all three in every scheme."""

    FULL = "全陪"
    """全陪和: each non-discarder pays what he would pay had he discarded."""
    HALF = "半陪"
    """半陪和: the discarder in full, each other loser half of what he would pay as discarder (BA-1: exact)."""
    NONE = "不陪"
    """不陪和 / 包和: only the discarder pays."""


def exact(amount: Amount) -> Amount:
    """``2.0`` → ``2``; a fractional amount is kept."""
    return int(amount) if isinstance(amount, float) and amount.is_integer() else amount


def dealer_involved(winner: int, payer: int, dealer: int) -> bool:
    """ "Dealer involved" = the winner or that payer is the dealer (fan.md §1.3)."""
    return dealer in (winner, payer)


def base_points(scheme: BaseScheme, *, self_drawn: bool, with_dealer: bool) -> int:
    """What one payer pays the winner under ``scheme``: 1 for a discard win between non-dealers, ×2 for a
    self-draw, then the dealer's ×2 (1-2-4), +1 (1-2-3) or nothing (1-2)."""
    points = 2 if self_drawn else 1
    if with_dealer and scheme is BaseScheme.DOUBLE_DEALER:
        return points * 2
    if with_dealer and scheme is BaseScheme.PLUS_DEALER:
        return points + 1
    return points


def payer_shares(
    winner: int, discarder: int | None, scheme: PaymentScheme, payers: Iterable[int] | None = None
) -> dict[int, Amount]:
    """Which seats pay and what fraction of their discarder amount: 1 for the discarder and every self-draw
    payer, 1 / 0.5 / nothing for the other losers of a discard win under 全陪 / 半陪 / 不陪.

    ``payers`` are the seats that can lose (default: everyone but the winner; Sichuan 血战 passes the seats
    still in the hand)."""
    seats = [seat for seat in (SEATS if payers is None else payers) if seat != winner]
    if discarder is None:
        return {seat: 1 for seat in seats}
    others = {PaymentScheme.FULL: 1, PaymentScheme.HALF: 0.5, PaymentScheme.NONE: 0}[scheme]
    shares: dict[int, Amount] = {seat: others for seat in seats if seat != discarder and others}
    shares[discarder] = 1
    return shares


def collect(winner: int, amounts: Mapping[int, Amount]) -> Payments:
    """Net payments when each seat in ``amounts`` pays the winner that amount."""
    payments = no_payments()
    for payer, amount in amounts.items():
        payments[payer] -= amount
        payments[winner] += amount
    return {seat: exact(value) for seat, value in payments.items()}


def combine(*parts: Mapping[int, Amount]) -> Payments:
    """Seat-wise sum of several settlements (several winners, a win plus kong money, ...)."""
    total = no_payments()
    for part in parts:
        for seat, amount in part.items():
            total[seat] += amount
    return {seat: exact(value) for seat, value in total.items()}


def no_payments() -> Payments:
    return {seat: 0 for seat in SEATS}


def base_scheme_payments(
    winner: int,
    dealer: int,
    discarder: int | None,
    base_scheme: BaseScheme,
    payment_scheme: PaymentScheme,
    payers: Iterable[int] | None = None,
) -> Payments:
    """The rules-B §4 settlement of one win: each payer pays his share of the base he would pay as discarder
    (or of his self-draw base), with the dealer involvement judged per payer."""
    self_drawn = discarder is None
    amounts = {
        payer: share
        * base_points(base_scheme, self_drawn=self_drawn, with_dealer=dealer_involved(winner, payer, dealer))
        for payer, share in payer_shares(winner, discarder, payment_scheme, payers).items()
    }
    return collect(winner, amounts)


def competition_payments(winner: int, discarder: int | None, fan: Amount, flat: Amount = 8) -> Payments:
    """MCR competition settlement (rules-A §5-6, 底分 8): on a self-draw each loser pays ``flat + fan``; on a
    discard the discarder pays ``flat + fan`` and each other player ``flat``."""
    amounts = {
        payer: flat + fan if discarder is None or payer == discarder else flat for payer in SEATS if payer != winner
    }
    return collect(winner, amounts)
