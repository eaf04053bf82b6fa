"""The table service: hands one after another on the table, every input journaled before it is applied.

A run is resumed when the journal holds one in progress: the match state comes from the journal (written with
each hand's result), the hand in play is rebuilt by replaying its events, the table cycle continues from the
MCU's phase (a simulated table, restarted with the service, is first brought to where the journal left it). Seeds
derive from the run's seed and the hand number, the simulated dice from the hand seed and the bots' decisions from
the hand seed and the referee state, and the next walls' steps are journaled at a fixed point of the hand
(``controller.service.nextwalls``), so a run's journal depends on its seed alone, timestamps aside, whether it was
killed and resumed or not.

With ``service.camera = "sim"`` (``mjtable run --camera sim``) the bots' discards go through the simulated camera
(``controller.people.camera``): what the camera read is journaled and applied, a claim is confirmed by the tile seen
taken, and a camera that reads wrong or nothing is logged and shown but never stalls the game (the bot's own
report is used). When the camera reads every discard right the results are those of a run without it.

With ``service.players = "people"`` nobody's moves are known: the hand is followed through the camera and the seat
buttons only (``controller.people.watch``), its sights and presses journaled and turned into actions by the witness.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.config import Config
from controller.display.hints import hint
from controller.display.view import TableView
from controller.display.web import DisplayServer
from controller.errors import ControllerError, JournalError, TableStopped
from controller.people import watch
from controller.people.watch import Corrections
from controller.service.cycle import TableCycle, table_history
from controller.service.events import Event, EventKind, describe_action
from controller.service.hand import HandRecord, HandState
from controller.service.inputs import Button
from controller.service.journal import Journal, MatchRecord, RunRecord
from controller.service.nextwalls import SETTLE_AT, NextWalls, fault_code
from controller.service.outcome import hand_result
from controller.service.players import next_action
from controller.service.tableside import TableSide, open_table
from controller.service.tail import table_ahead
from controller.voice.voice import Voice, open_voice
from engine.actions import Action, ActionKind, Verdict
from engine.referee import Phase
from engine.rulesets.registry import get_ruleset
from engine.tiles import WIND_LETTERS, format_tiles, tile_code
from firmware_bridge.errors import McuReset, TableFault
from hw_tests.faults import NO_FAULTS, FaultPlan

if TYPE_CHECKING:  # the camera path imports the vision package (OpenCV): only a run with the camera loads it
    from controller.people.camera import CameraStats, SimCamera, Swap
    from controller.people.renderer import Renderer

log = logging.getLogger(__name__)

Emit = Callable[[dict[str, Any]], None]

PRESSED = (ActionKind.CHI, ActionKind.PUNG, ActionKind.KONG, ActionKind.HU)
"""The moves a player makes by the seat's button: claims (a short press) and hu (held)."""


def hand_seed(run_seed: int, number: int) -> int:
    return random.Random(f"{run_seed}/hand/{number}").getrandbits(63)


def first_dealer(run_seed: int, match_number: int) -> int:
    return random.Random(f"{run_seed}/match/{match_number}").randrange(4)


