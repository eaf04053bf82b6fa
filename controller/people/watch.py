"""People at the table (``service.players = "people"``): the service follows the hand through the overhead camera
and the seat buttons only.

Every frame is read by the lookout (``controller.people.lookout``) into sights; every sight and every claim or hu press
is journaled before the witness (``controller.people.witness``, inside ``HandState``) turns it into the referee's
actions, so a restart replays the same inputs to the same state. The claim window is timed on the frames' clock: once
``service.claim_window_s`` of frames pass with no sight and no press while the witness waits for something (claims on a
discard, a hu's hand, void declarations), a ``quiet`` sight is journaled and settles it. On the last tile that is how a
hand ends drawn.

A reading the witness keeps open (unsure, or doubtful after a conflict no other reading healed) is shown on the
display (``Witness.unsure``); its seat may correct it there, by ``POST /api/correct`` with the control token and a body
``{"seat": 2, "tiles": "5m", "sight": 17}`` (``sight``, optional: the number the display shows; else the seat's latest
open reading). ``Corrections`` checks the body in the display's thread and queues it; the loop journals it as a
``correct`` sight before the witness applies it, like every input.

After a restart the lookout is told which tiles already lie in each seat's discard zone (the referee's rivers), so
that it reports only what came after. The camera is the simulated table's (``controller.people.peopletable``: bots who
play as people, seen only through rendered frames and pressed pins) or the real one of ``[camera]``.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from controller.config import Config
from controller.errors import ConfigError, ControllerError
from controller.people.sights import Sight, SightKind
from controller.service.events import Event
from controller.service.hand import HandState
from controller.service.inputs import Button
from controller.service.tableside import TableSide
from engine.actions import Verdict
from engine.errors import NotationError
from engine.referee import Phase
from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tiles

if TYPE_CHECKING:
    from controller.people.lookout import Lookout
    from controller.people.peopletable import PeopleTable
    from controller.people.reader import TableReader
    from controller.service.nextwalls import NextWalls
    from engine.rulesets.base import Ruleset
    from vision.capture import Frame

log = logging.getLogger(__name__)

UNREAD_HINT = "the camera could not read it: lay the tile flat, face up, inside the zone, not touching another"


class HandLoop(Protocol):
    """What following a hand needs of the service that plays it (``controller.service.service.Service``): its
    settings, clock and stop, its journal (``record``: journaled, then applied) and its output. The service depends
    on this module, never the other way."""

    config: Config
    stop: threading.Event
    corrections: Corrections
    clock: Callable[[], float]
    sleep: Callable[[float], None]
    emit: Callable[[dict[str, Any]], None]

    def record(self, hand: HandState, event: Event) -> Verdict | None: ...

    def posted(self, hand: HandState, event: Event) -> None: ...


MAX_CORRECTED = 18
"""Tiles a correction names at most: a winner's row (16 with two kongs) and room."""


