"""``mjtable settle``: one JSON request per line in, one JSON answer per line out (shared/rules/regional/README.md).

The request names a ruleset and a query; the ruleset answers through its ``answer_<query>`` method
(``engine.rulesets.queries``). ``engine.settle.answer.settle_object`` looks the ruleset up in the registry and
asks it; the CLI turns an input that cannot be settled into ``{"hu": false, "error": ...}``. This package itself
imports no ruleset: the rulesets read the contract's melds with ``engine.settle.melds``.
"""

from __future__ import annotations

from engine.settle.request import SettleRequest

__all__ = ["SettleRequest"]