class Service:
    """Plays the configured run on ``side``; ``emit`` gets each hand's result and the final summary."""

    def __init__(
        self,
        config: Config,
        side: TableSide,
        journal: Journal,
        emit: Emit,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
        listeners: tuple[Callable[[HandState, Event, Verdict | None], None], ...] = (),
        stop: threading.Event | None = None,
        resume: threading.Event | None = None,
        camera_swap: Swap | None = None,
        corrections: Corrections | None = None,
    ) -> None:
        self.config = config
        self.corrections = corrections or Corrections()
        """People playing: the seats' corrections of unsure readings, posted to the display (``POST /api/correct``)."""
        self.journal = journal
        self.emit = emit
        self.clock = clock
        self.sleep = sleep
        self.listeners = listeners
        self.stop = stop or threading.Event()
        """Set from another thread (the display's control endpoint): the run stops after the current move."""
        self.resume = resume or threading.Event()
        """Set by the technician (``POST /api/resume``) once a fault is repaired."""
        self.cycle = TableCycle(side, self._record_current, clock, self.stop)
        self._called: dict[int, Action] = {}
        """The meld (or hu) each seat's player called, taken with the seat's next button press."""
        self._hand: HandState | None = None
        self.camera_swap = camera_swap
        """Test hook of the simulated camera: the tile laid into the zone instead of the bot's (``SimCamera``)."""
        self._renderer: Renderer | None = None
        """The simulated camera's render process, started with the first hand the camera watches."""
        self.camera_stats: CameraStats | None = None
        """The camera path's figures over the run (``service.camera = "sim"``)."""
        self._table_camera: watch.TableCamera | None = None
        """People playing: the overhead camera, opened with the first hand it watches."""
        self._refused: str | None = None
        """Why the referee refused the last action recorded, if it did."""

    # -- the run ------------------------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        try:
            return self._run()
        finally:
            if self._renderer is not None:
                self._renderer.close()
                self._renderer = None

    def _run(self) -> dict[str, Any]:
        run = self._open_run()
        resumed = True
        while not run.finished and not self.stop.is_set():
            match = self._match(run)
            hand = self._hand_in_play(run, match)
            if resumed:
                self._restore_table(run)
                self._journal_behind(run, hand)
                resumed = False
            stopped = self._play(hand)
            if hand.over:
                run = self._finish(run, match, hand)
            if stopped is not None:
                raise stopped  # the table under the finished hand: a fault with on_fault = "stop", a lost link
            if not hand.over:
                break
        hands = sum(result is not None for _, result in self.journal.hands(run.id))
        summary: dict[str, Any] = {"hands": hands, **_totals(self.journal.matches(run.id))}
        if not run.finished:
            log.info("stopped on request after %d hands: the run resumes from the journal", hands)
            summary["stopped"] = True
        if self.camera_stats is not None:
            summary["camera"] = self.camera_stats.to_dict()
        self.emit(summary)
        return summary

    def _open_run(self) -> RunRecord:
        service = self.config.service
        wanted = {
            "rules": service.rules,
            "options": service.options,
            "hands": service.hands or None,
            "players": service.players,
        }
        run = self.journal.open_run()
        if run is not None:
            found = {"rules": run.rules, "options": run.options, "hands": run.hands, "players": run.players}
            if found != wanted or service.seed not in (-1, run.seed):
                raise JournalError(
                    f"{self.journal.path}: run {run.id} is in progress with seed {run.seed}, {found}; run with "
                    f"those settings to resume it, or give another state directory"
                )
            self.journal.verify(run.id)  # an edited, deleted or reordered row is named before anything is replayed
            log.info("resuming run %d (seed %d)", run.id, run.seed)
            return run
        seed = service.seed if service.seed >= 0 else random.SystemRandom().getrandbits(31)
        run = self.journal.start_run(
            seed, service.rules, service.options, service.hands or None, self.clock(), service.players
        )
        log.info("run %d: seed %d, rules %s", run.id, seed, service.rules)
        return run

    def _match(self, run: RunRecord) -> MatchRecord:
        matches = self.journal.matches(run.id)
        if matches and not matches[-1].finished:
            return matches[-1]
        number = len(matches)
        match = get_ruleset(run.rules, run.options).start_match(first_dealer(run.seed, number))
        log.info("match %d: first dealer seat %d", number, match.deal.dealer)
        return self.journal.start_match(run.id, number, match, self.clock())

    def _hand_in_play(self, run: RunRecord, match: MatchRecord) -> HandState:
        hands = self.journal.hands(run.id)
        if hands and hands[-1][1] is None:
            record = hands[-1][0]
            state = self.journal.replay(record)
            log.info("hand %d: resumed after %d events", record.number, len(self.journal.events(record.id)))
        else:
            number = len(hands)
            deal = match.match.deal
            record = HandRecord(
                number,
                hand_seed(run.seed, number),
                deal.dealer,
                deal.round_wind,
                deal.consecutive_dealer,
                run.rules,
                run.options,
                run.players,
                match_id=match.id,
                **match.match.deal_facts(),
            )
            record = self.journal.start_hand(record, self.clock())
            state = HandState.start(record)
            log.info("hand %d: dealer seat %d, round wind %s", number, deal.dealer, WIND_LETTERS[deal.round_wind])
        self._hand = state
        return state

    def _restore_table(self, run: RunRecord) -> None:
        """A simulated table that restarted with the service is brought to where the run's journal left the table,
        as a real table's MCU kept it (``TableSide.restore``); a new run starts on the table as it booted."""
        restore = self.cycle.side.restore
        if restore is None:
            return
        events = [event for record, _ in self.journal.hands(run.id) for event in self.journal.events(record.id)]
        if events:
            restore(table_history(events))

    def _journal_behind(self, run: RunRecord, hand: HandState) -> None:
        """On resuming: a journal that lost rows the table lived through (its head file, the MCU's dice count) is
        said loudly, and a hand in play is voided with the reason rather than replayed from an earlier point
        (``controller.service.tail``)."""
        table = self.cycle.side.table
        reason = self.journal.lost or table_ahead(self.journal, run, hand, table.identity, table.state)
        if reason is None:
            return
        number = hand.record.number
        dealt = hand.referee is not None and not hand.over
        done = "the hand is voided" if dealt else "the hand is dealt from the table as it stands"
        log.error("hand %d: the journal is behind the table: %s; %s", number, reason, done)
        self.emit({"journal": "behind", "hand": number, "reason": reason, "done": done})
        if dealt:
            data = {"button": Button.VOID.value, "seat": hand.record.dealer, "by": "service", "reason": reason}
            self.record(hand, Event(EventKind.BUTTON, data, self.clock()))

    # -- one hand -----------------------------------------------------------------------------------------

    def _record_current(self, event: Event) -> Verdict | None:
        assert self._hand is not None
        return self.record(self._hand, event)

    def record(self, hand: HandState, event: Event) -> Verdict | None:
        """Journal the event (committed), then apply it; the verdict of an action is logged, never dropped."""
        self.journal.append(hand.record.id, event)
        verdict = hand.apply(event)
        if event.kind is EventKind.ACTION:
            assert verdict is not None
            action = event.data["action"]
            what = describe_action(action)
            answer = "ok" if verdict.ok else f"ILLEGAL: {verdict.reason}"
            self._refused = None if verdict.ok else verdict.reason
            follow = f" ({'; '.join(verdict.events)})" if verdict.events else ""
            log.info("hand %d: %s: %s%s", hand.record.number, what, answer, follow)
        elif event.kind is not EventKind.FAULT:
            ruled = "" if verdict is None else f" → {'; '.join(verdict.events) or verdict.reason}"
            log.info("hand %d: %s%s", hand.record.number, " ".join(f"{k}={v}" for k, v in event.data.items()), ruled)
        for listener in self.listeners:
            listener(hand, event, verdict)
        return verdict

    def _ready(self, hand: HandState) -> bool:
        """The hand dealt on a table that is ready; ``False`` when stopped while a fault waited for the
        technician or the table for a press. A fault stops the run, or with ``on_fault = "wait"`` waits for
        ``POST /api/resume`` and repeats the step (the cycle clears the latched fault and goes on from the MCU's
        phase)."""
        while True:
            try:
                if hand.referee is None:
                    return self.cycle.prepare(hand)
                self.cycle.show_dealer(hand)  # the lamps were lost with the process
                return True
            except (TableFault, McuReset) as fault:
                code = fault_code(fault, self.cycle.side)
                self.resume.clear()  # before the fault shows: a resume pressed once it is seen must count
                self._fault(hand, Event.fault(code, self.clock()))
                if self.config.service.on_fault != "wait":
                    raise TableStopped(
                        f"hand {hand.record.number}: the table stopped: {fault}", code, hint(code)
                    ) from None
                while not self.resume.wait(0.05):
                    if self.stop.is_set():
                        return False
                log.info("hand %d: resumed by the technician after %s", hand.record.number, code)

    def _fault(self, hand: HandState, event: Event) -> None:
        """A fault recorded and shown with the technician's hint (and, when the service waits, how to resume)."""
        self.record(hand, event)
        code = str(event.data["code"])
        text = hint(code)
        log.error("hand %d: table stopped by fault %s: %s", hand.record.number, code, text)
        line = {"fault": code, "hint": text, "hand": hand.record.number}
        if self.config.service.on_fault == "wait":
            line["waiting"] = "POST /api/resume"
        self.emit(line)

    def posted(self, hand: HandState, event: Event) -> None:
        if event.kind is EventKind.FAULT:
            self._fault(hand, event)
        else:
            self.record(hand, event)

    def _play(self, hand: HandState) -> BaseException | None:
        """Deal and play the hand while the next walls are built; returns what stopped the building, if anything."""
        if not self._ready(hand):
            return None
        service = self.config.service
        settle = None if hand.record.players == "people" else SETTLE_AT  # people: as the camera follows the hand
        walls = NextWalls(self.cycle.side, hand, self.clock, self.stop, self.resume, service.on_fault == "wait", settle)
        walls.start()
        try:
            self._moves(hand, walls)
        except BaseException:
            walls.abandon()
            raise
        return walls.finish(lambda event: self.posted(hand, event), hand.over)

    def _moves(self, hand: HandState, walls: NextWalls) -> None:
        referee = hand.referee
        assert referee is not None
        if hand.record.players == "people":
            side = self.cycle.side
            self._table_camera = self._table_camera or watch.open_table_camera(self.config, side.people)
            watch.watch_hand(self, side, hand, walls, self._table_camera)
            return
        pause = self.config.service.think_s / self.config.service.speed
        camera = None
        if self.config.service.camera == "sim":
            from controller.people.camera import CameraStats, SimCamera, open_renderer

            self.camera_stats = self.camera_stats or CameraStats()
            self._renderer = self._renderer or open_renderer()
            # zones empty on a resume
            camera = SimCamera(hand.record.seed, self._renderer, self.camera_swap, self.camera_stats)
        while not self.stop.is_set():
            for event in walls.take(len(referee.history)):  # the next walls' steps at the hand's fixed point
                self.posted(hand, event)
            if referee.phase is Phase.OVER:
                return
            action = next_action(referee, hand.record.seed)
            self.sleep(pause)
            moves = len(referee.history)
            self._move(hand, camera, action)
            self._presses(hand, camera)
            if len(referee.history) == moves:
                raise ControllerError(
                    f"hand {hand.record.number}: the referee refused the bot's move {describe_action(action.to_dict())}"
                    f" ({self._refused}); the bots decide from the referee's state alone, so they would make it again "
                    "and again: the run stops (a bot's fault: keep the journal for the report)"
                )

    def _move(self, hand: HandState, camera: SimCamera | None, action: Action) -> None:
        """A bot's move as the table sees it: a claim or a hu by the seat's button (the simulated finger presses
        it; the meld called is the bot's), a discard through the camera, anything else reported by the bot."""
        hands = self.cycle.side.hands
        if hands is not None and action.kind in PRESSED:
            self._called[action.seat] = action  # the camera reads no melds: the player's call names it
            hands.seat(action.seat, hu=action.kind is ActionKind.HU)  # MockFactory queues the press right away
        elif camera is not None and action.kind is ActionKind.DISCARD and action.tile is not None:
            self._discarded(hand, camera, action)
        else:
            self._watched(hand, camera, Event.action(action, "bot", self.clock()))

    def _presses(self, hand: HandState, camera: SimCamera | None) -> None:
        """Every seat-button press so far, in order, to the referee: a held press declares hu (the camera reads
        the hand laid down), a short one claims with the meld its player called, or, with none called, is
        answered as claiming nothing. The lift switch held voids the hand; a lift press during play is ignored
        (logged)."""
        referee = hand.referee
        assert referee is not None
        while (press := self.cycle.side.inputs.take()) is not None:
            called = self._called.pop(press.seat, None)
            if press.button is Button.HU:
                action = (
                    called if called is not None and called.kind is ActionKind.HU else Action(ActionKind.HU, press.seat)
                )
                if camera is not None:
                    action = self._revealed(hand, camera, action)
            elif press.button is Button.CLAIM and called is not None and called.kind is not ActionKind.HU:
                action = called
            elif press.button in (Button.CLAIM, Button.VOID):
                self.record(hand, Event.button(press.button.value, press.seat, self.clock()))
                continue
            else:
                log.info("hand %d: %s pressed during play: nothing to do", hand.record.number, press.button.value)
                continue
            event = Event.action(action, "button", self.clock())
            event.data["button"] = press.button.value
            self._watched(hand, camera, event)

    # -- the camera path ----------------------------------------------------------------------------------

    def _discarded(self, hand: HandState, camera: SimCamera, action: Action) -> None:
        """A bot's discard laid into the zone, and what the camera read recorded, timed from the frame that showed
        it. A camera that reads another tile or nothing is logged and shown, and the bot's own report is recorded:
        the camera is checked, the game is never stalled by it."""
        assert action.tile is not None
        reading = camera.discard(action.seat, action.tile)
        if reading.tile == action.tile:
            seen = Action(ActionKind.DISCARD, action.seat, reading.tile)
            self.record(hand, Event.action(seen, "camera", self.clock() - reading.age()))
            assert self.camera_stats is not None
            self.camera_stats.latencies.append(reading.age())
        else:
            self._mismatch(hand, "discard", action.seat, tile_code(action.tile), reading.code)
            data = {"action": action.to_dict(), "source": "bot", "camera": reading.code}
            self.record(hand, Event(EventKind.ACTION, data, self.clock()))

    def _revealed(self, hand: HandState, camera: SimCamera, action: Action) -> Action:
        """The hu with the concealed hand as the camera read it laid down (the referee scores that hand); a
        misread is shown and the hu goes on as declared."""
        referee = hand.referee
        assert referee is not None
        held = tuple(sorted(referee.seats[action.seat].concealed_tiles()))
        reading = camera.reveal(action.seat, held)
        if reading.tiles is not None and tuple(sorted(reading.tiles)) == held:
            return replace(action, revealed=reading.tiles)
        self._mismatch(hand, "hand", action.seat, format_tiles(held), reading.code)
        return action

    def _watched(self, hand: HandState, camera: SimCamera | None, event: Event) -> None:
        """Record the action; with the camera, a granted claim (or a hu on the discard) is confirmed by the tile
        seen taken from the discarder's zone."""
        referee = hand.referee
        assert referee is not None
        offered, discarder, claims = referee.offer, referee.offer_seat, referee.claims_made
        on_offer = referee.phase is Phase.CLAIMS and offered is not None and discarder is not None
        self.record(hand, event)
        taken = referee.claims_made > claims or (referee.phase is Phase.OVER and bool(referee.wins))
        if camera is not None and on_offer and taken:
            assert offered is not None and discarder is not None
            reading = camera.take(discarder)
            if reading.tile != offered:
                self._mismatch(hand, "taken", discarder, tile_code(offered), reading.code)

    def _mismatch(self, hand: HandState, what: str, seat: int, expected: str, read: str) -> None:
        assert self.camera_stats is not None
        self.camera_stats.mismatches += 1
        line = {"camera": "mismatch", "hand": hand.record.number, "event": what, "seat": seat, "bot": expected}
        line |= {"read": read, "using": "bot"}
        log.warning(
            "hand %d: camera mismatch: seat %d %s %s, the camera read %s; going on with the bot's report",
            hand.record.number,
            seat,
            what,
            expected,
            read,
        )
        self.emit(line)

    def _finish(self, run: RunRecord, match: MatchRecord, hand: HandState) -> RunRecord:
        referee = hand.referee
        assert referee is not None and referee.result is not None
        after = match.match.record_hand(referee.result)
        record = hand.record
        result = hand_result(hand, match.match, after, match.number)
        done = run.hands is not None and record.number + 1 >= run.hands
        match = replace(match, match=after, finished=after.game_over)
        run = replace(run, finished=done)
        self.journal.finish_hand(record, result, match, run, self.clock())
        self.emit(result)
        return run


