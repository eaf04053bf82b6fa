"""The physical table as a full-information referee plays it: what each action shows to the overhead camera and
the seat buttons. The simulated people's table renders these happenings, and ``controller.people.witness`` must turn
them back into the same hand; so this module is the contract the people at a real table follow.

The procedure (``Sight`` kinds from ``controller.people.sights``, presses from ``controller.service.inputs``):

- DRAW, PASS and any illegal action show nothing (the camera does not read the wall; a pass is not pressing).
- DISCARD: the tile comes to rest in the discarder's zone, ``Sight(discard, seat, (tile,))``.
- READY (a ready declaration, riichi's 立直): the seat's button held (``Press(hu, seat)``: in his turn, or while the
  discard before his draw is still on offer to him), then the declaring discard laid sideways in his zone,
  ``Sight(discard, seat, (tile,), sideways=True)``; the press confirms what the camera sees (a tile knocked
  askew is no declaration, a held press without a sideways discard neither). The stake (a 1,000 stick) goes on
  the table as people do; the service keeps the sticks from the referee and does not read them.
- An answer that claims the tile on offer (chi / pung / kong, or hu on a discard or robbing an added kong) is a
  press of the seat button when answered: ``Press(claim, seat)`` for a meld, ``Press(hu, seat)`` (held) for a
  win. A claimant who loses to a stronger claim has pressed, and then does nothing more.
- When the offer is resolved and a claim carried out: the claimant takes the discard out of the discarder's zone,
  ``Sight(taken, discarder, (tile,))``, and lays the meld face up at the right end of his row,
  ``Sight(row, claimant, row)`` (a chow lowest tile first).
- A win on a discard: ``Sight(taken, discarder, (tile,))`` once, then each winner in turn order lays his hand down
  at the left of his row, ``Sight(row, winner, concealed tiles + (won tile) + old row)``: the concealed tiles
  sorted, the discard (taken by the first winner only) placed last, next to the old row. Robbing an added kong:
  the robbed tile leaves the konger's row first (``Sight(row, konger, ...)``), then the winners' rows.
- A self-drawn win: ``Press(hu, seat)``, then ``Sight(row, seat, concealed tiles + old row)`` with the tile just
  drawn laid last among the concealed tiles (right next to the old row): that is how the camera learns which
  tile won. A false declaration (penalised as 诈和 where the ruleset says so) is laid down the same way, then
  picked up again (a row sight back to the old row) as play goes on.
- CONCEALED_KONG: the four tiles appended to the row face up (this project's convention, so that the camera can
  read them); ADDED_KONG: the fourth tile put beside its pung. Each a row sight.
- FLOWER: the flower is put into the seat's discard zone, ``Sight(discard, seat, (flower,))``: the camera reads a
  flower there as set aside. Flowers stay out of the row so that a winner's row (his hand and melds, up to 16 tiles
  with two kongs) fits the hand zone, where 17 tiles touch and cannot be read. Flowers set aside at the deal are
  put there before play (``show_deal``).
- An opening win (Changsha 起手胡, Hubei 独抬庄): before the first discard, its player lays his dealt hand face up
  (sorted, at the left of his row) and takes it up again: ``Sight(row, seat, hand + old row)`` then the old row;
  the referee pays it on the hand shown. A player whose dealt hand wins nothing lays nothing down.
- ABORT (riichi's 九種九牌): in his first turn, the player lays his whole hand face up at the left of his row, without
  a press, ``Sight(row, seat, sorted hand + old row)``; the referee judges the nine kinds on it.
- DECLARE_VOID (Sichuan 定缺): short presses of the seat button, one for 万 (m), two for 筒 (p), three for 条 (s);
  no tile is shown (a player holding none of the suit still declares it). A quiet window closes the declarations.
- A winner who leaves a continuing hand (血战到底) keeps his hand laid down.
- The wall's faces the referee reads (``Referee.faces_up``): each face turned up is laid face up at its stack's spot
  in the wall zone of the seat whose wall holds it (``vision.geometry.Layout.wall``: a strip beyond that seat's
  hand zone, a calibrated zone rather than the wall itself, whose tiles the camera cannot read in place; the spots
  are ``controller.people.camera.wall_spots``, from the dice and the break), and read there:
  ``Sight(wall, seat whose wall holds it, (face,), place=head-order index)``. The first bonus indicator (riichi's
  dora) at the deal, a kong's when the referee turns it (a concealed kong's at once, an exposed or added one's with
  its maker's discard). At a win of a seat that declared ready (riichi's ura dora) the winner, after laying his hand
  down, turns up the tiles under the indicators and lays each at its own spot, beside its indicator's.
- A marked copy (a red five, where the set marks its fives) lies as a red five wherever it is shown: the sights
  name its position (``Sight.marked``); a won discard that was marked is the one laid last.
- Where a win's payments depend on whether the discarder was ready (Harbin's 出冲 包付), the discarder lays his hand
  down after the winners' (sorted, at the left of his row): the win is paid once it is seen.
- A face-down wildcard (Harbin's 宝, the last wall tile): turned up and laid at its spot in the wall zone when it is
  replaced (换宝, three copies in sight), and by a self-drawn winner before he lays his hand down.
- A drawn hand: every player still in lays his hand down (sorted, at the left of his row), so that the hands left
  standing are settled (Sichuan 查叫); the witness takes them while the last discard's window is still open.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from controller.people.sights import Sight, SightKind
from controller.service.inputs import Button, Press
from engine.actions import Action, ActionKind, Verdict
from engine.referee import SEATS, Phase, Referee
from engine.tiles import Tile, suit_of

Happening = Sight | Press
"""What the table shows: a camera sight or a seat button's press."""

