"""The controller's exception hierarchy: every error names what is wrong and where (key, file, hand, event)."""

from __future__ import annotations

from engine.errors import MjtableError


class ControllerError(MjtableError):
    """Base of every error the service raises on purpose; the CLI prints it as ``{"error": ...}``."""


class ConfigError(ControllerError, ValueError):
    """A configuration file or value that cannot be used; names the file and the key."""


class JournalError(ControllerError):
    """The journal cannot be opened, or what it holds does not fit what was asked (another run in progress)."""


class JournalDamaged(JournalError):
    """SQLite cannot read the journal file (a damaged page, not a database at all): it is refused, never written to,
    and the message says how to keep it aside and start a new one."""


class DiskFull(JournalError):
    """The filesystem of the journal has no room for the next write: named with the free space there, apart from
    damage, since the journal itself is intact (a failed write is rolled back whole)."""


class TableStopped(ControllerError):
    """The table latched a fault and the service stopped; carries the fault code and the technician's hint."""

    def __init__(self, message: str, code: str, hint: str) -> None:
        super().__init__(message)
        self.code = code
        self.hint = hint
