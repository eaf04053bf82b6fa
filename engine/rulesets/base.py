"""The ruleset interface: what a table needs to know about one system of rules, and how it scores a hand.

A ruleset is built from an options mapping (validated against its ``OptionSpec``s) and answers three kinds of
questions:

* static table facts (tile set, claims allowed, several winners, wildcards, ...) that the procedure and the
  referee read before and during the hand;
* ``evaluate(hand, ctx)``: is this declared win legal, what does it score and who pays;
* ``settle_draw(ctx)`` and ``rotation``: what happens at a drawn hand and who deals next (``engine.match``).

Seats are 0-3 in play order (counter-clockwise): ``(s + 1) % 4`` is the 下家 of ``s``, ``(s + 3) % 4`` his 上家.
Winds are 0-3 = E S W N.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from engine.errors import RulesetError
from engine.match import RotationPolicy
from engine.rulesets.queries import ContractQueries, payments_out
from engine.settlement import Payments, combine, exact, no_payments
from engine.tiles import EAST, FLOWERS, GREEN, NORTH, RED, SOUTH, WEST, WHITE, WIND_LETTERS, Tile, is_honor, rank_of
from engine.tilesets import TILE_SETS, TileSet

if TYPE_CHECKING:
    from engine.analysis import ShapeRules
    from engine.notation import Hand

# ----------------------------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class OptionSpec:
    """One ruleset option.

    ``choices`` lists the accepted values (``None`` = any value of one of ``types``); ``aliases`` maps other
    spellings to a canonical choice (``"full"`` → ``"全陪"``, ``"136"`` → ``136``) so that ASCII-only inputs and
    JSON strings work. A ``bool`` is never accepted as an ``int`` (``True == 1`` in Python).
    """

    key: str
    default: Any
    choices: tuple[Any, ...] | None = None
    doc: str = ""
    aliases: Mapping[Any, Any] = field(default_factory=dict)
    types: tuple[type, ...] = ()

    def normalize(self, value: Any, ruleset_id: str) -> Any:
        """The canonical value, or ``RulesetError`` naming the key and the allowed values."""
        if self.choices is not None:
            for choice in self.choices:
                if type(value) is type(choice) and value == choice:
                    return choice
            if isinstance(value, str | int) and not isinstance(value, bool) and value in self.aliases:
                return self.aliases[value]
        elif any(type(value) is kind for kind in self.types):
            return value
        raise RulesetError(f"ruleset {ruleset_id!r}: option {self.key!r} = {value!r} is not allowed; {self.allowed()}")

    def allowed(self) -> str:
        if self.choices is None:
            return "expected a value of type " + " or ".join(kind.__name__ for kind in self.types)
        text = "allowed: " + ", ".join(repr(choice) for choice in self.choices)
        if self.aliases:
            text += " (also " + ", ".join(f"{alias!r} for {value!r}" for alias, value in self.aliases.items()) + ")"
        return text

    def to_dict(self) -> dict[str, Any]:
        """``mjtable rules``: the key, its default, the allowed values and aliases, and what it changes."""
        return {
            "key": self.key,
            "default": self.default,
            "choices": None if self.choices is None else list(self.choices),
            "aliases": {str(alias): value for alias, value in self.aliases.items()},
            "doc": self.doc,
        }


def boolean_option(key: str, default: bool, doc: str) -> OptionSpec:
    return OptionSpec(key, default, (False, True), doc)


# ----------------------------------------------------------------------------------------------------------------
# Table facts


class ClaimKind(StrEnum):
    """What a player may claim on a discard. ``chi_ready`` is Harbin's 吃听 (a chi that makes the hand ready)."""

    HU = "hu"
    KONG = "kong"
    PUNG = "pung"
    CHI_READY = "chi_ready"
    CHI = "chi"


DEFAULT_CLAIM_PRIORITY: tuple[frozenset[ClaimKind], ...] = (
    frozenset({ClaimKind.HU}),
    frozenset({ClaimKind.KONG, ClaimKind.PUNG}),
    frozenset({ClaimKind.CHI}),
)
"""胡 > 杠 = 碰 > 吃: rules-B §2.12 [outside the sources] usual order; Harbin and Hebei state 胡 first."""


class MultipleWinners(StrEnum):
    """Several players able to win on one discard."""

    FIRST = "first"
    """Only the first in turn order after the discarder wins (截和; Harbin, Hebei HB-1)."""
    ALL = "all"
    """Every one of them wins (一炮多响; Sichuan, Guizhou, Guangdong)."""


