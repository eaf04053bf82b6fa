"""The simulated table where people play, for the service to watch: four bots see everything (a full-information
``Referee.deal``) and play as people would at a camera table (``controller.people.tablemodel``'s procedure). The
service under test gets only what a real table gives it: the overhead camera's frames (``frames``, a
``vision.capture.Source``) and the seat buttons' presses on the MockFactory pins
(``controller.service.inputs.SimHands``).

Each step plays the bots' next move (``controller.service.players.next_action``) through ``TableModel.play``: its
presses go to the pins at once, its sights change the scene, and each change is shown for ``still_frames`` frames (the
image rendered once and repeated), enough for ``vision.track.Tracker(stable, gone)`` with both at most that:

- a discard lies in its seat's zone where ``controller.people.camera.discard_place`` puts it, in rows of six; a zone
  holds ``ROW`` discards (two full rows), and before the thirteenth it is swept: one frame with a hand over it, then
  the tiles are gone (the camera reports them ``taken``; ``shown`` lists those sweeps' sights too);
- a claimed or won discard is taken: one frame with the claimant's hand over it, then it is gone, and its place is
  the discarder's next discard's (the river goes on from the last tile lying in it, as at the table);
- a face of the wall turned up (an indicator, a tile under one at a ready win: ``tablemodel``) is laid face up at its
  spot in the wall zone of the seat whose wall holds it (``controller.people.camera.wall_spots``);
- a row is laid in its seat's hand zone by ``controller.people.camera.laid_row`` (tightened to fit up to 17 tiles, the
  17th touching; more reach past the zone's ends, and the lookout reports a row it could not read).

A new hand sweeps every zone and clears the rows at once. Once the hand is over (and before the first deal) the
unchanged scene repeats; watched for ``give_up_s`` more, the dealer voids the hand (the lift switch held: the
service no longer follows the people's play, after a misread tile). With ``quiet_s``, an offer nobody took (a
discard all passed, the 定缺 declarations) is followed by that long of unchanged frames: people wait out the
service's claim window before going on.

Persistence: after each step ``state_file`` is written (atomically) with the hand's deal, the number of bot moves
played and the step's presses. ``deal`` of the same hand again (a crash, a new object) rebuilds the referee by
replaying that many moves (the bots are deterministic), rebuilds the scene, and presses the last step's presses
again: a press the service may not have taken before the crash is pressed again (the witness takes a repeated
press as one).
"""

from __future__ import annotations

import json
import os
import random
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from controller.errors import ControllerError
from controller.jsonin import read_json
from controller.people.camera import ROW, discard_place, laid_row, reaching_hand, wall_placed
from controller.people.renderer import Renderer
from controller.people.sights import Sight, SightKind
from controller.people.tablemodel import Happening, TableModel, first_marked
from controller.service.inputs import Button, Press, SimHands
from controller.service.players import next_action
from engine.referee import Phase, Referee
from engine.rulesets.base import Ruleset
from engine.settlement import Amount
from engine.tiles import Tile
from vision.capture import Frame
from vision.geometry import DEFAULT_LAYOUT
from vision.kinds import TableTile, face_of, table_tile
from vision.render import Camera, Hand, Look, Placed, Scene

SEATS = 4
OFFERED = (Phase.CLAIMS, Phase.ROB, Phase.DECLARE)
"""Phases in which the table waits for answers: one that ends with no press was a quiet window."""


class PeopleTableError(ControllerError):
    """The people's table's state file cannot be used; names the file and the field."""


