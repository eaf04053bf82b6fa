"""The controller's exception hierarchy: every error names what is wrong and where (key, file, hand, event)."""

from __future__ import annotations

from engine.errors import MjtableError


class ControllerError(MjtableError):
    """Base of every error the service raises on purpose; the CLI prints it as ``{"error": ...}``."""


class ConfigError(ControllerError, ValueError):
    """A configuration file or value that cannot be used; names the file and the key."""


class JournalError(ControllerError):
    """The journal cannot be opened, or what it holds does not fit what was asked (another run in progress)."""


class TableStopped(ControllerError):
    """The table latched a fault and the service stopped; carries the fault code and the technician's hint."""

    def __init__(self, message: str, code: str, hint: str) -> None:
        super().__init__(message)
        self.code = code
        self.hint = hint
