"""``mjtable doctor``: checks the configuration and the hardware it points at, one answer per check, so that a
technician installing a table sees at once which part is wrong (the file, the journal, the display's port, the
serial link to the MCU, the pins, the camera, the fleet's MQTT broker)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from controller.config import Config, load_config
from controller.display.httpd import GuardedServer, JsonHandler
from controller.errors import ControllerError
from controller.service.journal import damaged, failure, file_stamp, quick_check, record_checked
from controller.service.service import journal_path
from controller.service.tableside import open_table
from engine.errors import MjtableError

DOCTOR_CHECK_S = 300.0
"""The doctor checks the journal without the start's limit (``journal.CHECK_S``): a technician waits for it, and the
bound only keeps a failing card from hanging the doctor (a 504 MB journal: 0.6-9.9 s here, see ``Journal._check``)."""


def _journal(config: Config) -> str:
    """SQLite's quick_check of the journal (created when absent, as the service would); a clean check of a file that
    did not change meanwhile is recorded beside it, so the service's next start need not check it again."""
    path = journal_path(config)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        before = file_stamp(path)
        db = sqlite3.connect(path)
        try:
            seconds, problems = quick_check(db, path, DOCTOR_CHECK_S)
        finally:
            db.close()
        size = path.stat().st_size
    except (OSError, sqlite3.Error) as error:
        raise failure(path, error, writer=False) from None
    if problems:
        raise damaged(path, f"SQLite's quick_check finds: {problems}", writer=False)
    if seconds is None:
        raise ControllerError(
            f"{path}: quick_check did not finish in {DOCTOR_CHECK_S:g} s ({size:,} bytes): a card that slow may be "
            "failing; copy the journal off it and check the copy"
        )
    if before[0] is not None and file_stamp(path) == before:
        record_checked(path, before)
    return f"{path}: writable, quick_check ok ({size:,} bytes in {seconds:.1f} s)"


def _display(config: Config) -> str:
    """Binds as the display's server does (its class: ``SO_REUSEADDR``), so the sockets a run just left in
    TIME-WAIT do not fail a check the server itself would pass."""
    if config.http.listen == "off":
        return "off"
    GuardedServer(config.http.listen, JsonHandler, "doctor", "http.listen").server_close()
    control = "control with token" if config.http.token else "read-only"
    return f"{config.http.listen} free, {control}"


def _table(config: Config) -> str:
    with open_table(config) as side:
        identity, state = side.table.identity, side.table.state
        assert identity is not None and state is not None
        where = "simulated table" if config.simulated else config.bridge.link.port
        fault = f", fault {state.fault_code} latched" if state.fault_code else ""
        return (
            f"{where}: {identity.firmware} board {identity.board_id}, protocol {identity.protocol_major}."
            f"{identity.protocol_minor}, phase {state.phase.name}{fault}; pins on {side.pins}"
        )


def _camera(config: Config) -> str:
    if not config.camera.source:
        return "off (no [camera] source)"
    from controller.ops.camera_check import check_camera  # OpenCV is loaded only when a camera is configured

    return check_camera(config.camera)


def _broker(config: Config) -> str:
    from controller.ops.broker_check import check_broker  # paho-mqtt, as for the service: loaded where it is used

    return check_broker(config.mqtt)


def checks(config_path: Path | None) -> Iterator[dict[str, Any]]:
    """Each check with ``ok`` and what it found; the later checks need the configuration to load."""
    try:
        config = load_config(config_path)
    except MjtableError as error:
        yield {"check": "configuration", "ok": False, "detail": str(error)}
        return
    yield {"check": "configuration", "ok": True, "detail": f"{config_path or 'defaults'}: rules {config.service.rules}"}
    steps: list[tuple[str, Callable[[Config], str]]] = [
        ("journal", _journal),
        ("display", _display),
        ("table", _table),
        ("camera", _camera),
        ("broker", _broker),
    ]
    for name, check in steps:
        try:
            yield {"check": name, "ok": True, "detail": check(config)}
        except MjtableError as error:
            yield {"check": name, "ok": False, "detail": str(error)}