class KongType(StrEnum):
    EXPOSED = "exposed"
    """明杠 / 直杠 on a discard."""
    ADDED = "added"
    """加杠 / 补杠: an exposed pung plus the owner's own fourth tile."""
    CONCEALED = "concealed"
    """暗杠."""


class BreakMethod(StrEnum):
    """How the dice choose the wall break (fan.md §1.2, rules-B §2.8)."""

    ONE_THROW = "one_throw"
    """Sum picks the wall, the smaller die is the count (一次掷骰法)."""
    TWO_THROWS = "two_throws"
    """A picks the wall, the player it points to throws B, count A + B (两次掷骰法)."""
    TWO_THROWS_SECOND_SUM = "two_throws_second_sum"
    """As two throws, but the count is B alone (Harbin, rules-B §7.2)."""
    SUM = "sum"
    """One throw, the sum picks the wall and is also the count (Hebei HB-3)."""


class WildcardSource(StrEnum):
    FIXED = "fixed"
    """Fixed kinds, e.g. a house 财神 of 白板 (Hangzhou HZ-1)."""
    SUCCESSOR = "successor"
    """The successor(s) of a flipped indicator tile (Hubei 赖子, 推倒胡 鬼牌)."""
    FACE = "face"
    """The indicator's own face (Harbin 宝), usually with extra conditions checked by the ruleset."""


class IndicatorPosition(StrEnum):
    """Which wall tile is flipped as the indicator."""

    NEXT_DRAW = "next_draw"
    """The tile the next player would draw after the deal (Hubei)."""
    FIRST_WALL_TILE = "first_wall_tile"
    """The first live-wall tile, flipped before the deal (推倒胡)."""
    LAST_WALL_TILE = "last_wall_tile"
    """The last tile of the wall (Harbin 宝, replaced on 换宝)."""

    @property
    def wall_end(self) -> Literal["head", "tail"]:
        """``engine.procedure`` ``indicator_at``: ``"tail"`` for the last wall tile, else ``"head"``."""
        return "tail" if self is IndicatorPosition.LAST_WALL_TILE else "head"

    @property
    def when(self) -> Literal["before_deal", "after_deal"]:
        """``engine.procedure`` ``indicator_when``: only the first wall tile is flipped before the deal."""
        return "before_deal" if self is IndicatorPosition.FIRST_WALL_TILE else "after_deal"


STANDARD_HONOR_CYCLE: tuple[Tile, ...] = (EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE)
"""东南西北中发白 → 东 (wild.md W-1 table, HB-2 / TD-1); a ruleset with another order passes its own cycle."""


@dataclass(frozen=True)
class WildcardRule:
    """How a hand's wildcards are chosen. Wild tiles may stand for any face (wild.md W-1)."""

    source: WildcardSource
    fixed: tuple[Tile, ...] = ()
    indicator: IndicatorPosition | None = None
    offsets: tuple[int, ...] = (1,)
    """Steps from the indicator: ``(1,)`` the successor, ``(-1, 1)`` both neighbours (两头赖子)."""
    honor_cycle: tuple[Tile, ...] = STANDARD_HONOR_CYCLE

    def wildcards(self, indicator: Tile | None = None) -> frozenset[Tile]:
        """The wild kinds of a hand, given the flipped indicator where the rule uses one."""
        if self.source is WildcardSource.FIXED:
            return frozenset(self.fixed)
        if indicator is None:
            raise RulesetError(f"wildcards of source {self.source.value!r} need the indicator tile")
        if self.source is WildcardSource.FACE:
            return frozenset({indicator})
        return frozenset(self.step(indicator, offset) for offset in self.offsets)

    def step(self, tile: Tile, offset: int) -> Tile:
        """The tile ``offset`` places along the cycle of ``tile``: ranks 1-9 wrap, honors follow ``honor_cycle``."""
        if is_honor(tile):
            cycle = self.honor_cycle
            if tile in cycle:
                return cycle[(cycle.index(tile) + offset) % len(cycle)]
            # An honor the cycle skips sits just before the next cycle member in the standard order
            # (Wuhan WH-2: 中 is skipped and a flipped 中 gives 发).
            start = STANDARD_HONOR_CYCLE.index(tile)
            following = (STANDARD_HONOR_CYCLE[(start + k) % 7] for k in range(1, 8))
            member = next(face for face in following if face in cycle)
            return cycle[(cycle.index(member) - 1 + offset) % len(cycle)]
        return tile - rank_of(tile) + 1 + (rank_of(tile) - 1 + offset) % 9


