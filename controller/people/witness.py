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
- A wall sight (a face turned up where it lies in the wall: an indicator, a tile under one at a ready win) is the
  referee's ``face`` at that place; one seen before the referee turns its place up is kept until it does. A win
  whose faces are not read yet waits for them (``waiting`` says where). While a wildcard indicator is turned up
  and not read, every other input is held (the referee allows no play before it: every wildcard depends on it) and
  taken in order once it is; the indicator's reading is shown to the dealer to confirm (one short press) or
  correct until the first discard, however sure the camera was (``unsure``). The faces a waiting win needs (birds,
  horses, the tiles under riichi's indicators) are held once read, shown to their seats, and the win is settled on
  them at the quiet window after the last: a misread one conflicts with nothing, so only a seat's word mends it.
- Where a wildcard in the hand stands for any tile (``confirms_wins``), a winning hand misread still wins: the win is
  tried (a false one is refused at once), then held, its hand shown to its winner, and paid at the quiet window. So
  is a win anywhere whose hand laid down the camera was unsure of (``in_doubt``): two unsure tiles of a hand can be
  misread into another winning hand, which conflicts with nothing. A
  hand a win needs shown (Harbin's discarder's) is held so too; a self-drawn win laid down before the face-down 宝 is
  read waits for it (it may be 摸宝).
- A discard laid sideways by a seat whose button was held since his last discard (in his turn, or while the tile
  before his draw was on offer to him: that press is then no claim) is a ready declaration (``ready``).
- Marked copies (red fives) the camera saw (``Sight.marked``) go with the moves that show them: a discard or a
  kong's tile is the marked copy, a claim's meld holds the claimant's own where it shows one more than the discard
  was, a hand laid down reveals its marked faces (without the marked discard it won on), so that the referee counts
  them at a win (赤ドラ) as a full one does. A mark on a tile read as another face (a healed reading) is dropped.
- Void suits (定缺) are counted presses: one for m, two for p, three for s, applied at the quiet window.
- A quiet window closes what ``waiting`` names; on the last tile that is how a hand ends drawn. Hands laid down on
  the last discard without a press are shown to the referee (``show``) for the drawn hand's settlement (查叫).

Misreads healed: a sight or press whose rulings hold a conflict (``Ruling.conflict``: a move the referee refuses, such
as a fifth copy or a flower in a set without flowers, a row that makes no move, a hand that is no win) makes the
witness try the camera's other readings (``Sight.choices``) of the sights of the last ``WINDOW`` inputs, most likely
first: it rewinds to the earliest sight it reads otherwise and plays the inputs again, and keeps the first reading
under which none of them conflicts (``heal``). A misread discard is seen when it is claimed or won (the meld or the
hand does not fit it), a misread row at once; a hand laid down out of order conflicts too, even when it makes a win
(people lay it sorted, the winning tile last), and its tile out of order may be read as one between its neighbours.
A taken tile read as the camera read the discard on offer is that discard, however it was read again or corrected.
When no reading helps, the conflicting sight and the discard on offer are kept open as doubtful, beside the readings
below ``UNSURE``: ``unsure`` lists them for the display, and their seat can say what they are, by a tap on the
display (a ``correct`` sight: the tiles it shows) or by short presses of his button while no tile is on offer to him
(``pick``: one press confirms the reading shown, two take the second choice of its least sure tile, three the third,
four the first again). A correction is taken as it is (never healed away) and the inputs after it are played again.
The witness stays a pure function of its inputs.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import combinations, pairwise
from typing import Any

from controller.people.sights import Sight, SightKind
from controller.people.tablemodel import VOID_PRESSES
from controller.service.inputs import Button, Press
from engine.actions import Action, ActionKind, Verdict
from engine.referee import SEATS, Phase, Referee
from engine.rulesets.base import MultipleWinners, Ruleset
from engine.rulesets.terms import WildcardSource
from engine.tiles import NUM_TILE_IDS, Tile, format_tiles, is_flower, make_tile, tile_code
from engine.tilesets import TileSet

_OFFER = (Phase.CLAIMS, Phase.ROB)
_VOID_OF_PRESSES = {presses: make_tile(suit, 1) for suit, presses in VOID_PRESSES.items()}
_RANK = {ActionKind.HU: 0, ActionKind.KONG: 1, ActionKind.PUNG: 1, ActionKind.CHI: 2}
"""Claim priority as the witness resolves early: hu, then pung / kong, then chi (the referee still picks)."""
WINDOW = 12
"""Inputs kept to be read again: enough to reach back from a winner's hand, past the presses and the take, to the
discard it won on (and the one before it: a flower read as a discard shows at the next discard)."""
MAX_TRIES = 48
"""Other readings tried per conflict, most likely first: each costs a replay of at most ``WINDOW`` inputs."""
BUDGET = 1200
"""Inputs played again per hand at most: a table the witness has lost (every input conflicts) is shown for its
seats to correct instead of searched at every frame (a count, so that a replay of the journal heals the same)."""
PAIRED = 10
"""The most likely single changes combined two at a time (two misreads in one hand laid down)."""
_FLOOR = 1e-6
"""Probabilities below this count as this (a reading the recogniser all but ruled out)."""
_HEALED = (SightKind.DISCARD, SightKind.ROW, SightKind.WALL)
"""The sights the witness reads again (a taken tile is matched against all its readings)."""
KNOWN_COST = 0.5
"""The cost (log odds) of reading a row's tile as the tile the seat's row already showed at that place: the table
knows it, so it is nearly as likely as the camera's first reading (the row may have grown on either side)."""
FIT_COST = 2.5
"""The cost of reading a discard as a tile of a row laid after it (the meld or hand it was claimed into): what the
table shows for it, though not among the camera's choices."""
ORDER_COST = 1.0
"""The least cost of reading a tile of a hand laid down out of order as a tile that puts it in order (people lay a
hand sorted, ``controller.people.tablemodel``): the tiles from its left neighbour's to its right neighbour's, at most
``ORDER_SPAN`` from either. To it adds how much surer the camera was of its reading than of any tile beyond its
choices (the probability left over): the tile out of order is the unsure one, not its surely read neighbour."""
ORDER_SPAN = 2
WHOLE_HAND = 13
"""Tiles laid at once without a press that can only be a whole concealed hand shown (an opening win, 九種九牌; a kong
lays four): the referee judges it on them."""


@dataclass(frozen=True)
class Ruling:
    """What a sight or press did: an action and the referee's verdict, or (``action`` None) why it made none.
    ``conflict``: the table cannot be as the camera read it (a refused move, a row that makes no move, a false win)."""

    action: Action | None
    verdict: Verdict
    conflict: bool = False


@dataclass
class _Claim:
    """A seat's press on the tile on offer, and the answer its row has made ready."""

    button: Button
    ready: Action | None = None
    in_doubt: bool = False
    """A hu whose hand was read in doubt (``in_doubt``): the win is held for the winner to confirm."""


@dataclass
class _Step:
    """One input kept to be read again: a sight (with the tiles it is taken as) or a press, the state before it and
    what it ruled."""

    sight: Sight | None
    press: Press | None
    reading: tuple[Tile, ...] = ()
    before: Any = None
    rulings: list[Ruling] = field(default_factory=list)
    pinned: bool = False
    """Its seat said what it shows (a correction or a pick): healing leaves it as it is."""
    doubtful: bool = False
    """In a conflict no other reading healed: shown for its seat to correct."""
    picks: int = 0
    old_row: tuple[Tile, ...] = ()
    """A row sight: the seat's row as last taken before it (its tiles are known, wherever the row grew)."""
    number: int = -1
    """A sight: its number among the hand's sights (from 0), by which the display and a correction name it."""
    indicator: bool = False
    """A wall sight of a wildcard indicator: every wildcard depends on it, so it is shown to the dealer to confirm
    or correct until the first discard, however sure the camera was (``Witness.unsure``)."""
    ordered: tuple[int, ...] = ()
    """A row sight that laid a hand down: the positions of the hand's tiles that lie sorted (all but the winning
    tile laid last), in row order."""
    won: bool = False
    """A row sight that laid down a hand a win is paid on: shown to its seat while the win is held (the winner's
    where ``Witness.confirms_wins``, Harbin's discarder's)."""
    healed: tuple[_Step, tuple[Tile, ...]] | None = None
    """Read otherwise to heal another input's conflict: that input, and the reading this one had before. When its
    seat corrects that input, the conflict was its misreading, and this reading goes back (``Witness._retell``)."""

    @property
    def conflicts(self) -> int:
        return sum(ruling.conflict for ruling in self.rulings)

    def open(self) -> bool:
        """Shown for its seat to confirm or correct: read below ``UNSURE``, or doubtful."""
        sight = self.sight
        return sight is not None and sight.kind in _HEALED and (self.doubtful or bool(sight.unsure()))


def _refusal(reason: str, conflict: bool = False) -> Ruling:
    return Ruling(None, Verdict(False, reason), conflict)


def _note(text: str) -> Ruling:
    return Ruling(None, Verdict(True, events=(text,)))


def laid_tiles(row: tuple[Tile, ...], exposed: Counter[Tile]) -> list[Tile]:
    """The tiles of ``row`` beyond the ``exposed`` ones, in row order. The old row stands at the right end, so it
    is matched from the right: what a player lays down at the left keeps its order (the winning tile last)."""
    return [row[at] for at in laid_positions(row, exposed)]


def laid_positions(row: tuple[Tile, ...], exposed: Counter[Tile]) -> list[int]:
    """The positions in ``row`` of its tiles beyond the ``exposed`` ones (see ``laid_tiles``), left to right."""
    left = Counter(exposed)
    laid: list[int] = []
    for at in reversed(range(len(row))):
        if left[row[at]] > 0:
            left[row[at]] -= 1
        else:
            laid.append(at)
    return laid[::-1]


def out_of_order(tiles: list[Tile]) -> bool:
    """Whether ``tiles`` are not sorted as people lay a hand down."""
    return any(low > high for low, high in pairwise(tiles))


class Witness:
    """Drives ``referee`` (an observing one) from a camera table's sights and its seat buttons' presses."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self._claims: dict[int, _Claim] = {}
        """Presses on the tile on offer, by seat."""
        self._taken = False
        """Whether the discard on offer was seen taken out of its zone (a win on it, not a self-draw)."""
        self._offer_read: frozenset[Tile] = frozenset()
        """How the camera read the discard on offer (its first reading, and the reading taken): a taken tile read so
        is that discard, however the discard was read again or corrected since (the tracker reads a taken tile as
        it read the discard)."""
        self._laying: list[int] = []
        """While a row sight is ruled on: the positions of the tiles it lays beyond the seat's exposed ones."""
        self._doubted: frozenset[int] = frozenset()
        """While a row sight is ruled on: the positions of its tiles read in doubt (``in_doubt``)."""
        self._ordered: tuple[int, ...] = ()
        """While a row sight is ruled on: the positions of a hand it lays down that lie sorted (``_Step.ordered``)."""
        self._winning = False
        """While a row sight is ruled on: whether it laid a winning hand down (``_Step.won``)."""
        self.confirms_wins = _hand_wilds(referee.ruleset)
        """Where a wildcard in the hand stands for any tile (Hubei's 赖子, 推倒胡's 鬼牌, a house 财神), a tile of a
        winning hand misread as another still makes a win, which no conflict shows: the win is held, its hand shown
        to its winner to confirm or correct, and paid at the quiet window (a false one is refused at once, as
        everywhere). Harbin's 宝 wins only as the tile drawn (摸宝): a misread tile of its hand breaks the win."""
        self._self_hu: int | None = None
        """A seat that pressed hu in its turn and has not laid its hand down yet."""
        self._self_win: Action | None = None
        """A self-drawn win held: on the last tile until the hands left standing are shown (查叫 in a 血战 hand), and
        where wins are confirmed (``confirms_wins``, or its hand read in doubt) until the quiet window."""
        self._self_win_in_doubt = False
        """Whether the held self-drawn win's hand was read in doubt (``in_doubt``)."""
        self._bao_win: Action | None = None
        """A self-drawn win laid down before the face-down 宝 was turned up and read (Harbin: it may be 摸宝), held
        until it is."""
        self._void_presses: Counter[int] = Counter()
        self._steps: deque[_Step] = deque(maxlen=WINDOW)
        """The last inputs, to be read again when a later one conflicts."""
        self._rows: list[tuple[Tile, ...]] = [() for _ in range(SEATS)]
        """Each seat's row as last taken without a conflict."""
        self._sights = 0
        """Camera sights taken this hand (a sight's number)."""
        self._budget = BUDGET
        self._held: frozenset[int] = frozenset()
        """Seats whose button was held since their last discard and laid no hand down: a sideways discard of
        theirs declares ready."""
        self._faces: dict[int, Sight] = {}
        """Wall sights of places the referee has not turned up yet (a kong's indicator turned before its maker's
        discard, the tiles under the indicators laid out before the winner's hand), by place: taken once it has."""
        self._win_faces: dict[int, Sight] = {}
        """The faces a waiting win needs (phase ``faces``), read and held for their seats to confirm or correct:
        the win is settled on them at the quiet window after the last (``quiet_settles``)."""
        self._win_hands: dict[int, Action] = {}
        """The hands a waiting win needs shown (Harbin's discarder's: whether he was ready decides who pays), laid
        down and held as the faces are: a misread one may make him ready or not, which conflicts with nothing."""
        self._unread: list[Sight | Press] = []
        """Inputs held while a wildcard indicator is turned up and not read (the referee allows no play before it:
        every wildcard depends on it), taken in order once it is."""

    @property
    def waiting(self) -> str | None:
        """What the table waits for (the display shows it): what a quiet window would settle now, or the wall's
        faces a win waits for (which only their sights settle: ``quiet_settles``); None when nothing is awaited."""
        referee = self.referee
        if referee.phase is Phase.OVER:
            return None
        if unread := referee.unread_indicators():
            return f"the wildcard indicator at wall place {unread[0]}, to be turned up and read: play waits for it"
        if referee.phase is Phase.DECLARE:
            return f"void declarations of seats {referee.undeclared_seats()}"
        if referee.phase is Phase.FACES and self._faces_held():
            return "the win's faces read: their seats confirm or correct them, the win is settled at the quiet window"
        unshown = [seat for seat in referee.hands_wanted() if seat not in self._win_hands]
        if referee.phase is Phase.FACES and unshown:
            return f"seat {unshown[0]}'s hand laid down: whether he was ready decides who pays"
        if referee.phase is Phase.FACES:
            return f"the wall's faces at places {referee.faces_wanted()}, to be turned up and read"
        if self._self_hu is not None:
            return f"seat {self._self_hu}'s hu: his hand is not laid down"
        if self._bao_win is not None:
            place, seat = self.referee.face_down_places()[-1], self._bao_win.seat
            return f"the 宝 at wall place {place}, to be turned up and read: seat {seat}'s win waits for it"
        if self._self_win is not None and self._standing_unshown({self._self_win.seat}):
            return f"the hands left standing beside seat {self._self_win.seat}'s hu on the last tile"
        if winners := self._held_winners():
            seats = " and ".join(f"seat {seat}" for seat in winners)
            return f"{seats} to confirm or correct the hand laid down: the win is paid at the quiet window"
        if referee.phase in _OFFER:
            return f"claims on seat {referee.offer_seat}'s {tile_code(referee.offer)}"  # type: ignore[arg-type]
        return None

    @property
    def quiet_settles(self) -> bool:
        """Whether a quiet window would settle what ``waiting`` names (the wall's faces come only from the camera)."""
        referee = self.referee
        if referee.phase is Phase.FACES:
            return self._faces_held()
        return self.waiting is not None and not referee.unread_indicators()

    def _held_winners(self) -> list[int]:
        """The seats whose win is held for them to confirm their hand (``confirms_wins``, or a hand read in doubt):
        ready on the offer, or self-drawn."""
        if self.referee.phase is Phase.OVER:
            return []
        if self._self_win is not None:
            return [self._self_win.seat] if self.confirms_wins or self._self_win_in_doubt else []
        hu = ActionKind.HU
        ready = {seat: claim for seat, claim in self._claims.items() if claim.ready and claim.ready.kind is hu}
        held = self.confirms_wins or any(claim.in_doubt for claim in ready.values())
        return sorted(ready) if held and self.referee.phase in _OFFER else []

    def _faces_held(self) -> bool:
        """Whether every face and hand the waiting win needs is read and held (``_win_faces``, ``_win_hands``)."""
        referee = self.referee
        hands = all(seat in self._win_hands for seat in referee.hands_wanted())
        return hands and all(place in self._win_faces for place in referee.faces_wanted())

    # --- inputs ------------------------------------------------------------------------------------------

    def seen(self, sight: Sight) -> list[Ruling]:
        """Take one camera sight (or a seat's correction); after the hand is over nothing the camera sees changes it."""
        if self.referee.phase is Phase.OVER:
            return []
        if sight.kind is SightKind.CORRECT:
            return self._correct(sight)
        if sight.kind is not SightKind.WALL and self._hold(sight):
            return [_note(f"held until the wildcard indicator is read: {sight.kind.value} of seat {sight.seat}")]
        self._sights += 1
        indicator = sight.kind is SightKind.WALL and sight.place in self.referee.indicator_places()
        rulings = self._take(_Step(sight, None, sight.tiles, number=self._sights - 1, indicator=indicator))
        return rulings + self._release()

    def pressed(self, press: Press) -> list[Ruling]:
        """Take a seat button's claim (short) or hu (held) press; lift and dice presses are the service's. A short
        press of a seat with a reading open and no tile on offer to him picks among its readings (``pick``)."""
        if press.button not in (Button.CLAIM, Button.HU):
            return []
        if press.button is Button.CLAIM and self._picking(press.seat):
            return self._pick(press.seat)
        if self._hold(press):
            return [_note(f"held until the wildcard indicator is read: seat {press.seat}'s {press.button.value}")]
        return self._take(_Step(None, press))

    def _hold(self, given: Sight | Press) -> bool:
        """Hold ``given`` while a wildcard indicator waits to be read (and after it, so that the order stays)."""
        if self.referee.unread_indicators() or self._unread:
            self._unread.append(given)
            return True
        return False

    def _release(self) -> list[Ruling]:
        """The inputs held for the indicator, taken in order once it is read."""
        if self.referee.unread_indicators() or not self._unread:
            return []
        held, self._unread = self._unread, []
        rulings = []
        for given in held:
            rulings += self.seen(given) if isinstance(given, Sight) else self.pressed(given)
        return rulings

    @property
    def rows(self) -> list[tuple[Tile, ...]]:
        """Each seat's row as last taken: what a restarted camera finds lying in the hand zones (``Lookout.prime``)."""
        return list(self._rows)

    @property
    def unsure(self) -> list[dict[str, Any]]:
        """The readings open for their seats to confirm or correct (the latest of each seat), for the display: the
        tiles as taken, and each unsure tile's position and ranked readings."""
        latest = {self._owner(step): step for step in self._steps if self._is_open(step)}
        return [_shown(step, seat) for seat, step in sorted(latest.items())]

    def _is_open(self, step: _Step) -> bool:
        """Shown to confirm or correct: unsure or doubtful; or, until its seat says what it is, a wildcard indicator
        before the first discard, a face a waiting win needs before the win is settled."""
        sight = step.sight
        held = sight is not None and sight.kind is SightKind.WALL and sight.place in self._win_faces
        settles = sight is not None and sight.seat in (*self._held_winners(), *self._win_hands)
        won = step.won and settles
        first = step.indicator and self.referee.discards_made == 0
        return step.open() or (not step.pinned and (held or won or first))

    def _owner(self, step: _Step) -> int:
        """The seat that confirms or corrects ``step``'s reading: the dealer for the indicator, else its seat's."""
        assert step.sight is not None
        return self.referee.dealer if step.indicator else step.sight.seat

    # --- reading again -----------------------------------------------------------------------------------

    def _take(self, step: _Step) -> list[Ruling]:
        """Rule on a new input; a conflict makes the witness read the last inputs again."""
        step.before = self._state()
        step.rulings = self._rule(step)
        self._steps.append(step)
        if step.conflicts:
            return self._heal(step.rulings)
        return step.rulings

    def _rule(self, step: _Step) -> list[Ruling]:
        rulings = self._rule_input(step)
        up = [place for place in self._faces if place in self.referee.faces_up()]
        return rulings + [self._face(self._faces.pop(place)) for place in up if self.referee.phase is not Phase.OVER]

    def _rule_input(self, step: _Step) -> list[Ruling]:
        if step.press is not None:
            return self._press(step.press)
        sight = step.sight
        assert sight is not None
        if sight.kind is not SightKind.ROW or not 0 <= sight.seat < SEATS:
            return self._sight(replace(sight, tiles=step.reading))
        step.old_row = self._rows[sight.seat]
        self._laying, self._ordered, self._winning = [], (), False
        self._doubted = frozenset() if step.pinned else in_doubt(sight, step.reading)
        rulings = self._sight(replace(sight, tiles=step.reading))
        step.ordered, step.won = self._ordered, self._winning
        self._laying, self._ordered, self._winning, self._doubted = [], (), False, frozenset()
        if not any(ruling.conflict for ruling in rulings):
            self._rows[sight.seat] = step.reading
        return rulings

    def _heal(self, rulings: list[Ruling]) -> list[Ruling]:
        """The most likely other reading of the kept sights under which the inputs since the earliest one read
        otherwise make fewer conflicts (none, when one does); as they were, with the sights marked doubtful, when
        none helps."""
        steps = list(self._steps)
        now = self._state()
        best: tuple[int, int, dict[int, tuple[Tile, ...]]] | None = None  # conflicts, start, readings
        for changes in _options(steps)[:MAX_TRIES]:
            readings = _changed(steps, changes)
            start = min(readings)
            self._budget -= len(steps) - start
            if self._budget < 0:
                break
            before = [step.conflicts for step in steps[start:]]
            after = self._replay(start, readings, keep=False)
            better = sum(after) < sum(before) and all(new <= old for new, old in zip(after, before, strict=True))
            if better and (best is None or sum(after) < best[0]):
                best = (sum(after), start, readings)
                if not any(after):
                    break
        if best is None:
            self._restore(now)
            self._mark_doubtful(steps)
            return rulings
        _, start, readings = best
        before = {index: steps[index].reading for index in readings}
        self._replay(start, readings, keep=True)
        for index in readings:
            if index != len(steps) - 1:
                steps[index].healed = (steps[-1], before[index])
        notes = [_note(_told(steps[index], reading)) for index, reading in sorted(readings.items())]
        return notes + [ruling for step in steps[start:] for ruling in step.rulings]

    def _replay(self, start: int, readings: dict[int, tuple[Tile, ...]], *, keep: bool) -> list[int]:
        """Play the kept inputs from ``start`` again with ``readings`` (by position); the conflicts of each. ``keep``:
        the new readings, states and rulings are the steps' from now on."""
        steps = list(self._steps)
        steps[start].before = self._restore(steps[start].before)
        conflicts = []
        for index in range(start, len(steps)):
            step = steps[index] if keep else replace(steps[index])
            step.reading = readings.get(index, step.reading)
            if keep and index > start:
                step.before = self._state()
            step.rulings = self._rule(step)
            conflicts.append(step.conflicts)
        return conflicts

    def _mark_doubtful(self, steps: list[_Step]) -> None:
        """No reading healed the last input: it, and the discard on offer when there is one, are shown to be told."""
        last, offer = steps[-1], self._offered_step(steps)
        for step in (last, offer):
            if step is not None and step.sight is not None and step.sight.kind in _HEALED and not step.pinned:
                step.doubtful = True

    def _offered_step(self, steps: list[_Step]) -> _Step | None:
        """The kept discard sight of the tile on offer (the last discard seen), if it is still kept."""
        discards = [step for step in steps if step.sight is not None and step.sight.kind is SightKind.DISCARD]
        return discards[-1] if discards else None

    def _correct(self, sight: Sight) -> list[Ruling]:
        """A seat's word on its open reading: the tiles it shows, taken as they are, and the inputs after it played
        again."""
        index = self._open_index(sight.seat, sight.about)
        if index is None:
            which = "none of his is" if sight.about < 0 else f"his sight {sight.about} is not"
            return [_refusal(f"seat {sight.seat} corrected a reading, but {which} open to correct")]
        step = list(self._steps)[index]
        if len(sight.tiles) != len(step.reading):
            count = f"{len(sight.tiles)} tiles for the {len(step.reading)} of his {step.sight.kind.value}"  # type: ignore[union-attr]
            return [_refusal(f"seat {sight.seat} corrected his reading with {count}")]
        return self._retell(index, sight.tiles)

    def _picking(self, seat: int) -> bool:
        """Whether a short press of ``seat`` picks a reading: one of his is open, and no tile is on offer to him (a
        press then claims it) nor are void suits being declared (presses count them)."""
        referee = self.referee
        if referee.phase in (Phase.OVER, Phase.DECLARE) or not 0 <= seat < SEATS:
            return False
        on_offer = referee.phase in _OFFER and seat in referee.answering_seats()
        return not on_offer and self._open_index(seat) is not None

    def _pick(self, seat: int) -> list[Ruling]:
        """The next of the least sure tile's readings of the seat's open reading (the first press: the reading
        shown, confirmed)."""
        index = self._open_index(seat)
        assert index is not None
        step = list(self._steps)[index]
        assert step.sight is not None
        position = min(range(len(step.reading)), key=lambda at: step.sight.readings(at)[0][1])  # type: ignore[union-attr]
        ranked = step.sight.readings(position)
        tile = ranked[step.picks % len(ranked)][0]
        step.picks += 1
        reading = (*step.reading[:position], tile, *step.reading[position + 1 :])
        return self._retell(index, reading)

    def _open_index(self, seat: int, number: int = -1) -> int | None:
        """The position among the kept inputs of ``seat``'s latest open reading (or of his sight ``number``)."""
        mine = [i for i, step in enumerate(self._steps) if self._is_open(step) and self._owner(step) == seat]
        if number >= 0:
            mine = [i for i in mine if self._steps[i].number == number]
        return mine[-1] if mine else None

    def _retell(self, index: int, reading: tuple[Tile, ...]) -> list[Ruling]:
        """The kept input at ``index`` read as ``reading`` (its seat's word) and the inputs since played again. The
        earlier inputs read otherwise to heal its conflict go back to their readings: the conflict was its own
        misreading (a discard read as a fifth copy of a tile another seat's discard was then taken not to be)."""
        steps = list(self._steps)
        step = steps[index]
        note = _note(f"seat {self._owner(step)} says: {_told(step, reading)}")
        step.pinned, step.doubtful = True, False
        readings = {index: reading}
        for at, kept in enumerate(steps[:index]):
            if kept.healed is not None and kept.healed[0] is step and not kept.pinned:
                readings[at], kept.healed = kept.healed[1], None
        start = min(readings)
        self._replay(start, readings, keep=True)
        rulings = [note] + [ruling for kept in steps[start:] for ruling in kept.rulings]
        if steps[-1].conflicts:
            return self._heal(rulings)
        return rulings

    def _state(self) -> tuple[Any, ...]:
        """Everything the next input can change: the referee's state and the witness's own."""
        claims = {seat: replace(claim) for seat, claim in self._claims.items()}
        rows, void_presses = list(self._rows), Counter(self._void_presses)
        mine = (claims, self._taken, self._offer_read, self._self_hu, self._self_win, self._bao_win, void_presses, rows)
        held = self._held, dict(self._win_faces), dict(self._win_hands), self._self_win_in_doubt
        return self.referee._snapshot(), mine, dict(self._faces), held

    def _restore(self, state: tuple[Any, ...]) -> tuple[Any, ...]:
        """Go back to ``state``; a fresh copy of it to keep (the referee takes the lists it is given, so a state is
        restored once and its copy kept for the next time)."""
        referee, (claims, taken, offer_read, self_hu, self_win, bao_win, void_presses, rows), faces, held = state
        self.referee._restore(referee)
        self._faces, (self._held, win_faces, win_hands, self._self_win_in_doubt) = dict(faces), held
        self._win_faces, self._win_hands = dict(win_faces), dict(win_hands)
        self._claims = {seat: replace(claim) for seat, claim in claims.items()}
        self._taken, self._offer_read, self._self_hu, self._self_win = taken, offer_read, self_hu, self_win
        self._bao_win = bao_win
        self._void_presses = Counter(void_presses)
        self._rows = list(rows)
        return self._state()

    # --- the inputs as read --------------------------------------------------------------------------------

    def _sight(self, sight: Sight) -> list[Ruling]:
        if self.referee.phase is Phase.OVER:
            return []
        if sight.kind is SightKind.QUIET:
            return self._quiet()
        if not 0 <= sight.seat < SEATS:
            return [_refusal(f"a {sight.kind.value} sight names seat {sight.seat}: expected a seat 0-3")]
        if sight.kind is SightKind.TAKEN:
            self._note_taken(sight)
            return []
        if sight.kind is SightKind.WALL:
            if len(sight.tiles) != 1:
                return [_refusal(f"a wall sight at place {sight.place} holds {len(sight.tiles)} tiles, not one", True)]
            if sight.place not in self.referee.faces_up() + self.referee.face_down_places():
                self._faces[sight.place] = sight
                return [_note(f"the {tile_code(sight.tiles[0])} at wall place {sight.place}: kept until turned up")]
            rulings = [self._face(sight)]
            if self._bao_win is not None and not self._bao_unread():
                win, self._bao_win = self._bao_win, None
                rulings.append(self._apply(win))
            return rulings
        if sight.kind is SightKind.DISCARD:
            if len(sight.tiles) != 1:
                return [_refusal(f"a discard sight of seat {sight.seat} holds {len(sight.tiles)} tiles, not one", True)]
            if is_flower(sight.tiles[0]):
                return self._flower(sight.seat, sight.tiles[0])
            rulings = self._declaring_ready(sight)
            kind = ActionKind.READY if rulings and rulings[-1].verdict.ok else ActionKind.DISCARD
            rulings += self._abandon_self_hu()
            rulings += self._bring_to_turn(sight.seat)
            rulings.append(self._apply(Action(kind, sight.seat, sight.tiles[0], marked=0 in sight.marked)))
            if rulings[-1].verdict.ok:
                self._offer_read = frozenset({sight.tiles[0], sight.readings(0)[0][0]})
            return rulings
        return self._row(sight)

    def _declaring_ready(self, sight: Sight) -> list[Ruling]:
        """A discard laid sideways by a seat that held his button since his last discard declares ready (a note
        that says so), his press on the offer then being no claim; a sideways tile without it, or a held press
        without a sideways discard, is a plain discard (a refusal that says why)."""
        seat, held = sight.seat, sight.seat in self._held
        self._held -= {seat}
        if not sight.sideways:
            return []
        if not held:
            return [_refusal(f"seat {seat}'s discard lies sideways but his button was not held: a plain discard")]
        claim = self._claims.get(seat)
        if claim is not None and claim.button is Button.HU and claim.ready is None:
            del self._claims[seat]
        if self._self_hu == seat:
            self._self_hu = None
        return [_note(f"seat {seat} declares ready")]

    def _press(self, press: Press) -> list[Ruling]:
        referee, seat = self.referee, press.seat
        if not 0 <= seat < SEATS:
            return [_refusal(f"a press of seat {seat}: expected a seat 0-3")]
        if press.button is Button.HU and referee.ruleset.ready_declaration is not None:
            self._held |= {seat}
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
        if self._self_win is not None or self._bao_win is not None:
            win = self._self_win or self._bao_win
            self._self_win = self._bao_win = None
            self._self_win_in_doubt = False
            return [self._apply(win)]  # type: ignore[arg-type]
        if self.referee.phase in _OFFER:
            return self._close_offer()
        if self.referee.phase is Phase.FACES and self._faces_held():
            (hands, self._win_hands), (faces, self._win_faces) = (self._win_hands, {}), (self._win_faces, {})
            shown = [self._apply(hands[seat]) for seat in sorted(hands)]
            return shown + [self._apply(self._face_action(faces[place])) for place in sorted(faces)]
        return []

    def _note_taken(self, sight: Sight) -> None:
        """The discard on offer taken: any of the readings of the tile taken may be it, and so is the tile as the
        camera read the discard (the take is read as its discard was, and that discard may have been read again
        or corrected to a tile none of the take's readings name)."""
        referee = self.referee
        if referee.phase is not Phase.CLAIMS or sight.seat != referee.offer_seat or len(sight.tiles) != 1:
            return
        if referee.offer in {tile for tile, _ in sight.readings(0)} | set(sight.tiles) or (
            sight.tiles[0] in self._offer_read
        ):
            self._taken = True

    def _row(self, sight: Sight) -> list[Ruling]:
        """A seat's row changed: a presser's meld or hand, a self-drawn hand, or a move of his own."""
        referee, seat, row = self.referee, sight.seat, sight.tiles
        if seat in referee.players_out:
            return []
        state = referee.seats[seat]
        exposed = Counter(tile for meld in state.melds for tile in meld.tiles) + Counter(state.flowers)
        if referee.phase is Phase.ROB and seat == referee.offer_seat:
            exposed[referee.offer] += 1  # type: ignore[index]
        self._laying = laid_positions(row, exposed)
        laid = [row[at] for at in self._laying]
        if not laid:
            return []
        marks = referee.ruleset.tile_set.marked
        marked = tuple(sorted(row[at] for at in self._laying if at in sight.marked and row[at] in marks))
        if referee.phase is Phase.FACES and seat in referee.hands_wanted():  # a discarder's hand a win needs
            return [self._hand_for_win(_revealing(ActionKind.SHOW, seat, laid, marked))]
        claim = self._claims.get(seat) if referee.phase in _OFFER else None
        if claim is not None and claim.button is Button.CLAIM:
            return self._meld_shown(seat, claim, laid, marked)
        if claim is not None:
            return self._hand_shown(seat, claim, laid, marked)
        if self._self_hu == seat:
            return self._self_drawn_win(seat, laid, marked)
        winner = None if self._self_win is None else self._self_win.seat
        if referee.wall.exhausted and (referee.phase is Phase.CLAIMS or winner is not None) and seat != winner:
            return self._shown_at_draw(seat, laid, marked)
        return self._own_move(seat, laid, marked)

    def _shown_at_draw(self, seat: int, laid: list[Tile], marked: tuple[Tile, ...]) -> list[Ruling]:
        """A hand laid down without a press once the live wall is empty: shown to the referee, which settles a drawn
        hand on the hands left standing (查叫); once they are all shown the last discard (or the win held on the
        last tile) is settled."""
        rulings = self._in_order(seat, laid, won_last=False)
        rulings.append(self._apply(_revealing(ActionKind.SHOW, seat, laid, marked)))
        if self._self_win is None:
            return rulings + self._resolve_when_decided()
        if not self._standing_unshown({self._self_win.seat}):
            win, self._self_win, self._self_win_in_doubt = self._self_win, None, False
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

    def _meld_shown(self, seat: int, claim: _Claim, laid: list[Tile], marked: tuple[Tile, ...]) -> list[Ruling]:
        """A claim's meld laid: the claim it makes (the claimant's own marked copy in it where the meld shows one
        more than the discard was)."""
        offer = self.referee.offer
        assert offer is not None
        shown = sorted(laid)
        own = len(marked) > self.referee.offer_marked
        if shown == [offer] * 3:
            claim.ready = Action(ActionKind.PUNG, seat, marked=own)
        elif shown == [offer] * 4:
            claim.ready = Action(ActionKind.KONG, seat, marked=own)
        elif offer in shown and len(shown) == 3 and _is_run(shown, self.referee.ruleset.tile_set):
            claim.ready = Action(ActionKind.CHI, seat, shown[0], marked=own)
        else:
            why = f"no meld with the {tile_code(offer)} on offer"
            return [_refusal(f"seat {seat} pressed claim and showed {format_tiles(laid)}: {why}", True)]
        return self._resolve_when_decided()

    def _hand_shown(self, seat: int, claim: _Claim, laid: list[Tile], marked: tuple[Tile, ...]) -> list[Ruling]:
        """A hu presser's hand laid down: a win on the tile on offer, or (the next seat, the discard not taken) a
        self-drawn win after the draw nobody sees."""
        referee = self.referee
        offer, size = referee.offer, referee.seats[seat].size
        assert offer is not None
        with_offer = len(laid) == size + 1
        if with_offer and referee.phase is Phase.CLAIMS and not self._taken and seat == referee.answering_seats()[0]:
            del self._claims[seat]
            return self._self_drawn_win(seat, laid, marked)
        held = sorted(laid)
        if with_offer and offer in held:
            held.remove(offer)
        elif len(laid) != size:
            why = f"the table counts {size} concealed tiles"
            return [_refusal(f"seat {seat} laid down {format_tiles(laid)}: {why}", True)]
        if with_offer and referee.offer_marked and offer in marked:  # the marked discard won is not the hand's
            marked = tuple(sorted((Counter(marked) - Counter([offer])).elements()))
        claim.ready = Action(ActionKind.HU, seat, revealed=tuple(held), revealed_marked=marked)
        claim.in_doubt = self._laid_in_doubt()
        self._winning = True
        return self._in_order(seat, laid, won_last=with_offer) + self._resolve_when_decided()

    def _self_drawn_win(self, seat: int, laid: list[Tile], marked: tuple[Tile, ...]) -> list[Ruling]:
        """The winning tile is the one laid last, next to the old row."""
        self._self_hu, self._winning = None, True
        rulings = self._in_order(seat, laid, won_last=True) + self._bring_to_turn(seat)
        win = replace(_revealing(ActionKind.HU, seat, laid, marked), tile=laid[-1])
        if self.referee.phase is Phase.ACT and self._standing_unshown({seat}):
            self._self_win, self._self_win_in_doubt = win, False
            return rulings
        if self._bao_unread():
            self._bao_win = win
            return [*rulings, _note(f"seat {seat}'s win waits for the 宝 to be turned up")]
        in_doubt = self._laid_in_doubt()
        if self.confirms_wins or in_doubt:
            return rulings + self._hold_win(lambda: [self._apply(win)], win, in_doubt)
        return [*rulings, self._apply(win)]

    def _laid_in_doubt(self) -> bool:
        """Whether a tile of the hand the row sight lays down was read in doubt (``in_doubt``)."""
        return not self._doubted.isdisjoint(self._laying)

    def _bao_unread(self) -> bool:
        """Whether the face-down 宝 lies unread (Harbin): a self-drawn win may be 摸宝 on it."""
        places = self.referee.face_down_places()
        return bool(places) and self.referee.wall.state.faces[places[-1]] is None

    def _in_order(self, seat: int, laid: list[Tile], *, won_last: bool) -> list[Ruling]:
        """A hand laid down lies sorted, the winning tile last when ``won_last`` (``controller.people.tablemodel``):
        out of order, a tile is misread (a conflict, though the move stands when no other reading heals it)."""
        if len(self._laying) != len(laid):
            return []
        count = len(laid) - 1 if won_last else len(laid)
        self._ordered = tuple(self._laying[:count])
        if not out_of_order(laid[:count]):
            return []
        why = "a hand is laid down sorted" + (", the winning tile last" if won_last else "")
        return [_refusal(f"seat {seat} laid down {format_tiles(laid)} out of order: {why}", True)]

    def _flower(self, seat: int, flower: Tile) -> list[Ruling]:
        """A flower put into the seat's discard zone is set aside (out of turn in the opening where the referee
        allows it)."""
        action = Action(ActionKind.FLOWER, seat, flower)
        rulings = [] if self.referee.is_legal(action) else self._bring_to_turn(seat)
        return [*rulings, self._apply(action)]

    def _own_move(self, seat: int, laid: list[Tile], marked: tuple[Tile, ...]) -> list[Ruling]:
        """A concealed kong, the fourth tile beside an exposed pung, or a whole hand laid down without a press: the
        dealt hand shown for an opening win (起手胡, 独抬庄) before the first discard, or in one's first turn an
        abortive draw declared (riichi's 九種九牌); the referee judges either on the hand shown."""
        referee, rulings = self.referee, []
        rest = sorted(laid)
        pungs = [meld.tile for meld in referee.seats[seat].melds if meld.tiles == (meld.tile,) * 3]
        if len(rest) >= WHOLE_HAND and referee.in_opening():
            return [self._apply(_revealing(ActionKind.SHOW, seat, rest, marked))]
        if len(rest) >= WHOLE_HAND and self._may_abort(seat):
            rulings += self._bring_to_turn(seat)
            return [*rulings, self._apply(_revealing(ActionKind.ABORT, seat, rest, marked))]
        if rest == [rest[0]] * 4:
            kind = ActionKind.CONCEALED_KONG
        elif len(rest) == 1 and rest[0] in pungs:
            kind = ActionKind.ADDED_KONG
        else:
            why = "not four of a kind nor a tile for an exposed pung, and no claim or hu was pressed"
            if any(is_flower(tile) for tile in rest):
                why += " (a flower goes into the discard zone)"
            return [*rulings, _refusal(f"seat {seat} showed {format_tiles(rest)}: {why}", True)]
        rulings += self._bring_to_turn(seat)
        return [*rulings, self._apply(Action(kind, seat, rest[0], marked=bool(marked)))]

    def _may_abort(self, seat: int) -> bool:
        """Whether a whole hand laid by ``seat`` can be an abortive draw declared: the ruleset has one, it is his
        turn next, and he has not discarded yet (九種九牌 is his first draw's)."""
        referee = self.referee
        declared = type(referee.ruleset).abort_declaration is not Ruleset.abort_declaration
        return declared and seat == self._next_to_move() and not referee.seats[seat].played

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
        if winners and (self.confirms_wins or any(self._claims[seat].in_doubt for seat in winners)):
            return self._hold_win(self._close_offer)
        return self._close_offer()

    def _hold_win(
        self, settle: Callable[[], list[Ruling]], self_win: Action | None = None, in_doubt: bool = False
    ) -> list[Ruling]:
        """A win held for its winner to confirm his hand (``confirms_wins``, or read ``in_doubt``): ``settle`` is
        tried, and undone unless the referee refuses it (a false win, healed at once); ``self_win`` is kept for the
        quiet window, which closes an offer's wins itself."""
        before = self._state()
        rulings = settle()
        if any(ruling.conflict for ruling in rulings):
            return rulings
        self._restore(before)
        self._self_win, self._self_win_in_doubt = self_win, in_doubt
        seats = self._held_winners()
        return [_note(f"seat {' and '.join(map(str, seats))}'s win held: paid at the quiet window unless corrected")]

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

    def _face(self, sight: Sight) -> Ruling:
        """A face of the wall read: the referee's at once, but a face a waiting win needs is held for its seat to
        confirm or correct (a misread bird or horse conflicts with nothing: only a seat's word mends it), unless
        the referee refuses it (a fifth copy: healed at once)."""
        action = self._face_action(sight)
        if self.referee.phase is not Phase.FACES or not self.referee.is_legal(action):
            return self._apply(action)
        self._win_faces[sight.place] = sight
        return _note(f"the {tile_code(sight.tiles[0])} at wall place {sight.place}: held for its seat to confirm")

    def _hand_for_win(self, show: Action) -> Ruling:
        """A hand the waiting win needs shown: held for its seat to confirm or correct, as a face is (``_face``),
        unless the referee refuses it (a fifth copy: healed at once)."""
        if not self.referee.is_legal(show):
            return self._apply(show)
        self._win_hands[show.seat] = show
        self._winning = True
        return _note(f"seat {show.seat}'s hand laid down: held for him to confirm")

    @staticmethod
    def _face_action(sight: Sight) -> Action:
        return Action(ActionKind.FACE, sight.seat, sight.tiles[0], place=sight.place)

    def _apply(self, action: Action) -> Ruling:
        """Apply ``action``; a refusal, or a win the referee finds false, is a conflict (see ``heal``)."""
        verdict = self.referee.apply(action)
        if self.referee.phase not in _OFFER or (
            verdict.ok and action.kind in (ActionKind.DISCARD, ActionKind.ADDED_KONG)
        ):
            self._claims, self._taken = {}, False
        false_win = action.kind is ActionKind.HU and any(" false win " in f" {event}" for event in verdict.events)
        return Ruling(action, verdict, not verdict.ok or false_win)


def in_doubt(sight: Sight, reading: tuple[Tile, ...]) -> frozenset[int]:
    """The positions of a sight's tiles read in doubt: below ``UNSURE``, or taken as another tile than the camera's
    first reading (read otherwise to heal a conflict). A win on a hand laid down with one is held for its winner to
    confirm: two unsure tiles can be misread into another winning hand (66p for 66s, each read at 0.09), and a hand
    healed into a win into the wrong one, which conflicts with nothing."""
    changed = {at for at, tile in enumerate(reading) if tile != sight.readings(at)[0][0]}
    return frozenset(sight.unsure()) | changed


def _cost(ranked: tuple[tuple[Tile, float], ...], rank: int) -> float:
    """How much less likely the ``rank``-th reading is than the first (log odds; ties go to the better rank)."""
    first, other = max(ranked[0][1], _FLOOR), max(ranked[rank][1], _FLOOR)
    return math.log(first) - math.log(other) + 1e-3 * rank


def _order_cost(ranked: tuple[tuple[Tile, float], ...]) -> float:
    """The cost of reading a tile the camera read as ``ranked`` as a tile that puts a hand in order (``ORDER_COST``)."""
    first, beyond = max(ranked[0][1], _FLOOR), max(1.0 - sum(p for _, p in ranked), _FLOOR)
    return ORDER_COST + max(0.0, math.log(first) - math.log(beyond))


def _options(steps: list[_Step]) -> list[tuple[tuple[int, int, Tile], ...]]:
    """Other readings of the kept sights, most likely first: single tiles read as their next choices, then the most
    likely of those two at a time. A change is (input position, tile position, tile)."""
    costs: dict[tuple[int, int, Tile], float] = {}
    for index, step in enumerate(steps):
        sight = step.sight
        if sight is None or sight.kind not in _HEALED or step.pinned:
            continue
        offered: set[tuple[int, Tile]] = set()
        for at in range(len(step.reading)):
            ranked = sight.readings(at)
            offered |= {(at, tile) for tile, _ in ranked}
            for rank in range(1, len(ranked)):
                change = (index, at, ranked[rank][0])
                if change[2] != step.reading[at]:
                    costs[change] = min(costs.get(change, math.inf), _cost(ranked, rank))
        for at, tile, cost in _table_readings(steps, index):
            if (at, tile) not in offered and tile != step.reading[at]:
                costs[index, at, tile] = min(costs.get((index, at, tile), math.inf), cost)
        for at, tile in _order_readings(step):
            if tile != step.reading[at]:
                cost = _order_cost(sight.readings(at))
                costs[index, at, tile] = min(costs.get((index, at, tile), math.inf), cost)
    singles = sorted((cost, change) for change, cost in costs.items())
    pairs = [(a[0] + b[0], (a[1], b[1])) for a, b in combinations(singles[:PAIRED], 2) if a[1][:2] != b[1][:2]]
    ranked = sorted([(cost, (change,)) for cost, change in singles] + pairs, key=lambda option: option[0])
    return [changes for _, changes in ranked]


def _table_readings(steps: list[_Step], index: int) -> list[tuple[int, int, float]]:
    """Readings the table itself suggests for the ``index``-th kept sight, beyond the camera's choices, as (tile
    position, tile, cost): a row's tiles where its old row lay (the row grown at its right end by a meld or a kong,
    or at its left by a hand laid down), a discard as the tiles of the rows other seats laid after it (the meld or
    hand it went into)."""
    step = steps[index]
    sight = step.sight
    assert sight is not None
    if sight.kind is SightKind.DISCARD:
        rows = [kept for kept in steps[index + 1 :] if kept.sight and kept.sight.kind is SightKind.ROW]
        later = {tile for kept in rows if kept.sight and kept.sight.seat != sight.seat for tile in kept.reading}
        return [(0, tile, FIT_COST) for tile in sorted(later)]
    old, size = step.old_row, len(step.reading)
    if not old or len(old) > size:
        return []
    prefix = [(at, tile, KNOWN_COST) for at, tile in enumerate(old)]
    suffix = [(size - len(old) + at, tile, KNOWN_COST) for at, tile in enumerate(old)]
    return prefix + suffix


def _order_readings(step: _Step) -> list[tuple[int, Tile]]:
    """Readings that put a hand laid down out of order back in order, as (tile position, tile): a tile out of order
    with its neighbours read as a tile between them (at most ``ORDER_SPAN`` from either)."""
    tiles = [step.reading[at] for at in step.ordered]
    found = []
    for k, (at, tile) in enumerate(zip(step.ordered, tiles, strict=True)):
        before = tiles[k - 1] if k else None
        after = tiles[k + 1] if k + 1 < len(tiles) else None
        if not ((before is not None and before > tile) or (after is not None and tile > after)):
            continue
        low = before if before is not None else max(0, after - ORDER_SPAN)  # type: ignore[operator]
        high = after if after is not None else min(NUM_TILE_IDS - 1, low + ORDER_SPAN)
        found += [(at, other) for other in range(low, high + 1) if min(other - low, high - other) <= ORDER_SPAN]
    return found


def _changed(steps: list[_Step], changes: tuple[tuple[int, int, Tile], ...]) -> dict[int, tuple[Tile, ...]]:
    """The readings of the inputs ``changes`` touch, by input position."""
    readings: dict[int, tuple[Tile, ...]] = {}
    for index, at, tile in changes:
        reading = readings.get(index, steps[index].reading)
        readings[index] = (*reading[:at], tile, *reading[at + 1 :])
    return readings


def _told(step: _Step, reading: tuple[Tile, ...]) -> str:
    """A kept sight read otherwise, in words for the log and the display."""
    sight = step.sight
    assert sight is not None
    return f"seat {sight.seat}'s {sight.kind.value} {format_tiles(sight.tiles)} taken as {format_tiles(reading)}"


def _shown(step: _Step, seat: int) -> dict[str, Any]:
    """An open reading as the display shows it, to ``seat``."""
    sight = step.sight
    assert sight is not None
    unsure = sorted(set(sight.unsure()) | ({min(range(len(sight.tiles)), key=lambda at: sight.readings(at)[0][1])}))
    return {
        "n": step.number,
        "seat": seat,
        "sight": sight.kind.value,
        "tiles": [tile_code(tile) for tile in step.reading],
        "doubtful": step.doubtful,
        "confirmed": step.pinned,
        "unsure": [
            {"at": at, "choices": [[tile_code(tile), round(p, 3)] for tile, p in sight.readings(at)]} for at in unsure
        ],
    }


def _revealing(kind: ActionKind, seat: int, laid: list[Tile], marked: tuple[Tile, ...]) -> Action:
    """An action that shows a hand laid down (``revealed``, sorted), with the marked copies the camera saw in it."""
    return Action(kind, seat, revealed=tuple(sorted(laid)), revealed_marked=marked)


def _is_run(tiles: list[Tile], tile_set: TileSet) -> bool:
    """Three suited tiles of one suit in sequence (sorted), as the tile set's suits run (十万's have ten ranks)."""
    low = tiles[0]
    return tile_set.chow_start(low) and tiles == [low, low + 1, low + 2]


def _hand_wilds(ruleset: Ruleset) -> bool:
    """Whether a wildcard in a hand stands for any tile (``Witness.confirms_wins``)."""
    rule = ruleset.wildcards
    return rule is not None and rule.source is not WildcardSource.FACE
