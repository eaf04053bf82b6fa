"""One riichi hand played at the table by four players (``bots.RiichiBot``), from the shuffle to the payments.

The wall comes from ``engine.procedure`` (a seeded shuffle of the 136 physical tiles, one throw of two dice,
the break, ``Wall`` with the 14-tile dead wall as its reserved tail); the physical identity of every tile is
kept beside it so that a red five stays red. The dead wall, seen from its end: stacks 1-2 give the kan
replacement tiles (嶺上牌, the tail draws of ``Wall``; each one shortens the live wall by one, as the dead wall is
topped up from it), the tops of stacks 3-7 are the dora indicators in order (the first turned at the start, one
more at each kan: a concealed kan's at once, an open or added kan's after its maker's discard, as on Tenhou) and
the tiles under them the ura indicators.

Rule choices beside those of the scorer (the common rules; rules-A §13 covers none of them): riichi needs a
closed ready hand, 1,000 points and at least four live tiles; the stick is paid once the declaring discard is
not won on; ippatsu ends with the declarer's next discard or any call; no call on the last discard and no kan
on an empty live wall; a robbed kan is an added kan (no robbing of a concealed kan); after a chi or pon the
called tile is not discarded at once (喰い替え); at most four kans, and four kans by more than one player end
the hand after the next discard (四開槓).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.notation import Hand, Meld
from engine.procedure import Wall, WallLayout, break_wall, throw_dice
from engine.rulesets.base import Score, WinContext
from engine.rulesets.riichi.draws import nagashi_payments, tenpai_payments
from engine.rulesets.riichi.furiten import FuritenState, waiting_tiles
from engine.rulesets.riichi.match import HandOutcome
from engine.tiles import WINDS, format_tiles, is_orphan, to_counts

if TYPE_CHECKING:
    from engine.rulesets.riichi.ruleset import RiichiRuleset

RED_IDS = frozenset({16, 52, 88})
"""Physical ids 4 × kind + copy: copy 0 of each five is its red one (with the option ``red_fives``)."""
RIICHI_COST = 1000
MAX_KANS = 4


@dataclass
class Player:
    seat: int
    points: int
    concealed: list[int] = field(default_factory=list)
    """Physical tile ids."""
    melds: list[Meld] = field(default_factory=list)
    meld_ids: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    """Kinds, in order, those called away included (furiten counts them)."""
    last_discard: int = -1
    """The physical tile of the latest discard (a caller takes that very tile)."""
    discard_called: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    kans: int = 0
    furiten: FuritenState = field(default_factory=FuritenState)

    def kinds(self) -> list[int]:
        return [tile // 4 for tile in self.concealed]

    def counts(self) -> list[int]:
        return to_counts(self.kinds())

    @property
    def closed(self) -> bool:
        return all(meld.is_concealed_kong for meld in self.melds)

    def take(self, kind: int, how_many: int = 1) -> list[int]:
        """Remove ``how_many`` tiles of ``kind`` from the concealed tiles (non-red copies first)."""
        chosen = sorted((tile for tile in self.concealed if tile // 4 == kind), reverse=True)[:how_many]
        for tile in chosen:
            self.concealed.remove(tile)
        return chosen


@dataclass
class HandRecord:
    """How a hand ended: ``kind`` ron / tsumo / exhaustive / abortive (``abortive`` names which)."""

    kind: str
    outcome: HandOutcome
    deltas: list[int]
    riichi_sticks: int
    wins: list[dict[str, Any]] = field(default_factory=list)
    tenpai: list[int] = field(default_factory=list)
    abortive: str | None = None


class Abort(Exception):
    """An abortive draw (途中流局): the hand ends at once, the dealer keeps the deal."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class RiichiTable:
    """The state of one hand; ``play.play_hand(table, bots)`` runs it to its end."""

    def __init__(
        self,
        ruleset: RiichiRuleset,
        rng: random.Random,
        dealer: int,
        round_wind: int,
        honba: int,
        riichi_sticks: int,
        points: list[int],
    ) -> None:
        self.ruleset = ruleset
        self.options = ruleset.options
        self.dealer, self.round_wind, self.honba = dealer, round_wind, honba
        self.pot = riichi_sticks
        self.players = [Player(seat, points[seat]) for seat in range(4)]
        layout = WallLayout.for_size(ruleset.tile_set.size)
        physical = list(range(ruleset.tile_set.size))
        rng.shuffle(physical)
        self.dice = throw_dice(rng)
        opened = break_wall(dealer, self.dice, None, "sum", stacks_per_wall=layout.stack_counts)
        self.wall = Wall.build([tile // 4 for tile in physical], opened, layout, reserved=ruleset.reserved_tiles)
        address = {position: index for index, position in enumerate(layout.positions())}
        self.identity = [physical[address[position]] for position in self.wall.state.positions]
        self.kan_count = 0
        self.turned = 1
        """Indicators face up: the first, then one per kan (see ``turn_kan_indicator``)."""
        self.pending_indicators = 0
        self.calls_made = False
        self.discards_made = 0
        self.deltas = [0, 0, 0, 0]
        self.actions = 0
        self._deal()

    # --- the wall ---------------------------------------------------------------------------------------------

    def _taken(self) -> int:
        return self.identity[self.wall.state.removed[-1].index]

    def draw(self) -> int:
        self.wall.draw()
        return self._taken()

    def draw_replacement(self) -> int:
        self.wall.draw_replacement()
        return self._taken()

    def indicators(self, ura: bool = False) -> list[int]:
        """Dora (or ura) indicator kinds turned so far: one, plus one per kan."""
        end = len(self.identity)
        return [self.identity[end - 6 - 2 * k + ura] // 4 for k in range(self.turned)]

    def turn_kan_indicator(self, concealed: bool) -> None:
        """A kan's indicator: a concealed kan's at once, an open or added kan's when its maker discards (as on
        Tenhou: the replacement tile is drawn before it, a ron on that discard counts it)."""
        self.kan_count += 1
        if concealed:
            self.turned += 1
        else:
            self.pending_indicators += 1

    def discard_made(self) -> None:
        self.discards_made += 1
        self.turned += self.pending_indicators
        self.pending_indicators = 0

    def _deal(self) -> None:
        """Three rounds of four tiles from the dealer in play order, then one each: 13 tiles per player."""
        order = [(self.dealer + k) % 4 for k in range(4)]
        for grab in (4, 4, 4, 1):
            for seat in order:
                self.players[seat].concealed += [self.draw() for _ in range(grab)]

    # --- wins -------------------------------------------------------------------------------------------------

    def win_score(
        self, seat: int, tile: int, discarder: int | None, *, rinshan: bool = False, robbing: bool = False
    ) -> Score | None:
        """The scored declaration of ``seat`` winning on the physical ``tile`` (held already on a self-draw);
        ``None`` when the tiles make no winning shape."""
        player = self.players[seat]
        standing = [t for t in player.concealed if t != tile] if discarder is None else list(player.concealed)
        kinds = [t // 4 for t in standing]
        if tile // 4 not in waiting_tiles(to_counts(kinds)):
            return None
        red = sum(t in RED_IDS for t in (*standing, tile, *player.meld_ids)) if self.options["red_fives"] else 0
        riichi = player.riichi or player.double_riichi
        ctx = WinContext(
            winner=seat,
            dealer=self.dealer,
            discarder=discarder,
            round_wind=self.round_wind,
            after_kong=rinshan,
            robbing_kong=robbing,
            last_tile=self.wall.exhausted and not rinshan and not robbing,
            first_turn=not self.calls_made and not player.discards,
            extra={
                "riichi": player.riichi,
                "double_riichi": player.double_riichi,
                "ippatsu": player.ippatsu,
                "dora_indicators": format_tiles(self.indicators()),
                "ura_dora_indicators": format_tiles(self.indicators(ura=True)) if riichi else "",
                "honba": self.honba,
                "riichi_sticks": self.pot,
                "red_fives": red,
            },
        )
        hand = Hand(tuple(player.melds), tuple(sorted(kinds)), tile // 4)
        return self.ruleset.evaluate(hand, ctx)

    def settle_wins(self, wins: list[tuple[int, Score]], discarder: int | None) -> HandRecord:
        """Pay the wins: each winner his hand; the first after the discarder also the honba and the riichi
        sticks on the table (上家取り; a later winner's score counts the honba too, so only his hand is paid)."""
        records = []
        for index, (seat, score) in enumerate(wins):
            breakdown = score.extra["breakdown"]
            for part in ("hand", "honba") if index == 0 else ("hand",):
                for key, amount in breakdown[part].items():
                    self.deltas[int(key)] += amount
            records.append({"seat": seat, "discarder": discarder, **_win_summary(score)})
        self.deltas[wins[0][0]] += RIICHI_COST * self.pot
        self.pot = 0
        outcome = HandOutcome(self.dealer, tuple(seat for seat, _ in wins))
        return HandRecord("tsumo" if discarder is None else "ron", outcome, self.deltas, 0, records)

    # --- draws ------------------------------------------------------------------------------------------------

    def exhaustive_draw(self) -> HandRecord:
        tenpai = [p.seat for p in self.players if len(p.concealed) % 3 == 1 and waiting_tiles(p.counts())]
        nagashi = [
            p.seat for p in self.players if p.discards and not p.discard_called and all(map(is_orphan, p.discards))
        ]
        if nagashi and self.options["nagashi_mangan"]:
            payments = nagashi_payments(nagashi, self.dealer)
        else:
            payments = tenpai_payments(tenpai)
        for seat, amount in payments.items():
            self.deltas[seat] += amount
        outcome = HandOutcome(self.dealer, (), dealer_tenpai=self.dealer in tenpai)
        return HandRecord("exhaustive", outcome, self.deltas, self.pot, tenpai=tenpai)

    def abortive_draw(self, name: str) -> HandRecord:
        return HandRecord("abortive", HandOutcome(self.dealer, (), abortive=True), self.deltas, self.pot, abortive=name)

    def check_four_winds(self) -> None:
        """四風連打: the first four discards, no call made, are the same wind."""
        if self.options["suufon_renda"] and self.discards_made == 4 and not self.calls_made:
            firsts = {p.discards[0] for p in self.players if p.discards}
            if len(firsts) == 1 and firsts.pop() in WINDS and all(len(p.discards) == 1 for p in self.players):
                raise Abort("suufon_renda")

    def declare_riichi(self, player: Player) -> None:
        """The declaring discard was not won on: the stick is paid and riichi takes effect."""
        player.points -= RIICHI_COST
        self.deltas[player.seat] -= RIICHI_COST
        self.pot += 1
        player.ippatsu = True
        if self.options["suucha_riichi"] and all(p.riichi or p.double_riichi for p in self.players):
            raise Abort("suucha_riichi")

    def kans_by_several(self) -> bool:
        return self.kan_count == MAX_KANS and max(p.kans for p in self.players) < MAX_KANS

    def may_kan(self) -> bool:
        """A kan needs a live tile to replace it, and there are four kans at most."""
        return not self.wall.exhausted and self.kan_count < MAX_KANS


def _win_summary(score: Score) -> dict[str, Any]:
    extra = score.extra
    return {
        "han": extra["han"],
        "fu": extra["fu"],
        "limit": extra["limit"],
        "yaku": [f"{entry['name_ja']} {entry['han']}" for entry in extra["yaku"]],
    }