def _totals(matches: list[MatchRecord]) -> dict[str, Any]:
    """The run's scores: the sum of its matches' payments, or where a match keeps points from a start (riichi's
    25,000) the points of the last match and the final standings of each one finished."""
    if not matches or matches[-1].match.standings is None:
        return {"scores": [sum(m.match.scores[player] for m in matches) for player in range(4)]}
    standings = [m.match.final_standings() for m in matches if m.finished]
    return {"scores": list(matches[-1].match.scores), **({"final_standings": standings} if standings else {})}


def journal_path(config: Config) -> Path:
    return config.service.state_path / "journal.sqlite"


Hook = Callable[[ExitStack, Service, TableView], None]
"""Attaches a part of the deployment (``controller.ops.daemon``: systemd, the fleet link, SIGTERM) to a service about to
run: it may add listeners, wrap ``sleep``, and push exit callbacks, which run before the table closes."""


def serve(config: Config, emit: Emit, faults: FaultPlan = NO_FAULTS, hooks: tuple[Hook, ...] = ()) -> dict[str, Any]:
    """Open the journal, the display and the table, play the run, close them all; ``faults`` go into a simulated
    table, ``hooks`` are attached once the table is open."""
    view = TableView()
    stop, resume = threading.Event(), threading.Event()
    corrections = Corrections()
    voice: Voice | None = None

    def show(line: dict[str, Any]) -> None:
        view.on_line(line)
        if voice is not None:
            voice.on_line(line)
        emit(line)

    with ExitStack() as stack:
        voice = open_voice(config.voice)  # [voice]: says claims and verdicts from its own thread
        if voice is not None:
            stack.callback(voice.close)
        journal = stack.enter_context(Journal(journal_path(config), config.journal.synchronous))
        if config.http.listen != "off":
            controls = {"stop": stop.set, "resume": resume.set}
            server = DisplayServer(
                config.http.listen, view, config.http.token, controls, inputs={"correct": corrections.post}
            )
            stack.callback(server.close)
        side = stack.enter_context(open_table(config, faults))
        listeners = (view.on_event,) if voice is None else (view.on_event, voice.on_event)
        service = Service(config, side, journal, show, listeners=listeners, stop=stop, resume=resume)
        for hook in hooks:
            hook(stack, service, view)
        return service.run()
