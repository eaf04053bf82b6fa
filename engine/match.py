"""A match (局): rounds (圈) and round wind, dealer rotation, consecutive-dealer count, running scores.

The controller journals the match after every hand, so every state is a frozen dataclass with
``to_dict``/``from_dict``. Rotation follows fan.md §1.5 (rules-B §2.5) with its decisions BA-4..BA-6; other
rulesets choose their policy through ``Ruleset.rotation``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any

from engine.errors import IllegalAction, RulesetError
from engine.settlement import Amount, combine, exact, no_payments

NUM_ROUNDS = 4
"""东南西北: the 局 ends after the North round (BA-6)."""


class Rotation(StrEnum):
    TRADITIONAL = "traditional"
    """The dealer keeps the deal when he wins (also among several winners); otherwise his 下家 deals."""
    COMPETITION = "competition"
    """1998 competition rules: the deal always passes to the 下家 (每圈只能坐一次庄)."""
    WINNER_DEALS = "winner_deals"
    """Whoever wins deals next; rounds are not counted ("不论圈数")."""


class MultiWinDealer(StrEnum):
    """Under ``winner_deals``: who deals after several players won on one discard."""

    FIRST_AFTER_DISCARDER = "first_after_discarder"
    """The first winner in turn order after the discarder (Guizhou GZ-10)."""
    DISCARDER = "discarder"
    """The discarder (Sichuan SC-15, Changsha CS-11)."""


@dataclass(frozen=True)
class RotationPolicy:
    """How the deal moves. fan.md §1.5 ``max3`` is ``TRADITIONAL`` with ``max_consecutive=3`` (BA-4: three hands in
    total, the first included; a drawn hand counts)."""

    rotation: Rotation = Rotation.TRADITIONAL
    drawn_dealer_passes: bool = False
    """After a drawn hand the dealer passes to his 下家 (the minority practice, S000:257). Off: he stays
    (majority practice, "算庄家连庄"; BA-5 for ``winner_deals``). A dealer who stays counts one more consecutive
    hand whatever the rotation (the sources count it only for the traditional rule; this option also makes
    ``winner_deals`` pass after a draw)."""
    max_consecutive: int | None = None
    """A dealer who has dealt this many hands in a row passes to his 下家 instead of staying (Harbin 9)."""
    multi_win_dealer: MultiWinDealer = MultiWinDealer.FIRST_AFTER_DISCARDER
    swap_seats_before_west: bool = False
    """MCR competitions (rules-A §6.3): before the West round 东 and 南 change seats, and so do 西 and 北 (winds
    of the 局's first hand); the original 南 then deals first."""

    @property
    def counts_rounds(self) -> bool:
        """Round wind and the end of the 局 follow the deal, except under ``winner_deals`` (BA-6)."""
        return self.rotation is not Rotation.WINNER_DEALS

    def to_dict(self) -> dict[str, Any]:
        return {
            "rotation": self.rotation.value,
            "drawn_dealer_passes": self.drawn_dealer_passes,
            "max_consecutive": self.max_consecutive,
            "multi_win_dealer": self.multi_win_dealer.value,
            "swap_seats_before_west": self.swap_seats_before_west,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RotationPolicy:
        return cls(
            Rotation(data["rotation"]),
            data["drawn_dealer_passes"],
            data["max_consecutive"],
            MultiWinDealer(data["multi_win_dealer"]),
            data.get("swap_seats_before_west", False),
        )


@dataclass(frozen=True)
class Win:
    """One winning event: one seat, or several seats on the same discard (一炮多响). ``discarder`` is ``None``
    for a self-draw (on a robbed kong: the konger)."""

    seats: tuple[int, ...]
    discarder: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if not self.seats or len(set(self.seats)) != len(self.seats) or any(not 0 <= s <= 3 for s in self.seats):
            raise RulesetError(f"win: expected distinct winner seats 0-3, found {list(self.seats)}")
        if self.discarder is not None and (self.discarder in self.seats or not 0 <= self.discarder <= 3):
            raise RulesetError(f"win: discarder {self.discarder} must be a seat 0-3 other than the winners")
        if self.discarder is None and len(self.seats) > 1:
            raise RulesetError("win: several winners need a discarder (a self-draw has one winner)")

    def in_turn_order(self) -> tuple[int, ...]:
        """The winners in turn order after the discarder (claim order)."""
        if self.discarder is None:
            return self.seats
        return tuple(sorted(self.seats, key=lambda seat: (seat - self.discarder) % 4))  # type: ignore[operator]

    def to_dict(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "discarder": self.discarder}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Win:
        return cls(tuple(data["seats"]), data.get("discarder"))


@dataclass(frozen=True)
class HandResult:
    """The outcome of one hand: its wins in the order they happened (more than one only where the hand continues
    after a win or several win on one discard; none = drawn) and the net payments of the whole hand."""

    wins: tuple[Win, ...] = ()
    payments: Mapping[int, Amount] = field(default_factory=no_payments)

    def __post_init__(self) -> None:
        object.__setattr__(self, "wins", tuple(self.wins))
        payments = {int(seat): exact(amount) for seat, amount in self.payments.items()}
        if sorted(payments) != [0, 1, 2, 3]:
            raise RulesetError(f"hand result: payments must give seats 0-3, found {sorted(payments)}")
        if abs(sum(payments.values())) > 1e-9:
            raise RulesetError(f"hand result: payments must sum to 0, found {payments}")
        object.__setattr__(self, "payments", payments)
        winners = self.winners
        if len(set(winners)) != len(winners):
            raise RulesetError(f"hand result: a seat wins twice in one hand: {list(winners)}")

    @classmethod
    def from_winners(
        cls, winners: Sequence[int], payments: Mapping[int, Amount] | None = None, discarder: int | None = None
    ) -> HandResult:
        """A result from a list of winners (the settle contract's ``winners``): with a ``discarder`` they won
        together on his discard, without one they won one after another in the order given (血战). No winners =
        drawn; no payments = nothing paid (enough to ask who deals next)."""
        if discarder is not None and winners:
            wins: tuple[Win, ...] = (Win(tuple(winners), discarder),)
        else:
            wins = tuple(Win((seat,)) for seat in winners)
        return cls(wins, payments if payments is not None else no_payments())

    @classmethod
    def win(cls, winner: int, payments: Mapping[int, Amount], discarder: int | None = None) -> HandResult:
        return cls.from_winners((winner,), payments, discarder)

    @classmethod
    def draw(cls, payments: Mapping[int, Amount] | None = None) -> HandResult:
        return cls.from_winners((), payments)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for win in self.wins for seat in win.in_turn_order())

    @property
    def drawn(self) -> bool:
        return not self.wins

    def to_dict(self) -> dict[str, Any]:
        return {
            "wins": [win.to_dict() for win in self.wins],
            "winners": list(self.winners),
            "drawn": self.drawn,
            "payments": {str(seat): amount for seat, amount in self.payments.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandResult:
        payments = {int(seat): amount for seat, amount in data["payments"].items()}
        return cls(tuple(Win.from_dict(win) for win in data["wins"]), payments)


@dataclass(frozen=True)
class DealState:
    """Who deals the current hand and where the 局 stands. ``consecutive_dealer`` n = this is the dealer's n-th
    hand in a row (1 = first); ``round_wind`` 0-3 = 东南西北; ``first_dealer`` = the 局's first dealer."""

    dealer: int
    first_dealer: int
    consecutive_dealer: int = 1
    round_wind: int = 0
    game_over: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealState:
        return cls(**{key: data[key] for key in cls.__dataclass_fields__})


def _deal_to(policy: RotationPolicy, state: DealState, result: HandResult) -> int:
    """The seat that deals next, before the ``max_consecutive`` limit."""
    passed = (state.dealer + 1) % 4
    if result.drawn:
        return passed if policy.drawn_dealer_passes or policy.rotation is Rotation.COMPETITION else state.dealer
    if policy.rotation is Rotation.COMPETITION:
        return passed
    if policy.rotation is Rotation.TRADITIONAL:
        return state.dealer if state.dealer in result.winners else passed
    first = result.wins[0]
    if len(first.seats) > 1 and policy.multi_win_dealer is MultiWinDealer.DISCARDER:
        return first.discarder  # type: ignore[return-value]
    return first.in_turn_order()[0]


def next_deal(policy: RotationPolicy, state: DealState, result: HandResult) -> DealState:
    """The deal after ``result`` (fan.md §1.5): next dealer, consecutive count, round wind, end of the 局.

    The round wind advances when the deal passes to the 局's first dealer; after the North round the 局 is over
    (BA-6). ``winner_deals`` counts no rounds."""
    if state.game_over:
        raise IllegalAction("the match is over: no further hand can be recorded")
    dealer = _deal_to(policy, state, result)
    if (
        dealer == state.dealer
        and policy.max_consecutive is not None
        and state.consecutive_dealer >= policy.max_consecutive
    ):
        dealer = (state.dealer + 1) % 4
    if dealer == state.dealer:
        return replace(state, consecutive_dealer=state.consecutive_dealer + 1)
    round_wind, game_over = state.round_wind, False
    if policy.counts_rounds and dealer == state.first_dealer:
        round_wind += 1
        game_over = round_wind == NUM_ROUNDS
        round_wind = min(round_wind, NUM_ROUNDS - 1)
    return DealState(dealer, state.first_dealer, 1, round_wind, game_over)


@dataclass(frozen=True)
class Match:
    """A match in progress: the deal, the running score per player and the number of hands played.

    ``seating[seat]`` is the player sitting at that seat (players are numbered by their first seat); it changes
    only under ``swap_seats_before_west``, and ``scores`` follow the players.

    ``loss_limit`` ends the match when a seat has lost more than it (the "winner deals" practice of S000:263, where
    rounds are not counted: the 局 ends when a player's losses pass a set amount); ``None`` = no limit."""

    policy: RotationPolicy
    deal: DealState
    scores: tuple[Amount, ...] = (0, 0, 0, 0)
    hands_played: int = 0
    loss_limit: Amount | None = None
    seating: tuple[int, ...] = (0, 1, 2, 3)

    @classmethod
    def start(cls, policy: RotationPolicy, first_dealer: int, loss_limit: Amount | None = None) -> Match:
        if type(first_dealer) is not int or not 0 <= first_dealer <= 3:
            raise RulesetError(f"match: the first dealer must be a seat 0-3, found {first_dealer!r}")
        return cls(policy, DealState(first_dealer, first_dealer), loss_limit=loss_limit)

    @property
    def game_over(self) -> bool:
        return self.deal.game_over or (
            self.loss_limit is not None and any(score < -self.loss_limit for score in self.scores)
        )

    def seat_wind(self, seat: int) -> int:
        """门风 of a seat this hand: E for the dealer, then S, W, N in play order."""
        return (seat - self.deal.dealer) % 4

    def record_hand(self, result: HandResult) -> Match:
        """The match after one more hand. ``IllegalAction`` once the match is over."""
        if self.game_over:
            raise IllegalAction("the match is over: no further hand can be recorded")
        by_player = {self.seating[seat]: amount for seat, amount in result.payments.items()}
        scores = combine(dict(enumerate(self.scores)), by_player)
        deal = next_deal(self.policy, self.deal, result)
        seating = self.seating
        if self.policy.swap_seats_before_west and self.deal.round_wind == 1 and deal.round_wind == 2:
            seating = _swapped(seating, self.deal.first_dealer)
        return replace(
            self,
            deal=deal,
            scores=tuple(scores[player] for player in range(4)),
            hands_played=self.hands_played + 1,
            seating=seating,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "policy": self.policy.to_dict(),
            "deal": self.deal.to_dict(),
            "scores": list(self.scores),
            "hands_played": self.hands_played,
            "loss_limit": self.loss_limit,
            "game_over": self.game_over,
            "seating": list(self.seating),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        scores: Sequence[Amount] = data["scores"]
        return cls(
            RotationPolicy.from_dict(data["policy"]),
            DealState.from_dict(data["deal"]),
            tuple(scores),
            data["hands_played"],
            data.get("loss_limit"),
            tuple(data.get("seating", (0, 1, 2, 3))),
        )


def _swapped(seating: tuple[int, ...], east: int) -> tuple[int, ...]:
    """东 ↔ 南 and 西 ↔ 北, counted from the 局's first dealer ``east``."""
    swapped = list(seating)
    for a, b in ((0, 1), (2, 3)):
        first, second = (east + a) % 4, (east + b) % 4
        swapped[first], swapped[second] = seating[second], seating[first]
    return tuple(swapped)