class Corrections:
    """Seats' corrections of open readings, posted to the display (any thread) and taken by the watch loop."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Sight] = queue.Queue(maxsize=64)

    def post(self, body: dict[str, Any]) -> None:
        """Check and queue ``{"seat": 0-3, "tiles": "5m", "sight": n}``; a ``ValueError`` says what is wrong."""
        if not isinstance(body, dict):
            raise ValueError('correct: expected an object such as {"seat": 2, "tiles": "5m"}')
        unknown = sorted(set(body) - {"seat", "tiles", "sight"})
        if unknown:
            raise ValueError(f"correct: unknown field {unknown[0]!r}; the fields are seat, tiles, sight")
        seat, text, about = body.get("seat"), body.get("tiles"), body.get("sight", -1)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise ValueError(f"correct.seat: expected a seat number 0-3, got {seat!r}")
        if not isinstance(about, int) or isinstance(about, bool) or about < -1:
            raise ValueError(f"correct.sight: expected the number of a sight the display shows, got {about!r}")
        if not isinstance(text, str) or not text:
            raise ValueError('correct.tiles: expected the tiles it shows, such as "5m" or "555s789p"')
        try:
            tiles = tuple(parse_tiles(text))
        except NotationError as error:
            raise ValueError(f"correct.tiles: {error}") from None
        if not 1 <= len(tiles) <= MAX_CORRECTED:
            raise ValueError(f"correct.tiles: {len(tiles)} tiles; a reading holds 1-{MAX_CORRECTED}")
        try:
            self._queue.put_nowait(Sight(SightKind.CORRECT, seat, tiles, about=about))
        except queue.Full:
            raise ValueError("correct: too many corrections waiting; try again in a moment") from None

    def take(self) -> Sight | None:
        try:
            return self._queue.get_nowait()
        except queue.Empty:
            return None


@dataclass
class TableCamera:
    """The overhead camera as the service reads it: its frames (one stream for the run) and their reader."""

    frames: Iterator[Frame]
    lookout: Lookout


def open_table_camera(config: Config, people: PeopleTable | None) -> TableCamera:
    """The simulated table's camera, or the ``[camera]`` of a real one (calibrated from its file, else from the
    markers of the first frame, as ``mjtable vision watch`` does)."""
    from itertools import chain

    from controller.people.lookout import Lookout
    from controller.people.reader import TableReader
    from vision import calibrate
    from vision.capture import open_source
    from vision.classify import load_model
    from vision.errors import VisionError
    from vision.geometry import DEFAULT_LAYOUT

    ruleset = get_ruleset(config.service.rules, config.service.options)
    if people is not None:
        camera = people.camera
        calibration = calibrate.Calibration(camera.homography, camera.width, camera.height, DEFAULT_LAYOUT)
        return TableCamera(people.frames(), Lookout(calibration, simulated_reader(ruleset)))
    source = config.camera
    try:
        frames = open_source(source.source).frames()
        if source.calibration:
            calibration = calibrate.load(Path(source.calibration))
        else:
            first = next(frames, None)
            if first is None:
                raise ConfigError(f"camera.source {source.source!r}: no frame to find the calibration markers in")
            calibration = calibrate.from_markers(first.image)
            frames = chain([first], frames)
        model = load_model(Path(source.model) if source.model else None)
    except VisionError as error:
        raise ConfigError(f"camera: {error} (mjtable doctor checks the [camera] keys)") from None
    return TableCamera(frames, Lookout(calibration, TableReader(model, ruleset)))  # type: ignore[arg-type]


def simulated_reader(ruleset: Ruleset) -> TableReader:
    """The simulated table's reader: the shipped model, which reads the standard sets' faces; a set with faces it
    does not know (十万's tens) enrolled from the artwork the simulated camera draws (``vision.enroll.artwork_set``,
    as a parlor enrols its own set: about a second)."""
    from controller.people.reader import TableReader
    from vision.classify import load_model
    from vision.enroll import artwork_set
    from vision.kinds import NUM_TILE_IDS, table_faces

    faces = table_faces(ruleset)
    model = load_model()
    if any(face >= NUM_TILE_IDS for face in faces):
        model = artwork_set(model, faces)
    return TableReader(model, ruleset)


def watch_hand(service: HandLoop, side: TableSide, hand: HandState, walls: NextWalls, camera: TableCamera) -> None:
    """Follow the dealt hand on ``side`` until it is over or the service is asked to stop."""
    referee, witness = hand.referee, hand.witness
    assert referee is not None and witness is not None
    record = hand.record
    if side.people is not None:
        assert hand.dice is not None
        facts = {"honba": record.honba, "pot": record.pot, "scores": record.scores, "dice2": hand.dice2}
        side.people.deal(record.seed, record.dealer, hand.dice, record.round_wind, record.consecutive_dealer, **facts)
    lookout = camera.lookout
    # after a restart: what lies in the discard zones and the rows, which the camera must not report again
    offer = (referee.offer_seat, referee.offer) if referee.phase is Phase.CLAIMS and referee.offer is not None else None
    lookout.prime([seat.discards + seat.flowers for seat in referee.seats], witness.rows, offer)
    up = referee.faces_up()
    lookout.expect_wall(referee.wall.state, up)
    window = service.config.service.claim_window_s
    last: float | None = None
    for frame in camera.frames:
        service.sleep(0)  # the loop moves with every frame (the watchdog's heartbeat), and waits here while paused
        received = service.clock()  # a sight is stamped with its frame's arrival: the display latency starts there
        last = frame.time if last is None else last
        while (press := side.inputs.take()) is not None:
            if press.button in (Button.CLAIM, Button.HU, Button.VOID):
                service.record(hand, Event.button(press.button.value, press.seat, service.clock()))
                last = frame.time
            else:
                log.info("hand %d: %s pressed during play: nothing to do", record.number, press.button.value)
        for sight in lookout.look(frame):
            service.record(hand, Event.sight(sight, received))
            last = frame.time
        while (correction := service.corrections.take()) is not None:
            service.record(hand, Event.sight(correction, service.clock()))
            last = frame.time
        for unread in lookout.unread:
            line = {"camera": "unread", "hand": record.number, "seat": unread.seat, "sight": unread.kind.value}
            service.emit(line | {"hint": UNREAD_HINT})
        if witness.quiet_settles and frame.time - last >= window:
            log.info("hand %d: %.1f s quiet: settling %s", record.number, frame.time - last, witness.waiting)
            service.record(hand, Event.sight(Sight(SightKind.QUIET), service.clock()))
            last = frame.time
        for event in walls.take():
            service.posted(hand, event)
        if referee.phase is Phase.OVER or service.stop.is_set():
            return
        if referee.faces_up() != up:  # turned up beyond the dead wall (birds at a win): their spots
            up = referee.faces_up()
            lookout.expect_wall(referee.wall.state, up)
    raise ControllerError(
        f"hand {record.number}: the camera gave no more frames ({service.config.camera.source or 'simulated'}); "
        "the hand resumes from the journal when the service starts again with the camera working"
    )
