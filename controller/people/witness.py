"""The witness: turns what a camera table shows (``controller.people.sights``) and its seat buttons' presses into the
actions of an observing referee (``Referee.observe``), so that people play a hand the service referees.

People follow the procedure written in ``controller.people.tablemodel``. The witness is a pure function of the sights
and presses fed to it (no clock, no randomness): the service journals them and rebuilds a hand after a crash by
feeding them again. Each sight or press answers with ``Ruling``s: the actions it made and the referee's
verdicts, or (action ``None``) why it made none, to be shown to the players.

How it reads the table:

- A discard brings the referee to the discarder's turn first: an open offer is closed (nobody pressed and the
  discarder is next to draw: his draw closes it; else every seat still to answer answers, a ready presser his
  claim, the others pass), then he draws when it is his turn to draw.
- A claim press waits for the presser's row: three of the offered tile make a pung, four a kong, a run with it a
  chi; a hu press waits for the hand laid down (the discard in it for the first winner). Claims are resolved as
  soon as every presser is ready or a ready one outranks every unready one (hu > pung / kong > chi; while a pung or
  kong is ready another presser can only want a chi), else when play moves on or at a quiet window.
- A row without a press, in the seat's turn: four of a kind is a concealed kong, a tile matching an exposed pung
  an added kong. A flower put into a discard zone is set aside (in the opening out of turn too, as the referee
  allows).
- A hu press in one's turn (or as the next to draw) waits for the row: the tile laid last beside the old row is
  the winning tile of a self-drawn win. A ``taken`` of the discard before it tells a win on that discard.
- Void suits (定缺) are counted presses: one for m, two for p, three for s, applied at the quiet window.
- A quiet window closes what ``waiting`` names; on the last tile that is how a hand ends drawn. Hands laid down on
  the last discard without a press are shown to the referee (``show``) for the drawn hand's settlement (查叫).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from controller.people.sights import Sight, SightKind
from controller.people.tablemodel import VOID_PRESSES
from controller.service.inputs import Button, Press
from engine.actions import Action, ActionKind, Verdict
from engine.referee import SEATS, Phase, Referee
from engine.rulesets.base import MultipleWinners, Ruleset
from engine.tiles import Tile, format_tiles, is_flower, is_suited, make_tile, tile_code

_OFFER = (Phase.CLAIMS, Phase.ROB)
_VOID_OF_PRESSES = {presses: make_tile(suit, 1) for suit, presses in VOID_PRESSES.items()}
_RANK = {ActionKind.HU: 0, ActionKind.KONG: 1, ActionKind.PUNG: 1, ActionKind.CHI: 2}
"""Claim priority as the witness resolves early: hu, then pung / kong, then chi (the referee still picks)."""


@dataclass(frozen=True)
class Ruling:
    """What a sight or press did: an action and the referee's verdict, or (``action`` None) why it made none."""

    action: Action | None
    verdict: Verdict


@dataclass
class _Claim:
    """A seat's press on the tile on offer, and the answer its row has made ready."""

    button: Button
    ready: Action | None = None


def _refusal(reason: str) -> Ruling:
    return Ruling(None, Verdict(False, reason))


def laid_tiles(row: tuple[Tile, ...], exposed: Counter[Tile]) -> list[Tile]:
    """The tiles of ``row`` beyond the ``exposed`` ones, in row order. The old row stands at the right end, so it
    is matched from the right: what a player lays down at the left keeps its order (the winning tile last)."""
    left = Counter(exposed)
    laid: list[Tile] = []
    for tile in reversed(row):
        if left[tile] > 0:
            left[tile] -= 1
        else:
            laid.append(tile)
    return laid[::-1]