VOID_PRESSES = {"m": 1, "p": 2, "s": 3}
"""定缺 by button: how many short presses declare each suit void."""

_CLAIMS = (ActionKind.CHI, ActionKind.PUNG, ActionKind.KONG)


@dataclass(frozen=True)
class _Group:
    """Tiles laid together in a row (a meld, a hand laid down) and the positions among them of marked copies."""

    tiles: tuple[Tile, ...]
    marked: frozenset[int] = frozenset()

    @classmethod
    def of(cls, tiles: tuple[Tile, ...], marked: Counter[Tile], *, last_marked: bool = False) -> _Group:
        """``tiles`` with ``marked``'s copies marked at their faces' first places (the last tile when
        ``last_marked``: a won discard that was marked, laid last)."""
        places = {len(tiles) - 1} if last_marked else set()
        left = marked - Counter(tiles[-1:]) if last_marked else marked
        for tile, count in left.items():
            free = [at for at, one in enumerate(tiles) if one == tile and at not in places]
            places.update(free[:count])
        return cls(tiles, frozenset(places))


class TableModel:
    """The face-up rows in front of the four seats, kept as the physical table shows them while a full-information
    referee plays the hand; marked copies (red fives) are shown as such (``Sight.marked``)."""

    def __init__(self) -> None:
        self._groups: list[list[_Group]] = [[] for _ in range(SEATS)]
        """Each seat's row as groups (a meld, a laid-down hand), left to right as the seat sees it."""
        self.faces: dict[int, Tile] = {}
        """The wall's faces turned up so far, by wall place (head-order index)."""
        self._offer_marked = False
        """Whether the tile on offer before the action was a marked copy (a won discard is laid so)."""
        self._shown_marked = [0] * SEATS
        """Each seat's marked copies in melds before the action (a meld's marked copy is the difference)."""

    @property
    def rows(self) -> list[list[Tile]]:
        """Each seat's face-up row in front of him, left to right as the seat sees it."""
        return [[tile for group in groups for tile in group.tiles] for groups in self._groups]

    def show_deal(self, referee: Referee) -> list[Happening]:
        """The flowers set aside (and replaced) at the deal, put into their seats' discard zones before play, the
        wall's faces turned up at the deal (an indicator), and each dealt hand that wins at the opening (起手胡,
        独抬庄) laid down and taken up again."""
        flowers: list[Happening] = [
            Sight(SightKind.DISCARD, seat, (flower,))
            for seat, state in enumerate(referee.seats)
            for flower in state.flowers
        ]
        return flowers + self._turned(referee, ()) + self._openings(referee)

    def _openings(self, referee: Referee) -> list[Happening]:
        """Each dealt hand that wins at the opening, shown and taken up again (its player's, sorted)."""
        ruleset, shown = referee.ruleset, []
        for seat, state in enumerate(referee.seats):
            hand = tuple(sorted(state.concealed_tiles()))
            if ruleset.pays_openings and ruleset.opening_win(hand, seat, referee.dealer) is not None:
                shown += self._shown_and_taken_up(seat, _Group.of(hand, _held_marked(referee, seat)))
        return shown

    def play(self, referee: Referee, action: Action) -> tuple[Verdict, list[Happening]]:
        """Apply ``action`` to the full-information ``referee`` and return its verdict and what the table showed."""
        phase, offer, offer_seat = referee.phase, referee.offer, referee.offer_seat
        melds = [len(state.melds) for state in referee.seats]
        wins = len(referee.wins)
        self._offer_marked = referee.offer_marked
        self._shown_marked = [state.marked_shown for state in referee.seats]
        verdict = referee.apply(action)
        if not verdict.ok:
            return verdict, []
        shown = self._shown_by(referee, action, verdict, phase, wins)
        if phase in (Phase.CLAIMS, Phase.ROB) and referee.phase not in (Phase.CLAIMS, Phase.ROB):
            assert offer is not None and offer_seat is not None
            shown += self._resolution(referee, phase, offer, offer_seat, melds, wins)
        if "drawn game" in verdict.events:
            for seat in (seat for seat in range(SEATS) if seat not in referee.players_out):
                hand = tuple(referee.seats[seat].concealed_tiles())
                shown.append(self._lay(seat, _Group.of(hand, _held_marked(referee, seat))))
        return verdict, shown + self._turned(referee, [record.seat for record in referee.wins[wins:]])

    def _turned(self, referee: Referee, winners: Sequence[int]) -> list[Happening]:
        """The wall's faces turned up since the last look (``faces`` grows): each a wall sight at its place; a
        face-down wildcard replaced (Harbin's 换宝) is turned up too."""
        return self._wall_sights(referee, [*referee.faces_up(winners), *referee.face_down_places()[:-1]])

    def _wall_sights(self, referee: Referee, places: Sequence[int]) -> list[Happening]:
        """A wall sight of each of ``places`` whose face is known and not shown yet (``faces`` grows)."""
        state, shown = referee.wall.state, []
        for place in places:
            face = state.faces[place]
            if place not in self.faces and face is not None:
                self.faces[place] = face
                wall_of, marked = state.positions[place].wall_of_seat, first_marked(place in state.marked)
                shown.append(Sight(SightKind.WALL, wall_of, (face,), place=place, marked=marked))
        return shown

    def _shown_by(self, referee: Referee, action: Action, verdict: Verdict, phase: Phase, wins: int) -> list[Happening]:
        """What the acting player himself shows (a resolved offer adds the claimants' sights after it)."""
        seat, kind, tile = action.seat, action.kind, action.tile
        if kind is ActionKind.DISCARD:
            assert tile is not None
            return [Sight(SightKind.DISCARD, seat, (tile,), marked=first_marked(referee.offer_marked))]
        if kind is ActionKind.ABORT:
            hand = tuple(sorted(referee.seats[seat].concealed_tiles()))
            return [self._lay(seat, _Group.of(hand, _held_marked(referee, seat)))]
        if kind is ActionKind.READY:
            assert tile is not None
            laid = Sight(SightKind.DISCARD, seat, (tile,), sideways=True, marked=first_marked(referee.offer_marked))
            return [Press(Button.HU, seat), laid]
        if kind in _CLAIMS:
            return [Press(Button.CLAIM, seat)]
        if kind is ActionKind.HU:
            pressed: list[Happening] = [Press(Button.HU, seat)]
            if any(event.startswith(f"seat {seat} false win") for event in verdict.events):
                pressed += self._false_hand(referee, seat, self_drawn=phase is Phase.ACT)
            elif phase is Phase.ACT and len(referee.wins) > wins:
                pressed += self._face_down_shown(referee)
                pressed += self._lay_down(referee.wins[-1].seat, referee, first=True, won_marked=False)
            return pressed
        if kind is ActionKind.DECLARE_VOID:
            assert tile is not None
            return [Press(Button.CLAIM, seat)] * VOID_PRESSES[suit_of(tile)]
        if kind is ActionKind.CONCEALED_KONG:
            assert tile is not None
            return [self._append(seat, _Group((tile,) * 4, first_marked(self._newly_shown(referee, seat))))]
        if kind is ActionKind.ADDED_KONG:
            assert tile is not None
            groups = self._groups[seat]
            at = next(i for i, group in enumerate(groups) if group.tiles == (tile,) * 3)
            added = frozenset({3}) if referee.offer_marked else frozenset()
            groups[at] = _Group((tile,) * 4, groups[at].marked | added)
            return [self._row(seat)]
        if kind is ActionKind.FLOWER:
            assert tile is not None
            return [Sight(SightKind.DISCARD, seat, (tile,))]
        return []

    def _face_down_shown(self, referee: Referee) -> list[Happening]:
        """A self-drawn winner turns up the face-down wildcard first (Harbin's 宝: it may make his win 摸宝)."""
        return self._wall_sights(referee, referee.face_down_places()[-1:])

    def _newly_shown(self, referee: Referee, seat: int) -> bool:
        """Whether the action put a marked copy into ``seat``'s melds."""
        return referee.seats[seat].marked_shown > self._shown_marked[seat]

    def _resolution(
        self, referee: Referee, phase: Phase, offer: Tile, offer_seat: int, melds: list[int], wins: int
    ) -> list[Happening]:
        """The offer closed: a win (the discard taken, or the robbed tile back out of the kong) and the hands laid
        down, or a granted claim (the discard taken and the meld laid), or nothing (all passed, kong completed)."""
        taken = Sight(SightKind.TAKEN, offer_seat, (offer,), marked=first_marked(self._offer_marked))
        winners = [record.seat for record in referee.wins[wins:]]
        if winners:
            if phase is Phase.ROB:
                groups = self._groups[offer_seat]
                at = next(i for i, group in enumerate(groups) if group.tiles == (offer,) * 4)
                groups[at] = _Group((offer,) * 3, groups[at].marked - {3})
                shown: list[Happening] = [self._row(offer_seat)]
            else:
                shown = [taken]
            for index, winner in enumerate(winners):
                shown += self._lay_down(winner, referee, first=index == 0, won_marked=self._offer_marked)
            if phase is Phase.CLAIMS and referee.ruleset.pays_on_hidden_readiness:  # was the discarder ready?
                hand = tuple(sorted(referee.seats[offer_seat].concealed_tiles()))
                shown.append(self._lay(offer_seat, _Group.of(hand, _held_marked(referee, offer_seat))))
            return shown
        claimant = referee.turn
        if referee.phase is Phase.ACT and len(referee.seats[claimant].melds) > melds[claimant]:
            tiles = referee.seats[claimant].melds[-1].tiles
            five = next((tile for tile in tiles if tile in referee.ruleset.tile_set.marked), None)
            marked = Counter([five]) if five is not None and self._newly_shown(referee, claimant) else Counter()
            return [taken, self._append(claimant, _Group.of(tiles, marked))]
        return []

    def _lay_down(self, seat: int, referee: Referee, *, first: bool, won_marked: bool) -> list[Happening]:
        """A winner's hand face up at the left of his row: sorted, the winning tile last when he holds it (marked
        when ``won_marked``: the discard won was a marked copy)."""
        record = next(record for record in reversed(referee.wins) if record.seat == seat)
        hand = tuple(sorted(record.hand.standing)) + ((record.hand.win_tile,) if first else ())
        marked = _held_marked(referee, seat)
        return [self._lay(seat, _Group.of(hand, marked, last_marked=first and won_marked))]

    def _false_hand(self, referee: Referee, seat: int, *, self_drawn: bool) -> list[Happening]:
        """A false declaration's hand laid down as a win's would be (the tile drawn last), then picked up again."""
        held = referee.seats[seat].concealed_tiles()
        drawn = referee.last_drawn if self_drawn and referee.last_drawn in held else None
        if drawn is not None:
            held.remove(drawn)
        hand = (*held, drawn) if drawn is not None else tuple(held)
        return self._shown_and_taken_up(seat, _Group.of(hand, _held_marked(referee, seat)))

    def _shown_and_taken_up(self, seat: int, hand: _Group) -> list[Happening]:
        """``hand`` laid down at the left of the seat's row, then picked up again."""
        laid = self._lay(seat, hand)
        del self._groups[seat][0]
        return [laid, self._row(seat)]

    def _lay(self, seat: int, hand: _Group) -> Sight:
        self._groups[seat].insert(0, hand)
        return self._row(seat)

    def _append(self, seat: int, group: _Group) -> Sight:
        self._groups[seat].append(group)
        return self._row(seat)

    def _row(self, seat: int) -> Sight:
        marked, start = set(), 0
        for group in self._groups[seat]:
            marked |= {start + at for at in group.marked}
            start += len(group.tiles)
        return Sight(SightKind.ROW, seat, tuple(self.rows[seat]), marked=frozenset(marked))


def _held_marked(referee: Referee, seat: int) -> Counter[Tile]:
    """The marked copies among ``seat``'s concealed tiles, by face."""
    return Counter(referee.seats[seat].marked)


def first_marked(marked: bool) -> frozenset[int]:
    """A one-tile sight's ``marked``."""
    return frozenset({0}) if marked else frozenset()