# ----------------------------------------------------------------------------------------------------------------
# Contexts and results


def _seat(name: str, value: Any) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise RulesetError(f"situation field {name!r}: expected a seat 0-3, found {value!r}")
    return value


def _seats(name: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise RulesetError(f"situation field {name!r}: expected a list of seats, found {value!r}")
    return tuple(_seat(name, seat) for seat in value)


def _wind(value: Any) -> int:
    """A wind as 0-3 or as a letter E/S/W/N (the settle contract writes letters)."""
    if isinstance(value, str) and len(value) == 1 and value in WIND_LETTERS:
        return WIND_LETTERS.index(value)
    if type(value) is int and 0 <= value <= 3:
        return value
    raise RulesetError(f"situation field 'round_wind': expected E, S, W, N or 0-3, found {value!r}")


def _count(name: str, value: Any, least: int) -> None:
    if type(value) is not int or value < least:
        raise RulesetError(f"situation field {name!r}: expected a whole number {least} or more, found {value!r}")


class _Situation:
    """``to_dict``/``from_dict`` of the contexts: the core fields by name, every other key in ``extra``."""

    _REQUIRED: ClassVar[tuple[str, ...]]
    dealer: int
    consecutive_dealer: int
    round_wind: int
    players_out: tuple[int, ...]
    extra: Mapping[str, Any]

    def _normalize(self) -> None:
        """Check and freeze the fields shared by every context."""
        _seat("dealer", self.dealer)
        _count("consecutive_dealer", self.consecutive_dealer, 1)
        object.__setattr__(self, "round_wind", _wind(self.round_wind))
        object.__setattr__(self, "players_out", _seats("players_out", self.players_out))
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}  # type: ignore[arg-type]
        data["round_wind"] = WIND_LETTERS[data["round_wind"]]
        data["players_out"] = list(data["players_out"])
        data.update(self.extra)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """Read a settle-contract situation; keys other than the core ones go to ``extra``."""
        names = {f.name for f in fields(cls) if f.name != "extra"}  # type: ignore[arg-type]
        for name in cls._REQUIRED:
            if name not in data:
                raise RulesetError(f"situation field {name!r} is missing")
        known = {key: value for key, value in data.items() if key in names}
        extra = {key: value for key, value in data.items() if key not in names}
        return cls(**known, extra=extra)