@dataclass(frozen=True)
class HandDeal:
    """What makes a hand: the seed the bots' referee is dealt from, and how it was dealt."""

    hand_seed: int
    dealer: int
    dice: tuple[int, int]
    round_wind: int
    consecutive_dealer: int
    honba: int = 0
    pot: Amount = 0
    scores: tuple[Amount, ...] | None = None
    """The match facts the hand starts with (riichi's 本場, sticks on the table, points: a ready declaration needs
    its stake), as the service's referee has them."""
    dice2: tuple[int, int] | None = None
    """The second throw, where the wall is broken by two (Harbin)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_seed": self.hand_seed,
            "dealer": self.dealer,
            "dice": list(self.dice),
            "round_wind": self.round_wind,
            "consecutive_dealer": self.consecutive_dealer,
            "honba": self.honba,
            "pot": self.pot,
            "scores": None if self.scores is None else list(self.scores),
            "dice2": None if self.dice2 is None else list(self.dice2),
        }


@dataclass
class _Shot:
    """A scene to show for ``frames`` frames."""

    scene: Scene
    frames: int


class PeopleTable:
    """The bots' table as the service sees it (see the module doc). ``referee`` is the bots' full-information
    referee (for tests), ``shown`` every sight the scene showed this hand, in order."""

    def __init__(
        self,
        ruleset: Ruleset,
        renderer: Renderer,
        hands: SimHands,
        state_file: Path | None = None,
        fps: float = 10.0,
        still_frames: int = 4,
        quiet_s: float = 0.0,
        give_up_s: float = 60.0,
    ) -> None:
        self.ruleset, self.renderer, self.hands, self.state_file = ruleset, renderer, hands, state_file
        self.fps, self.still_frames, self.quiet_frames = fps, still_frames, round(quiet_s * fps)
        self.give_up_frames = round(give_up_s * fps)
        """Frames the camera is still watched after the people's hand ended before the dealer voids it."""
        self._idle = 0
        self.look = Look()
        self.referee: Referee | None = None
        self.model = TableModel()
        self.deal_args: HandDeal | None = None
        self.played = 0
        """Bot moves played this hand."""
        self.shown: list[Sight] = []
        self.last_presses: list[Press] = []
        """The presses of the last step (pressed again when the hand is resumed)."""
        self._zones: list[list[Placed]] = [[] for _ in range(SEATS)]
        self._rows: list[tuple[Placed, ...]] = [() for _ in range(SEATS)]
        self._walls: dict[int, Placed] = {}
        """The wall's faces turned up (``tablemodel``), by wall place, laid at their spots in the wall zones."""
        self._rng = np.random.default_rng(0)
        self._pending: deque[_Shot] = deque()
        self._image: tuple[Scene, np.ndarray] | None = None
        self._index = 0
        self._pressed_since_offer = False

    # -- the hand --------------------------------------------------------------------------------------------

    def deal(
        self,
        hand_seed: int,
        dealer: int,
        dice: tuple[int, int],
        round_wind: int,
        consecutive_dealer: int,
        *,
        honba: int = 0,
        pot: Amount = 0,
        scores: tuple[Amount, ...] | None = None,
        dice2: tuple[int, int] | None = None,
    ) -> None:
        """A new hand: zones swept, rows cleared, the bots' referee dealt (with the match facts ``honba``, ``pot``,
        ``scores``, and the second throw ``dice2`` where the wall needs two). The same hand as ``state_file`` holds
        resumes it instead: the moves played replayed, the scene rebuilt, the last step's presses pressed again."""
        dice = (int(dice[0]), int(dice[1]))
        second = None if dice2 is None else (int(dice2[0]), int(dice2[1]))
        facts = {"honba": honba, "pot": pot, "scores": None if scores is None else tuple(scores)}
        deal = HandDeal(hand_seed, dealer, dice, round_wind, consecutive_dealer, **facts, dice2=second)  # type: ignore[arg-type]
        saved = self._saved()
        self.deal_args = deal
        winds = {"round_wind": round_wind, "consecutive_dealer": consecutive_dealer}
        self.referee = Referee.deal(self.ruleset, hand_seed, dealer, dice, second, **winds, **facts)  # type: ignore[arg-type]
        self.model = TableModel()
        self.played = 0
        self.shown = []
        self._zones = [[] for _ in range(SEATS)]
        self._rows = [() for _ in range(SEATS)]
        self._walls = {}
        self._rng = np.random.default_rng(random.Random(f"{hand_seed}/places").getrandbits(63))
        self.renderer.reseed(random.Random(f"{hand_seed}/frames").getrandbits(63))
        self._pending.clear()
        self._pressed_since_offer = False
        self._idle = 0
        self._show(self.model.show_deal(self.referee))
        presses: list[Press] = []
        if saved is not None and saved[0] == deal:
            for _ in range(saved[1]):
                if self.referee.phase is Phase.OVER:
                    raise PeopleTableError(
                        f"{self.state_file}: played: {saved[1]} moves, but the hand is over after {self.played}"
                    )
                self._play()
            self._pending.clear()
            self._pending.append(_Shot(self.scene(), self.still_frames))
            presses = saved[2]
        self._press(presses)

    def _play(self) -> list[Happening]:
        """The bots' next move applied to the referee and the scene (shots queued); its happenings."""
        referee, deal = self.referee, self.deal_args
        assert referee is not None and deal is not None
        phase = referee.phase
        verdict, happenings = self.model.play(referee, next_action(referee, deal.hand_seed))
        if not verdict.ok:  # a bot's move is legal by construction: an illegal one is a bug to see at once
            raise RuntimeError(f"people's table: the bots' move was refused: {verdict.reason}")
        self.played += 1
        self._show(happenings)
        self._pressed_since_offer |= any(isinstance(happening, Press) for happening in happenings)
        if phase in OFFERED and referee.phase not in OFFERED:
            waited = phase is Phase.DECLARE or not self._pressed_since_offer  # declarations are presses
            if waited and referee.phase is not Phase.OVER and self.quiet_frames:
                self._pending.append(_Shot(self.scene(), self.quiet_frames))
            self._pressed_since_offer = False
        return happenings

    def _step(self) -> None:
        happenings = self._play()
        self._press([happening for happening in happenings if isinstance(happening, Press)])

    def _press(self, presses: list[Press]) -> None:
        """The step's presses: saved with the step (so that a resumed hand presses them again), then pressed."""
        self.last_presses = presses
        self._save(presses)
        for press in presses:
            if press.button is Button.LIFT:
                self.hands.lift()
            else:
                self.hands.seat(press.seat, hu=press.button is Button.HU)

    @property
    def pending(self) -> bool:
        """Whether frames are still to come of what was played (false once the hand is over and shown)."""
        return bool(self._pending)

    @property
    def camera(self) -> Camera:
        """The overhead camera the frames are rendered for (its homography calibrates the lookout)."""
        return self.renderer.camera

    # -- the scene -------------------------------------------------------------------------------------------

    def scene(self) -> Scene:
        """What lies on the table now (no hands over it)."""
        return self._scene(())

    def _scene(self, hands: tuple[Hand, ...]) -> Scene:
        """What lies on the table: each tile lies as its face (``vision.kinds.face_of``: a marked copy a red five,
        十万's tens their own)."""
        discards = tuple(placed for zone in self._zones for placed in zone)
        rows = tuple(placed for row in self._rows for placed in row)
        tiles = discards + rows + tuple(self._walls.values())
        return Scene(tiles, hands, DEFAULT_LAYOUT, True)

    def _show(self, happenings: list[Happening]) -> None:
        for sight in happenings:
            if isinstance(sight, Press):
                continue
            if sight.kind is SightKind.DISCARD:
                self._discard(sight.seat, sight)
            elif sight.kind is SightKind.TAKEN:
                zone = self._zones[sight.seat]
                at = max(i for i, placed in enumerate(zone) if self._tile(placed) == sight.tiles[0])
                self._take(sight.seat, [at])
                self.shown.append(sight)
            elif sight.kind is SightKind.ROW:
                laid = laid_row(sight.seat, sight.tiles, self._rng)
                self._rows[sight.seat] = tuple(self._faced(one, at in sight.marked) for at, one in enumerate(laid))
                self._pending.append(_Shot(self.scene(), self.still_frames))
                self.shown.append(sight)
            elif sight.kind is SightKind.WALL:
                assert self.referee is not None
                up = [*self._walls, sight.place]  # in the order they were turned up (wall_spots)
                placed = wall_placed(self.referee.wall.state, sight.place, sight.tiles[0], up)
                self._walls[sight.place] = self._faced(placed, 0 in sight.marked)
                self._pending.append(_Shot(self.scene(), self.still_frames))
                self.shown.append(sight)

    def _discard(self, seat: int, sight: Sight) -> None:
        zone = self._zones[seat]
        if len(zone) >= ROW:  # swept: the zone holds two rows of six (controller.people.camera)
            self._take(seat, list(range(len(zone))))
        x, y, angle = discard_place(seat, len(zone), self._rng, zone, sideways=sight.sideways)
        zone.append(self._faced(Placed(sight.tiles[0], x, y, angle), 0 in sight.marked))
        self._pending.append(_Shot(self.scene(), self.still_frames))
        self.shown.append(sight)

    def _take(self, seat: int, indices: list[int]) -> None:
        """A hand reaches over the tiles at ``indices`` of ``seat``'s zone (one frame) and they are gone: a sweep's,
        or a claimed discard (the zone's last), whose place the next discard takes."""
        zone = self._zones[seat]
        if not indices:
            return
        self._pending.append(_Shot(self._scene((reaching_hand(seat, zone[indices[len(indices) // 2]]),)), 1))
        if len(indices) > 1:
            self.shown += [self._taken(seat, zone[index]) for index in indices]
        for index in sorted(indices, reverse=True):
            del zone[index]
        self._pending.append(_Shot(self.scene(), self.still_frames))

    def _faced(self, placed: Placed, marked: bool) -> Placed:
        """A tile of the ruleset's laid as its face (the marked copy a red five)."""
        return replace(placed, tile=face_of(placed.tile, self.ruleset, marked))

    def _tile(self, placed: Placed) -> Tile:
        """The ruleset's tile a face lying on the table is."""
        return self._table_tile(placed).tile

    def _table_tile(self, placed: Placed) -> TableTile:
        tile = table_tile(placed.tile, self.ruleset)
        assert tile is not None, f"face {placed.tile} lies on a {self.ruleset.id} table"
        return tile

    def _taken(self, seat: int, placed: Placed) -> Sight:
        tile = self._table_tile(placed)
        return Sight(SightKind.TAKEN, seat, (tile.tile,), marked=first_marked(tile.marked))

    # -- the camera ------------------------------------------------------------------------------------------

    def frames(self) -> Iterator[Frame]:
        """Endless frames of the table, one bot move after the other (see the module doc)."""
        while True:
            if not self._pending and self.referee is not None and self.referee.phase is not Phase.OVER:
                self._step()
                continue
            shot = self._pending[0] if self._pending else _Shot(self.scene(), 1)
            if self._pending:
                shot.frames -= 1
                if shot.frames <= 0:
                    self._pending.popleft()
            elif self.referee is not None:
                self._wait_for_the_table()
            yield Frame(self._render(shot.scene), self._index, self._index / self.fps)
            self._index += 1

    def _wait_for_the_table(self) -> None:
        """The people's hand is over and shown, yet the service still watches: after ``give_up_s`` the dealer
        holds the lift switch to void the hand, as players do when the display no longer follows their play
        (a tile the camera misread). Once per hand."""
        self._idle += 1
        if self._idle == self.give_up_frames:
            self.hands.void()

    def _render(self, scene: Scene) -> np.ndarray:
        """The frame of ``scene``: rendered once, repeated while the scene stays the same."""
        if self._image is None or self._image[0] != scene:
            self._image = (scene, self.renderer.render(scene, self.look))
        return self._image[1]

    # -- persistence -----------------------------------------------------------------------------------------

    def _save(self, presses: list[Press]) -> None:
        if self.state_file is None or self.deal_args is None:
            return
        state = self.deal_args.to_dict() | {
            "played": self.played,
            "presses": [{"button": press.button.value, "seat": press.seat} for press in presses],
        }
        temporary = self.state_file.with_name(self.state_file.name + ".tmp")
        temporary.write_text(json.dumps(state))
        os.replace(temporary, self.state_file)

    def _saved(self) -> tuple[HandDeal, int, list[Press]] | None:
        """The hand, moves played and last presses ``state_file`` holds (None: no file)."""
        if self.state_file is None or not self.state_file.exists():
            return None
        where = str(self.state_file)
        state = read_json(self.state_file.read_bytes(), where)
        try:
            deal = HandDeal(
                int(state["hand_seed"]),
                int(state["dealer"]),
                (int(state["dice"][0]), int(state["dice"][1])),
                int(state["round_wind"]),
                int(state["consecutive_dealer"]),
                int(state.get("honba", 0)),
                state.get("pot", 0),
                None if state.get("scores") is None else tuple(state["scores"]),
                None if state.get("dice2") is None else (int(state["dice2"][0]), int(state["dice2"][1])),
            )
            played = int(state["played"])
            presses = [Press(Button(press["button"]), int(press["seat"])) for press in state["presses"]]
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise PeopleTableError(f"{where}: not a people's table state ({type(error).__name__}: {error})") from None
        return deal, played, presses
