"""A match (局): rounds (圈) and round wind, dealer rotation, consecutive-dealer count, running scores.

The controller journals the match after every hand, so every state is a frozen dataclass with
``to_dict``/``from_dict``. Rotation follows fan.md §1.5 (rules-B §2.5) with its decisions BA-4..BA-6; other
rulesets choose their policy through ``Ruleset.rotation``, and how points are kept and the players ranked at the
end through ``Standings`` (riichi: 25,000 points each, 飛び, uma and oka; rules-A §13).

Beside the deal, every match counts 本場 (``DealState.honba``: one more after a dealer's repeat or any drawn hand,
back to 0 when the deal passes after a win, the common rule riichi pays with a win) and keeps the stakes left on
the table (``Match.pot``: riichi sticks, ``HandResult.pot_change``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any

from engine.errors import IllegalAction, RulesetError
from engine.settlement import Amount, combine, exact, no_payments


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


class LastHand(StrEnum):
    """When the last round's last hand (オーラス) ends the match."""

    PLAYED_OUT = "played_out"
    """Once the deal passes on (BA-6): its dealer repeats as long as he keeps the deal."""
    LEADER_STOPS = "leader_stops"
    """Also when its dealer keeps the deal while first (riichi's アガリ止め, rules-A §13)."""
    FINAL = "final"
    """After it in any case: no オーラス repeat (the rules rules-A §13 says forbid it)."""


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
    rounds: tuple[int, ...] = (0, 1, 2, 3)
    """The round winds played, in order: 东南西北 (BA-6); riichi's 半荘 东南, 東風戦 东, 東北 东北, 東東 东东."""
    ready_dealer_stays: bool = False
    """After an exhaustive draw the dealer stays when ready (``HandResult.ready``) and passes when not (riichi's
    連荘, rules-A §13); off: ``drawn_dealer_passes`` decides."""
    last_hand: LastHand = LastHand.PLAYED_OUT

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
            "rounds": list(self.rounds),
            "ready_dealer_stays": self.ready_dealer_stays,
            "last_hand": self.last_hand.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RotationPolicy:
        return cls(
            Rotation(data["rotation"]),
            data["drawn_dealer_passes"],
            data["max_consecutive"],
            MultiWinDealer(data["multi_win_dealer"]),
            data.get("swap_seats_before_west", False),
            tuple(data.get("rounds", (0, 1, 2, 3))),
            data.get("ready_dealer_stays", False),
            LastHand(data.get("last_hand", LastHand.PLAYED_OUT)),
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
    after a win or several win on one discard; none = drawn) and the net payments of the whole hand.

    ``pot_change`` is what the seats put on the table in the hand less what a winner took from it (riichi sticks),
    so the payments add up to minus it. A drawn hand may say which seats were ready (``ready``, where the ruleset
    counts them) or that it was aborted (``abortive``, the abortive draw's name: the dealer deals it again)."""

    wins: tuple[Win, ...] = ()
    payments: Mapping[int, Amount] = field(default_factory=no_payments)
    pot_change: Amount = 0
    ready: tuple[int, ...] | None = None
    abortive: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "wins", tuple(self.wins))
        payments = {int(seat): exact(amount) for seat, amount in self.payments.items()}
        if sorted(payments) != [0, 1, 2, 3]:
            raise RulesetError(f"hand result: payments must give seats 0-3, found {sorted(payments)}")
        if abs(sum(payments.values()) + self.pot_change) > 1e-9:
            raise RulesetError(f"hand result: payments must sum to {-self.pot_change}, found {payments}")
        object.__setattr__(self, "payments", payments)
        if self.ready is not None:
            object.__setattr__(self, "ready", tuple(self.ready))
        if self.wins and (self.ready is not None or self.abortive is not None):
            raise RulesetError("hand result: ready seats and an abortive draw belong to a drawn hand")
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
        """The result; ``pot_change``, ``ready`` and ``abortive`` only where they say something."""
        data: dict[str, Any] = {
            "wins": [win.to_dict() for win in self.wins],
            "winners": list(self.winners),
            "drawn": self.drawn,
            "payments": {str(seat): amount for seat, amount in self.payments.items()},
        }
        if self.pot_change:
            data["pot_change"] = self.pot_change
        if self.ready is not None:
            data["ready"] = list(self.ready)
        if self.abortive is not None:
            data["abortive"] = self.abortive
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandResult:
        payments = {int(seat): amount for seat, amount in data["payments"].items()}
        ready = data.get("ready")
        return cls(
            tuple(Win.from_dict(win) for win in data["wins"]),
            payments,
            data.get("pot_change", 0),
            None if ready is None else tuple(ready),
            data.get("abortive"),
        )


