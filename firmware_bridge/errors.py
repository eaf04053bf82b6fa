"""The firmware bridge's exception hierarchy: every error says what is wrong and where (byte, field, command)."""

from __future__ import annotations

from engine.errors import MjtableError


class BridgeError(MjtableError):
    """Base of every error the MCU link, the table API and the GPIO layer raise on purpose."""


class ProtocolError(BridgeError, ValueError):
    """Bytes or a message that do not follow PROTOCOL.md; names the message, the field or the byte offset."""


class ConfigError(BridgeError, ValueError):
    """A configuration value that cannot be used; names the key (``serial.port``, ``gpio.seat_buttons[2]``)."""


class LinkDown(BridgeError):
    """The MCU did not answer within the bounded number of tries, or the port failed."""


class BridgeTimeout(BridgeError, TimeoutError):
    """The MCU acknowledged a command but the table did not reach the expected state in time."""


class CommandRejected(BridgeError):
    """The MCU refused a command (wrong phase, latched fault, diagnostic mode, bad argument)."""


class TableFault(BridgeError):
    """The table latched a fault (jam, miscount, over-current, travel timeout, host silence, emergency stop)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class McuReset(BridgeError):
    """The MCU rebooted while a command was in flight; the link reconfigured it, the command did not complete."""
