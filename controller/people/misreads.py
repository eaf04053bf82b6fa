"""A camera fault for the simulated people's table: an eye that misreads a given share of the tiles, as the
recogniser confuses them, and gives ranked readings as the recogniser does. It measures how well the witness heals
misreads (``bench/bench_healing.py``) without rendering a frame.

The recogniser's confusions are stored in ``misreads.json`` (written by ``python bench/bench_healing.py --derive``):
crops of every kind rendered in the far zone's dim, blurred light (the hardest the table camera sees), read by the
shipped model; for each kind, how often it was misread there, the ranked readings of its misreads (the true tile second
or third as often as the recogniser had it there, or missing), and some ranked readings of its right readings (their
probabilities: how sure the recogniser is when right, so that right readings are unsure as often as it is).

``FaultyEye`` stands where the lookout stands (``look(frame)`` → sights): every sight the people's table showed, on
the next frame, each tile misread with a probability that makes ``share`` of all tiles misread, spread over the kinds
as the recogniser's own misreads are. A taken tile is read as its discard was (the tracker reports it so).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from controller.people.sights import Choice, Sight, SightKind
from engine.tiles import NUM_TILE_IDS, Tile, parse_tile, tile_code

CONFUSION = Path(__file__).with_name("misreads.json")

Ranked = tuple[Choice, ...]


@dataclass(frozen=True)
class Confusion:
    """The recogniser's misreads by kind: ``rate`` (the share of that kind misread where they were measured),
    ``misread`` and ``right`` (ranked readings observed of each)."""

    rate: dict[Tile, float]
    misread: dict[Tile, list[Ranked]]
    right: dict[Tile, list[Ranked]]
    source: str = ""

    @property
    def mean_rate(self) -> float:
        return sum(self.rate.values()) / max(1, len(self.rate))

    def misread_chance(self, tile: Tile, share: float) -> float:
        """The chance that ``tile`` is misread when ``share`` of all tiles are: the kind's own rate, scaled."""
        if not self.misread.get(tile) or self.mean_rate == 0:
            return 0.0
        return min(1.0, share * self.rate.get(tile, 0.0) / self.mean_rate)

    def read(self, tile: Tile, share: float, rng: random.Random) -> Ranked:
        """The ranked readings of one ``tile``: a misread one with ``misread_chance``, else a right one."""
        if rng.random() < self.misread_chance(tile, share):
            return rng.choice(self.misread[tile])
        right = self.right.get(tile)
        return rng.choice(right) if right else ((tile, 1.0),)

    def to_dict(self) -> dict[str, Any]:
        def ranked(lists: list[Ranked]) -> list[list[list[Any]]]:
            return [[[tile_code(t), round(p, 4)] for t, p in one] for one in lists]

        return {
            "source": self.source,
            "kinds": {
                tile_code(tile): {
                    "rate": round(self.rate[tile], 4),
                    "misread": ranked(self.misread.get(tile, [])),
                    "right": ranked(self.right.get(tile, [])),
                }
                for tile in sorted(self.rate)
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Confusion:
        """Read ``misreads.json``; a ``ValueError`` names the kind that is wrong."""
        rate: dict[Tile, float] = {}
        misread: dict[Tile, list[Ranked]] = {}
        right: dict[Tile, list[Ranked]] = {}
        for code, kind in dict(data.get("kinds", {})).items():
            try:
                tile = parse_tile(code)
                rate[tile] = float(kind["rate"])
                misread[tile] = [tuple((parse_tile(t), float(p)) for t, p in one) for one in kind["misread"]]
                right[tile] = [tuple((parse_tile(t), float(p)) for t, p in one) for one in kind["right"]]
            except (KeyError, TypeError, ValueError) as error:
                raise ValueError(f"misreads: kind {code!r}: {type(error).__name__}: {error}") from None
        return cls(rate, misread, right, str(data.get("source", "")))


def load_confusion(path: Path = CONFUSION) -> Confusion:
    return Confusion.from_dict(json.loads(path.read_text()))


class ShownTable(Protocol):
    """What the eye reads: the people's table's sights of this hand, in order (``PeopleTable.shown``)."""

    shown: list[Sight]


class FaultyEye:
    """The camera reader of a simulated people's table as an eye that misreads ``share`` of the tiles (see the module
    doc); ``share`` 0 is a perfect eye. ``seed`` fixes which tiles it misreads; each hand afresh (``prime``)."""

    def __init__(self, table: ShownTable, confusion: Confusion | None, share: float = 0.0, seed: int = 0) -> None:
        self.table, self.confusion, self.share, self.seed = table, confusion, share, seed
        self.unread: list[Any] = []
        self.seen = 0
        self.hand = 0
        self.misread = 0
        """Tiles misread so far (all hands)."""
        self.tiles = 0
        self._rng = random.Random(seed)
        self._told: dict[tuple[int, Tile], list[Ranked]] = {}

    def prime(self, rivers: Any, rows: Any = (), offer: Any = None) -> None:
        """A new deal (the table's ``shown`` starts afresh): a new hand's misreads."""
        self.seen, self._told = 0, {}
        self._rng = random.Random(f"{self.seed}/{self.hand}")
        self.hand += 1

    def expect_wall(self, state: Any, up: Any = ()) -> None:
        """The eye reads the wall's faces from the table's sights: it needs no spots."""

    def look(self, frame: Any) -> list[Sight]:
        sights = self.table.shown[self.seen :]
        self.seen = len(self.table.shown)
        return [self._read(sight) for sight in sights]

    def _read(self, sight: Sight) -> Sight:
        if sight.kind is SightKind.TAKEN:
            told = self._told.get((sight.seat, sight.tiles[0]))
            return _sight(sight, [told.pop()]) if told else sight
        choices = [self._tile(tile) for tile in sight.tiles]
        if sight.kind is SightKind.DISCARD:
            self._told.setdefault((sight.seat, sight.tiles[0]), []).append(choices[0])
        return _sight(sight, choices)

    def _tile(self, tile: Tile) -> Ranked:
        self.tiles += 1
        if self.confusion is None or not 0 <= tile < NUM_TILE_IDS:
            return ((tile, 1.0),)
        ranked = self.confusion.read(tile, self.share, self._rng)
        self.misread += ranked[0][0] != tile
        return ranked


def _sight(sight: Sight, choices: list[Ranked]) -> Sight:
    """``sight`` as read (its place in the wall, a discard lying sideways kept)."""
    return replace(sight, tiles=tuple(ranked[0][0] for ranked in choices), choices=tuple(choices))