@dataclass(frozen=True)
class DealState:
    """Who deals the current hand and where the 局 stands. ``consecutive_dealer`` n = this is the dealer's n-th
    hand in a row (1 = first); ``round_wind`` 0-3 = 东南西北; ``first_dealer`` = the 局's first dealer; ``honba``
    the 本場 counter. ``round_index`` is the round's place in ``RotationPolicy.rounds``; ``None`` = the first round
    of ``round_wind`` (always so where each wind is played once)."""

    dealer: int
    first_dealer: int
    consecutive_dealer: int = 1
    round_wind: int = 0
    game_over: bool = False
    honba: int = 0
    round_index: int | None = None

    def round_in(self, policy: RotationPolicy) -> int:
        """The round's place in the policy's rounds."""
        return policy.rounds.index(self.round_wind) if self.round_index is None else self.round_index

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealState:
        """The inverse of ``to_dict``; ``honba`` and ``round_index`` may be missing (journals written before them)."""
        return cls(**{key: data[key] for key in cls.__dataclass_fields__ if key in data})


def _deal_to(policy: RotationPolicy, state: DealState, result: HandResult) -> int:
    """The seat that deals next, before the ``max_consecutive`` limit."""
    passed = (state.dealer + 1) % 4
    if result.abortive is not None:
        return state.dealer  # an abortive draw is dealt again by the same dealer
    if result.drawn:
        if policy.ready_dealer_stays and result.ready is not None:
            return state.dealer if state.dealer in result.ready else passed
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
    """The deal after ``result`` (fan.md §1.5): next dealer, consecutive count, round wind, end of the 局, 本場.

    The round wind advances when the deal passes to the 局's first dealer; after the last of the policy's rounds
    the 局 is over (BA-6: after North). ``winner_deals`` counts no rounds."""
    if state.game_over:
        raise IllegalAction("the match is over: no further hand can be recorded")
    dealer = _deal_to(policy, state, result)
    if (
        dealer == state.dealer
        and policy.max_consecutive is not None
        and state.consecutive_dealer >= policy.max_consecutive
    ):
        dealer = (state.dealer + 1) % 4
    honba = state.honba + 1 if dealer == state.dealer or result.drawn else 0
    if dealer == state.dealer:
        return replace(state, consecutive_dealer=state.consecutive_dealer + 1, honba=honba)
    index, game_over = state.round_in(policy), False
    if policy.counts_rounds and dealer == state.first_dealer:
        index += 1
        game_over = index == len(policy.rounds)
        index = min(index, len(policy.rounds) - 1)
    return DealState(dealer, state.first_dealer, 1, policy.rounds[index], game_over, honba, index)


@dataclass(frozen=True)
class Standings:
    """How a match that keeps points ends and ranks its players (riichi, rules-A §13: 25,000 each, the highest
    total wins). Every player starts with ``start_score``; at the end the stakes left on the table go to the first
    (``pot_to_first``, the common rule), and each player's result is his points less the start and the ``oka``,
    plus the ``uma`` of his place (first to fourth), the first also taking the four ``oka`` (オカ: a 30,000 return on
    25,000 starts is ``oka`` 5,000). Ties go to the player seated nearer the first dealer (起家優先)."""

    start_score: int = 0
    uma: tuple[int, ...] = (0, 0, 0, 0)
    oka: int = 0
    pot_to_first: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "start_score": self.start_score,
            "uma": list(self.uma),
            "oka": self.oka,
            "pot_to_first": self.pot_to_first,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Standings:
        return cls(data["start_score"], tuple(data["uma"]), data["oka"], data["pot_to_first"])


