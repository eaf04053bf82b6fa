"""``contest111``: the local 111-chip contest (fan.md §4, S003:109-111). 136 tiles, chi allowed, no flowers and
no wildcard (CT-1). Only the listed fans exist (CT-5) and they add up; a win needs 5.

Payment per payer = F × (2 for a self-draw, 杠上花, 抢杠 or 海底捞月, one doubling: CT-6) × (2 when the dealer
wins or pays). A self-draw is paid by all three, a discard by the discarder alone (CT-7; 抢杠: the konger).
A declaration below 5 fans or on no winning hand costs the declarer 10 to each other player; a false claimant
earlier in turn order than the genuine winner pays that winner's amount in the discarder's place (CT-8) plus 10
to each other player. Balances may go below zero (CT-9).
"""

from __future__ import annotations

from collections import Counter

from engine.analysis import ShapeRules, decompositions
from engine.errors import RulesetError
from engine.notation import Hand
from engine.rulesets.base import FanEntry, Ruleset, Score, WinContext
from engine.rulesets.contract import optional_seat
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.readings import Reading, concealed_with_win, final_counts, reading_of, suits_present
from engine.rulesets.verdicts import rejected, won
from engine.settlement import Payments, collect, combine
from engine.tiles import DRAGONS, WINDS, is_honor

MINIMUM = 5
PENALTY = 10
"""What a false or below-minimum declaration costs, to each other player (rules 2 and 10)."""

SHAPES = ShapeRules(
    standard=True, seven_pairs=True, seven_pairs_quad_as_two_pairs=True, thirteen_orphans=True, honors_knitted=False
)

VALUES = {
    "天胡": 40,
    "地胡": 40,
    "十三么": 40,
    "大四喜": 40,
    "全字": 40,
    "清一色": 30,
    "大三元": 30,
    "小四喜": 30,
    "大七对": 30,
}


def _entry(name: str) -> FanEntry:
    return FanEntry(name, name, name, VALUES[name])


def _blessing(ctx: WinContext) -> list[str]:
    """天胡: the dealer complete after the 跳牌 (a self-draw); 地胡: a win on the dealer's first discard."""
    if not ctx.first_turn:
        return []
    if ctx.self_drawn and ctx.winner == ctx.dealer:
        return ["天胡"]
    if ctx.discarder == ctx.dealer:
        return ["地胡"]
    return []


def _tile_fans(counts: list[int]) -> list[str]:
    tiles = [tile for tile, n in enumerate(counts) if n]
    if not suits_present(tiles):
        return ["全字"]
    if len(suits_present(tiles)) == 1 and not any(is_honor(tile) for tile in tiles):
        return ["清一色"]
    return []


def _set_fans(reading: Reading) -> list[str]:
    winds = [tile for tile in reading.triplets if tile in WINDS]
    names = []
    if len(winds) == 4:
        names.append("大四喜")  # CT-3: no 小四喜 on top
    elif len(winds) == 3 and reading.pair in WINDS:
        names.append("小四喜")
    if all(dragon in reading.triplets for dragon in DRAGONS):
        names.append("大三元")
    return names


def hand_fans(hand: Hand, ctx: WinContext) -> list[FanEntry] | None:
    """The best-scoring fans of a winning hand (G-2); ``None`` when it is no winning shape."""
    counts = concealed_with_win(hand)
    splits = decompositions(counts, SHAPES)
    if not splits:
        return None
    common = _blessing(ctx) + _tile_fans(final_counts(hand))
    candidates: list[list[str]] = []
    for split in splits:
        names = list(common)
        if split.form == "thirteen_orphans":
            names.append("十三么")
        elif split.form == "seven_pairs":
            if any(n == 2 for n in Counter(split.pairs).values()):
                names.append("大七对")
        else:
            names += _set_fans(reading_of(hand, split))
        candidates.append(names)
    best = max(candidates, key=lambda names: sum(VALUES[name] for name in names))
    return [_entry(name) for name in best]


def _check_false_claimant(ctx: WinContext, seat: int) -> None:
    """Rule 10 concerns a false claim on the same discard, earlier in turn order from the discarder."""
    if ctx.discarder is None or seat in (ctx.winner, ctx.discarder):
        raise RulesetError(
            "situation field 'false_claimant': a seat other than the winner and the discarder of a discard win"
        )
    if (seat - ctx.discarder) % 4 > (ctx.winner - ctx.discarder) % 4:
        raise RulesetError(
            "situation field 'false_claimant': must come before the winner in turn order from the discarder"
        )


def false_declaration(declarer: int) -> Payments:
    """The declarer pays 10 to each of the other three (rules 2 and 10)."""
    return collect(declarer, {seat: -PENALTY for seat in range(4) if seat != declarer})


class Contest111Ruleset(Ruleset):
    id = "contest111"
    description = "111-chip contest (S003) — listed fans 40/30, 5-fan minimum, dealer and self-draw double"

    @property
    def shape_rules(self) -> ShapeRules:
        return SHAPES

    @property
    def minimum(self) -> int:
        return MINIMUM

    def false_win_payments(self, declarer: int) -> Payments:
        return false_declaration(declarer)

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        concealed_counts(hand, self.tile_set)
        fans = hand_fans(hand, ctx)
        total = sum(int(fan.points or 0) for fan in fans or [])
        if fans is None or total < MINIMUM:
            penalty = "false_win" if fans is None else "below_minimum"
            return rejected(
                f"{penalty}: {'no winning hand' if fans is None else f'{total} fans, {MINIMUM} needed'}",
                total=total,
                fans=fans or (),
                payments=false_declaration(ctx.winner),
                extra={"penalty": penalty, "win_multiplier": 1},
            )
        doubled = ctx.self_drawn or ctx.after_kong or ctx.robbing_kong or ctx.last_tile
        multiplier = 2 if doubled else 1
        payers = ctx.payers if ctx.self_drawn else (ctx.discarder,)
        amounts = {
            payer: total * multiplier * (2 if ctx.dealer in (ctx.winner, payer) else 1)
            for payer in payers
            if payer is not None
        }
        false_claimant = optional_seat(ctx.extra, "false_claimant")
        penalties: list[Payments] = []
        if false_claimant is not None:
            _check_false_claimant(ctx, false_claimant)
            amounts = {false_claimant: amounts[ctx.discarder]}  # type: ignore[index]  # CT-8: the discarder's place
            penalties.append(false_declaration(false_claimant))
        payments = combine(collect(ctx.winner, amounts), *penalties)
        return won(total, fans, payments, {"win_multiplier": multiplier})
