"""``mjtable settle``: one JSON request per line in, one JSON answer per line out (shared/rules/regional/README.md).

The request names a ruleset and a query; the ruleset answers through its ``answer_<query>`` method
(``engine.rulesets.queries``). The CLI turns an input that cannot be settled into ``{"hu": false, "error": ...}``.
"""

from __future__ import annotations

from typing import Any

from engine.rulesets import get_ruleset
from engine.settle.request import SettleRequest

__all__ = ["SettleRequest", "settle_object"]


def settle_object(data: Any) -> dict[str, Any]:
    """The answer to one decoded request; ``MjtableError`` for anything the contract rejects."""
    request = SettleRequest.from_json(data)
    return get_ruleset(request.rules, request.options).settle(request)
