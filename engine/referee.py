"""The referee: the state machine of one hand (盘), from the deal to a win (和) or a drawn game (荒庄).

Every action is validated against the ruleset and the table procedure and answered with a ``Verdict``; an
illegal action never changes the state (each handler checks everything before it changes anything). The
referee owns the wall, so it always counts it, and it runs

* with full information (``Referee.deal``): every face is known (bots, simulation, tests, replays);
* with partial information (``Referee.observe``): it sees only what a table sees (dice, discards, claims,
  exposed melds, flowers, a revealed winning hand, the hands shown at the end of the wall); concealed tiles are
  counted, not known, and everything the public information allows is still checked (turn order, claim priority,
  chi only from the 上家, no tile seen more than its copies, a declared win really being a win).

Phases: ``declare`` (Sichuan 定缺: each player declares a void suit before the dealer's first discard), ``act``
(the seat in turn holds 14 - 3k tiles and discards, kongs, sets a flower aside or declares a self-drawn win),
``claims`` (the other players still in answer the discard: chi / pung / kong / hu / pass), ``rob`` (they may rob
an added kong), ``draw`` (the seat in turn draws), ``over``.

Where the ruleset says so the hand goes on after a win (Sichuan 血战到底): the winners leave, the seat after the
last of them draws next, and the hand ends when all but one have won or the live wall is empty (the players still
in are then settled as a drawn hand). Kong money (刮风下雨), opening wins (Changsha 起手胡) and birds (扎鸟) are
asked of the ruleset through its hooks (``kong_payments``, ``opening_settlement``, ``bird_count``); birds and
opening wins need the faces, so a table that sees only backs leaves them to ``mjtable settle``.

Riichi's mechanisms are general ones a ruleset switches on (``engine.rulesets.riichi.hooks`` sets them), so the
referee never asks which ruleset it plays: a ready declaration (``ActionKind.READY``, ``Ruleset.ready_declaration``:
its stake goes on the table once the declaring discard stands, and may lock the hand), what letting a win pass
costs (``Ruleset.missed_wins``: 漏胡, 振聴; a win may always be let pass, but where Sichuan's last tiles force it),
bonus indicators standing in the dead wall (``Ruleset.bonus_indicators``), a limit on kongs, marked copies of a
face (red fives: ``TileSet.marked``, kept beside the faces by the wall and the seats), abortive draws
(``Ruleset.abortive_draw`` once a discard's answers are in, ``ActionKind.ABORT`` where a player may declare one),
the seats ready at an exhaustive draw (``Ruleset.counts_ready_at_draw``), and the stakes left on the table by
earlier hands (``pot``: the first winner takes them).

The wall's faces a table turns up (the bonus indicators, the tiles under them at a ready seat's win: ``faces_up``)
come to an observing referee as ``ActionKind.FACE`` actions naming the wall place (head-order index, known from the
dice and the break) and the face read there; each is checked (turned up there, the seat's wall, agreeing with a face
seen there before, no copy too many). A win whose ruleset reads faces not yet seen waits for them in phase
``faces`` and is scored again and settled once they are read (``faces_wanted``); a journal of the actions replays
to the same state. The match facts a hand needs come in with the deal:
``honba``, ``pot`` and the seats' ``scores``. What a sequence is comes from the tile set (``TileSet.ranks``: 十万's
suits have ten ranks), every tile code from the ruleset.

Rule choices not written in the sources, each next to its code: claims are resolved once all three other seats
have answered (a draw by the next seat while nobody has answered means all passed); on the last discard, with
the live wall empty, only a win may be claimed (no chi/pung/kong: nothing is left to draw); a kong needs a
replacement tile, so it cannot be made on an empty live wall; a flower that cannot be replaced ends the hand
drawn; 定缺 tiles may not be claimed (SC-2); after a discard win in a continuing hand the seat after the last
winner in turn order draws (108.md leaves it open); an abortive draw is looked for only once a discard's answers
are in (not after an added kong passed unrobbed); a ready declaration locked by its rule is checked against the
waits only where the referee sees the hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType
from typing import Any

from engine.actions import Action, ActionKind, Verdict
from engine.errors import IllegalAction, MjtableError
from engine.match import HandResult, Win
from engine.notation import Hand, Meld, MeldKind, Situation, format_hand
from engine.procedure import NewHand, Source, Wall, WallLayout, break_wall, deal, new_hand
from engine.rulesets.base import (
    ClaimKind,
    DrawContext,
    KongType,
    MultipleWinners,
    Ruleset,
    Score,
    WildcardSource,
    WinContext,
)
from engine.seats import SeatState
from engine.settle.melds import contract_meld
from engine.settlement import Amount, Payments, combine, no_payments
from engine.tiles import NUM_KINDS, NUM_TILE_IDS, Tile, format_tiles, is_flower, is_suited, suit_of, tile_code

SEATS = 4
_NO_TILE = frozenset(
    {ActionKind.DRAW, ActionKind.PASS, ActionKind.PUNG, ActionKind.KONG, ActionKind.SHOW, ActionKind.ABORT}
)


class Phase(StrEnum):
    DECLARE = "declare"
    ACT = "act"
    DRAW = "draw"
    CLAIMS = "claims"
    ROB = "rob"
    FACES = "faces"
    OVER = "over"


_MELD_OF_CLAIM = {ActionKind.CHI: "chi", ActionKind.PUNG: "pon", ActionKind.KONG: "kan"}
"""Claim actions in the settle contract's words, as ``Ruleset.claim_refusal`` receives them."""
_CLAIM_OF_ACTION = {
    ActionKind.CHI: ClaimKind.CHI,
    ActionKind.PUNG: ClaimKind.PUNG,
    ActionKind.KONG: ClaimKind.KONG,
    ActionKind.HU: ClaimKind.HU,
}


@dataclass(frozen=True)
class ReadyState:
    """A seat's ready declaration (立直): whether it came on the seat's first discard with no call or kong made
    before (riichi's double riichi), and the seat's discards and the table's calls and kongs once its declaring
    discard was made (riichi's 一発 lasts while neither grows)."""

    seat: int
    first_turn: bool
    discards: int
    calls: int

    def to_dict(self) -> dict[str, Any]:
        return {"first_turn": self.first_turn, "discards": self.discards, "calls": self.calls}


@dataclass(frozen=True)
class WinRecord:
    """One winner's declaration as the ruleset scored it."""

    seat: int
    hand: Hand
    context: WinContext
    score: Score

    def to_dict(self, hand: Callable[[Hand], str] = format_hand) -> dict[str, Any]:
        """The win; ``hand`` writes the hand in the ruleset's notation (``Ruleset.format_hand``)."""
        return {"seat": self.seat, "hand": hand(self.hand), "score": self.score.to_dict()}


def deal_for(
    ruleset: Ruleset,
    seed: int | random.Random,
    dealer: int = 0,
    dice: tuple[int, int] | None = None,
    dice2: tuple[int, int] | None = None,
) -> NewHand:
    """Shuffle, build, throw, break and deal one hand the way ``ruleset`` plays it (break method, tiles left
    unplayed, where and when a wildcard indicator is flipped, flowers replaced)."""
    wildcards = ruleset.wildcards
    indicator = wildcards.indicator if wildcards is not None else None
    return new_hand(
        ruleset.tile_set,
        seed,
        dealer,
        dice,
        dice2,
        method=str(ruleset.break_method),  # type: ignore[arg-type]
        reserved=ruleset.reserved_tiles,
        indicator_at=indicator.wall_end if indicator is not None else None,  # type: ignore[arg-type]
        indicator_when=indicator.when if indicator is not None else "after_deal",  # type: ignore[arg-type]
    )