class Witness:
    """Drives ``referee`` (an observing one) from a camera table's sights and its seat buttons' presses."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self._claims: dict[int, _Claim] = {}
        """Presses on the tile on offer, by seat."""
        self._taken = False
        """Whether the discard on offer was seen taken out of its zone (a win on it, not a self-draw)."""
        self._self_hu: int | None = None
        """A seat that pressed hu in its turn and has not laid its hand down yet."""
        self._self_win: Action | None = None
        """A self-drawn win on the last tile, held until the hands left standing are shown (查叫 in a 血战 hand)."""
        self._void_presses: Counter[int] = Counter()

    @property
    def waiting(self) -> str | None:
        """What a quiet window would settle now; None when a quiet changes nothing."""
        referee = self.referee
        if referee.phase is Phase.OVER:
            return None
        if referee.phase is Phase.DECLARE:
            return f"void declarations of seats {referee.undeclared_seats()}"
        if self._self_hu is not None:
            return f"seat {self._self_hu}'s hu: his hand is not laid down"
        if self._self_win is not None:
            return f"the hands left standing beside seat {self._self_win.seat}'s hu on the last tile"
        if referee.phase in _OFFER:
            return f"claims on seat {referee.offer_seat}'s {tile_code(referee.offer)}"  # type: ignore[arg-type]
        return None

    # --- inputs ------------------------------------------------------------------------------------------

    def seen(self, sight: Sight) -> list[Ruling]:
        """Take one camera sight; after the hand is over nothing the camera sees changes it."""
        if self.referee.phase is Phase.OVER:
            return []
        if sight.kind is SightKind.QUIET:
            return self._quiet()
        if not 0 <= sight.seat < SEATS:
            return [_refusal(f"a {sight.kind.value} sight names seat {sight.seat}: expected a seat 0-3")]
        if sight.kind is SightKind.TAKEN:
            self._note_taken(sight)
            return []
        if sight.kind is SightKind.DISCARD:
            if len(sight.tiles) != 1:
                return [_refusal(f"a discard sight of seat {sight.seat} holds {len(sight.tiles)} tiles, not one")]
            if is_flower(sight.tiles[0]):
                return self._flower(sight.seat, sight.tiles[0])
            rulings = self._abandon_self_hu()
            rulings += self._bring_to_turn(sight.seat)
            return [*rulings, self._apply(Action(ActionKind.DISCARD, sight.seat, sight.tiles[0]))]
        return self._row(sight.seat, sight.tiles)

    def pressed(self, press: Press) -> list[Ruling]:
        """Take a seat button's claim (short) or hu (held) press; lift and dice presses are the service's."""
        referee, seat = self.referee, press.seat
        if press.button not in (Button.CLAIM, Button.HU):
            return []
        if not 0 <= seat < SEATS:
            return [_refusal(f"a press of seat {seat}: expected a seat 0-3")]
        if referee.phase is Phase.OVER:
            return [_refusal(f"seat {seat} pressed {press.button.value}, but the hand is over")]
        if referee.phase is Phase.DECLARE:
            return self._declaring(press)
        on_offer = referee.phase in _OFFER and seat in referee.answering_seats() and seat not in referee.responses
        if press.button is Button.CLAIM:
            if not on_offer:
                return [_refusal(f"seat {seat} pressed claim, but no tile is on offer to him")]
            if referee.phase is Phase.ROB:
                return [_refusal(f"seat {seat} pressed claim, but an added kong is robbed only by a hu (held press)")]
            self._claims.setdefault(seat, _Claim(Button.CLAIM))
            return []
        if on_offer:
            claim = self._claims.get(seat)
            if claim is None or (claim.button is Button.CLAIM and claim.ready is None):
                self._claims[seat] = _Claim(Button.HU)
            return []
        if seat == self._next_to_move():
            self._self_hu = seat
            return []
        return [_refusal(f"seat {seat} pressed hu, but it is not his turn and no tile is on offer to him")]

    # --- the sights --------------------------------------------------------------------------------------

    def _quiet(self) -> list[Ruling]:
        """The claim window passed with nothing seen or pressed: close what ``waiting`` names."""
        if self.referee.phase is Phase.DECLARE:
            return self._settle_declarations()
        if self._self_hu is not None:
            return self._abandon_self_hu()
        if self._self_win is not None:
            return [self._apply(self._self_win)]
        if self.referee.phase in _OFFER:
            return self._close_offer()
        return []

    def _note_taken(self, sight: Sight) -> None:
        referee = self.referee
        if referee.phase is Phase.CLAIMS and sight.seat == referee.offer_seat and sight.tiles == (referee.offer,):
            self._taken = True

    def _row(self, seat: int, row: tuple[Tile, ...]) -> list[Ruling]:
        """A seat's row changed: a presser's meld or hand, a self-drawn hand, or a move of his own."""
        referee = self.referee
        if seat in referee.players_out:
            return []
        state = referee.seats[seat]
        exposed = Counter(tile for meld in state.melds for tile in meld.tiles) + Counter(state.flowers)
        if referee.phase is Phase.ROB and seat == referee.offer_seat:
            exposed[referee.offer] += 1  # type: ignore[index]
        laid = laid_tiles(row, exposed)
        if not laid:
            return []
        claim = self._claims.get(seat) if referee.phase in _OFFER else None
        if claim is not None and claim.button is Button.CLAIM:
            return self._meld_shown(seat, claim, laid)
        if claim is not None:
            return self._hand_shown(seat, claim, laid)
        if self._self_hu == seat:
            return self._self_drawn_win(seat, laid)
        winner = None if self._self_win is None else self._self_win.seat
        if referee.wall.exhausted and (referee.phase is Phase.CLAIMS or winner is not None) and seat != winner:
            return self._shown_at_draw(seat, laid)
        return self._own_move(seat, laid)

    def _shown_at_draw(self, seat: int, laid: list[Tile]) -> list[Ruling]:
        """A hand laid down without a press once the live wall is empty: shown to the referee, which settles a drawn
        hand on the hands left standing (查叫); once they are all shown the last discard (or the win held on the
        last tile) is settled."""
        rulings = [self._apply(Action(ActionKind.SHOW, seat, revealed=tuple(sorted(laid))))]
        if self._self_win is None:
            return rulings + self._resolve_when_decided()
        if not self._standing_unshown({self._self_win.seat}):
            win, self._self_win = self._self_win, None
            rulings.append(self._apply(win))
        return rulings

    def _standing_unshown(self, winners: set[int]) -> bool:
        """Whether hands still to be settled as drawn are hidden: once the live wall is empty, the players left in
        after ``winners`` (when the hand goes on after a win, and at least two are left) are settled on their hands."""
        referee = self.referee
        if not referee.wall.exhausted or (winners and not referee.ruleset.hand_continues_after_win):
            return False
        left = [seat for seat in range(SEATS) if seat not in referee.players_out and seat not in winners]
        return (not winners or len(left) > 1) and any(referee.seats[seat].unknown for seat in left)

    def _meld_shown(self, seat: int, claim: _Claim, laid: list[Tile]) -> list[Ruling]:
        offer = self.referee.offer
        assert offer is not None
        shown = sorted(laid)
        if shown == [offer] * 3:
            claim.ready = Action(ActionKind.PUNG, seat)
        elif shown == [offer] * 4:
            claim.ready = Action(ActionKind.KONG, seat)
        elif offer in shown and len(shown) == 3 and _is_run(shown):
            claim.ready = Action(ActionKind.CHI, seat, shown[0])
        else:
            why = f"no meld with the {tile_code(offer)} on offer"
            return [_refusal(f"seat {seat} pressed claim and showed {format_tiles(laid)}: {why}")]
        return self._resolve_when_decided()

    def _hand_shown(self, seat: int, claim: _Claim, laid: list[Tile]) -> list[Ruling]:
        """A hu presser's hand laid down: a win on the tile on offer, or (the next seat, the discard not taken) a
        self-drawn win after the draw nobody sees."""
        referee = self.referee
        offer, size = referee.offer, referee.seats[seat].size
        assert offer is not None
        with_offer = len(laid) == size + 1
        if with_offer and referee.phase is Phase.CLAIMS and not self._taken and seat == referee.answering_seats()[0]:
            del self._claims[seat]
            return self._self_drawn_win(seat, laid)
        held = sorted(laid)
        if with_offer and offer in held:
            held.remove(offer)
        elif len(laid) != size:
            return [_refusal(f"seat {seat} laid down {format_tiles(laid)}: the table counts {size} concealed tiles")]
        claim.ready = Action(ActionKind.HU, seat, revealed=tuple(held))
        return self._resolve_when_decided()

    def _self_drawn_win(self, seat: int, laid: list[Tile]) -> list[Ruling]:
        """The winning tile is the one laid last, next to the old row."""
        self._self_hu = None
        rulings = self._bring_to_turn(seat)
        win = Action(ActionKind.HU, seat, laid[-1], revealed=tuple(sorted(laid)))
        if self.referee.phase is Phase.ACT and self._standing_unshown({seat}):
            self._self_win = win
            return rulings
        return [*rulings, self._apply(win)]

    def _flower(self, seat: int, flower: Tile) -> list[Ruling]:
        """A flower put into the seat's discard zone is set aside (out of turn in the opening where the referee
        allows it)."""
        action = Action(ActionKind.FLOWER, seat, flower)
        rulings = [] if self.referee.is_legal(action) else self._bring_to_turn(seat)
        return [*rulings, self._apply(action)]

    def _own_move(self, seat: int, laid: list[Tile]) -> list[Ruling]:
        """A concealed kong, or the fourth tile beside an exposed pung."""
        referee, rulings = self.referee, []
        rest = sorted(laid)
        pungs = [meld.tile for meld in referee.seats[seat].melds if meld.tiles == (meld.tile,) * 3]
        if rest == [rest[0]] * 4:
            kind = ActionKind.CONCEALED_KONG
        elif len(rest) == 1 and rest[0] in pungs:
            kind = ActionKind.ADDED_KONG
        else:
            why = "not four of a kind nor a tile for an exposed pung, and no claim or hu was pressed"
            if any(is_flower(tile) for tile in rest):
                why += " (a flower goes into the discard zone)"
            return [*rulings, _refusal(f"seat {seat} showed {format_tiles(rest)}: {why}")]
        rulings += self._bring_to_turn(seat)
        return [*rulings, self._apply(Action(kind, seat, rest[0]))]

    # --- presses -----------------------------------------------------------------------------------------

    def _declaring(self, press: Press) -> list[Ruling]:
        seat = press.seat
        if press.button is not Button.CLAIM:
            return [_refusal(f"seat {seat} pressed hu, but the void suits are being declared (short presses)")]
        if seat in self.referee.void_suits:
            return [_refusal(f"seat {seat} has already declared {self.referee.void_suits[seat]} void")]
        self._void_presses[seat] += 1
        return []

    def _settle_declarations(self) -> list[Ruling]:
        rulings = []
        for seat in self.referee.undeclared_seats():
            presses = self._void_presses[seat]
            if presses in _VOID_OF_PRESSES:
                rulings.append(self._apply(Action(ActionKind.DECLARE_VOID, seat, _VOID_OF_PRESSES[presses])))
            elif presses:
                rulings.append(_refusal(f"seat {seat} pressed {presses} times: 1 declares m void, 2 p, 3 s"))
        self._void_presses.clear()
        return rulings

    def _abandon_self_hu(self) -> list[Ruling]:
        seat, self._self_hu = self._self_hu, None
        return [] if seat is None else [_refusal(f"seat {seat} pressed hu but laid no hand down")]

    # --- moving play on ----------------------------------------------------------------------------------

    def _bring_to_turn(self, seat: int) -> list[Ruling]:
        """Settle what is open (declarations, the offer) and draw for ``seat`` when it is his turn to draw."""
        referee, rulings = self.referee, []
        if referee.phase is Phase.DECLARE:
            rulings += self._settle_declarations()
        if referee.phase in _OFFER:
            nobody = not self._claims and referee.phase is Phase.CLAIMS and not referee.wall.exhausted
            if nobody and seat == referee.answering_seats()[0]:
                return [*rulings, self._apply(Action(ActionKind.DRAW, seat))]
            rulings += self._close_offer()
        if referee.phase is Phase.DRAW and referee.turn == seat:
            rulings.append(self._apply(Action(ActionKind.DRAW, seat)))
        return rulings

    def _next_to_move(self) -> int:
        """The seat whose turn comes when nobody claims: the seat in turn, the next to draw, or the konger."""
        referee = self.referee
        if referee.phase is Phase.CLAIMS:
            return referee.answering_seats()[0]
        if referee.phase is Phase.ROB:
            return referee.offer_seat  # type: ignore[return-value]
        return referee.turn

    def _resolve_when_decided(self) -> list[Ruling]:
        """Close the offer once no press still unready could beat the best ready one (and, on the last tile, the
        hands left standing are shown)."""
        winners = {seat for seat, claim in self._claims.items() if claim.ready and claim.ready.kind is ActionKind.HU}
        if self._standing_unshown(winners):
            return []
        order = self.referee.answering_seats()
        first = self.referee.ruleset.multiple_winners is MultipleWinners.FIRST

        def rank(seat: int, kind: ActionKind) -> tuple[int, int]:
            return _RANK[kind], order.index(seat) if first and kind is ActionKind.HU else 0

        ready = [rank(seat, claim.ready.kind) for seat, claim in self._claims.items() if claim.ready is not None]
        meld_ready = any(kind == _RANK[ActionKind.PUNG] for kind, _ in ready)
        wanted = ActionKind.CHI if meld_ready else ActionKind.PUNG  # the most an unready claim press can still be
        unready = [
            rank(seat, ActionKind.HU if claim.button is Button.HU else wanted)
            for seat, claim in self._claims.items()
            if claim.ready is None
        ]
        if unready and (not ready or min(ready) >= min(unready)):
            return []
        return self._close_offer()

    def _close_offer(self) -> list[Ruling]:
        """Every seat still to answer answers in turn order: a ready presser his claim, the others pass."""
        referee, rulings = self.referee, []
        for seat in referee.answering_seats():
            if referee.phase not in _OFFER:
                break
            claim = self._claims.get(seat)
            if claim is not None and claim.ready is not None:
                rulings.append(self._apply(claim.ready))
            elif claim is not None:
                shown = "laid no hand down" if claim.button is Button.HU else "laid no meld"
                rulings.append(_refusal(f"seat {seat} pressed {claim.button.value} but {shown}: he passes"))
            if referee.phase in _OFFER and seat not in referee.responses:
                rulings.append(self._apply(Action(ActionKind.PASS, seat)))
        return rulings

    def _apply(self, action: Action) -> Ruling:
        verdict = self.referee.apply(action)
        if self.referee.phase not in _OFFER or (
            verdict.ok and action.kind in (ActionKind.DISCARD, ActionKind.ADDED_KONG)
        ):
            self._claims, self._taken = {}, False
        return Ruling(action, verdict)


def _is_run(tiles: list[Tile]) -> bool:
    """Three suited tiles of one suit in sequence (sorted)."""
    low = tiles[0]
    return is_suited(low) and low % 9 <= 6 and tiles == [low, low + 1, low + 2]


def people_can_play(ruleset: Ruleset) -> str | None:
    """None when people can play ``ruleset`` at a camera table refereed by the witness, else every reason why not:
    what the ruleset needs and the camera never sees (faces in the wall, dealt hands). Rules the referee checks only
    on known hands (漏胡, Sichuan's 最后四张必须胡) do not refuse a ruleset: players keep them themselves."""
    reasons = []
    if not ruleset.played_by_referee:
        reasons.append("it is played on a table of its own, not under the shared referee")
    wildcards = ruleset.wildcards
    if wildcards is not None and wildcards.indicator is not None:
        reasons.append("its wildcard is told by a tile turned from the wall, which the camera never reads")
    if ruleset.horse_tiles:
        reasons.append("its horses (买马) are tiles kept face down out of the wall, which the camera never reads")
    if ruleset.bird_count:
        reasons.append("its birds (扎鸟) are read from the wall's faces, which the camera never sees")
    if type(ruleset).opening_settlement is not Ruleset.opening_settlement:
        reasons.append("it pays on the dealt hands at once (起手胡, 独抬庄), which the camera never sees")
    return "; ".join(reasons) or None