@dataclass(frozen=True)
class Match:
    """A match in progress: the deal, the running score per player and the number of hands played.

    ``seating[seat]`` is the player sitting at that seat (players are numbered by their first seat); it changes
    only under ``swap_seats_before_west``, and ``scores`` follow the players.

    ``loss_limit`` ends the match when a player has lost more than it since the start (the "winner deals" practice
    of S000:263, where rounds are not counted: the 局 ends when a player's losses pass a set amount; riichi's 飛び:
    all his starting points); ``None`` = no limit. ``standings``: points kept from a start and ranked at the end
    (``None``: the running sum of the payments). ``pot``: stakes lying on the table (riichi sticks)."""

    policy: RotationPolicy
    deal: DealState
    scores: tuple[Amount, ...] = (0, 0, 0, 0)
    hands_played: int = 0
    loss_limit: Amount | None = None
    seating: tuple[int, ...] = (0, 1, 2, 3)
    standings: Standings | None = None
    pot: Amount = 0

    @classmethod
    def start(
        cls,
        policy: RotationPolicy,
        first_dealer: int,
        loss_limit: Amount | None = None,
        standings: Standings | None = None,
    ) -> Match:
        if type(first_dealer) is not int or not 0 <= first_dealer <= 3:
            raise RulesetError(f"match: the first dealer must be a seat 0-3, found {first_dealer!r}")
        scores = (standings.start_score if standings is not None else 0,) * 4
        return cls(policy, DealState(first_dealer, first_dealer), scores, loss_limit=loss_limit, standings=standings)

    @property
    def game_over(self) -> bool:
        start = self.standings.start_score if self.standings is not None else 0
        return self.deal.game_over or (
            self.loss_limit is not None and any(start - score > self.loss_limit for score in self.scores)
        )

    def seat_wind(self, seat: int) -> int:
        """门风 of a seat this hand: E for the dealer, then S, W, N in play order."""
        return (seat - self.deal.dealer) % 4

    def seat_scores(self) -> tuple[Amount, ...]:
        """The scores by seat this hand (``scores`` are by player)."""
        return tuple(self.scores[player] for player in self.seating)

    def deal_facts(self) -> dict[str, Any]:
        """What the match carries into its next hand beside the dealer and the winds, as ``Referee.deal`` takes it:
        本場, the stakes on the table and, where it keeps points (``standings``), each seat's points."""
        scores = self.seat_scores() if self.standings is not None else None
        return {"honba": self.deal.honba, "pot": self.pot, "scores": scores}

    def ranking(self) -> list[int]:
        """Players from first to last: points, then seat order from the first dealer (起家優先)."""
        first = self.deal.first_dealer
        return sorted(range(4), key=lambda player: (-self.scores[player], (player - first) % 4))

    def final_standings(self) -> list[dict[str, Any]]:
        """Each player's place, points and result (``Standings``: less the start and the oka, plus uma and, for
        the first, the oka), first to last."""
        rules = self.standings or Standings()
        places = []
        for place, player in enumerate(self.ranking()):
            oka = 4 * rules.oka if place == 0 else 0
            result = self.scores[player] - rules.start_score - rules.oka + rules.uma[place] + oka
            places.append({"player": player, "score": self.scores[player], "result": result})
        return places

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
        after = replace(
            self,
            deal=deal,
            scores=tuple(scores[player] for player in range(4)),
            hands_played=self.hands_played + 1,
            seating=seating,
            pot=self.pot + result.pot_change,
        )
        if not deal.game_over and self._last_hand_ends(deal, after):
            after = replace(after, deal=replace(deal, game_over=True))
        if after.game_over and after.pot and self.standings is not None and self.standings.pot_to_first:
            scores[after.ranking()[0]] += after.pot
            after = replace(after, scores=tuple(scores[player] for player in range(4)), pot=0)
        return after

    def _last_hand_ends(self, deal: DealState, after: Match) -> bool:
        """オーラス: whether this hand, the last round's last one, ends the match though its dealer keeps the deal
        (``RotationPolicy.last_hand``)."""
        policy, state = self.policy, self.deal
        last = state.round_in(policy) == len(policy.rounds) - 1 and state.dealer == (state.first_dealer + 3) % 4
        if not last or policy.last_hand is LastHand.PLAYED_OUT:
            return False
        leading = after.ranking()[0] == self.seating[state.dealer]
        return policy.last_hand is LastHand.FINAL or (deal.dealer == state.dealer and leading)

    def to_dict(self) -> dict[str, Any]:
        return {
            "policy": self.policy.to_dict(),
            "deal": self.deal.to_dict(),
            "scores": list(self.scores),
            "hands_played": self.hands_played,
            "loss_limit": self.loss_limit,
            "game_over": self.game_over,
            "seating": list(self.seating),
            "standings": None if self.standings is None else self.standings.to_dict(),
            "pot": self.pot,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        scores: Sequence[Amount] = data["scores"]
        standings = data.get("standings")
        return cls(
            RotationPolicy.from_dict(data["policy"]),
            DealState.from_dict(data["deal"]),
            tuple(scores),
            data["hands_played"],
            data.get("loss_limit"),
            tuple(data.get("seating", (0, 1, 2, 3))),
            None if standings is None else Standings.from_dict(standings),
            data.get("pot", 0),
        )


def _swapped(seating: tuple[int, ...], east: int) -> tuple[int, ...]:
    """东 ↔ 南 and 西 ↔ 北, counted from the 局's first dealer ``east``."""
    swapped = list(seating)
    for a, b in ((0, 1), (2, 3)):
        first, second = (east + a) % 4, (east + b) % 4
        swapped[first], swapped[second] = seating[second], seating[first]
    return tuple(swapped)