class Referee:
    """One hand under one ruleset. Build it with ``deal`` (full information) or ``observe`` (a table's view)."""

    def __init__(
        self,
        ruleset: Ruleset,
        dealer: int,
        wall: Wall,
        hands: list[list[Tile | None]],
        flowers: list[list[Tile]] | None = None,
        *,
        round_wind: int = 0,
        consecutive_dealer: int = 1,
        honba: int = 0,
        pot: int = 0,
        scores: Sequence[Amount] | None = None,
        marked: list[list[Tile]] | None = None,
        full_information: bool,
    ) -> None:
        self.ruleset = ruleset
        self.dealer = dealer
        self.round_wind = round_wind
        self.consecutive_dealer = consecutive_dealer
        self.honba = honba
        """本場: hands since the deal last passed after a win (riichi pays them with a win)."""
        self.pot = pot
        """Stakes left on the table by earlier hands (riichi sticks); the hand's first winner takes them."""
        self.scores = None if scores is None else tuple(scores)
        """Each seat's points as the hand starts, where the match keeps them (a ready declaration's stake)."""
        self.full_information = full_information
        self.wall = wall
        marked = marked or [[] for _ in hands]
        self.seats = [SeatState.dealt(tiles, held) for tiles, held in zip(hands, marked, strict=True)]
        for seat, set_aside in zip(self.seats, flowers or [[] for _ in hands], strict=True):
            seat.flowers.extend(set_aside)
        self.phase = Phase.DECLARE if ruleset.declares_void_suit else Phase.ACT
        self.turn = dealer
        self.offer: Tile | None = None
        """The tile on offer: the last discard (``claims``) or the tile of an added kong (``rob``)."""
        self.offer_seat: int | None = None
        self.responses: dict[int, Action] = {}
        self.declared: dict[int, WinRecord] = {}
        """Wins declared on the tile on offer, scored once when declared and settled when the offer closes."""
        self.last_drawn: Tile | None = None
        self.may_win_by_draw = True
        """Whether the seat in turn got its last tile from the wall (a chi or pung gives no self-drawn win)."""
        self.after_kong = False
        self.discards_made = 0
        self.claims_made = 0
        self.history: list[Action] = []
        self.wins: list[WinRecord] = []
        self.penalties: list[Payments] = []
        """Payments for false declarations (诈和) made during the hand, settled with its result."""
        self.result: HandResult | None = None
        self.dice: tuple[int, ...] | None = None
        self.dice2: tuple[int, ...] | None = None
        self.void_suits: dict[int, str] = {}
        """定缺: the suit each seat declared void."""
        self.players_out: list[int] = []
        """Seats that won and left a continuing hand (血战), in the order they won."""
        self.win_events: list[Win] = []
        self.settlements: list[Payments] = []
        """Payments made during the hand: opening wins, kong money, each win; added up at its end."""
        self.kongs: list[dict[str, Any]] = []
        """Every kong made, as the settle contract describes it (seat, type, tile, from, paid_by)."""
        self.missed_wins: dict[int, set[Tile]] = {}
        """漏胡: faces each seat could have won on and passed since its last draw or claim (``blocks_missed_wins``)."""
        self.horse_places: dict[int, list[int]] = {}
        """买马 (推倒胡): the wall places (head-order indices) of each seat's horse tiles, taken face down from the
        tail after the deal; their faces are ``horses``."""
        self.ready: dict[int, ReadyState] = {}
        """Ready declarations in force (``ActionKind.READY``): their declaring discard was not won on."""
        self.declaring: ReadyState | None = None
        """The declaration whose declaring discard is on offer."""
        self.deposits = 0
        """Stakes the declarations of this hand put on the table."""
        self.collected = 0
        """Stakes a winner took from the table in this hand."""
        self.missed_for_hand: set[int] = set()
        """Seats that let a winning tile pass after declaring ready (``MissedWins.for_hand_when_ready``)."""
        self.bonus_turned = 1 if ruleset.bonus_indicators is not None else 0
        self.bonus_pending = 0
        """Bonus indicators face up, and those of exposed or added kongs turned at their maker's next discard."""
        self.offer_marked = False
        """Whether the tile on offer is a marked copy (a red five)."""
        self._revealed_marked: dict[int, tuple[Tile, ...]] = {}
        """The marked copies of each seat's hand as last revealed (read by ``marked_in_win`` right after)."""
        self.claimed: Tile | None = None
        """The tile the seat in turn claimed to begin its turn (riichi's 喰い替え); ``None`` after a draw."""
        self.abortive: str | None = None
        """The abortive draw that ended the hand (``Ruleset.abortive_draw``, ``ActionKind.ABORT``)."""
        self.held: tuple[Phase, list[WinRecord], int | None, bool] | None = None
        """A win waiting for wall faces (phase ``faces``): the phase it came in, its winners, discarder, robbing."""
        self.opening_shown: frozenset[int] = frozenset()
        """Seats that showed their dealt hand for an opening win (起手胡, 独抬庄) at a table that sees only backs."""
        if full_information:
            opening = ruleset.opening_settlement([seat.concealed_tiles() for seat in self.seats], dealer)
            if opening is not None:
                self.settlements.append(opening)

    # --- construction ------------------------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        ruleset: Ruleset,
        seed: int | random.Random,
        dealer: int = 0,
        dice: tuple[int, int] | None = None,
        dice2: tuple[int, int] | None = None,
        *,
        round_wind: int = 0,
        consecutive_dealer: int = 1,
        honba: int = 0,
        pot: int = 0,
        scores: Sequence[Amount] | None = None,
    ) -> Referee:
        """A hand with every face known: shuffled from ``seed``, walls built, dice thrown (unless given), the
        wall broken by the ruleset's method, dealt, flowers replaced."""
        dealt = deal_for(ruleset, seed, dealer, dice, dice2)
        facts = {"honba": honba, "pot": pot, "scores": scores}
        return cls.dealt(ruleset, dealt, round_wind=round_wind, consecutive_dealer=consecutive_dealer, **facts)

    @classmethod
    def dealt(cls, ruleset: Ruleset, hand: NewHand, **facts: Any) -> Referee:
        """A hand with every face known from a deal made elsewhere: shuffled (``deal``) or stacked to follow a record
        (``engine.stacked``); ``facts`` are the match facts of ``__init__`` (``round_wind``, ``honba``, ...)."""
        wall, hands, flowers = hand.wall, hand.hands, hand.flowers
        referee = cls(ruleset, hand.dealer, wall, hands, flowers, marked=hand.marked, full_information=True, **facts)
        referee.dice, referee.dice2 = hand.dice, hand.dice2
        referee._buy_horses()
        return referee

    @classmethod
    def observe(
        cls,
        ruleset: Ruleset,
        dealer: int,
        dice: tuple[int, int],
        dice2: tuple[int, int] | None = None,
        *,
        round_wind: int = 0,
        consecutive_dealer: int = 1,
        honba: int = 0,
        pot: int = 0,
        scores: Sequence[Amount] | None = None,
    ) -> Referee:
        """A hand as a table sees it: the wall is counted from the dice, faces stay unknown until shown.
        Flowers are declared by the players (``flower`` actions), dealt ones before the dealer's first discard."""
        layout = WallLayout.for_size(ruleset.tile_set.size)
        wall_break = break_wall(dealer, dice, dice2, str(ruleset.break_method), stacks_per_wall=layout.stack_counts)  # type: ignore[arg-type]
        wall = Wall.unknown(ruleset.tile_set.size, wall_break, layout, ruleset.reserved_tiles)
        rule = ruleset.wildcards
        indicator = None if rule is None else rule.indicator
        if indicator is not None and indicator.when == "before_deal":  # its face is read before play (faces_up)
            wall.flip_indicator(indicator.wall_end)
        hands = deal(wall, dealer)
        if indicator is not None and indicator.when == "after_deal":  # before the flowers the players declare
            wall.flip_indicator(indicator.wall_end)
        referee = cls(
            ruleset,
            dealer,
            wall,
            hands,
            round_wind=round_wind,
            consecutive_dealer=consecutive_dealer,
            honba=honba,
            pot=pot,
            scores=scores,
            full_information=False,
        )
        referee.dice, referee.dice2 = tuple(dice), None if dice2 is None else tuple(dice2)
        referee._buy_horses()
        return referee

    # --- the one entry point -----------------------------------------------------------------------------

    def apply(self, action: Action) -> Verdict:
        """Validate and, when legal, carry out ``action``; an illegal one leaves the state as it was."""
        handler = self._handlers.get(action.kind)
        try:
            if not 0 <= action.seat < SEATS:
                raise IllegalAction(f"seat {action.seat}: expected a seat 0-3")
            if self.phase is Phase.OVER:
                raise IllegalAction("the hand is over")
            if handler is None:  # pragma: no cover - every kind has a handler
                raise IllegalAction(f"unknown action {action.kind}")
            if action.tile is not None and action.kind in _NO_TILE:
                raise IllegalAction(f"a {action.kind.value} names no tile: it concerns the tile on offer or the wall")
            if action.tile is not None and action.kind is ActionKind.HU and self.phase is not Phase.ACT:
                raise IllegalAction("a win on a discard or a robbed kong names no tile: it is the tile on offer")
            if action.kind is not ActionKind.FACE and (unread := self.unread_indicators()):
                raise IllegalAction(f"the wildcard indicator at wall place {unread[0]} is to be read before play")
            events = handler(action)
            if self.phase is not Phase.OVER:
                self._replace_indicator()
        except MjtableError as error:
            return Verdict(False, str(error))
        self.history.append(action)
        return Verdict(True, events=tuple(events))

    @cached_property
    def _handlers(self) -> dict[ActionKind, Callable[[Action], list[str]]]:
        return {
            ActionKind.DRAW: self._draw,
            ActionKind.DISCARD: self._discard,
            ActionKind.READY: self._declare_ready,
            ActionKind.ABORT: self._declare_abort,
            ActionKind.FLOWER: self._flower,
            ActionKind.CONCEALED_KONG: self._concealed_kong,
            ActionKind.ADDED_KONG: self._added_kong,
            ActionKind.CHI: self._respond,
            ActionKind.PUNG: self._respond,
            ActionKind.KONG: self._respond,
            ActionKind.PASS: self._respond,
            ActionKind.HU: self._hu,
            ActionKind.DECLARE_VOID: self._declare_void,
            ActionKind.SHOW: self._show,
            ActionKind.FACE: self._face,
        }

    # --- turn actions ------------------------------------------------------------------------------------

    def _require_turn(self, action: Action, phase: Phase) -> SeatState:
        if self.phase is not phase or action.seat != self.turn:
            raise IllegalAction(f"{action.kind.value} by seat {action.seat}: it is {self._waiting_for()}")
        return self.seats[action.seat]

    def _waiting_for(self) -> str:
        if self.phase in (Phase.CLAIMS, Phase.ROB):
            waiting = [s for s in self.answering_seats() if s not in self.responses]
            return f"the answers of seats {waiting} to the {self._code(self.offer)} on offer"  # type: ignore[arg-type]
        if self.phase is Phase.DECLARE:
            return f"the void-suit declarations of seats {self.undeclared_seats()}"
        if self.phase is Phase.FACES and self.hands_wanted():
            return f"the hands of seats {self.hands_wanted()} the win needs shown"
        if self.phase is Phase.FACES:
            return f"the wall's faces at places {self.faces_wanted()} the win needs"
        return f"seat {self.turn}'s turn to {self.phase.value}"

    def answering_seats(self) -> list[int]:
        """The seats that answer the tile on offer, in turn order after its owner: everyone still in the hand."""
        return [
            seat for seat in (self._next(self.offer_seat, k) for k in range(1, SEATS)) if seat not in self.players_out
        ]

    def undeclared_seats(self) -> list[int]:
        """Seats that still have to declare a void suit (phase ``declare``)."""
        return [seat for seat in range(SEATS) if seat not in self.void_suits]

    def _declare_void(self, action: Action) -> list[str]:
        """定缺 (108.md SC-2): every seat declares one suit void before the dealer's first discard, in any order."""
        if self.phase is not Phase.DECLARE:
            raise IllegalAction(f"no void suit is declared now: it is {self._waiting_for()}")
        if action.seat in self.void_suits:
            raise IllegalAction(f"seat {action.seat} has already declared {self.void_suits[action.seat]} void")
        tile = self._tile(action)
        if not is_suited(tile):
            raise IllegalAction(f"{tile_code(tile)} names no suit to declare void: use a tile of m, p or s")
        self.void_suits[action.seat] = suit_of(tile)
        if len(self.void_suits) < SEATS:
            return ["void declared"]
        self.phase = Phase.ACT
        return ["void declared", "play starts"]

    def _draw(self, action: Action) -> list[str]:
        closing = self.phase is Phase.CLAIMS and not self.responses and action.seat == self.answering_seats()[0]
        if not closing:
            self._require_turn(action, Phase.DRAW)
        if self.wall.exhausted:
            raise IllegalAction("the live wall is exhausted: the last discard is answered (pass) to end the hand")
        events = []
        if closing:  # a draw by the next seat closes an unanswered discard: everyone passed it
            for seat in self.answering_seats():
                self._refuse_declining_a_win(seat)
            for seat in self.answering_seats():
                self._note_missed_win(seat)
            events = ["all passed"]
            aborted = self._discard_stands(events)
            if aborted:
                return aborted
        tile = self._take_from_wall(action.seat, replacement=False)
        self._start_turn(action.seat, tile, after_kong=False)
        return [*events, "drew"]

    def _take_from_wall(self, seat: int, *, replacement: bool) -> Tile | None:
        """The seat takes the next head tile, or the next tail tile (a replacement), marked copy or not."""
        tile = self.wall.draw_replacement() if replacement else self.wall.draw()
        self.seats[seat].add(tile, self.wall.last_marked)
        return tile

    def _start_turn(self, seat: int, drawn: Tile | None, *, after_kong: bool) -> None:
        self.missed_wins.pop(seat, None)  # a draw or a claim ends 漏胡
        self.phase, self.turn = Phase.ACT, seat
        self.offer, self.offer_seat, self.responses, self.declared = None, None, {}, {}
        self.last_drawn, self.may_win_by_draw, self.after_kong = drawn, True, after_kong
        self.offer_marked, self.claimed = False, None

    def _open_offer(self, phase: Phase, tile: Tile, seat: int) -> None:
        """Put ``tile`` on offer to the other three (a discard, or an added kong's fourth tile)."""
        self.phase, self.offer, self.offer_seat, self.responses, self.declared = phase, tile, seat, {}, {}

    def _refuse_declining_a_win(self, seat: int) -> None:
        """最后四张能胡必须胡 (Sichuan SC-13): on one of the ruleset's last live-wall tiles, a player who can win
        may not pass, discard or kong instead (checked only where the referee sees the hand). Elsewhere a player
        may let a win pass (见逃し); ``MissedWins`` says what it costs him."""
        last = self.ruleset.must_win_last_tiles
        if self.wall.live_remaining < last and self.would_win(seat):
            raise IllegalAction(f"seat {seat} can win on one of the last {last} tiles and must (最后四张能胡必须胡)")

    def _note_missed_win(self, seat: int) -> None:
        """A seat letting the tile on offer pass while it could win on it (``MissedWins``: a true win, or a complete
        shape) may not win on a discard until it draws or claims; after a ready declaration, for the hand."""
        rule = self.ruleset.missed_wins
        if rule is None or not self.full_information:
            return
        offer = self.offer
        assert offer is not None
        if not (self._completes(seat, offer) if rule.on_shape else self.would_win(seat)):
            return
        self.missed_wins.setdefault(seat, set()).add(offer)
        if rule.for_hand_when_ready and seat in self.ready:
            self.missed_for_hand.add(seat)

    def _note_declined_self_draw(self, seat: int) -> None:
        """A seat that declared ready and discards or kongs instead of winning on its draw: ``MissedWins``."""
        rule = self.ruleset.missed_wins
        if rule is None or not rule.for_hand_when_ready or seat not in self.ready or not self.full_information:
            return
        if self.may_win_by_draw and self._completes(seat, None):
            self.missed_for_hand.add(seat)

    def _completes(self, seat: int, offered: Tile | None) -> bool:
        """Whether the seat's concealed tiles (with ``offered``) make a winning shape (``Ruleset.quick_win``)."""
        counts = list(self.seats[seat].known[:NUM_KINDS])
        if offered is not None:
            counts[offered] += 1
        return self.ruleset.quick_win(self, seat, counts, offered)

    def _missed_win_refusal(self, seat: int, standing: list[Tile]) -> str | None:
        """Why ``seat`` may not win on the tile on offer under ``MissedWins``; ``standing`` is its hand without it."""
        rule = self.ruleset.missed_wins
        if rule is None:
            return None
        passed = self.missed_wins.get(seat, set())
        if seat in self.missed_for_hand:
            return f"{rule.name}: it let a winning tile pass after declaring ready, so it wins only by its own draw"
        if passed and (rule.any_tile or self.offer in passed):
            faces = self.ruleset.format_tiles(sorted(passed))
            return f"{rule.name}: it let {faces} pass since its last draw or claim"
        if rule.own_discards:
            waits = self._waits(self.seats[seat].melds, standing)
            own = sorted(set(waits) & set(self.seats[seat].played))
            if own:
                return f"{rule.name}: it waits on {self.ruleset.format_tiles(own)}, which it discarded itself"
        return None

    def _waits(self, melds: list[Meld], standing: list[Tile]) -> list[Tile]:
        return self.ruleset.waits_of(melds, standing)[0]

    def _discard(self, action: Action) -> list[str]:
        tile = self._check_discard(action)
        return self._make_discard(action.seat, tile, action.marked)

    def _check_discard(self, action: Action) -> Tile:
        """Everything a discard must satisfy, checked before anything changes."""
        seat = self._require_turn(action, Phase.ACT)
        self._refuse_declining_a_win(action.seat)
        tile = self._tile(action)
        if is_flower(tile):
            raise IllegalAction(f"seat {action.seat} cannot discard the flower {self._code(tile)}: set it aside")
        if not seat.could_hold(tile):
            raise IllegalAction(f"seat {action.seat} holds no {self._code(tile)} to discard")
        if self._locked(action.seat) and self.last_drawn is not None and tile != self.last_drawn:
            raise IllegalAction(
                f"seat {action.seat} declared ready: it discards the {self._code(self.last_drawn)} it drew"
            )
        self._check_visible(tile, 1, f"discard of {self._code(tile)}")
        self._refuse(self.ruleset.discard_refusal(self, action.seat, tile), action.seat)
        return tile

    def _make_discard(self, seat: int, tile: Tile, marked: bool) -> list[str]:
        self._note_declined_self_draw(seat)
        state = self.seats[seat]
        self.offer_marked = bool(state.take(tile, marked_first=self._marks(marked, tile)))
        state.marked_river += self.offer_marked
        state.discards.append(tile)
        state.played.append(tile)
        self.discards_made += 1
        self.bonus_turned, self.bonus_pending = self.bonus_turned + self.bonus_pending, 0
        money = self.ruleset.discard_settlement(self, seat, tile)
        if money is not None:
            self.settlements.append(money)
        self._open_offer(Phase.CLAIMS, tile, seat)
        return ["discarded"]

    def _declare_ready(self, action: Action) -> list[str]:
        """立直 / 报听 (``Ruleset.ready_declaration``): a discard that declares the hand left ready. It takes effect,
        and its stake goes on the table, once the discard is not won on (``_accept_ready``)."""
        rule = self.ruleset.ready_declaration
        if rule is None:
            raise IllegalAction(f"the {self.ruleset.id} ruleset has no ready declaration")
        tile = self._check_discard(action)
        seat = self.seats[action.seat]
        if action.seat in self.ready:
            raise IllegalAction(f"seat {action.seat} has declared ready already")
        if rule.closed_only and any(not meld.is_concealed_kong for meld in seat.melds):
            raise IllegalAction(f"seat {action.seat} claimed a meld: only a closed hand declares ready")
        if self.wall.live_remaining < rule.min_live_tiles:
            raise IllegalAction(
                f"{self.wall.live_remaining} live tiles left: a ready declaration needs {rule.min_live_tiles}"
            )
        if self.scores is not None and self.scores[action.seat] < rule.stake:
            raise IllegalAction(
                f"seat {action.seat} has {self.scores[action.seat]} points: declaring ready costs {rule.stake}"
            )
        if not seat.unknown:
            standing = seat.concealed_tiles()
            standing.remove(tile)
            if not self._waits(seat.melds, standing):
                raise IllegalAction(f"seat {action.seat}'s hand is not ready once the {self._code(tile)} is gone")
        first_turn = not seat.played and self.calls == 0
        events = self._make_discard(action.seat, tile, action.marked)
        self.declaring = ReadyState(action.seat, first_turn, len(seat.played), self.calls)
        return ["declared ready", *events]

    def _locked(self, seat: int) -> bool:
        """Whether the seat declared ready under a rule that locks its hand (``ReadyRule.locks_hand``)."""
        rule = self.ruleset.ready_declaration
        return seat in self.ready and rule is not None and rule.locks_hand

    def _accept_ready(self) -> None:
        """The declaring discard on offer was not won on: the declaration stands and its stake goes on the table."""
        declared, self.declaring = self.declaring, None
        rule = self.ruleset.ready_declaration
        if declared is None or rule is None:
            return
        self.ready[declared.seat] = declared
        if rule.stake:
            self.deposits += rule.stake
            self.settlements.append({seat: -rule.stake if seat == declared.seat else 0 for seat in range(SEATS)})

    def _discard_stands(self, events: list[str]) -> list[str]:
        """The discard on offer was not won on: a ready declaration made with it takes effect, then the ruleset may
        end the hand in an abortive draw (``Ruleset.abortive_draw``); the events of that end, or none."""
        self._accept_ready()
        name = self.ruleset.abortive_draw(self, ())
        return self._end_aborted(name, events) if name is not None else []

    def _end_aborted(self, name: str, events: list[str]) -> list[str]:
        self.abortive, self.declaring = name, None
        return self._close([*events, f"abortive draw ({name})"])

    def _declare_abort(self, action: Action) -> list[str]:
        """A player ends the hand drawn where the ruleset lets him (``Ruleset.abort_declaration``: 九種九牌)."""
        seat = self._require_turn(action, Phase.ACT)
        if action.revealed is not None:
            held = self._revealed(action)
        elif seat.unknown:
            raise IllegalAction(f"seat {action.seat} must show the concealed hand to end the hand drawn")
        else:
            held = seat.concealed_tiles()
        name = self.ruleset.abort_declaration(self, action.seat, held)
        if name is None:
            raise IllegalAction(f"seat {action.seat} has no abortive draw to declare now")
        return self._end_aborted(name, [])

    def _flower(self, action: Action) -> list[str]:
        tile = self._tile(action)
        opening = self.discards_made == 0 and self.claims_made == 0 and self.phase is Phase.ACT
        if not (opening and not self.full_information):
            self._require_turn(action, Phase.ACT)
        if not self.ruleset.flowers or not is_flower(tile):
            raise IllegalAction(f"{self._code(tile)} is not a flower of the {self.ruleset.id} ruleset")
        seat = self.seats[action.seat]
        if not seat.could_hold(tile):
            raise IllegalAction(f"seat {action.seat} holds no {self._code(tile)}")
        self._check_visible(tile, 1, f"flower {self._code(tile)}")
        seat.take(tile)
        seat.flowers.append(tile)
        if self.wall.exhausted:
            return self._end_drawn(["flower set aside", "no replacement left"])
        replacement = self._take_from_wall(action.seat, replacement=True)
        if action.seat == self.turn:
            self.last_drawn = replacement
        return ["flower set aside", "replacement drawn"]

    def _concealed_kong(self, action: Action) -> list[str]:
        seat = self._require_turn(action, Phase.ACT)
        self._refuse_declining_a_win(action.seat)
        tile = self._tile(action)
        self._check_kong_possible(tile)
        if not seat.could_hold(tile, 4):
            raise IllegalAction(f"seat {action.seat} does not hold four {self._code(tile)}")
        self._check_visible(tile, 4, f"concealed kong of {self._code(tile)}")
        self._check_locked_kong(action.seat, tile, 4)
        self._refuse(self.ruleset.claim_refusal(self, action.seat, "concealed_kan", tile, (tile,) * 3), action.seat)
        self._note_declined_self_draw(action.seat)
        seat.marked_shown += seat.take(tile, 4, marked_first=self._marks(action.marked, tile))
        seat.melds.append(Meld(MeldKind.KONG, tile))
        self._record_kong(action.seat, KongType.CONCEALED, tile)
        return self._kong_replacement(action.seat)

    def _added_kong(self, action: Action) -> list[str]:
        seat = self._require_turn(action, Phase.ACT)
        self._refuse_declining_a_win(action.seat)
        tile = self._tile(action)
        self._check_kong_possible(tile)
        if not any(meld.kind is MeldKind.PUNG and meld.tile == tile for meld in seat.melds):
            raise IllegalAction(f"seat {action.seat} has no exposed pung of {self._code(tile)} to add to")
        if not seat.could_hold(tile):
            raise IllegalAction(f"seat {action.seat} holds no {self._code(tile)} to add")
        self._check_visible(tile, 1, f"added kong of {self._code(tile)}")
        self._check_locked_kong(action.seat, tile, 1)
        self._refuse(self.ruleset.claim_refusal(self, action.seat, "added_kan", tile, (tile,) * 3), action.seat)
        self._note_declined_self_draw(action.seat)
        self.offer_marked = bool(seat.take(tile, marked_first=self._marks(action.marked, tile)))
        if KongType.ADDED in self.ruleset.robbable_kongs:
            self._open_offer(Phase.ROB, tile, action.seat)
            return ["kong may be robbed"]
        return self._complete_added_kong(action.seat, tile)

    def _check_locked_kong(self, seat: int, tile: Tile, used: int) -> None:
        """A seat whose ready declaration locks its hand kongs only the tile it drew, and only when the kong leaves
        its waits as they were (checked where the referee sees the hand)."""
        if not self._locked(seat):
            return
        if self.last_drawn is not None and tile != self.last_drawn:
            raise IllegalAction(f"seat {seat} declared ready: it kongs only the {self._code(self.last_drawn)} it drew")
        state = self.seats[seat]
        if state.unknown or self.last_drawn is None:
            return
        before, after = state.concealed_tiles(), state.concealed_tiles()
        before.remove(self.last_drawn)
        for _ in range(used):
            after.remove(tile)
        if self._waits(state.melds, after) != self._waits(state.melds, before):
            raise IllegalAction(f"seat {seat} declared ready: a kong of {self._code(tile)} would change its waits")

    def _complete_added_kong(self, konger: int, tile: Tile) -> list[str]:
        seat = self.seats[konger]
        melds = seat.melds
        index = next(i for i, meld in enumerate(melds) if meld.kind is MeldKind.PUNG and meld.tile == tile)
        supplier = melds[index].offer
        melds[index] = Meld(MeldKind.KONG, tile, None if supplier is None else supplier + 4)
        seat.marked_shown += self.offer_marked
        self._record_kong(konger, KongType.ADDED, tile)
        return self._kong_replacement(konger)

    def _record_kong(self, seat: int, kind: KongType, tile: Tile, supplier: int | None = None) -> None:
        """Keep the kong for the rulesets that score the hand's kongs, pay its kong money at once, and turn its
        bonus indicator (``BonusIndicators``: a concealed kong's now, another's at its maker's discard)."""
        kong: dict[str, Any] = {"seat": seat, "type": kind.value, "tile": self._code(tile)}
        if supplier is not None:
            kong["from"] = supplier
        money = self.ruleset.kong_payments(kong, tuple(self.players_out))
        if money is not None:
            kong["paid_by"] = {str(payer): -amount for payer, amount in money.items() if amount < 0}
            self.settlements.append(money)
        self.kongs.append(kong)
        if self.ruleset.bonus_indicators is not None:
            if kind is KongType.CONCEALED:
                self.bonus_turned += 1
            else:
                self.bonus_pending += 1

    def _check_kong_possible(self, tile: Tile) -> None:
        if not self.ruleset.allows_kong:
            raise IllegalAction(f"the {self.ruleset.id} ruleset has no kongs")
        if self.wall.exhausted:
            raise IllegalAction(f"no kong of {self._code(tile)}: the live wall has no replacement tile left")
        most = self.ruleset.max_kongs
        if most is not None and len(self.kongs) >= most:
            raise IllegalAction(f"no kong of {self._code(tile)}: the hand has its {most} kongs already")

    def _kong_replacement(self, seat: int) -> list[str]:
        replacement = self._take_from_wall(seat, replacement=True)
        self._start_turn(seat, replacement, after_kong=True)
        return ["kong", "replacement drawn"]

    def _respond(self, action: Action) -> list[str]:
        if self.phase not in (Phase.CLAIMS, Phase.ROB):
            raise IllegalAction(f"{action.kind.value} by seat {action.seat}: nothing is on offer")
        if action.seat not in self.answering_seats() or action.seat in self.responses:
            raise IllegalAction(f"seat {action.seat} cannot answer: {self._waiting_for()}")
        if self.phase is Phase.CLAIMS:
            self._refuse_declining_a_win(action.seat)
        if action.kind is ActionKind.PASS:
            self._note_missed_win(action.seat)
        else:
            if self.phase is Phase.ROB:
                raise IllegalAction("an added kong can only be robbed by a win (hu) or passed")
            self._check_claim(action)
        self.responses[action.seat] = action
        if len(self.responses) < len(self.answering_seats()):
            return ["answer recorded"]
        return self._resolve()

    def _check_claim(self, action: Action) -> None:
        tile, discarder, seat = self.offer, self.offer_seat, self.seats[action.seat]
        assert tile is not None and discarder is not None
        if self.wall.exhausted:
            raise IllegalAction("the live wall is exhausted: only a win may be claimed on the last discard")
        name = self._code(tile)
        if self._locked(action.seat):
            raise IllegalAction(f"seat {action.seat} declared ready: it claims nothing but a win")
        if action.kind is not ActionKind.CHI and self.void_suits.get(action.seat) == suit_of(tile):
            raise IllegalAction(f"seat {action.seat} declared {suit_of(tile)} void: its tiles may not be claimed")
        if action.kind is ActionKind.CHI:
            if not self.ruleset.allows_chi:
                raise IllegalAction(f"the {self.ruleset.id} ruleset has no chi")
            if self.ruleset.chi_only_from_left and action.seat != self._next(discarder):
                raise IllegalAction(f"seat {action.seat} cannot chi from seat {discarder}: chi only from the 上家")
            low = self._tile(action)
            if not (self.ruleset.tile_set.chow_start(low) and low <= tile <= low + 2):
                raise IllegalAction(f"no chow from {self._code(low)} contains the discard {name}")
            for other in (low, low + 1, low + 2):
                if other != tile and not seat.could_hold(other):
                    raise IllegalAction(f"seat {action.seat} holds no {self._code(other)} for the chow")
                if other != tile:
                    self._check_visible(other, 1, f"chow of seat {action.seat}")
        elif action.kind is ActionKind.PUNG:
            if not self.ruleset.allows_pung:
                raise IllegalAction(f"the {self.ruleset.id} ruleset has no pung")
            if not seat.could_hold(tile, 2):
                raise IllegalAction(f"seat {action.seat} does not hold two {name} to pung")
            self._check_visible(tile, 2, f"pung of seat {action.seat}")
        elif action.kind is ActionKind.KONG:
            self._check_kong_possible(tile)
            if not seat.could_hold(tile, 3):
                raise IllegalAction(f"seat {action.seat} does not hold three {name} to kong")
            self._check_visible(tile, 3, f"kong of seat {action.seat}")
        kind, using = _MELD_OF_CLAIM[action.kind], (tile,) * (3 if action.kind is ActionKind.KONG else 2)
        if action.kind is ActionKind.CHI:
            low = self._tile(action)
            using = tuple(other for other in (low, low + 1, low + 2) if other != tile)
        self._refuse(self.ruleset.claim_refusal(self, action.seat, kind, tile, using), action.seat)

    @staticmethod
    def _refuse(reason: str | None, seat: int) -> None:
        """A ruleset's refusal of a discard or a meld (its claim / discard hooks) makes the action illegal."""
        if reason is not None:
            raise IllegalAction(f"seat {seat}: {reason}")

    def _resolve(self) -> list[str]:
        """All three answered: a win first, else the strongest claim (ties to the nearest seat after the
        discarder), else the next seat draws (or, with the live wall empty, the hand is drawn)."""
        discarder, tile = self.offer_seat, self.offer
        assert discarder is not None and tile is not None
        order = self.answering_seats()
        hu = [seat for seat in order if self.responses[seat].kind is ActionKind.HU]
        if hu:
            if self.ruleset.multiple_winners is MultipleWinners.FIRST:
                hu = hu[:1]
            aborted = self.ruleset.abortive_draw(self, tuple(hu)) if self.phase is Phase.CLAIMS else None
            if aborted is not None:
                return self._end_aborted(aborted, [f"seat {seat} hu" for seat in hu])
            first, *later = (self.declared[seat] for seat in hu)
            if facts := self.ruleset.later_winner_facts():
                later = [self._rescored(record, facts) for record in later]
            return self._settle_when_seen([first, *later], discarder, robbing=self.phase is Phase.ROB)
        if self.phase is Phase.ROB:
            return ["nobody robbed", *self._complete_added_kong(discarder, tile)]
        claims = [(seat, self.responses[seat]) for seat in order if self.responses[seat].kind is not ActionKind.PASS]
        aborted = self._discard_stands(["all passed" if not claims else "claimed"])
        if aborted:
            return aborted
        if not claims:
            if self.wall.exhausted:
                return self._end_drawn(["all passed"])
            self.phase, self.turn = Phase.DRAW, order[0]
            return ["all passed"]
        seat, claim = min(claims, key=lambda item: self._claim_rank(item[0], item[1], tile))
        return self._grant(seat, claim, discarder, tile)

    def _claim_rank(self, seat: int, claim: Action, tile: Tile) -> int:
        """The claim's place in the ruleset's priority, as the ruleset classes it (Harbin's 吃听)."""
        kind = self.ruleset.claim_class(self, seat, _CLAIM_OF_ACTION[claim.kind], tile, claim.tile)
        return self.ruleset.claim_rank(kind)

    def _grant(self, seat: int, claim: Action, discarder: int, tile: Tile) -> list[str]:
        state = self.seats[seat]
        self.seats[discarder].discards.pop()
        self.seats[discarder].marked_river -= self.offer_marked
        self.claims_made += 1
        offer = (seat - discarder) % SEATS  # notation: 1 = from the 上家, 2 = 对家, 3 = 下家
        marked = int(self.offer_marked)
        if claim.kind is ActionKind.CHI:
            low = claim.tile
            assert low is not None
            used = (other for other in (low, low + 1, low + 2) if other != tile)
            marked += sum(state.take(other, marked_first=self._marks(claim.marked, other)) for other in used)
            state.melds.append(Meld(MeldKind.CHOW, low, tile - low + 1))
        else:
            kind = MeldKind.KONG if claim.kind is ActionKind.KONG else MeldKind.PUNG
            marked += state.take(tile, 3 if kind is MeldKind.KONG else 2, marked_first=self._marks(claim.marked, tile))
            state.melds.append(Meld(kind, tile, offer))
        state.marked_shown += marked
        if claim.kind is ActionKind.KONG:
            self._record_kong(seat, KongType.EXPOSED, tile, discarder)
            return [f"seat {seat} kong", *self._kong_replacement(seat)[1:]]
        self._start_turn(seat, None, after_kong=False)
        self.may_win_by_draw, self.claimed = False, tile
        return [f"seat {seat} {claim.kind.value}"]

    # --- wins and the end of the hand ---------------------------------------------------------------------

    def _hu(self, action: Action) -> list[str]:
        if self.phase in (Phase.CLAIMS, Phase.ROB):
            if action.seat not in self.answering_seats() or action.seat in self.responses:
                raise IllegalAction(f"seat {action.seat} cannot answer: {self._waiting_for()}")
            win_tile = self.offer
            assert win_tile is not None
            record = self._evaluate(action, win_tile, discarder=self.offer_seat, robbing=self.phase is Phase.ROB)
            events = self._false_win(record)
            # A false declaration is penalised and counts as the seat's pass; the offer stays open.
            self.responses[action.seat] = Action(ActionKind.PASS, action.seat) if events else action
            if not events:
                self.declared[action.seat] = record
            if len(self.responses) < len(self.answering_seats()):
                return events or ["answer recorded"]
            return events + self._resolve()
        self._require_turn(action, Phase.ACT)
        if not self.may_win_by_draw:
            raise IllegalAction(f"seat {action.seat} took the last tile by a claim, not from the wall: no self-draw")
        win_tile = action.tile if action.tile is not None else self.last_drawn
        if win_tile is None:
            raise IllegalAction("a self-drawn win names its winning tile when the referee did not see the draw")
        if self.full_information and self.last_drawn is not None and win_tile != self.last_drawn:
            raise IllegalAction(f"the winning tile is the {self._code(self.last_drawn)} just drawn")
        record = self._evaluate(action, win_tile, discarder=None, robbing=False)
        return self._false_win(record) or self._settle_when_seen([record], None, robbing=False)

    def _false_win(self, record: WinRecord) -> list[str]:
        """A declaration that is no win: the ruleset's penalty (诈和) where it has one, and play goes on;
        without a penalty it is simply illegal."""
        if record.score.hu:
            return []
        penalty = self.ruleset.false_win_payments(record.seat)
        reason = record.score.reason or "no win"
        if penalty is None:
            raise IllegalAction(f"seat {record.seat} declared a win that is not one: {reason}")
        self.penalties.append(penalty)
        return [f"seat {record.seat} false win ({reason}): penalty"]

    def _evaluate(self, action: Action, win_tile: Tile, *, discarder: int | None, robbing: bool) -> WinRecord:
        """Score a declared win as the ruleset sees it (``score.hu`` false for a false declaration); a hand that
        cannot exist (wrong size, a tile seen too often) is an ``IllegalAction``."""
        seat = self.seats[action.seat]
        standing = self._standing_for_win(action, win_tile, self_drawn=discarder is None)
        self_drawn = discarder is None
        if not self_drawn:
            self._refuse(self._missed_win_refusal(action.seat, standing), action.seat)
        fourth = self._visible_count(win_tile) - (0 if self_drawn else 1) >= self.ruleset.tile_set.copies[win_tile] - 1
        replacement = self_drawn and self.after_kong
        last_tile = self.wall.exhausted and (self.ruleset.replacement_is_last_tile or not replacement)
        first_turn = self._first_turn(action.seat)
        situation = Situation(
            self.round_wind,
            (action.seat - self.dealer) % SEATS,
            self_drawn,
            fourth,
            last_tile,
            self.after_kong if self_drawn else robbing,
        )
        hand = Hand(tuple(seat.melds), tuple(standing), win_tile, situation, tuple(seat.flowers) or None)
        context = WinContext(
            winner=action.seat,
            dealer=self.dealer,
            discarder=discarder,
            round_wind=self.round_wind,
            after_kong=self.after_kong and self_drawn,
            robbing_kong=robbing,
            last_tile=last_tile,
            first_turn=first_turn,
            fourth_tile=fourth,
            flowers=len(seat.flowers),
            consecutive_dealer=self.consecutive_dealer,
            players_out=tuple(self.players_out),
            extra={
                **self._table_facts(),
                **self._hand_facts(action.seat, discarder, robbing),
                **self.ruleset.win_facts(self, action.seat),
            },
        )
        return WinRecord(action.seat, hand, context, self.ruleset.evaluate(hand, context))

    def _first_turn(self, seat: int) -> bool:
        """``WinContext.first_turn`` (``Ruleset.first_turn_per_seat``)."""
        if self.ruleset.first_turn_per_seat:
            return self.calls == 0 and not self.seats[seat].played
        return self.discards_made == 0 and self.claims_made == 0

    @property
    def calls(self) -> int:
        """Claims and kongs made in the hand (each ends riichi's first go-around and every 一発)."""
        return self.claims_made + sum("from" not in kong for kong in self.kongs)

    def unbroken_since_ready(self, seat: int) -> bool:
        """Whether ``seat`` declared ready and since its declaring discard nobody claimed or konged and it has not
        discarded again (riichi's 一発)."""
        ready = self.ready.get(seat)
        return ready is not None and self.calls == ready.calls and len(self.seats[seat].played) == ready.discards

    def bonus_indicators(self, *, under: bool = False) -> list[Tile | None]:
        """The bonus indicators face up (``BonusIndicators``), or the tiles under them; ``None`` for a face the
        referee cannot see."""
        rule = self.ruleset.bonus_indicators
        if rule is None:
            return []
        state = self.wall.state
        return [state.faces[state.stack_from_tail(rule.first_stack + k)[under]] for k in range(self.bonus_turned)]

    def marked_in_win(self, seat: int, discarder: int | None) -> int:
        """Marked copies (red fives) in ``seat``'s winning hand: held (as revealed with the win, where the referee
        does not see the hand), shown, and the tile on offer it wins on."""
        state = self.seats[seat]
        held = len(self._revealed_marked.get(seat, ())) if state.unknown else sum(state.marked.values())
        return held + state.marked_shown + (discarder is not None and self.offer_marked)

    @property
    def on_table(self) -> int:
        """Stakes lying on the table: left by earlier hands and put there by this one's declarations."""
        return self.pot + self.deposits - self.collected

    def _table_facts(self) -> dict[str, Any]:
        """Facts of the table some rulesets score beside the core situation: the dealer's ``dice`` (Quanjiao's D,
        QJ-17) and ``wall_remaining``, the live-wall tiles left (Quanjiao's last two tiles, QJ-6)."""
        facts: dict[str, Any] = {"wall_remaining": self.wall.live_remaining}
        if self.dice is not None:
            facts["dice"] = list(self.dice)
        indicators = self.wall.indicators
        if indicators and indicators[-1] is not None:
            facts["indicator"] = self._code(indicators[-1])
        return facts

    def wildcard_faces(self) -> frozenset[Tile]:
        """The faces wild in every hand now (wild.md §1): from the current indicator, or fixed. None where the
        ruleset has no wildcard, the indicator is unseen, or the wildcard acts only when drawn (Harbin's 宝)."""
        rule = self.ruleset.wildcards
        if rule is None or rule.source is WildcardSource.FACE:
            return frozenset()
        if rule.source is WildcardSource.FIXED:
            return rule.wildcards()
        indicators = self.wall.indicators
        return rule.wildcards(indicators[-1]) if indicators and indicators[-1] is not None else frozenset()

    def _replace_indicator(self) -> None:
        """换宝: while the ruleset finds the current indicator's face too much in sight (the indicator itself not
        counted), the next tile from its end of the wall replaces it; the old one stays set aside."""
        rule = self.ruleset.wildcards
        while rule is not None and rule.indicator is not None and self.wall.indicators and not self.wall.exhausted:
            face = self.wall.indicators[-1]
            if face is None or not self.ruleset.replaces_indicator(self._visible_count(face) - 1):
                return
            self.wall.flip_indicator(rule.indicator.wall_end)

    def _buy_horses(self) -> None:
        """买马: each seat takes ``ruleset.horse_tiles`` tiles face down from the tail after the deal; they stay out
        of play and are shown at the settlement (``Ruleset.win_facts``; a table that sees only backs reads them
        then, ``faces_up``)."""
        for seat in range(SEATS):
            places = []
            for _ in range(self.ruleset.horse_tiles):
                self.wall.draw_replacement()
                places.append(self.wall.state.removed[-1].index)
            self.horse_places[seat] = places

    @property
    def horses(self) -> dict[int, list[Tile | None]]:
        """Each seat's horse tiles (买马): faces, ``None`` where the table has not seen them yet."""
        faces = self.wall.state.faces
        return {seat: [faces[place] for place in places] for seat, places in self.horse_places.items()}

    def _hand_facts(self, winner: int, discarder: int | None, robbing: bool) -> dict[str, Any]:
        """What the 108-tile rulesets read beside the core situation, in the settle contract's words: the winner's
        ``void_suit``, the hand's ``kongs`` (the discarder's last one ``just_made`` on a 杠上炮 / 热炮), the robbed
        ``kong``, and the ``birds`` turned up from the live wall (with full information)."""
        facts: dict[str, Any] = {"kongs": [dict(kong) for kong in self.kongs]}
        if winner in self.void_suits:
            facts["void_suit"] = self.void_suits[winner]
        if discarder is not None and not robbing and self.after_kong:
            facts["discarder_after_kong"] = True
            made = [kong for kong in facts["kongs"] if kong["seat"] == discarder]
            if made:
                made[-1]["just_made"] = True
        if robbing:
            facts["kong"] = {"seat": discarder, "type": KongType.ADDED.value, "tile": self._code(self.offer)}  # type: ignore[arg-type]
        return facts | self._bird_facts()

    def _bird_places(self) -> list[int]:
        """扎鸟: the places of the birds a win turns up, the next live tiles (``Ruleset.bird_count``)."""
        state = self.wall.state
        return state.standing()[: min(self.ruleset.bird_count, state.live_remaining)]

    def _bird_facts(self) -> dict[str, Any]:
        """The ``birds`` of a win, once their faces are known (with full information, or read: ``faces_up``)."""
        if not self.ruleset.bird_count:
            return {}
        faces = [self.wall.state.faces[place] for place in self._bird_places()]
        return {} if None in faces else {"birds": [self._code(face) for face in faces]}  # type: ignore[arg-type]

    def _standing_for_win(self, action: Action, win_tile: Tile, *, self_drawn: bool) -> list[Tile]:
        """The winner's concealed tiles without the winning tile: known, or revealed with the declaration."""
        seat = self.seats[action.seat]
        if action.revealed is not None:
            held = self._revealed(action)
        elif seat.unknown:
            raise IllegalAction(f"seat {action.seat} must reveal the concealed hand to declare a win")
        else:
            held = seat.concealed_tiles()
        if self_drawn:
            if win_tile not in held:
                raise IllegalAction(f"seat {action.seat} does not hold the winning tile {self._code(win_tile)}")
            held.remove(win_tile)
        return held

    def _revealed(self, action: Action) -> list[Tile]:
        """The concealed tiles ``action`` reveals, checked against what the table counted and saw."""
        seat, held = self.seats[action.seat], list(action.revealed or ())
        counts = [0] * NUM_TILE_IDS
        for tile in held:
            counts[tile] += 1
        if len(held) != seat.size or any(counts[tile] < seat.known[tile] for tile in range(NUM_TILE_IDS)):
            raise IllegalAction(
                f"seat {action.seat} revealed {format_tiles(held) or 'nothing'}, which is not the "
                f"{seat.size} concealed tiles the table counted"
            )
        hidden = [tile for tile in range(NUM_TILE_IDS) for _ in range(counts[tile] - seat.known[tile])]
        for tile in set(hidden):
            self._check_visible(tile, hidden.count(tile), f"revealed hand of seat {action.seat}")
        self._check_revealed_marked(action, counts)
        self._revealed_marked[action.seat] = action.revealed_marked
        return held

    def _check_revealed_marked(self, action: Action, counts: list[int]) -> None:
        """The marked copies a revealed hand shows are of faces the set marks, one copy each, among its tiles."""
        marked = self.ruleset.tile_set.marked
        for tile in set(action.revealed_marked):
            code = self._code(tile)
            if tile not in marked:
                raise IllegalAction(f"seat {action.seat} revealed a marked {code}: the set marks no copy of it")
            shown = action.revealed_marked.count(tile)
            if shown > 1 or not counts[tile]:
                why = f"the set marks one copy, and the hand holds {counts[tile]}"
                raise IllegalAction(f"seat {action.seat} revealed {shown} marked {code}: {why}")

    def _marks(self, marked: bool, tile: Tile) -> bool:
        """Whether an action's ``marked`` plays the marked copy of ``tile`` (only a face the set marks has one)."""
        return marked and tile in self.ruleset.tile_set.marked

    def _show(self, action: Action) -> list[str]:
        """A seat still in lays its concealed hand face up once the live wall is empty (on the last discard, or
        beside a win on the last tile), so that a table that sees only backs settles a drawn hand on the hands left
        standing (Sichuan 查叫) as a full one does; and a hand a held win needs shown (``hands_wanted``)."""
        if self.full_information:
            raise IllegalAction("every hand is known: there is nothing to show")
        if self.in_opening():
            return self._show_opening(action)
        if self.phase is Phase.FACES and action.seat in self.hands_wanted():
            self._now_known(self.seats[action.seat], self._revealed(action), action)
            return ["hand shown", *self._settle_if_seen()]
        if not self.wall.exhausted:
            raise IllegalAction(f"hands are shown once the live wall is empty only: it is {self._waiting_for()}")
        if action.seat in self.players_out or not self.seats[action.seat].unknown:
            raise IllegalAction(f"seat {action.seat} has no hidden hand to show")
        seat = self.seats[action.seat]
        shown = self._revealed(action)
        self._now_known(seat, shown, action)
        return ["hand shown"]

    @staticmethod
    def _now_known(seat: SeatState, shown: list[Tile], action: Action) -> None:
        """A hand shown is known from then on, its marked copies with it."""
        seat.known, seat.unknown = [shown.count(tile) for tile in range(NUM_TILE_IDS)], 0
        seat.marked = dict(Counter(action.revealed_marked))

    def in_opening(self) -> bool:
        """Before the first discard and claim of a hand whose ruleset pays on the dealt hands (``opening_win``:
        Changsha 起手胡, Hubei 独抬庄)."""
        return self.ruleset.pays_openings and self.discards_made == 0 and self.claims_made == 0

    def _show_opening(self, action: Action) -> list[str]:
        """A seat shows its dealt hand for an opening win (the players at a table that sees only backs show what
        pays): its part of the opening settlement is paid as a full referee pays it at the deal, and its tiles are
        known from then on. A hand that pays nothing is refused (a wrong claim)."""
        if action.seat in self.opening_shown:
            raise IllegalAction(f"seat {action.seat} has shown his dealt hand already")
        shown = self._revealed(action)
        payments = self.ruleset.opening_win(shown, action.seat, self.dealer)
        if payments is None:
            tiles = self.ruleset.format_tiles(sorted(shown))
            raise IllegalAction(f"seat {action.seat}'s dealt hand {tiles} wins nothing at the opening")
        self._now_known(self.seats[action.seat], shown, action)
        self.opening_shown |= {action.seat}
        self.settlements.append(payments)
        return ["dealt hand shown: an opening win paid"]

    def _settle_when_seen(self, records: list[WinRecord], discarder: int | None, *, robbing: bool) -> list[str]:
        """Settle the wins (of ``discarder``'s tile, or self-drawn) once the wall's faces they need are read: at a
        table that sees only backs the hand waits for them in phase ``faces`` (``ActionKind.FACE``), and the wins
        are scored again with them."""
        wanted = self.faces_wanted([record.seat for record in records])
        hands = self._hands_wanted(discarder, robbing)
        if wanted or hands:
            self.held = (self.phase, records, discarder, robbing)
            self.phase = Phase.FACES
            return [
                f"waiting for the wall's faces at places {wanted}" if wanted else f"waiting for seats {hands}'s hands"
            ]
        if discarder is None:
            return self._finish(records, None)
        return self._end_with_wins(records, discarder, self.offer, robbing=robbing)  # type: ignore[arg-type]

    def hands_wanted(self) -> list[int]:
        """The concealed hands the held win needs shown (``_hands_wanted``)."""
        return [] if self.held is None else self._hands_wanted(self.held[2], self.held[3])

    def _hands_wanted(self, discarder: int | None, robbing: bool) -> list[int]:
        """Where a win's payments depend on whether a loser's concealed hand was ready
        (``Ruleset.pays_on_hidden_readiness``: Harbin's 出冲 包付), the discarder's hand while the table has not seen
        it: he lays it down beside the win."""
        if not self.ruleset.pays_on_hidden_readiness or discarder is None or robbing:
            return []
        return [discarder] if self.seats[discarder].unknown else []

    def _settle_held(self) -> list[str]:
        """The faces a held win needs are read: score it again with them and settle it."""
        assert self.held is not None
        phase, records, discarder, robbing = self.held
        self.phase, self.held = phase, None
        later = self.ruleset.later_winner_facts()
        records = [self._rescored(record, later if number else {}) for number, record in enumerate(records)]
        return self._settle_when_seen(records, discarder, robbing=robbing)

    def _rescored(self, record: WinRecord, facts: Mapping[str, Any] = MappingProxyType({})) -> WinRecord:
        """``record`` scored again with the facts the ruleset reads now (the state is the one it was declared in,
        but for the wall's faces read since), and ``facts`` over them (``Ruleset.later_winner_facts``)."""
        extra = {**record.context.extra, **self._bird_facts(), **self.ruleset.win_facts(self, record.seat), **facts}
        context = replace(record.context, extra=extra)
        return replace(record, context=context, score=self.ruleset.evaluate(record.hand, context))

    # --- the wall's faces --------------------------------------------------------------------------------

    def faces_up(self, winners: Sequence[int] = ()) -> list[int]:
        """The wall's places (head-order indices) whose faces the table shows now: the wildcard indicators turned
        face up (Hubei's 赖子, 推倒胡's 鬼牌: not Harbin's 宝, which lies face down), the bonus indicators turned
        (``Ruleset.bonus_indicators``), and at a win (``winners``, or the win waiting in phase ``faces``): the tiles
        under the bonus indicators where the rule reads those at a ready seat's win, the birds (扎鸟, the next
        live tiles) and every seat's horses (买马)."""
        if self.held is not None:
            winners = [record.seat for record in self.held[1]]
        places = self.indicator_places() + self._bonus_places(winners)
        if winners:
            places += self._bird_places() if self.ruleset.bird_count else []
            places += [place for seat in sorted(self.horse_places) for place in self.horse_places[seat]]
        return places

    def indicator_places(self) -> list[int]:
        """The places of the wildcard indicators turned face up (the current one last)."""
        rule = self.ruleset.wildcards
        if rule is None or rule.source is not WildcardSource.SUCCESSOR:
            return []
        return [removal.index for removal in self.wall.state.removed if removal.source is Source.INDICATOR]

    def face_down_places(self) -> list[int]:
        """The places of a wildcard that lies face down (Harbin's 宝), the current one last: a player turns it up to
        show it, at 换宝 (which replaces it) and at a self-drawn win (which it may make 摸宝); a table that sees only
        backs learns its face so (``face``), and replaces it as a full referee does once it is known."""
        rule = self.ruleset.wildcards
        if rule is None or rule.source is not WildcardSource.FACE:
            return []
        return [removal.index for removal in self.wall.state.removed if removal.source is Source.INDICATOR]

    def unread_indicators(self) -> list[int]:
        """The wildcard indicators turned up and not read yet: play waits for them (every wildcard depends on it)."""
        faces = self.wall.state.faces
        return [place for place in self.indicator_places() if faces[place] is None]

    def _bonus_places(self, winners: Sequence[int]) -> list[int]:
        """The bonus indicators turned, and the tiles under them at a win of a seat that declared ready where the
        rule reads those (riichi's ura dora)."""
        rule = self.ruleset.bonus_indicators
        if rule is None:
            return []
        shown = [self.wall.state.stack_from_tail(rule.first_stack + k) for k in range(self.bonus_turned)]
        under = rule.under_when_ready and any(seat in self.ready for seat in winners)
        return [stack[0] for stack in shown] + ([stack[1] for stack in shown] if under else [])

    def faces_wanted(self, winners: Sequence[int] = ()) -> list[int]:
        """The places of ``faces_up`` whose faces the referee has not seen yet (none with full information)."""
        faces = self.wall.state.faces
        return [place for place in self.faces_up(winners) if faces[place] is None]

    def _face(self, action: Action) -> list[str]:
        """A face of the wall read where it lies (``ActionKind.FACE``): it must be turned up, of the wall of the
        seat named, agree with a face seen there before, and be no copy too many."""
        tile, place, state = self._tile(action), action.place, self.wall.state
        if place is None or not 0 <= place < len(state.faces):
            raise IllegalAction(f"a face names its place in the wall, 0-{len(state.faces) - 1}: got {place}")
        up = self.faces_up()
        if place not in up and place not in self.face_down_places():
            raise IllegalAction(f"wall place {place} is not turned up: the faces up are at places {up}")
        wall_of = state.positions[place].wall_of_seat
        if action.seat != wall_of:
            raise IllegalAction(f"wall place {place} is in seat {wall_of}'s wall, not seat {action.seat}'s")
        seen = state.faces[place]
        if seen is not None:
            if seen != tile:
                raise IllegalAction(f"wall place {place} shows the {self._code(seen)}, not the {self._code(tile)}")
            return [f"face at wall place {place} seen again"]
        self._check_visible(tile, 1, f"the face at wall place {place}")
        self.wall.state = replace(state, faces=tuple(tile if i == place else f for i, f in enumerate(state.faces)))
        return [f"{self._code(tile)} face up at wall place {place}", *self._settle_if_seen()]

    def _settle_if_seen(self) -> list[str]:
        """A held win settled once everything it waits for is seen."""
        if self.phase is Phase.FACES and not self.faces_wanted() and not self.hands_wanted():
            return self._settle_held()
        return []

    def _end_with_wins(self, records: list[WinRecord], discarder: int, tile: Tile, *, robbing: bool) -> list[str]:
        winners = [record.seat for record in records]
        if not robbing:
            self.seats[discarder].discards.pop()
            self.seats[discarder].marked_river -= self.offer_marked
        # The tile physically goes to the first winner (the others show theirs).
        self.seats[winners[0]].add(tile, self.offer_marked)
        self.declaring = None
        return self._finish(records, discarder)

    def _finish(self, records: list[WinRecord], discarder: int | None) -> list[str]:
        self.wins = [*self.wins, *records]
        self.win_events.append(Win(tuple(record.seat for record in records), discarder))
        self.settlements.append(self.ruleset.settle_wins([record.score for record in records]))
        if self.on_table:  # the first winner takes the stakes lying on the table (riichi sticks)
            first = records[0].seat
            self.settlements.append({seat: self.on_table if seat == first else 0 for seat in range(SEATS)})
            self.collected += self.on_table
        events = [f"seat {record.seat} hu" for record in records]
        if not self.ruleset.hand_continues_after_win:
            return self._close(events)
        self.players_out += [record.seat for record in records]
        if len(self.players_out) >= SEATS - 1:
            return self._close(events)
        if self.wall.exhausted:
            return self._end_drawn(events)
        follower = next(
            s for s in (self._next(records[-1].seat, k) for k in range(1, SEATS)) if s not in self.players_out
        )
        self.phase, self.turn = Phase.DRAW, follower
        self.offer, self.offer_seat, self.responses, self.declared = None, None, {}, {}
        return [*events, "play goes on"]

    def _end_drawn(self, events: list[str]) -> list[str]:
        """The live wall is empty: the players still in are settled as a drawn hand."""
        ready = self.ready_seats() if self.ruleset.counts_ready_at_draw else None
        context = DrawContext(
            self.dealer,
            self.consecutive_dealer,
            self.round_wind,
            tuple(self.players_out),
            extra={**self._draw_facts(ready), **self.ruleset.draw_facts(self)},
        )
        payments = self.ruleset.settle_draw(context)
        self.settlements.append(payments if payments is not None else no_payments())
        return self._close([*events, "drawn game"], ready)

    def ready_seats(self) -> tuple[int, ...] | None:
        """The seats still in whose hand waits on a tile (听牌); ``None`` while a hand still in is unseen."""
        seats = [seat for seat in range(SEATS) if seat not in self.players_out]
        if any(self.seats[seat].unknown for seat in seats):
            return None
        return tuple(seat for seat in seats if self._waits(self.seats[seat].melds, self.seats[seat].concealed_tiles()))

    def _draw_facts(self, ready: tuple[int, ...] | None) -> dict[str, Any]:
        """The hand's kongs, the seats ready where the ruleset counts them (``ready``), and, when every hand still
        in is known (full information, or shown: ``show``), every seat as the settle contract describes it at a
        draw (Sichuan 查花猪 / 查大叫 / 退税)."""
        facts: dict[str, Any] = {"kongs": [dict(kong) for kong in self.kongs]}
        if ready is not None:
            facts["ready"] = list(ready)
        if all(not self.seats[seat].unknown for seat in range(SEATS) if seat not in self.players_out):
            facts["seats"] = {str(seat): self._seat_fact(seat) for seat in range(SEATS)}
        return facts

    def _seat_fact(self, seat: int) -> dict[str, Any]:
        if seat in self.players_out:
            return {"status": "won"}
        state = self.seats[seat]
        fact = {
            "status": "in",
            "hand": self.ruleset.format_tiles(state.concealed_tiles()),
            "melds": [contract_meld(meld) for meld in state.melds],
        }
        if seat in self.void_suits:
            fact["void_suit"] = self.void_suits[seat]
        return fact

    def void(self) -> Verdict:
        """The table gives the hand up (the dealer's call when the table cannot follow the play, e.g. after a tile
        the camera misread): it ends with no win and no payment, every payment made during it annulled (kong money,
        penalties). It counts as a drawn hand for the dealer's rotation."""
        if self.phase is Phase.OVER:
            return Verdict(False, "the hand is over")
        self.result = HandResult((), no_payments())
        self.phase = Phase.OVER
        return Verdict(True, events=("hand voided",))

    def _close(self, events: list[str], ready: tuple[int, ...] | None = None) -> list[str]:
        payments = combine(*self.settlements, *self.penalties)
        pot_change = self.deposits - self.collected
        self.result = HandResult(tuple(self.win_events), payments, pot_change, ready, self.abortive)
        self.phase = Phase.OVER
        return events

    # --- helpers -----------------------------------------------------------------------------------------

    @staticmethod
    def _next(seat: int | None, k: int = 1) -> int:
        assert seat is not None
        return (seat + k) % SEATS

    def _code(self, tile: Tile) -> str:
        """A tile's code in the ruleset's notation (十万 writes its own faces)."""
        return self.ruleset.tile_code(tile)

    @staticmethod
    def _tile(action: Action) -> Tile:
        if action.tile is None:
            raise IllegalAction(f"a {action.kind.value} names its tile")
        return action.tile

    def _visible_count(self, tile: Tile) -> int:
        """Copies of ``tile`` the whole table can see: rivers, melds, flowers set aside, flipped indicators (and
        bonus indicators), and the tile on offer when it is an added kong's fourth tile."""
        count = sum(seat.discards.count(tile) + seat.flowers.count(tile) for seat in self.seats)
        count += sum(meld.tiles.count(tile) for seat in self.seats for meld in seat.melds)
        faces = self.wall.state.faces
        shown = set(self.faces_up()) - set(self.indicator_places())  # the indicators are counted once, above
        count += self.wall.indicators.count(tile) + sum(faces[place] == tile for place in shown)
        if self._kong_on_offer and self.offer == tile:
            count += 1
        return count

    @property
    def _kong_on_offer(self) -> bool:
        """An added kong's fourth tile is on offer: to be robbed, or robbed by a win waiting for wall faces."""
        return self.phase is Phase.ROB or (self.held is not None and self.held[3])

    def _check_visible(self, tile: Tile, adding: int, what: str) -> None:
        """With partial information a face coming into view must not make more copies than the set holds."""
        if self.full_information:
            return
        copies = self.ruleset.tile_set.copies[tile]
        seen = self._visible_count(tile)
        if seen + adding > copies:
            raise IllegalAction(f"{what}: {seen + adding} copies of {self._code(tile)} seen, the set has {copies}")

    # --- views -------------------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action now, for every seat (full information): bots choose from it, tests check that
        exactly these are accepted."""
        candidates: list[Action] = []
        if self.phase is Phase.DECLARE:
            candidates += [
                Action(ActionKind.DECLARE_VOID, seat, t) for seat in self.undeclared_seats() for t in range(27)
            ]
        elif self.phase is Phase.DRAW:
            candidates.append(Action(ActionKind.DRAW, self.turn))
        elif self.phase is Phase.ACT:
            seat = self.seats[self.turn]
            held = [tile for tile in range(NUM_TILE_IDS) if seat.known[tile]]
            for kind in (
                ActionKind.DISCARD,
                ActionKind.READY,
                ActionKind.FLOWER,
                ActionKind.CONCEALED_KONG,
                ActionKind.ADDED_KONG,
            ):
                candidates += [Action(kind, self.turn, tile) for tile in held]
            candidates += [Action(ActionKind.HU, self.turn), Action(ActionKind.HU, self.turn, self.last_drawn)]
            candidates.append(Action(ActionKind.ABORT, self.turn))
        elif self.phase in (Phase.CLAIMS, Phase.ROB):
            for seat in self.answering_seats():
                candidates += [Action(kind, seat) for kind in (ActionKind.PASS, ActionKind.HU)]
                if self.phase is Phase.CLAIMS:
                    candidates += [Action(kind, seat) for kind in (ActionKind.PUNG, ActionKind.KONG)]
                    low = self.offer - 2  # type: ignore[operator]
                    candidates += [Action(ActionKind.CHI, seat, t) for t in range(max(low, 0), self.offer + 1)]  # type: ignore[operator]
            if self.phase is Phase.CLAIMS and not self.responses:
                candidates.append(Action(ActionKind.DRAW, self.answering_seats()[0]))
        return [action for action in candidates if self.is_legal(action)]

    def would_win(self, seat: int) -> bool:
        """Whether a win declared by ``seat`` now would be a true win (not a penalised false one)."""
        snapshot = self._snapshot()
        verdict = self.apply(Action(ActionKind.HU, seat))
        # Won at once (the hand over, or going on without him: 血战), or a win recorded on the offer still open.
        won = verdict.ok and any(record.seat == seat for record in self.wins)
        won = won or (verdict.ok and self.responses.get(seat, Action(ActionKind.PASS, seat)).kind is ActionKind.HU)
        self._restore(snapshot)
        return won

    def is_legal(self, action: Action) -> bool:
        """Whether ``apply(action)`` would be accepted, without changing anything."""
        snapshot = self._snapshot()
        verdict = self.apply(action)
        self._restore(snapshot)
        return verdict.ok

    def _snapshot(self) -> tuple[Any, ...]:
        seats = [
            (
                *(list(s.known), s.unknown, list(s.melds), list(s.discards), list(s.flowers), list(s.played)),
                *(dict(s.marked), s.marked_shown, s.marked_river),
            )
            for s in self.seats
        ]
        offer = (self.offer, self.offer_seat, dict(self.responses), dict(self.declared))
        fields = (self.phase, self.turn, *offer, self.last_drawn)
        flags = (self.may_win_by_draw, self.after_kong, self.discards_made, self.claims_made)
        progress = (
            dict(self.void_suits),
            list(self.players_out),
            list(self.win_events),
            list(self.settlements),
            [dict(kong) for kong in self.kongs],
            {seat: set(tiles) for seat, tiles in self.missed_wins.items()},
        )
        declarations = (dict(self.ready), self.declaring, self.deposits, self.collected, set(self.missed_for_hand))
        table = (self.bonus_turned, self.bonus_pending, self.offer_marked, self.claimed, self.abortive, self.held)
        table += (self.opening_shown,)
        return (
            seats,
            fields,
            flags,
            self.wall.state,
            len(self.history),
            list(self.wins),
            self.result,
            list(self.penalties),
            progress,
            declarations,
            table,
        )

    def _restore(self, snapshot: tuple[Any, ...]) -> None:
        seats, fields, flags, wall_state, history, wins, result, penalties, progress, declarations, table = snapshot
        self.void_suits, self.players_out, self.win_events, self.settlements, self.kongs, self.missed_wins = progress
        self.ready, self.declaring, self.deposits, self.collected, self.missed_for_hand = declarations
        self.bonus_turned, self.bonus_pending, self.offer_marked, self.claimed, self.abortive, self.held = table[:6]
        self.opening_shown = table[6]
        for seat, saved in zip(self.seats, seats, strict=True):
            seat.known, seat.unknown, seat.melds, seat.discards, seat.flowers, seat.played = saved[:6]
            seat.marked, seat.marked_shown, seat.marked_river = saved[6:]
        self.phase, self.turn, self.offer, self.offer_seat, self.responses, self.declared, self.last_drawn = fields
        self.may_win_by_draw, self.after_kong, self.discards_made, self.claims_made = flags
        self.wall.state, self.wins, self.result, self.penalties = wall_state, wins, result, penalties
        del self.history[history:]

    def tile_balance(self) -> dict[str, int]:
        """Where every tile is: the wall, the hands, rivers, melds, flowers, indicators, the tile held out by an
        added kong. The parts always add up to the tile set (``check_balance``)."""
        state = self.wall.state
        return {
            "wall": state.remaining,
            "hands": sum(seat.size for seat in self.seats),
            "discards": sum(len(seat.discards) for seat in self.seats),
            "melds": sum(len(meld.tiles) for seat in self.seats for meld in seat.melds),
            "flowers": sum(len(seat.flowers) for seat in self.seats),
            "indicators": len(self.wall.indicators),
            "horses": sum(len(tiles) for tiles in self.horses.values()),
            "kong_on_offer": int(self._kong_on_offer),
        }

    def check_balance(self) -> None:
        """Raise ``AssertionError`` if the tiles do not add up to the set (and, with full information, if any
        tile is in play more often than the set holds it)."""
        balance = self.tile_balance()
        total = sum(balance.values())
        if total != self.ruleset.tile_set.size:
            raise AssertionError(f"tiles do not balance: {balance} = {total}, the set has {self.ruleset.tile_set.size}")
        if self.full_information:
            counts = [0] * NUM_TILE_IDS
            state = self.wall.state
            for index in state.standing():
                counts[state.faces[index]] += 1  # type: ignore[index]
            for tile in [*self.wall.indicators, *(tile for tiles in self.horses.values() for tile in tiles)]:
                counts[tile] += 1  # type: ignore[index]
            for seat in self.seats:
                for tile in range(NUM_TILE_IDS):
                    counts[tile] += seat.known[tile]
                for tile in seat.discards + seat.flowers:
                    counts[tile] += 1
                for meld in seat.melds:
                    for tile in meld.tiles:
                        counts[tile] += 1
            if self.phase is Phase.ROB:
                counts[self.offer] += 1  # type: ignore[index]
            if counts != list(self.ruleset.tile_set.copies):
                raise AssertionError("tile multiset differs from the set")
            self._check_marked()

    def _check_marked(self) -> None:
        """Every marked copy (red five) is somewhere: standing in the wall, held, shown, in a river, on offer."""
        state, expected = self.wall.state, len(self.ruleset.tile_set.marked)
        if not expected:
            return
        marked = len(state.marked - {removal.index for removal in state.removed})
        marked += sum(seat.marked_held() + seat.marked_river for seat in self.seats)
        marked += self.phase is Phase.ROB and self.offer_marked
        if marked != expected:
            raise AssertionError(f"{marked} marked copies in play, the set has {expected}")

    def to_dict(self) -> dict[str, Any]:
        """The public state, for display, logs and tests."""
        return {
            "ruleset": self.ruleset.id,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "turn": self.turn,
            "offer": None if self.offer is None else self._code(self.offer),
            "offer_seat": self.offer_seat,
            "responses": {str(seat): action.to_dict() for seat, action in sorted(self.responses.items())},
            "seats": [seat.to_dict(self.ruleset.format_tiles, self.ruleset.format_meld) for seat in self.seats],
            "wall": {"live_remaining": self.wall.live_remaining, "state": self.wall.to_dict()},
            "flags": {
                "after_kong": self.after_kong,
                "may_win_by_draw": self.may_win_by_draw,
                "discards_made": self.discards_made,
                "claims_made": self.claims_made,
            },
            "wins": [record.to_dict(self.ruleset.format_hand) for record in self.wins],
            "void_suits": {str(seat): suit for seat, suit in sorted(self.void_suits.items())},
            "players_out": list(self.players_out),
            "kongs": [dict(kong) for kong in self.kongs],
            "penalties": [{str(seat): amount for seat, amount in penalty.items()} for penalty in self.penalties],
            "ready": {str(seat): ready.to_dict() for seat, ready in sorted(self.ready.items())},
            "on_table": self.on_table,
            "bonus_indicators": self.ruleset.format_tiles(t for t in self.bonus_indicators() if t is not None),
            "result": None if self.result is None else self.result.to_dict(),
        }
