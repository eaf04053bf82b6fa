"""The ruleset interface: what a table needs to know about one system of rules, and how it scores a hand.

A ruleset is built from an options mapping (validated against its ``OptionSpec``s) and answers three kinds of
questions:

* static table facts (tile set, claims allowed, several winners, wildcards, ...) that the procedure and the
  referee read before and during the hand;
* ``evaluate(hand, ctx)``: is this declared win legal, what does it score and who pays;
* ``settle_draw(ctx)`` and ``rotation``: what happens at a drawn hand and who deals next (``engine.match``).

Seats are 0-3 in play order (counter-clockwise): ``(s + 1) % 4`` is the 下家 of ``s``, ``(s + 3) % 4`` his 上家.
Winds are 0-3 = E S W N.

The interface's words (options, table facts, contexts, scores) are defined in ``engine.rulesets.terms`` and
exported here with ``Ruleset``: rulesets and the referee import them from this module (the settle queries that
``Ruleset`` inherits, from ``terms``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from engine.analysis import ShapeRules, is_win, shanten, waits
from engine.errors import RulesetError
from engine.match import Match, RotationPolicy
from engine.notation import Hand, Meld, format_hand, format_meld, parse_hand
from engine.rulesets.queries import ContractQueries
from engine.rulesets.terms import (
    DEFAULT_CLAIM_PRIORITY,
    STAKE,
    STANDARD_HONOR_CYCLE,
    BonusIndicators,
    BreakMethod,
    ClaimKind,
    DrawContext,
    FanEntry,
    IndicatorPosition,
    KongType,
    MissedWins,
    MultipleWinners,
    OptionSpec,
    ReadyRule,
    Score,
    WildcardRule,
    WildcardSource,
    WinContext,
    boolean_option,
    payments_out,
)
from engine.settlement import Payments, combine, no_payments
from engine.tiles import FLOWERS, Tile, format_tiles, tile_code, to_counts
from engine.tilesets import TILE_SETS, TileSet

__all__ = [
    "DEFAULT_CLAIM_PRIORITY",
    "STAKE",
    "STANDARD_HONOR_CYCLE",
    "BonusIndicators",
    "BreakMethod",
    "ClaimKind",
    "DrawContext",
    "FanEntry",
    "IndicatorPosition",
    "KongType",
    "MissedWins",
    "MultipleWinners",
    "OptionSpec",
    "ReadyRule",
    "Ruleset",
    "Score",
    "WildcardRule",
    "WildcardSource",
    "WinContext",
    "boolean_option",
    "payments_out",
]

# ----------------------------------------------------------------------------------------------------------------
# The ruleset


class Ruleset(ContractQueries, ABC):
    """Base of every ruleset. Subclasses set ``id``, ``description``, ``option_specs`` and override what differs.
    ``mjtable settle`` queries are answered by ``answer_<query>`` methods (``engine.rulesets.queries``).

    The defaults are the general rules of rules-B §2-4 (136 tiles, chi from the 上家, 胡 > 杠 = 碰 > 吃, one
    winner, no wildcard, the wall played to the last tile, robbing an added kong allowed).
    """

    id: ClassVar[str]
    description: ClassVar[str]
    """One line, Chinese and English (``mjtable rules``)."""
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        given = dict(options or {})
        specs = {spec.key: spec for spec in self.option_specs}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise RulesetError(f"ruleset {self.id!r}: unknown option {unknown[0]!r}; known options: {known}")
        self._options = MappingProxyType(
            {key: spec.normalize(given[key], self.id) if key in given else spec.default for key, spec in specs.items()}
        )

    @property
    def options(self) -> Mapping[str, Any]:
        """Every option value, defaults filled in."""
        return self._options

    # --- static table facts (why each exists: who reads it) --------------------------------------------------

    @property
    def tile_set(self) -> TileSet:
        """The tiles in play: the procedure builds the walls from it, evaluation checks hands against it."""
        return TILE_SETS["136"]

    @property
    @abstractmethod
    def shape_rules(self) -> ShapeRules:
        """Which winning shapes exist (analysis: waits, shanten, is_win)."""

    @property
    def allows_chi(self) -> bool:
        """Referee: reject a chow claim where the ruleset has none (Sichuan, Quanjiao, Hebei)."""
        return True

    @property
    def allows_pung(self) -> bool:
        return True

    @property
    def allows_kong(self) -> bool:
        return True

    @property
    def chi_only_from_left(self) -> bool:
        """Chi only on the 上家's discard (rules-B §2.12, S000:205)."""
        return True

    @property
    def claim_priority(self) -> tuple[frozenset[ClaimKind], ...]:
        """Claim kinds from strongest to weakest; kinds in one group tie and go to the nearest seat after the
        discarder. Referee: who gets a contested discard."""
        return DEFAULT_CLAIM_PRIORITY

    def claim_rank(self, kind: ClaimKind) -> int:
        """Position of ``kind`` in ``claim_priority`` (0 = strongest); ``RulesetError`` for a kind not claimable."""
        for rank, group in enumerate(self.claim_priority):
            if kind in group:
                return rank
        raise RulesetError(f"ruleset {self.id!r}: no claim of kind {kind.value!r}")

    @property
    def multiple_winners(self) -> MultipleWinners:
        """Referee: whether several players win on one discard. The general text is silent (rules-B §9.8); one
        winner, the first in turn order after the discarder, is the default reading."""
        return MultipleWinners.FIRST

    @property
    def hand_continues_after_win(self) -> bool:
        """Sichuan 血战到底: the winner leaves and the others play on (until three have won)."""
        return False

    @property
    def flowers(self) -> bool:
        """Flowers are set aside and replaced from the tail of the wall (rules-B §2.10)."""
        return any(self.tile_set.copies[tile] for tile in FLOWERS)

    @property
    def wildcards(self) -> WildcardRule | None:
        """How wildcards are chosen; ``None`` = no wildcard."""
        return None

    @property
    def reserved_tiles(self) -> int:
        """Live-wall tiles left undrawn when the hand is declared drawn. 0: the sources imply play to the last
        tile (rules-B §2.13, §9.7)."""
        return 0

    @property
    def break_method(self) -> BreakMethod:
        """Procedure: how the dice choose the wall break."""
        return BreakMethod.ONE_THROW

    @property
    def robbable_kongs(self) -> frozenset[KongType]:
        """Kongs another player may rob (抢杠): an added kong only (rules-B §3.3; Quanjiao excludes 暗杠)."""
        return frozenset({KongType.ADDED})

    @property
    def robbing_kong(self) -> bool:
        """Whether 抢杠 exists at all."""
        return bool(self.robbable_kongs)

    @property
    def declares_void_suit(self) -> bool:
        """Sichuan 定缺: every player declares a void suit before the dealer's first discard."""
        return False

    @property
    def horse_tiles(self) -> int:
        """买马: horse tiles each player receives at the start (推倒胡); 0 = none."""
        return 0

    @property
    def minimum(self) -> int | float:
        """The total a hand needs to be a win (MCR 8 without flowers, Quanjiao 2); 0 = any winning shape."""
        return 0

    @property
    def rotation(self) -> RotationPolicy:
        """Who deals next (``engine.match.next_deal``). Default: the traditional rule of rules-B §2.5."""
        return RotationPolicy()

    def start_match(self, first_dealer: int) -> Match:
        """A match of this ruleset: its rotation, and where it keeps points (riichi) its standings and busting."""
        return Match.start(self.rotation, first_dealer)

    # --- the ruleset's own tiles: every command (deal, score, waits, settle, simulate) reads and writes them here --
    # The defaults are the engine's tiles (``engine.tiles``: nine ranks, 1z-7z, flowers) and its shape analysis; a
    # ruleset with faces of its own (十万's ranks 1-10) overrides all of them together, with ``read_tiles`` (settle).

    def parse_hand(self, text: str) -> Hand:
        """A hand of ``mjtable score`` or ``waits`` in the MCR notation (``engine.notation.parse_hand``)."""
        return parse_hand(text)

    def tile_code(self, tile: Tile) -> str:
        """One tile's compact code in answers (``mjtable deal``, ``waits``)."""
        return tile_code(tile)

    def format_tiles(self, tiles: Iterable[Tile]) -> str:
        """Tiles in compact notation, in the order given."""
        return format_tiles(tiles)

    def format_meld(self, meld: Meld) -> str:
        """One declared meld as the referee's state writes it (``[123m,1]``)."""
        return format_meld(meld)

    def format_hand(self, hand: Hand) -> str:
        """A declared winning hand in the MCR notation ``parse_hand`` reads (``engine.notation.format_hand``)."""
        return format_hand(hand)

    def waits_of(self, melds: Sequence[Meld], standing: Sequence[Tile]) -> tuple[list[Tile], int]:
        """``mjtable waits``: the tiles that complete ``standing`` (13 − 3k concealed tiles) beside ``melds``, and
        its shanten, under ``shape_rules``. ``TileCountError`` for tiles outside the set or too many copies; a wait
        on a tile whose every copy is already in this hand cannot come (the "formal" wait is not listed)."""
        self.tile_set.check([tile for meld in melds for tile in meld.tiles] + list(standing))
        counts = to_counts(standing)
        used = list(counts)
        for meld in melds:
            for tile in meld.tiles:
                used[tile] += 1
        copies = self.tile_set.copies
        found = [tile for tile in waits(counts, self.shape_rules) if used[tile] < copies[tile]]
        return found, shanten(counts, self.shape_rules)

    # --- evaluation and settlement ------------------------------------------------------------------------

    @abstractmethod
    def evaluate(self, hand: Hand, ctx: WinContext) -> Score:
        """Verdict, score and payments of a declared win. ``hand.melds`` are the winner's declared sets,
        ``hand.standing`` his concealed tiles without the winning tile, ``hand.win_tile`` the winning tile.
        Raises ``TileCountError`` for a hand that cannot exist (a tile outside the set, too many copies, not
        13 tiles before the winning tile)."""

    def settle_wins(self, scores: Sequence[Score]) -> Payments:
        """Payments of several wins on one discard (一炮多响): by default each is settled on its own and the
        results add up. A ruleset with cross-winner transfers (Sichuan 呼叫转移) overrides this."""
        return combine(*(score.payments for score in scores if score.payments is not None))

    def later_winner_facts(self) -> dict[str, Any]:
        """Win facts that differ for the winners of one discard after the first in turn from the discarder: what
        only the first takes (riichi's honba and sticks, 上家取り), so that each win's own score says what it is
        paid. Empty by default: every winner is scored alike."""
        return {}

    def false_win_payments(self, declarer: int) -> Payments | None:
        """Payments when ``declarer`` declares a win that is no win (诈和); ``None``: the ruleset states no
        penalty (the referee then only rejects the declaration)."""
        return None

    def settle_draw(self, ctx: DrawContext) -> Payments | None:
        """Payments at a drawn hand. Default: nobody pays (rules-B §2.13, the majority practice)."""
        return no_payments()

    def kong_payments(self, kong: Mapping[str, Any], players_out: Sequence[int] = ()) -> Payments | None:
        """Money paid at once when a kong is made (Sichuan 刮风下雨); ``kong`` is a settle-contract kong object
        (``seat``, ``type``, ``tile``, ``from``). ``None``: kongs pay nothing when made (the default)."""
        return None

    def opening_settlement(self, hands: Sequence[Sequence[Tile]], dealer: int) -> Payments | None:
        """Payments for wins shown on the dealt hands before the first discard (Changsha 起手胡, Hubei 独抬庄);
        ``hands`` are the four dealt hands by seat: each hand's own ``opening_win`` added up. ``None``: no such
        wins."""
        paid = [self.opening_win(tiles, seat, dealer) for seat, tiles in enumerate(hands)]
        wins = [payments for payments in paid if payments is not None]
        return combine(no_payments(), *wins) if wins else None

    def opening_win(self, tiles: Sequence[Tile], seat: int, dealer: int) -> Payments | None:
        """What ``seat``'s dealt hand ``tiles`` wins at the opening, shown before the first discard (a table that
        sees only backs is shown it: ``Referee``'s opening ``show``); ``None``: nothing (the default)."""
        return None

    @property
    def pays_openings(self) -> bool:
        """Whether dealt hands may win at the opening (``opening_win``)."""
        return type(self).opening_win is not Ruleset.opening_win

    @property
    def pays_on_hidden_readiness(self) -> bool:
        """Whether a win's payments depend on whether a loser's concealed hand was ready, which the referee reads
        from the hands with full information only (Harbin's 出冲 包付: a discarder who was not ready pays for all)."""
        return False

    @property
    def must_win_last_tiles(self) -> int:
        """On a win among the last this many live-wall tiles a player who can win may not decline it (Sichuan
        SC-13 最后四张能胡必须胡: 4); 0 = never forced (the default)."""
        return 0

    @property
    def bird_count(self) -> int:
        """扎鸟: live-wall tiles turned up after a win and passed to ``evaluate`` as ``birds`` (Changsha); 0 = none."""
        return 0

    # --- referee hooks: what the table asks the ruleset during the hand (the defaults change nothing) ----------

    def win_facts(self, referee: Any, seat: int) -> dict[str, Any]:
        """Ruleset situation keys the table knows when ``seat`` declares a win (per-seat counts of discarded
        wildcards, opened melds, horses, ...), in the settle contract's words; added to ``WinContext.extra``."""
        return {}

    def claim_refusal(self, referee: Any, seat: int, kind: str, tile: Tile, using: tuple[Tile, ...]) -> str | None:
        """Why ``seat`` may not make this meld (``kind`` chi / pon / kan on the discard ``tile`` with his own
        ``using`` tiles, or concealed_kan / added_kan of his own), e.g. a wildcard inside a claimed meld (wild.md
        W-3); ``None``: allowed."""
        return None

    def discard_refusal(self, referee: Any, seat: int, tile: Tile) -> str | None:
        """Why ``seat`` may not discard ``tile`` (推倒胡's 鬼牌); ``None``: allowed."""
        return None

    @property
    def missed_wins(self) -> MissedWins | None:
        """What passing a winning tile costs (漏胡 JP-5, 振聴); ``None``: nothing (the default)."""
        return None

    @property
    def ready_declaration(self) -> ReadyRule | None:
        """The ready declaration (立直) the players may make; ``None``: none (the default)."""
        return None

    @property
    def bonus_indicators(self) -> BonusIndicators | None:
        """Indicators turned face up in the dead wall (riichi's dora); ``None``: none (the default)."""
        return None

    @property
    def max_kongs(self) -> int | None:
        """Kongs a hand may hold in all (riichi: four, the dead wall's replacement tiles); ``None``: no limit."""
        return None

    @property
    def first_turn_per_seat(self) -> bool:
        """``WinContext.first_turn``: each seat's first turn lasts until its own first discard while nobody has
        claimed or konged (riichi's 地和 / 人和, the declaration's double riichi); off (the default): the first turn
        is the hand before any discard or claim (天胡)."""
        return False

    @property
    def replacement_is_last_tile(self) -> bool:
        """``WinContext.last_tile`` on a kong's replacement tile drawn from a live wall it empties: the default
        counts it (海底); riichi does not (嶺上開花 is no 海底摸月)."""
        return True

    def abortive_draw(self, referee: Any, winners: tuple[int, ...]) -> str | None:
        """The name of the abortive draw (途中流局) that ends the hand now, once a discard's answers are in:
        ``winners`` the seats declaring a win on it (riichi's 三家和), none when it was not won on (its 四風連打,
        四家立直, 四槓散了); ``None``: play goes on (the default)."""
        return None

    def abort_declaration(self, referee: Any, seat: int, tiles: list[Tile]) -> str | None:
        """The abortive draw ``seat`` may declare in its turn holding the concealed ``tiles`` (riichi's 九種九牌);
        ``None``: none (the default)."""
        return None

    @property
    def counts_ready_at_draw(self) -> bool:
        """An exhaustive draw counts the seats ready (听牌): ``ready`` in the draw's facts and in the hand result
        (riichi's tenpai payments and the dealer's repeat); off by default."""
        return False

    def draw_facts(self, referee: Any) -> dict[str, Any]:
        """Ruleset situation keys the table knows at an exhaustive draw (riichi's ``nagashi``), added to
        ``DrawContext.extra``."""
        return {}

    def discard_settlement(self, referee: Any, seat: int, tile: Tile) -> Payments | None:
        """Money paid at once because of the discard just made (Hubei 抬庄: the dealer's first discard followed
        by the same tile from the other three); ``None``: nothing (the default)."""
        return None

    def claim_class(self, referee: Any, seat: int, kind: ClaimKind, tile: Tile, low: Tile | None) -> ClaimKind:
        """The priority class of a claim (Harbin: a chi that makes the hand ready is a 吃听, ``CHI_READY``)."""
        return kind

    def replaces_indicator(self, visible_copies: int) -> bool:
        """Whether the current indicator is replaced by the next one from its end of the wall, given the copies
        of its face in sight (Harbin 换宝 at three); the referee asks after every action."""
        return False

    def quick_win(self, referee: Any, seat: int, counts: list[int], offered: Tile | None) -> bool:
        """A cheap test before a bot asks for the full verdict: whether the concealed ``counts`` (with the
        ``offered`` tile, if any, already added) may be a win. Wildcard rulesets read their jokers here."""
        return is_win(counts, self.shape_rules)

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """``mjtable rules``: id, description and the options with their defaults and allowed values."""
        return {
            "id": cls.id,
            "description": cls.description,
            "options": [spec.to_dict() for spec in cls.option_specs],
            "queries": cls.queries(),
        }
