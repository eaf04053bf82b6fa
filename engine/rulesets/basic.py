"""``basic``: the general rules of source 000 (fan.md §1, rules-B §2-4). No fans; a win is paid in base points.

Any winning shape wins: the standard 4 sets + pair and, by default, the three special shapes of the 1998
competition rules (七对 with four identical tiles as two pairs, 十三幺, 全不靠), each switchable off.
"""

from __future__ import annotations

from functools import cached_property

from engine.analysis import ShapeRules, is_win
from engine.match import Rotation, RotationPolicy
from engine.notation import Hand
from engine.rulesets.base import BreakMethod, OptionSpec, Ruleset, Score, WinContext, boolean_option
from engine.rulesets.handcheck import concealed_counts
from engine.rulesets.verdicts import rejected, won
from engine.settlement import BaseScheme, PaymentScheme, base_scheme_payments, no_payments
from engine.tilesets import TILE_SETS, TileSet

_MAX3 = "max3"
"""fan.md §1.5 ``max3``: traditional, but a dealer who has dealt three hands in a row passes (BA-4)."""

_ROTATIONS = (Rotation.TRADITIONAL.value, Rotation.COMPETITION.value, _MAX3, Rotation.WINNER_DEALS.value)


_SPECIAL_SHAPES = (
    ("seven_pairs", "seven pairs 七对"),
    ("thirteen_orphans", "thirteen orphans 十三幺"),
    ("honors_knitted", "honors and knitted 全不靠"),
)


class BasicRuleset(Ruleset):
    id = "basic"
    description = "通用规则 (S000) — general rules: base points 1-2-4 / 1-2-3 / 1-2, no fans"
    option_specs = (
        OptionSpec(
            "base_scheme",
            BaseScheme.DOUBLE_DEALER.value,
            tuple(scheme.value for scheme in BaseScheme),
            "base points per payer (fan.md §1.3): 1-2-4 dealer doubles, 1-2-3 dealer adds one, 1-2 no dealer premium",
        ),
        OptionSpec(
            "payment_scheme",
            PaymentScheme.FULL.value,
            tuple(scheme.value for scheme in PaymentScheme),
            "who pays a discard win (fan.md §1.4): 全陪 all three, 半陪 others pay half, 不陪 the discarder only",
            aliases={"full": "全陪", "half": "半陪", "none": "不陪"},
        ),
        OptionSpec(
            "dealer_rotation",
            Rotation.TRADITIONAL.value,
            _ROTATIONS,
            "who deals next (fan.md §1.5): traditional, competition (always passes), max3, winner_deals",
        ),
        boolean_option("drawn_dealer_passes", False, "the dealer passes to his 下家 after a drawn hand (minority)"),
        OptionSpec(
            "break_method",
            BreakMethod.ONE_THROW.value,
            (BreakMethod.ONE_THROW.value, BreakMethod.TWO_THROWS.value),
            "wall break (fan.md §1.2): one throw (everyday play) or two throws (competitions)",
        ),
        OptionSpec(
            "tile_set",
            136,
            (136, 144),
            "136 tiles (17 stacks per wall) or 144 with the eight flowers (18 stacks)",
            aliases={"136": 136, "144": 144},
        ),
        boolean_option("seven_pairs", True, "七对 (seven pairs) is a winning shape"),
        boolean_option("seven_pairs_quad", True, "七对 may hold four identical tiles as two pairs (S000:145)"),
        boolean_option("thirteen_orphans", True, "十三幺 (thirteen orphans) is a winning shape"),
        boolean_option("honors_knitted", True, "全不靠 (14 different honors and knitted tiles) is a winning shape"),
    )

    @cached_property
    def tile_set(self) -> TileSet:
        return TILE_SETS[str(self.options["tile_set"])]

    @cached_property
    def shape_rules(self) -> ShapeRules:
        return ShapeRules(
            standard=True,
            seven_pairs=self.options["seven_pairs"],
            seven_pairs_quad_as_two_pairs=self.options["seven_pairs_quad"],
            thirteen_orphans=self.options["thirteen_orphans"],
            honors_knitted=self.options["honors_knitted"],
            knitted_straight=False,
        )

    @property
    def break_method(self) -> BreakMethod:
        return BreakMethod(self.options["break_method"])

    @property
    def rotation(self) -> RotationPolicy:
        choice = self.options["dealer_rotation"]
        return RotationPolicy(
            Rotation.TRADITIONAL if choice == _MAX3 else Rotation(choice),
            drawn_dealer_passes=self.options["drawn_dealer_passes"],
            max_consecutive=3 if choice == _MAX3 else None,
        )

    def _shape_names(self) -> list[str]:
        """The shapes switched on, for the reason of a rejected declaration."""
        return ["4 sets + pair 四模一将", *(name for key, name in _SPECIAL_SHAPES if self.options[key])]

    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        """Any legal shape wins; the payers pay their base points (fan.md §1.3-1.4). A robbed kong arrives with
        the konger as ``discarder`` and is settled as his discard (BA-2); 天和 is a self-draw (S000:159)."""
        counts = concealed_counts(hand, self.tile_set)
        if not is_win(counts, self.shape_rules):
            return self._no_win
        seats = (ctx.winner, ctx.dealer, ctx.discarder)
        score = self._wins.get(seats)
        if score is None:
            score = self._wins[seats] = self._win(*seats)
        return score

    @cached_property
    def _no_win(self) -> Score:
        """The verdict of every hand that is no win (a ``Score`` is immutable, so one serves them all)."""
        reason = "not a winning shape: none of " + ", ".join(self._shape_names())
        return rejected(reason, total=0, meets_minimum=True, payments=no_payments())

    @cached_property
    def _wins(self) -> dict[tuple[int, int, int | None], Score]:
        """The verdict of a win per (winner, dealer, discarder): it depends on the seats and the options alone, so
        a batch builds at most 4 × 4 × 5 of them instead of one per hand."""
        return {}

    def _win(self, winner: int, dealer: int, discarder: int | None) -> Score:
        payments = base_scheme_payments(
            winner,
            dealer,
            discarder,
            BaseScheme(self.options["base_scheme"]),
            PaymentScheme(self.options["payment_scheme"]),
        )
        return won(payments[winner], payments=payments)
