"""One settle request answered: its ruleset looked up in the registry (``engine.rulesets.registry``) and asked."""

from __future__ import annotations

from typing import Any

from engine.rulesets.registry import get_ruleset
from engine.settle.request import SettleRequest


def settle_object(data: Any) -> dict[str, Any]:
    """The answer to one decoded request; ``MjtableError`` for anything the contract rejects."""
    request = SettleRequest.from_json(data)
    return get_ruleset(request.rules, request.options).settle(request)
