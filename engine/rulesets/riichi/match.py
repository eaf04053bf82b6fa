"""A riichi match (半荘 and the other lengths of rules-A §13): rounds, dealer, 本場, riichi sticks, points, end.

rules-A §13: 25,000 points each; 東一局 ... named by round wind and number, "XX局 m本场" when the dealer repeats;
半荘 = East + South (default), 東風戦 = East only, 全荘 = all four winds, and the variants 東北 and 東東; the
dealer repeats (連荘) when he wins or is tenpai at 流局; オーラス: the match usually ends when the dealer loses
the deal, or when he keeps it and is first (option ``last_hand_repeat`` off: it ends after the last hand in any
case); the match ends when a player's points go negative (被飛, option ``bust``).

Common rules where the source is silent: an abortive draw keeps the dealer; 本場 go up by one on a dealer
repeat or any draw and go back to 0 when the deal passes after a win; riichi sticks left at the end go to the
first player; the ranking breaks ties by seat order from the first dealer (起家優先). No 西入 (extra round).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.tiles import WIND_LETTERS

ROUNDS = {
    "hanchan": (0, 1),
    "tonpuusen": (0,),
    "zenchan": (0, 1, 2, 3),
    "east_north": (0, 3),
    "east_east": (0, 0),
}
"""Round winds of each match length, in play order (0-3 = 東南西北)."""


@dataclass(frozen=True)
class HandOutcome:
    """What a hand decided about the deal: who won, whether the dealer was ready, whether it was aborted."""

    dealer: int
    winners: Sequence[int] = ()
    dealer_tenpai: bool = False
    abortive: bool = False

    @property
    def drawn(self) -> bool:
        return not self.winners

    @property
    def dealer_keeps(self) -> bool:
        if self.winners:
            return self.dealer in self.winners
        return self.dealer_tenpai or self.abortive

    @property
    def next_dealer(self) -> int:
        return self.dealer if self.dealer_keeps else (self.dealer + 1) % 4

    def next_honba(self, honba: int) -> int:
        return honba + 1 if self.dealer_keeps or self.drawn else 0


@dataclass(frozen=True)
class RiichiMatch:
    """The state between hands. ``scores`` are by seat; ``hand_number`` 0-3 = 一局 ... 四局 of the round."""

    first_dealer: int
    rounds: tuple[int, ...]
    scores: tuple[int, ...]
    round_index: int = 0
    hand_number: int = 0
    honba: int = 0
    riichi_sticks: int = 0
    hands_played: int = 0
    game_over: bool = False
    last_hand_repeat: bool = True
    bust: bool = True
    history: tuple[str, ...] = field(default=())

    @classmethod
    def start(cls, first_dealer: int, options: Any) -> RiichiMatch:
        return cls(
            first_dealer,
            ROUNDS[options["length"]],
            (options["start_points"],) * 4,
            last_hand_repeat=options["last_hand_repeat"],
            bust=options["bust"],
        )

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.hand_number) % 4

    @property
    def round_wind(self) -> int:
        return self.rounds[self.round_index]

    @property
    def name(self) -> str:
        """東1局 0本場 style: round wind, hand number, honba."""
        return f"{'東南西北'[self.round_wind]}{self.hand_number + 1}局 {self.honba}本場"

    @property
    def is_last_hand(self) -> bool:
        """オーラス: the fourth hand of the last round."""
        return self.round_index == len(self.rounds) - 1 and self.hand_number == 3

    def ranking(self) -> list[int]:
        """Seats from first to last: points, then seat order from the first dealer."""
        return sorted(range(4), key=lambda seat: (-self.scores[seat], (seat - self.first_dealer) % 4))

    def record(self, outcome: HandOutcome, deltas: Sequence[int], riichi_sticks: int) -> RiichiMatch:
        """The match after a hand: ``deltas`` every seat's change (stick deposits and the pot won included),
        ``riichi_sticks`` the sticks left on the table."""
        scores = tuple(score + delta for score, delta in zip(self.scores, deltas, strict=True))
        after = replace(
            self,
            scores=scores,
            honba=outcome.next_honba(self.honba),
            riichi_sticks=riichi_sticks,
            hands_played=self.hands_played + 1,
            history=(*self.history, self.name),
        )
        if self.bust and min(scores) < 0:
            return after.finished()
        if outcome.dealer_keeps:
            if self.is_last_hand and (not self.last_hand_repeat or after.ranking()[0] == self.dealer):
                return after.finished()
            return after
        if self.hand_number < 3:
            return replace(after, hand_number=self.hand_number + 1)
        if self.round_index + 1 < len(self.rounds):
            return replace(after, round_index=self.round_index + 1, hand_number=0)
        return after.finished()

    def finished(self) -> RiichiMatch:
        """The match over: sticks left on the table go to the first player."""
        top = self.ranking()[0]
        scores = list(self.scores)
        scores[top] += 1000 * self.riichi_sticks
        return replace(self, scores=tuple(scores), riichi_sticks=0, game_over=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round_wind": WIND_LETTERS[self.round_wind],
            "hand": self.hand_number + 1,
            "dealer": self.dealer,
            "honba": self.honba,
            "riichi_sticks": self.riichi_sticks,
            "scores": list(self.scores),
            "game_over": self.game_over,
            "ranking": self.ranking(),
        }
