"""``mcr``: Chinese Official rules (国标麻将, 1998 competition rules; rules-A §6, rules-B §6).

144 tiles with flowers (136 without them: option ``flowers``), chi from the 上家 only, a win needs 8 fans without
the flowers (1 fan each). Scoring follows PyMahjongGB 1.4.0 (summerinsects' engine) by default; its readings that
other references do not share are options (see ``ScoringOptions``). Competition settlement: base 8 (rules-A
§6.2); a declared win that is no win (诈和) costs the declarer a penalty to each other player (the usual
competition value 10; the sources give none). The deal always passes (no 连庄) and the players change seats
before the West round (rules-A §6.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from itertools import starmap
from typing import Any

from engine.analysis import MCR_SHAPES, ShapeRules
from engine.errors import SettleError
from engine.match import Rotation, RotationPolicy
from engine.native import MCR_NATIVE
from engine.notation import Hand, MeldKind
from engine.rulesets.base import FanEntry, OptionSpec, Ruleset, Score, WinContext, boolean_option
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.mcr.blessings import with_blessing
from engine.rulesets.mcr.fans import CONCEALED_KONG_AND_MELDED_KONG, FANS, FLOWER_TILES, POINTS
from engine.rulesets.mcr.scorer import ScoringOptions, hand_fans
from engine.rulesets.mcr.situation import WinFlags
from engine.settlement import Payments, collect, competition_payments
from engine.tilesets import TILE_SETS, TileSet

BASE = 8
NO_SHAPE = "not a winning shape (4 sets + pair, seven pairs, thirteen orphans, 全不靠, 组合龙)"
MELD_KINDS = (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG)
"""The meld kinds in the order the compiled core reads them (``hand_score``)."""
"""底分: every loser pays it on a win (rules-A §6.2)."""


@lru_cache(maxsize=4096)
def checked_hand_fans(
    hand: Hand, flags: WinFlags, winds: tuple[int, int], options: ScoringOptions
) -> tuple[tuple[int, int], ...] | None:
    """``hand_fans`` of a hand checked against the 144-tile set (``TileCountError`` otherwise), cached by hand:
    a table asks about the same hand more than once (waits, claims, the declaration itself). The path of a hand the
    compiled core declines, and of every hand without it (the core's ``hand_score`` is quicker than the cache)."""
    concealed_counts(hand, TILE_SETS["144"])
    return hand_fans(hand, flags, winds, options)


@lru_cache(maxsize=1024)
def _win_payments(winner: int, discarder: int | None, points: int) -> Payments:
    """8 + F settlement (``Score`` copies the mapping, so one per case serves every hand)."""
    return competition_payments(winner, discarder, points, BASE)


@lru_cache(maxsize=64)
def _false_win_payments(declarer: int, penalty: int) -> Payments:
    """诈和: the declarer pays the penalty to each other player (one mapping per case, as above)."""
    return collect(declarer, {seat: -penalty for seat in range(4) if seat != declarer})


@lru_cache(maxsize=4096)
def _answer_fans(fans: tuple[tuple[int, int], ...]) -> tuple[tuple[FanEntry, ...], int]:
    """The answer's fan entries (in fan order) and their points. Fan combinations repeat across hands far more
    often than hands do, so this is cached by the combination."""
    return tuple(starmap(fan_entry, sorted(fans))), sum(POINTS[fan] * count for fan, count in fans)


def _with_flowers(entries: tuple[FanEntry, ...], flowers: int) -> tuple[FanEntry, ...]:
    """花牌 in its place in fan order: before 明暗杠 (82), after every other fan."""
    flower = fan_entry(FLOWER_TILES, flowers)
    if entries and entries[-1].id == CONCEALED_KONG_AND_MELDED_KONG:
        return (*entries[:-1], flower, entries[-1])
    return (*entries, flower)


@cache
def _entry_table() -> tuple[tuple[FanEntry | None, ...], ...]:
    """Every fan's entry by fan id and count 1-8, for the compiled core to answer with (``hand_score``)."""
    ids = range(len(FANS) + 1)
    return tuple(tuple(fan_entry(fan, count) if fan and count else None for count in range(9)) for fan in ids)


@cache
def fan_entry(fan: int, count: int) -> FanEntry:
    """The answer entry of a fan (entries are immutable, so one per fan and count serves every hand)."""
    info = FANS[fan - 1]
    return FanEntry(fan, info.name_zh, info.name_en, info.points, count)


class McrRuleset(Ruleset):
    id = "mcr"
    description = "国标麻将 (MCR) — Chinese Official: 81 fans + 明暗杠, 8-fan minimum, competition settlement"
    option_specs = (
        OptionSpec(
            "minimum",
            8,
            None,
            "fans needed to win, flowers not counted (8 in the 1998 rules)",
            types=(int,),
            span=(0, 88),
        ),
        OptionSpec(
            "false_win_penalty",
            10,
            None,
            "诈和: what the declarer of a false win pays each other player (common competition value; 0 = none)",
            types=(int,),
            span=(0, 1_000_000),
        ),
        boolean_option(
            "infer_last_tile",
            True,
            "和绝张 also when the winner's own melds show the other three copies (PyMahjongGB); off: only the "
            "situation flag counts (zheng-fan)",
        ),
        boolean_option(
            "knitted_body_waits",
            True,
            "a winning tile inside the knitted straight may score 边张/嵌张/单钓 (MIL offline events, PyMahjongGB); "
            "off: MIL online platform, zheng-fan",
        ),
        boolean_option(
            "blessings",
            False,
            "天和 / 地和 / 人和 (8 fans each) for a win in the first go-around with no meld declared; off in the 1998 "
            "rules and PyMahjongGB",
        ),
        boolean_option(
            "exhausted_waits",
            True,
            "a wait on a tile the hand holds four times still counts as a wait, so no 独听 (MIL online rules, both "
            "references); off: such a wait is ignored",
        ),
        boolean_option(
            "flowers",
            True,
            "144 tiles with the eight flowers (1998 rules: 花牌, one fan each, not toward the minimum); off: 136 tiles "
            "without them, as Botzone's matches and many online events play (and what the Botzone text can record)",
        ),
    )

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.scoring_options = ScoringOptions(
            infer_last_tile=self.options["infer_last_tile"],
            knitted_body_waits=self.options["knitted_body_waits"],
            exhausted_waits=self.options["exhausted_waits"],
        )
        self._minimum: int = self.options["minimum"]
        self._blessings: bool = self.options["blessings"]
        self._core = None if MCR_NATIVE is None else self._core_config()

    def _core_config(self) -> tuple[Any, ...]:
        """What the compiled core builds this ruleset's ``Score`` from (``hand_score``): the class, the meld kinds,
        every fan entry, the no-shape reason, the minimum, the false-win penalty and the scoring options."""
        penalty = self.options["false_win_penalty"]
        return (Score, MELD_KINDS, _entry_table(), NO_SHAPE, self._minimum, penalty, *map(int, self.scoring_options))

    @property
    def tile_set(self) -> TileSet:
        return TILE_SETS["144" if self.options["flowers"] else "136"]

    @property
    def shape_rules(self) -> ShapeRules:
        return MCR_SHAPES

    @property
    def minimum(self) -> int:
        return self.options["minimum"]

    @property
    def rotation(self) -> RotationPolicy:
        return RotationPolicy(Rotation.COMPETITION, swap_seats_before_west=True)

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        if ctx.flowers and not self.options["flowers"]:
            raise SettleError(f"situation field 'flowers': {ctx.flowers}, but option flowers is off (no flowers)")
        self_drawn = ctx.discarder is None
        kong = ctx.after_kong or ctx.robbing_kong
        seat = (ctx.winner - ctx.dealer) % 4
        blessed = ctx.first_turn and self._blessings and not hand.melds
        if self._core is not None and not blessed:  # the whole Score in one call: a replay meets each hand once
            score = MCR_NATIVE.hand_score(  # type: ignore[union-attr]
                hand,
                self._core,
                ctx.flowers,
                self_drawn,
                ctx.fourth_tile,
                ctx.last_tile,
                kong,
                ctx.round_wind,
                seat,
                ctx.winner,
                ctx.discarder,
            )
            if score is not None:
                return score
        # positional: a NamedTuple's keyword call costs twice as much, on every hand
        fans = checked_hand_fans(
            hand,
            WinFlags(self_drawn, ctx.fourth_tile, ctx.last_tile, kong),
            (ctx.round_wind, seat),
            self.scoring_options,
        )
        if fans is not None and blessed:
            fans = with_blessing(fans, dealer=ctx.winner == ctx.dealer, self_drawn=self_drawn)
        if fans is None:
            return self.no_shape(ctx.winner)
        entries, without_flowers = _answer_fans(fans)
        if ctx.flowers:
            entries = _with_flowers(entries, ctx.flowers)
        return self._score(entries, without_flowers, ctx)

    def _score(self, entries: tuple[FanEntry, ...], without_flowers: int, ctx: WinContext) -> Score:
        """The verdict and the 8 + F settlement (or the false win's) of a winning shape."""
        points = without_flowers + ctx.flowers
        minimum = self._minimum
        meets = without_flowers >= minimum
        return Score(
            hu=meets,
            shape_ok=True,
            total=points,
            total_without_flowers=without_flowers,
            meets_minimum=meets,
            fans=entries,
            payments=_win_payments(ctx.winner, ctx.discarder, points) if meets else self.false_win_payments(ctx.winner),
            reason=None if meets else f"{without_flowers} fans without flowers, below the minimum {minimum}",
            extra={"total_without_flowers": without_flowers},
        )

    def no_shape(self, declarer: int) -> Score:
        """The answer to a declared hand with no winning shape: a false win."""
        return Score(
            hu=False,
            shape_ok=False,
            total=0,
            total_without_flowers=0,
            meets_minimum=False,
            payments=self.false_win_payments(declarer),
            reason=NO_SHAPE,
        )

    def false_win_payments(self, declarer: int) -> Payments:
        """诈和: the declarer pays the penalty to each other player."""
        return _false_win_payments(declarer, self.options["false_win_penalty"])