@dataclass(frozen=True)
class WinContext(_Situation):
    """The facts of a winning declaration that the hand itself does not show.

    ``discarder`` is ``None`` for a self-draw; for a robbed kong it is the konger (fan.md BA-2 and the settle
    contract). ``players_out`` are seats that already won earlier in the hand (Sichuan 血战): they neither pay nor
    collect. ``extra`` carries ruleset-specific facts (``void_suit``, ``indicator``, ``kong``, ``dice_unit``, ...).
    """

    _REQUIRED = ("winner", "dealer")

    winner: int
    dealer: int
    discarder: int | None = None
    round_wind: int = 0
    after_kong: bool = False
    robbing_kong: bool = False
    last_tile: bool = False
    first_turn: bool = False
    fourth_tile: bool = False
    """绝张: the winning tile is the last of its kind not yet seen."""
    flowers: int = 0
    consecutive_dealer: int = 1
    """n: this is the dealer's n-th consecutive hand as dealer (1 = first)."""
    players_out: tuple[int, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("after_kong", "robbing_kong", "last_tile", "first_turn", "fourth_tile"):
            if type(getattr(self, name)) is not bool:
                raise RulesetError(f"situation field {name!r}: expected true or false, found {getattr(self, name)!r}")
        self._normalize()
        _seat("winner", self.winner)
        if self.discarder is not None and _seat("discarder", self.discarder) == self.winner:
            raise RulesetError(f"situation field 'discarder': the winner {self.winner} cannot be the discarder")
        if self.robbing_kong and self.discarder is None:
            raise RulesetError("situation field 'discarder': a robbed kong needs the konger as discarder")
        _count("flowers", self.flowers, 0)
        if self.winner in self.players_out or self.discarder in self.players_out:
            raise RulesetError("situation field 'players_out': the winner and the discarder must still be in the hand")

    @property
    def self_drawn(self) -> bool:
        return self.discarder is None

    @property
    def seat_wind(self) -> int:
        """门风 follows the dealer: E for the dealer, then S, W, N in play order (fan.md §0)."""
        return (self.winner - self.dealer) % 4

    @property
    def payers(self) -> tuple[int, ...]:
        """Everyone who may lose on a self-draw: the other seats still in the hand."""
        return tuple(seat for seat in range(4) if seat != self.winner and seat not in self.players_out)


@dataclass(frozen=True)
class DrawContext(_Situation):
    """The facts of a drawn hand (荒庄): who dealt, which seats already won (血战), ruleset facts in ``extra``
    (Sichuan's per-seat hands for 查叫, ...)."""

    _REQUIRED = ("dealer",)

    dealer: int
    consecutive_dealer: int = 1
    round_wind: int = 0
    players_out: tuple[int, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._normalize()


@dataclass(frozen=True)
class FanEntry:
    """One scoring item; ``count`` instances of ``points`` each (e.g. two 四玉 = count 2). ``id`` is a name, or a
    number where the ruleset's fans are numbered (MCR: the official order 1-82)."""

    id: int | str
    name_zh: str
    name_en: str
    points: int | float | None
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "points": self.points,
            "count": self.count,
        }


@dataclass(frozen=True)
class Score:
    """The verdict and settlement of one winning declaration.

    ``hu`` = a legal win under the ruleset: ``shape_ok`` and ``meets_minimum`` (and any other condition of the
    ruleset); ``reason`` says why not. ``total`` is the ruleset's total (defined per ruleset; ``None`` where the
    source gives none) and ``total_without_flowers`` the part that counts toward a minimum (MCR flowers do not).
    ``payments`` is the net change per seat, summing to 0, or ``None`` when the ruleset states no settlement.
    ``extra`` holds ruleset answer fields (``kinds``, ``multiplier``, ``breakdown``, ...).
    """

    hu: bool
    shape_ok: bool
    total: int | float | None
    total_without_flowers: int | float | None
    meets_minimum: bool
    fans: tuple[FanEntry, ...] = ()
    payments: Payments | None = None
    reason: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.payments is not None:
            if sorted(self.payments) != [0, 1, 2, 3] or abs(sum(self.payments.values())) > 1e-9:
                raise RulesetError(f"score: payments must give seats 0-3 and sum to 0, found {self.payments}")
            object.__setattr__(self, "payments", {seat: exact(amount) for seat, amount in self.payments.items()})
        object.__setattr__(self, "fans", tuple(self.fans))
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))

    def to_dict(self) -> dict[str, Any]:
        """The CLI answer: ``hu``, ``total``, ``fans``, ``payments`` keyed ``"0"``-``"3"``, then the rest."""
        return self._answer(
            hu=self.hu,
            total=self.total,
            fans=[fan.to_dict() for fan in self.fans],
            payments=payments_out(self.payments),
            shape_ok=self.shape_ok,
            meets_minimum=self.meets_minimum,
        )

    def to_settle(self) -> dict[str, Any]:
        """The ``mjtable settle`` answer: ``fans`` as one ``{"name_zh", "value"}`` per instance (compared as a
        multiset), then the ruleset's own fields from ``extra``."""
        return self._answer(
            hu=self.hu,
            payments=payments_out(self.payments),
            total=self.total,
            fans=[{"name_zh": fan.name_zh, "value": fan.points} for fan in self.fans for _ in range(fan.count)],
        )

    def _answer(self, **fields: Any) -> dict[str, Any]:
        """``fields``, then the reason of a rejection, then the ruleset's own fields."""
        if self.reason is not None:
            fields["reason"] = self.reason
        fields.update(self.extra)
        return fields


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
    def played_by_referee(self) -> bool:
        """Whether the shared referee plays this ruleset's hands, as the table service needs. A ruleset with a table
        of its own (riichi: ``simulate_hands``; 十万's ten-rank suits: ``play_own_hand``) is played only by
        ``mjtable simulate`` so far."""
        return not (hasattr(self, "play_own_hand") or hasattr(self, "simulate_hands"))

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
        """Payments for wins shown on the dealt hands before the first discard (Changsha 起手胡); ``hands`` are
        the four dealt hands by seat. ``None``: no such wins (the default)."""
        return None

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
    def blocks_missed_wins(self) -> bool:
        """漏胡 (鸡平胡 JP-5): the referee notes each face a player could have won on and passed, until his next draw
        or claim, and hands them to ``evaluate`` as ``missed_win_tiles`` (with full information)."""
        return False

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
        from engine.analysis import is_win

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
