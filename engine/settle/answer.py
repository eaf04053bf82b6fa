"""One settle request answered: its ruleset looked up in the registry (``engine.rulesets.registry``) and asked."""

from __future__ import annotations

from typing import Any

from engine.errors import MjtableError
from engine.rulesets.registry import get_ruleset
from engine.settle.request import SettleRequest

MAX_MESSAGE = 400
"""Characters of an error about a request: it quotes what is wrong, an excerpt of it when it is long (a field of
thousands of characters, a key of a megabyte), never the whole request."""


def settle_object(data: Any) -> dict[str, Any]:
    """The answer to one decoded request; ``MjtableError`` for anything the contract rejects."""
    try:
        request = SettleRequest.from_json(data)
        return get_ruleset(request.rules, request.options).settle(request)
    except MjtableError as error:
        text = str(error)
        if len(text) > MAX_MESSAGE:  # a reader that quoted a long value whole: its start and end are kept
            error.args = (f"{text[: MAX_MESSAGE * 2 // 3]} … {text[-(MAX_MESSAGE // 4) :]}",)
        raise
