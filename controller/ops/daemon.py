"""``mjtable run`` as a deployed service: the table service with systemd's notify protocol and watchdog, the safe
stop on SIGTERM, and the fleet link with its commands.

Everything attaches to ``controller.service.service.serve`` through its hooks, so the plain service (tests, benches)
runs without any of it, and this module adds nothing when neither systemd nor a broker is configured. The fleet's
commands act between moves: ``pause`` holds the table before the next move (the watchdog keeps pinging: a paused table
is not stuck), ``resume`` lets it go on (also after a repaired fault with ``on_fault = "wait"``), ``set_ruleset``
chooses the rules of the next match, ``start_match`` ends the run in play after the current move and starts a new one (a
new match) with those rules.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from types import TracebackType
from typing import Any

from controller.config import Config
from controller.display.view import TableView
from controller.errors import ConfigError
from controller.fleet.mqtt_link import MqttLink
from controller.ops.sdnotify import Notifier
from controller.ops.watchdog import Heartbeat, Watchdog, health
from controller.service.events import Event
from controller.service.hand import HandState
from controller.service.journal import Journal
from controller.service.service import Emit, Service, journal_path, serve
from controller.service.shutdown import Terminated, safe_stop, terminate_on_sigterm
from engine.actions import Verdict
from engine.rulesets.registry import get_ruleset

log = logging.getLogger(__name__)


class PauseGate:
    """Holds the control loop between moves while paused; waiting counts as alive for the watchdog."""

    def __init__(self, heartbeat: Heartbeat) -> None:
        self.heartbeat = heartbeat
        self._running = threading.Event()
        self._running.set()

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    def wrap(self, sleep: Callable[[float], None], stop: threading.Event) -> Callable[[float], None]:
        """The service's think-time ``sleep``, then the wait while paused (a stop request ends the wait)."""

        def gated(seconds: float) -> None:
            self.heartbeat.beat()
            sleep(seconds)
            while not self._running.wait(0.2) and not stop.is_set():
                self.heartbeat.beat()

        return gated


class TableDaemon:
    """One table's service, run again with new settings when the fleet asks for a new match."""

    def __init__(self, config: Config, emit: Emit, notifier: Notifier | None = None) -> None:
        self.config = config
        self.emit = emit
        self.notifier = notifier or Notifier()
        self.heartbeat = Heartbeat()
        self.gate = PauseGate(self.heartbeat)
        self.next_rules: tuple[str, dict[str, Any]] = (config.service.rules, config.service.options)
        self._service: Service | None = None
        self._new_match = False
        self.link: MqttLink | None = None
        if config.mqtt.url:
            commands = {
                "pause": self._pause,
                "resume": self._resume,
                "set_ruleset": self._set_ruleset,
                "start_match": self._start_match,
            }
            self.link = MqttLink(config.mqtt, config.mqtt.url, TableView().snapshot, commands)

    # -- the run ---------------------------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        """Serve until the run ends, SIGTERM (``Terminated``) or Ctrl-C; a ``start_match`` serves a new run."""
        with terminate_on_sigterm(), ExitStack() as stack:
            if self.link is not None:
                self.link.start()
                stack.callback(self.link.close)
            while True:
                try:
                    summary = serve(self.config, self._emit, hooks=(self._attach,))
                finally:
                    log.info("table closed: serial port released")
                if not self._new_match:
                    return summary
                self._begin_new_run()

    def stop(self) -> None:
        """Stop after the current move (any thread); the journal keeps the run for the next start."""
        if self._service is not None:
            self._service.stop.set()
        self.gate.resume()

    def _begin_new_run(self) -> None:
        self._new_match = False
        with Journal(journal_path(self.config), self.config.journal.synchronous) as journal:
            run = journal.open_run()
            if run is not None:
                journal.close_run(run.id, time.time())
        rules, options = self.next_rules
        self.config = self.config.with_service(rules=rules, options=options)
        log.info("new match requested: a new run with rules %s %s", rules, options or "")

    def _attach(self, stack: ExitStack, service: Service, view: TableView) -> None:
        self._service = service
        service.listeners = (*service.listeners, self._on_event)
        service.sleep = self.gate.wrap(service.sleep, service.stop)
        side = service.cycle.side
        if self.link is not None:
            self.link.state = view.snapshot
            self.link.state_changed()
        self.heartbeat.beat()
        stall_s = self.config.systemd.stall_s
        watchdog = Watchdog(self.notifier, lambda: health(side.table.link, self.heartbeat, stall_s))
        watchdog.start()
        stack.callback(watchdog.close)

        def leave(kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
            stopped = isinstance(error, Terminated | KeyboardInterrupt)
            if stopped:
                self.notifier.stopping(f"stopping ({type(error).__name__}): emergency stop, lamps off")
                log.warning("stopping on %s: emergency stop, lamps off, port closed", type(error).__name__)
            safe_stop(side, emergency=stopped)

        stack.push(leave)
        rules = self.config.service.rules
        self.notifier.ready(f"playing {rules} on {'the simulated table' if self.config.simulated else 'the table'}")

    # -- what the service reports --------------------------------------------------------------------------

    def _on_event(self, hand: HandState, event: Event, verdict: Verdict | None) -> None:
        self.heartbeat.beat()
        if self.link is not None:
            self.link.on_event(hand, event, verdict)

    def _emit(self, line: dict[str, Any]) -> None:
        self.emit(line)
        if self.link is not None:
            self.link.on_line(line)

    # -- the fleet's commands (paho's thread; each only sets a flag the control loop reads) ------------------

    def _pause(self, request: dict[str, Any]) -> str:
        self.gate.pause()
        self._notice({"paused": True})
        return "paused: the table holds before the next move"

    def _resume(self, request: dict[str, Any]) -> str:
        self.gate.resume()
        if self._service is not None:
            self._service.resume.set()
        self._notice({"paused": False})
        return "resumed"

    def _set_ruleset(self, request: dict[str, Any]) -> str:
        rules, options = request.get("rules"), request.get("options", {})
        if not isinstance(rules, str) or not isinstance(options, dict):
            raise ConfigError('expected "rules": "<id>" and optionally "options": {...}')
        get_ruleset(rules, options)  # an unknown id or option is the reply's error
        self.next_rules = (rules, options)
        return f"rules {rules} from the next match (start_match starts one)"

    def _start_match(self, request: dict[str, Any]) -> str:
        if "rules" in request:
            self._set_ruleset(request)
        service = self._service
        if service is None:
            raise ConfigError("the table is not running yet")
        self._new_match = True
        service.stop.set()
        self.gate.resume()
        return f"a new match with rules {self.next_rules[0]} after the current move"

    def _notice(self, line: dict[str, Any]) -> None:
        assert self.link is not None
        self.link.on_line(line)
