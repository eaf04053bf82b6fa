"""One settle request answered: its ruleset looked up in the registry (``engine.rulesets.registry``) and asked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import MjtableError
from engine.rulesets.base import Ruleset
from engine.rulesets.registry import get_ruleset
from engine.settle.request import SettleRequest

MAX_MESSAGE = 400
"""Characters of an error about a request: it quotes what is wrong, an excerpt of it when it is long (a field of
thousands of characters, a key of a megabyte), never the whole request."""
KEPT_RULESETS = 256
"""Rulesets kept built (one per id and options met): a batch names a few option sets, each built and checked once."""
_built: dict[tuple[Any, ...], Ruleset] = {}


def _ruleset(rules: str, options: Mapping[str, Any]) -> Ruleset:
    """The ruleset of a request, built once per id and options (a ruleset is not changed by answering). The key
    holds each value's type, so that ``1`` is not taken for ``true``; an unhashable value (a list) is built, and
    refused by its check, each time."""
    try:
        key = (rules, *((name, type(value), value) for name, value in options.items()))
        found = _built.get(key)
    except TypeError:
        return get_ruleset(rules, options)
    if found is None:
        found = get_ruleset(rules, options)
        if len(_built) >= KEPT_RULESETS:
            _built.clear()
        _built[key] = found
    return found


def settle_object(data: Any) -> dict[str, Any]:
    """The answer to one decoded request; ``MjtableError`` for anything the contract rejects."""
    try:
        request = SettleRequest.from_json(data)
        return _ruleset(request.rules, request.options).settle(request)
    except MjtableError as error:
        text = str(error)
        if len(text) > MAX_MESSAGE:  # a reader that quoted a long value whole: its start and end are kept
            error.args = (f"{text[: MAX_MESSAGE * 2 // 3]} … {text[-(MAX_MESSAGE // 4) :]}",)
        raise
