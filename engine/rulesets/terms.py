"""The words of the ruleset interface (``engine.rulesets.base``): options, table facts, and the contexts and
results of a win or a draw.

They live apart from ``Ruleset`` because the settle queries its answers are built from (``engine.rulesets.queries``,
``engine.rulesets.contract``) speak them too, and ``Ruleset`` inherits those queries: so the dependencies point one
way, queries -> terms, base -> queries and terms. Import them from ``engine.rulesets.base``, the interface.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from engine.errors import MissingSituation, RulesetError, quoted
from engine.settlement import Payments, exact
from engine.tiles import EAST, GREEN, NORTH, RED, SOUTH, WEST, WHITE, WIND_LETTERS, Tile, is_honor, rank_of

# ----------------------------------------------------------------------------------------------------------------
# Options


STAKE = (0.01, 1_000_000)
"""The range of a stake option (``base``, 底分): positive, and small enough that every payment stays exact."""


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
    span: tuple[float, float] | None = None
    """The range of a number option (``types`` int or float): every number has one, and NaN, infinities and
    1e308 stakes lie outside it (they made answers that are not JSON and payments that do not sum to 0)."""

    def normalize(self, value: Any, ruleset_id: str) -> Any:
        """The canonical value, or ``RulesetError`` naming the key and the allowed values."""
        if self.choices is not None:
            for choice in self.choices:
                if type(value) is type(choice) and value == choice:
                    return choice
            if isinstance(value, str | int) and not isinstance(value, bool) and value in self.aliases:
                return self.aliases[value]
        elif any(type(value) is kind for kind in self.types) and self._within(value):
            return value
        given = quoted(value)
        raise RulesetError(f"ruleset {ruleset_id!r}: option {self.key!r} = {given} is not allowed; {self.allowed()}")

    def _within(self, value: Any) -> bool:
        return self.span is None or value is None or self.span[0] <= value <= self.span[1]

    def allowed(self) -> str:
        if self.choices is None:
            kinds = " or ".join(kind.__name__ for kind in self.types)
            if self.span is None:
                return f"expected a value of type {kinds}"
            low, high = (int(v) if float(v).is_integer() else v for v in self.span)
            return f"expected {kinds} {low}-{high}"
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
            "range": None if self.span is None else list(self.span),
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


@dataclass(frozen=True)
class ReadyRule:
    """A ready declaration (立直, 报听): a discard declared ready, ``ActionKind.READY``. The referee checks it and
    keeps what follows from it; the ruleset reads the declarations (``Referee.ready``) where they score."""

    stake: int = 0
    """Points the declarer puts on the table once the declaring discard is not won on (riichi's 1,000-point
    stick); the first winner of the hand, or of a later hand, takes everything lying there."""
    min_live_tiles: int = 0
    """Live-wall tiles needed at the declaration (riichi: 4, so that the declarer draws at least once more)."""
    closed_only: bool = False
    """Only a hand with no claimed meld may declare (a concealed kong is no claim)."""
    locks_hand: bool = False
    """From then on the seat discards the tile it draws, claims nothing but a win, and kongs only the tile it
    draws and only when the kong leaves its waits as they were."""


@dataclass(frozen=True)
class MissedWins:
    """What letting a winning tile pass costs a player (漏胡 JP-5, riichi's 振聴): until his next draw or claim he
    may not win on a discard (or a robbed kong): on the face he passed, or with ``any_tile`` on any tile. The
    referee notes the passes where it sees the hands (full information) and refuses such a declaration."""

    name: str
    """The rule's name in the refusals (漏胡, 振聴)."""
    any_tile: bool = False
    on_shape: bool = False
    """A tile that completes the hand's shape counts as passed even where it would be no win (riichi: no yaku);
    otherwise only a tile the player could really win on counts (漏胡)."""
    for_hand_when_ready: bool = False
    """Once the player declared ready, a winning tile he lets pass (a discard, a robbed kong, his own draw) blocks
    his discard wins for the rest of the hand."""
    own_discards: bool = False
    """A hand waiting on a face among the player's own discards (those claimed away included) may not win on a
    discard."""


@dataclass(frozen=True)
class BonusIndicators:
    """Indicator tiles turned face up where they stand in the dead wall (riichi's ドラ表示牌): the first at the deal,
    on top of the ``first_stack``-th stack from the tail end, each kong's on the stack before the last one. A
    concealed kong's indicator is turned at once, an exposed or added kong's once its maker has discarded (as on
    Tenhou: the replacement tile is drawn before it, a win on that discard counts it). The tiles under them (裏)
    are the ruleset's to read at a win (``Referee.bonus_indicators``).

    A table that sees only backs reads these faces where they lie (``Referee.faces_up``, ``ActionKind.FACE``): the
    indicators once turned, and the tiles under them at a win of a seat that declared ready when ``under_when_ready``
    (the winner turns them up); the win is settled once they are read."""

    first_stack: int = 3
    under_when_ready: bool = True


# ----------------------------------------------------------------------------------------------------------------
# Contexts and results


def _seat(name: str, value: Any) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise RulesetError(f"situation field {name!r}: expected a seat 0-3, found {quoted(value)}")
    return value


def _seats(name: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise RulesetError(f"situation field {name!r}: expected a list of seats, found {quoted(value)}")
    return tuple(_seat(name, seat) for seat in value)


def _wind(value: Any) -> int:
    """A wind as 0-3 or as a letter E/S/W/N (the settle contract writes letters)."""
    if isinstance(value, str) and len(value) == 1 and value in WIND_LETTERS:
        return WIND_LETTERS.index(value)
    if type(value) is int and 0 <= value <= 3:
        return value
    raise RulesetError(f"situation field 'round_wind': expected E, S, W, N or 0-3, found {quoted(value)}")


def _count(name: str, value: Any, least: int) -> None:
    if type(value) is not int or value < least:
        raise RulesetError(f"situation field {name!r}: expected a whole number {least} or more, found {quoted(value)}")


_FOUR_BOOLS = (bool, bool, bool, bool)
"""The types of four of ``WinContext``'s flags that are right: the five are checked in one comparison a context."""


@cache
def _core_names(cls: type) -> frozenset[str]:
    """The fields of a context class but ``extra``, read once per class (``fields`` is slow for a line's work)."""
    return frozenset(f.name for f in fields(cls) if f.name != "extra")


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
        if type(self.round_wind) is not int:  # a letter (the settle contract's)
            object.__setattr__(self, "round_wind", _wind(self.round_wind))
        elif not 0 <= self.round_wind <= 3:
            _wind(self.round_wind)  # its error
        if self.players_out or type(self.players_out) is not tuple:  # the default () is kept as it is
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
        names = _core_names(cls)
        for name in cls._REQUIRED:
            if name not in data:
                raise MissingSituation(name)
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
        kinds = type(self.after_kong), type(self.robbing_kong), type(self.last_tile), type(self.first_turn)
        if kinds != _FOUR_BOOLS or type(self.fourth_tile) is not bool:  # one test for the five flags
            self._check_flags()
        self._normalize()
        _seat("winner", self.winner)
        if self.discarder is not None and _seat("discarder", self.discarder) == self.winner:
            raise RulesetError(f"situation field 'discarder': the winner {self.winner} cannot be the discarder")
        if self.robbing_kong and self.discarder is None:
            raise RulesetError("situation field 'discarder': a robbed kong needs the konger as discarder")
        _count("flowers", self.flowers, 0)
        if self.players_out and (self.winner in self.players_out or self.discarder in self.players_out):
            raise RulesetError("situation field 'players_out': the winner and the discarder must still be in the hand")

    def _check_flags(self) -> None:
        """The error of the first flag that is not a boolean."""
        for name in ("after_kong", "robbing_kong", "last_tile", "first_turn", "fourth_tile"):
            if type(getattr(self, name)) is not bool:
                found = quoted(getattr(self, name))
                raise RulesetError(f"situation field {name!r}: expected true or false, found {found}")

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


_SEAT_SET = frozenset(range(4))


def _checked_payments(payments: Payments | None) -> Payments | None:
    """A copy of a settlement (the caller's mapping may be shared or change), whole floats as ints, once it gives
    seats 0-3 and sums to 0."""
    if payments is None:
        return None
    amounts = payments.values()
    if payments.keys() != _SEAT_SET or abs(sum(amounts)) > 1e-9:
        raise RulesetError(f"score: payments must give seats 0-3 and sum to 0, found {payments}")
    if float in map(type, amounts):  # most are ints already
        return {seat: exact(amount) for seat, amount in payments.items()}
    return dict(payments)


@dataclass(frozen=True, init=False)
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

    def __init__(
        self,
        hu: bool,
        shape_ok: bool,
        total: int | float | None,
        total_without_flowers: int | float | None,
        meets_minimum: bool,
        fans: tuple[FanEntry, ...] = (),
        payments: Payments | None = None,
        reason: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        """The fields checked, then set in one step: the frozen dataclass's own ``__init__`` set each one through
        ``object.__setattr__``, about half the cost of every answer of a replay."""
        self.__dict__.update(
            hu=hu,
            shape_ok=shape_ok,
            total=total,
            total_without_flowers=total_without_flowers,
            meets_minimum=meets_minimum,
            fans=fans if type(fans) is tuple else tuple(fans),
            payments=_checked_payments(payments),
            reason=reason,
            extra=MappingProxyType(dict(extra or ())),
        )

    def __post_init__(self) -> None:
        """A subclass's generated ``__init__`` (``TuidaohuScore``) sets the fields one by one, then comes here:
        they are checked and copied as ``Score.__init__`` does."""
        object.__setattr__(self, "payments", _checked_payments(self.payments))
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


def payments_out(payments: Mapping[int, Any] | None) -> dict[str, Any] | None:
    """A settlement as the settle contract writes it: every seat ``"0"``-``"3"`` (``None`` stays ``None``)."""
    return None if payments is None else {str(seat): payments[seat] for seat in range(4)}
