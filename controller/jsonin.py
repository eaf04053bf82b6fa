"""Decoding JSON that comes from outside (a settle line, a fleet command, a table's state on the broker): every way
it can fail becomes one ``MjtableError`` that names where, a document nested too deeply for the decoder included
(``json`` raises ``RecursionError`` for it, which would otherwise escape as a traceback or kill a callback thread)."""

from __future__ import annotations

import json
from typing import Any

from engine.errors import MjtableError


def read_json(data: str | bytes, where: str) -> Any:
    """The decoded document, or ``MjtableError("<where>: not JSON (...)")``."""
    try:
        return json.loads(data)
    except json.JSONDecodeError as error:
        reason = f"{error.msg} at character {error.pos}"
    except UnicodeDecodeError:
        reason = "the bytes are not UTF-8 text"
    except RecursionError:
        reason = "nested too deeply"
    raise MjtableError(f"{where}: not JSON ({reason})")
