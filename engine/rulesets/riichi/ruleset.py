"""``riichi``: Japanese riichi mahjong (rules-A §13 for the equipment and the match; the common rules for the rest).

rules-A §13 gives 136 tiles, two dice, 25,000 points each, the match lengths, seating, the first dealer, 連荘 with
本場 and the last-hand rules, and says yaku, furiten, riichi and the dead wall are not in the sources. Those
follow the common Japanese rules (Tenhou's, which the PyPI ``mahjong`` scorer reproduces and the tests use as an
oracle); each choice is written next to its code and every table difference is an option.

Settle (``mjtable settle``): ``answer_score`` (one win), ``answer_multi_win`` (several ron, when the option
``multiple_ron`` allows), ``answer_drawn_settlement`` (tenpai payments), ``answer_next_dealer`` (連荘 and 本場).
Red fives are written with rank 0 (``0m 0p 0s``, the usual riichi notation) when the option ``red_fives`` is on.

At the table the shared referee plays the hands (``hooks``: riichi, furiten, the dead wall and its dora, red fives,
abortive draws, nagashi) and ``engine.match`` the match: rounds (``length``), 連荘 on a win or a ready dealer at an
exhaustive draw, 本場, the sticks on the table, オーラス (``last_hand_repeat``), 飛び (``bust``) and the final
standings (``uma``, ``oka``; the sticks left at the end go to the first, ties to the seat nearer the first dealer).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import replace
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING, Any

from engine.analysis import ShapeRules
from engine.errors import SettleError
from engine.match import DealState, HandResult, LastHand, Match, RotationPolicy, Standings, next_deal
from engine.notation import Hand
from engine.procedure.dice import check_seat
from engine.rulesets.base import (
    BonusIndicators,
    BreakMethod,
    DrawContext,
    MissedWins,
    MultipleWinners,
    OptionSpec,
    ReadyRule,
    Ruleset,
    Score,
    WinContext,
    boolean_option,
    payments_out,
)
from engine.rulesets.contract import boolean, contract_seats, require, whole_number
from engine.rulesets.queries import no_verdict
from engine.rulesets.riichi import hooks
from engine.rulesets.riichi.answer import (
    PAO_YAKU,
    answer_discarder,
    answer_fields,
    as_seats,
    settle_answer,
    win_parts,
    with_red_fives,
    yaku_entry,
)
from engine.rulesets.riichi.draws import draw_payments
from engine.rulesets.riichi.reading import RIICHI_SHAPES
from engine.rulesets.riichi.scorer import NO_SHAPE, HandValue, Options, hand_value
from engine.rulesets.riichi.situation import Counters, read_situation
from engine.settlement import Payments, combine, no_payments
from engine.tiles import NUM_KINDS, Tile, parse_tiles, to_counts
from engine.tilesets import TILE_SETS, TileSet

if TYPE_CHECKING:
    from engine.settle import SettleRequest

MAX_COPIES = 4
DEAD_WALL = 14
"""王牌: seven stacks at the tail, never drawn except as kan replacements (嶺上牌) and indicators."""
RED_FIVES = replace(
    TILE_SETS["136"], description="136 with one red 5m, 5p and 5s (赤ドラ)", marked=frozenset(parse_tiles("5m5p5s"))
)
ROUNDS = {
    "hanchan": (0, 1),
    "tonpuusen": (0,),
    "zenchan": (0, 1, 2, 3),
    "east_north": (0, 3),
    "east_east": (0, 0),
}
"""Round winds of each match length, in play order (0-3 = 東南西北; rules-A §13)."""
UMA = {"none": (0, 0), "5-10": (10, 5), "10-20": (20, 10), "10-30": (30, 10), "20-30": (30, 20)}
"""ウマ in thousands of points: (first and last, second and third)."""


_RUN = re.compile(r"[0-9]+[mpsz]")
"""A run of ranks and its suit letter: a well-formed tile string is nothing else."""


@lru_cache(maxsize=1024)
def _run_tiles(run: str) -> tuple[Tile, ...]:
    """Tiles of one run (``123m``, ``0p``); runs repeat across hands far more than whole strings."""
    return tuple(parse_tiles(run.replace("0", "5")))


@lru_cache(maxsize=1024)
def read_riichi_tiles(text: str, where: str) -> tuple[Tile, ...]:
    """Tiles of a compact string, rank 0 read as a (red) five; indicator strings repeat from hand to hand, so
    each text is read once, and a new one run by run. A string that is not runs alone (or holds a rank its suit
    has not) is read whole, for the error that names the place."""
    runs = _RUN.findall(text)
    if sum(map(len, runs)) == len(text):
        with suppress(ValueError):
            return tuple(chain.from_iterable(map(_run_tiles, runs)))
    try:
        return tuple(parse_tiles(text.replace("0", "5")))
    except ValueError as error:
        raise SettleError(f"field {where!r}: {error}") from None


class RiichiRuleset(Ruleset):
    id = "riichi"
    description = "日本麻将 立直 (Japanese riichi) — yaku, fu, han, limits, dora; hanchan of 25,000 points"
    option_specs = (
        boolean_option("open_tanyao", True, "喰いタン: all simples also with an open hand"),
        boolean_option("red_fives", False, "赤ドラ: one red 5m, 5p and 5s (rank 0 in tile strings), one han each"),
        boolean_option(
            "double_yakuman",
            False,
            "13-sided kokushi, suuankou tanki, pure nine gates and daisuushii count as two yakuman",
        ),
        OptionSpec(
            "counted_yakuman",
            "yakuman",
            ("yakuman", "sanbaiman"),
            "数え役満: 13 han or more without a yakuman scores a yakuman, or is capped at sanbaiman",
        ),
        boolean_option("kiriage", False, "切り上げ満貫: 4 han 30 fu and 3 han 60 fu round up to mangan"),
        OptionSpec(
            "renhou",
            "none",
            ("none", "han5", "yakuman"),
            "人和 (a non-dealer's ron before his first draw, no call made): not a yaku, 5 han, or yakuman",
        ),
        OptionSpec(
            "multiple_ron",
            "head_bump",
            ("head_bump", "double", "all"),
            "several ron on one discard: only the first after the discarder (頭ハネ), up to two (three is an "
            "abortive draw), or all",
        ),
        boolean_option(
            "kyuushu_kyuuhai",
            True,
            "九種九牌: nine kinds of terminals/honours on the first draw may end the hand drawn",
        ),
        boolean_option("suufon_renda", True, "四風連打: the same wind discarded by all four first discards"),
        boolean_option("suucha_riichi", True, "四家立直: all four players in riichi"),
        boolean_option("suukaikan", True, "四開槓: a fourth kan by two or more players"),
        boolean_option(
            "pao",
            True,
            "責任払い: the seat whose discard completed a 大三元 or 大四喜 (situation.pao) pays a self-draw alone and "
            "half of a ron off another seat",
        ),
        boolean_option("pao_suukantsu", False, "責任払い for 四槓子 too (with the option pao)"),
        boolean_option(
            "nagashi_mangan",
            True,
            "流し満貫: at an exhaustive draw, a discard pile of terminals and "
            "honours with none claimed is paid as a mangan self-draw",
        ),
        OptionSpec(
            "length",
            "hanchan",
            ("hanchan", "tonpuusen", "zenchan", "east_north", "east_east"),
            "match: 半荘 (east + south), 東風戦, 全荘 (16 hands), 東北 or 東東 (rules-A §13)",
        ),
        OptionSpec(
            "start_points",
            25000,
            None,
            "points of each player at the start (rules-A §13)",
            types=(int,),
            span=(1, 1_000_000),
        ),
        boolean_option(
            "last_hand_repeat",
            True,
            "オーラス: a dealer who keeps the deal but is not first plays on (off: the match ends, rules-A §13)",
        ),
        boolean_option("bust", True, "飛び: the match ends when a player's points go below zero (rules-A §13)"),
        OptionSpec(
            "uma",
            "none",
            tuple(UMA),
            "ウマ of the final standings, in thousands: 10-20 = +20, +10, -10, -20 from first to fourth (none: the "
            "points as they stand, rules-A §13)",
        ),
        OptionSpec(
            "oka",
            0,
            None,
            "オカ: points each player hands the first at the end (5,000 = a 30,000 return on 25,000 starts)",
            types=(int,),
            span=(0, 1_000_000),
        ),
    )

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.scoring = Options(self.options["counted_yakuman"], self.options["kiriage"])
        self.pao_yaku = PAO_YAKU | {"suukantsu"} if self.options["pao_suukantsu"] else PAO_YAKU
        """The yakuman a seat can be liable for under these options."""

    @property
    def shape_rules(self) -> ShapeRules:
        return RIICHI_SHAPES

    @property
    def tile_set(self) -> TileSet:
        """136 tiles; with ``red_fives`` one five of each suit is a marked copy, played as such."""
        return RED_FIVES if self.options["red_fives"] else super().tile_set

    @property
    def reserved_tiles(self) -> int:
        return DEAD_WALL

    @property
    def break_method(self) -> BreakMethod:
        """One throw of two dice: the sum picks the wall and counts the stacks (the usual riichi break)."""
        return BreakMethod.SUM

    @property
    def multiple_winners(self) -> MultipleWinners:
        return MultipleWinners.FIRST if self.options["multiple_ron"] == "head_bump" else MultipleWinners.ALL

    @property
    def rotation(self) -> RotationPolicy:
        """連荘 (rules-A §13): the dealer keeps the deal when he wins (also among several winners), is ready at an
        exhaustive draw, or the hand ends in an abortive draw; the rounds of ``length``; オーラス: a dealer who
        keeps the deal while first ends the match (``last_hand_repeat`` off: the last hand ends it anyway)."""
        last = LastHand.LEADER_STOPS if self.options["last_hand_repeat"] else LastHand.FINAL
        return RotationPolicy(rounds=ROUNDS[self.options["length"]], ready_dealer_stays=True, last_hand=last)

    def start_match(self, first_dealer: int) -> Match:
        """``start_points`` each, 飛び when one goes below zero (``bust``), the final standings with ``uma`` and
        ``oka`` and the sticks left on the table to the first."""
        start = self.options["start_points"]
        first, second = (1000 * points for points in UMA[self.options["uma"]])
        standings = Standings(start, (first, second, -second, -first), self.options["oka"], pot_to_first=True)
        return Match.start(self.rotation, first_dealer, start if self.options["bust"] else None, standings)

    def format_hand(self, hand: Hand) -> str:
        """The melds, the standing tiles and the winning tile, without MCR's situation block (``|EE0000``): a riichi
        win's round, seat and flags are the result's own fields (round, 本場, the yaku)."""
        return super().format_hand(replace(hand, situation=None, flowers=None))

    def read_tiles(self, text: str, where: str) -> list[Tile]:
        """Rank 0 is a red five (0m 0p 0s), read as a five; ``with_red_fives`` counts them."""
        return list(read_riichi_tiles(text, where))

    # --- the table (``hooks``) ------------------------------------------------------------------------------

    @property
    def ready_declaration(self) -> ReadyRule:
        return hooks.RIICHI

    @property
    def missed_wins(self) -> MissedWins:
        return hooks.FURITEN

    @property
    def bonus_indicators(self) -> BonusIndicators:
        return hooks.DORA

    @property
    def max_kongs(self) -> int:
        """The dead wall's four replacement tiles."""
        return hooks.MAX_KANS

    @property
    def first_turn_per_seat(self) -> bool:
        """地和 and 人和 come on each seat's first turn, double riichi with each seat's first discard."""
        return True

    @property
    def replacement_is_last_tile(self) -> bool:
        """嶺上開花 is no 海底摸月."""
        return False

    @property
    def counts_ready_at_draw(self) -> bool:
        """Tenpai payments, and the dealer ready at an exhaustive draw keeps the deal."""
        return True

    def win_facts(self, referee: Any, seat: int) -> dict[str, Any]:
        return hooks.win_facts(referee, seat, self.options["red_fives"])

    def discard_refusal(self, referee: Any, seat: int, tile: Tile) -> str | None:
        return hooks.kuikae(referee, tile)

    def abortive_draw(self, referee: Any, winners: tuple[int, ...]) -> str | None:
        return hooks.abortive_draw(referee, winners, self.options)

    def abort_declaration(self, referee: Any, seat: int, tiles: list[Tile]) -> str | None:
        return hooks.nine_kinds(referee, seat, tiles, self.options)

    def draw_facts(self, referee: Any) -> dict[str, Any]:
        return {"nagashi": hooks.nagashi(referee)} if self.options["nagashi_mangan"] else {}

    def settle_draw(self, ctx: DrawContext) -> Payments | None:
        """流し満貫 where a seat made it, else tenpai payments; ``None`` while a hand still in is unseen."""
        ready = ctx.extra.get("ready")
        return None if ready is None else draw_payments(ready, ctx.extra.get("nagashi", ()), ctx.dealer)

    def settle_wins(self, scores: Sequence[Score]) -> Payments:
        """Each win its hand and honba (the sticks on the table the referee pays the first winner itself)."""
        return combine(*(as_seats(score.extra["breakdown"][part]) for score in scores for part in ("hand", "honba")))

    def later_winner_facts(self) -> dict[str, Any]:
        """Several ron: the honba and the sticks on the table go to the first after the discarder only (上家取り)."""
        return {"honba": 0, "riichi_sticks": 0}

    # --- scoring ------------------------------------------------------------------------------------------

    def value(self, hand: Hand, ctx: WinContext) -> tuple[HandValue, Counters]:
        """The hand's value and the table counters; ``RulesetError`` for a situation that cannot happen.
        ``ctx.extra["red_fives"]`` is the number of red fives held (``answer_score`` counts the rank-0 tiles)."""
        facts, bonus, counters = read_situation(hand, ctx, self.options, read_riichi_tiles)
        seen = [*hand.all_tiles(), *bonus.indicators, *bonus.ura_indicators]
        if max(seen) >= NUM_KINDS or max(to_counts(seen)) > MAX_COPIES:  # an indicator a flower, or a fifth copy
            self.tile_set.check(seen, "hand and indicators")
        return hand_value(hand, facts, bonus, self.scoring), counters

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        """Verdict and payments of the hand and its honba (summing to 0); ``extra["breakdown"]`` adds the riichi
        sticks the winner collects from the table."""
        value, counters = self.value(hand, ctx)
        parts = win_parts(value, ctx, counters, self.pao_yaku) if value.hu else None
        return Score(
            hu=value.hu,
            shape_ok=value.reason != NO_SHAPE,
            total=value.han,
            total_without_flowers=value.han,
            meets_minimum=value.hu,
            fans=tuple(yaku_entry(key, han) for key, han in value.yaku),
            payments=combine(parts["hand"], parts["honba"]) if parts else None,
            reason=value.reason,
            extra=answer_fields(value, parts),
        )

    def win_context(self, request: SettleRequest) -> WinContext:
        """The situation with ``red_fives``: the rank-0 tiles of the winner's own hand, melds and winning tile (each
        winner of a double ron counts his own)."""
        return with_red_fives(request)

    def answer_score(self, request: SettleRequest) -> dict[str, Any]:
        """One win: ``payments`` are the seats' net change for the hand, honba and riichi sticks (they sum to
        1,000 × ``riichi_sticks``: the sticks come from the table, not from a seat)."""
        ctx = self.win_context(request)  # the hand without MCR's situation block: no riichi scorer reads it
        return settle_answer(self.evaluate(request.read_hand(self), ctx))

    def answer_multi_win(self, request: SettleRequest) -> dict[str, Any]:
        """Several ron on one discard (option ``multiple_ron`` = ``double`` or ``all``): each winner is paid his
        hand; honba and riichi sticks go to the first winner after the discarder (上家取り). Three winners
        under ``double`` are an abortive draw (三家和): nothing is paid."""
        if self.options["multiple_ron"] == "head_bump":
            raise SettleError("ruleset 'riichi': option multiple_ron is head_bump, one player wins on a discard")
        answer = super().answer_multi_win(request)
        discarder = answer_discarder(request)
        per_winner = answer["per_winner"]
        won = [int(seat) for seat, each in per_winner.items() if each["hu"]]
        winners = sorted(won, key=lambda seat: (seat - discarder) % 4)
        if self.options["multiple_ron"] == "double" and len(winners) > 2:
            return answer | {"hu": False, "payments": payments_out(no_payments()), "abortive_draw": "sanchahou"}
        parts = [as_seats(per_winner[str(seat)]["breakdown"]["hand"]) for seat in winners]
        if winners:
            first = per_winner[str(winners[0])]["breakdown"]
            parts += [as_seats(first["honba"]), as_seats(first["riichi_sticks"])]
        return answer | {"payments": payments_out(combine(*parts))}

    def answer_drawn_settlement(self, request: SettleRequest) -> dict[str, Any]:
        """Exhaustive draw: 3,000 points from the players not ready to those ready (``tenpai``: list of seats),
        or 流し満貫 for the seats in ``nagashi`` (option ``nagashi_mangan``); the dealer keeps the deal when
        ready (rules-A §13: 連荘 "if the dealer ... is tenpai at 流局")."""
        situation = request.situation
        dealer = check_seat(require(situation, "dealer"), "dealer")
        tenpai = contract_seats(situation.get("tenpai", []), "tenpai")
        nagashi = contract_seats(situation.get("nagashi", []), "nagashi")
        if nagashi and not self.options["nagashi_mangan"]:
            raise SettleError("situation field 'nagashi': the option nagashi_mangan is off")
        after = self._next_deal(dealer, HandResult(ready=tenpai), whole_number(situation, "honba", 0))
        return {
            "hu": None,
            "payments": payments_out(draw_payments(tenpai, nagashi, dealer)),
            "next_dealer": after.dealer,
            "next_honba": after.honba,
        }

    def answer_next_dealer(self, request: SettleRequest) -> dict[str, Any]:
        """連荘: the dealer keeps the deal when he wins, or is ready at an exhaustive draw (``dealer_tenpai``),
        or the hand is an abortive draw; 本場 go up by one on a dealer repeat or any draw, back to 0 when
        another player wins (rules-A §13 names the counters; the reset is the common rule). No ``winners``: a
        drawn hand."""
        situation = request.situation
        dealer = check_seat(require(situation, "dealer"), "dealer")
        winners = contract_seats(situation.get("winners", []), "winners")
        if winners:
            result = HandResult.from_winners(winners)
        else:
            ready = (dealer,) if boolean(situation, "dealer_tenpai") else ()
            result = HandResult(ready=ready, abortive="abortive" if boolean(situation, "abortive") else None)
        after = self._next_deal(dealer, result, whole_number(situation, "honba", 0))
        return no_verdict(next_dealer=after.dealer, next_honba=after.honba, dealer_repeats=after.dealer == dealer)

    def _next_deal(self, dealer: int, result: HandResult, honba: int) -> DealState:
        """The deal after a hand of ``dealer`` at ``honba`` (the round is of no concern to these queries)."""
        return next_deal(self.rotation, DealState(dealer, dealer, honba=honba), result)
