"""A played run's display, kept up for a browser: ``mjtable run --hands 2 --seed 1 --speed 1000`` played in this
process with its display off, then the run's own ``TableView`` (the last hand's win on it, both hands in its
history) served on a free port. The run ends in a few seconds; its last state stays on screen as long as a test
or a bench needs it, and the last ``HandState`` lets a test put a fault over the table."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

from controller.config import Config
from controller.display.view import TableView
from controller.display.web import DisplayServer
from controller.service.hand import HandState
from controller.service.service import serve
from tests.controller.test_display_browser import CHROMIUM, CHROMIUM_ARGS


@dataclass
class PlayedRun:
    url: str
    view: TableView
    hand: HandState
    lines: list[dict[str, Any]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's chromium, headless, as the display's browser tests drive it."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def played_run(
    state_dir: Path,
    hands: int = 2,
    seed: int = 1,
    watch: Callable[[dict[str, Any]], None] | None = None,
    **service: Any,
) -> Iterator[PlayedRun]:
    """``service``: more of the run's settings (``rules="riichi"``, ``options={...}``); ``watch`` is given the
    display's state after each event of the run."""
    config = Config().with_service(
        http="off", state_dir=str(state_dir), seed=seed, hands=hands, speed=1000.0, **service
    )
    caught: dict[str, Any] = {}

    def catch(stack: Any, service: Any, view: TableView) -> None:
        caught["view"] = view
        service.listeners = (*service.listeners, lambda hand, event, verdict: caught.update(hand=hand))
        if watch is not None:
            service.listeners = (*service.listeners, lambda hand, event, verdict: watch(view.snapshot()))

    lines: list[dict[str, Any]] = []
    serve(config, lines.append, hooks=(catch,))
    server = DisplayServer(f"127.0.0.1:{free_port()}", caught["view"], "", {})
    try:
        yield PlayedRun(server.url, caught["view"], caught["hand"], lines)
    finally:
        server.close()
