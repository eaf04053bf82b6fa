"""The registry: every ruleset by id, for ``mjtable rules``, the commands' ``--rules`` and the service's config.

The one module that knows them all. The rulesets and the referee depend on the interface
(``engine.rulesets.base``), never on this module, so adding a ruleset is one import and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import RulesetError, quoted
from engine.rulesets.base import Ruleset
from engine.rulesets.basic import BasicRuleset
from engine.rulesets.changsha import ChangshaRuleset
from engine.rulesets.contest111 import Contest111Ruleset
from engine.rulesets.guizhou import GuizhouRuleset
from engine.rulesets.hangzhou import HangzhouRuleset
from engine.rulesets.harbin import HarbinRuleset
from engine.rulesets.hebei import HebeiRuleset
from engine.rulesets.hubei import HubeiRuleset, WuhanRuleset
from engine.rulesets.jipinghu import JipinghuRuleset
from engine.rulesets.mcr import McrRuleset
from engine.rulesets.nanchang import NanchangRuleset
from engine.rulesets.quanjiao import QuanjiaoRuleset
from engine.rulesets.riichi import RiichiRuleset
from engine.rulesets.shiwan import ShiwanRuleset
from engine.rulesets.sichuan import SichuanRuleset
from engine.rulesets.tuidaohu import TuidaohuRuleset

_RULESETS: dict[str, type[Ruleset]] = {
    cls.id: cls
    for cls in (
        BasicRuleset,
        McrRuleset,
        SichuanRuleset,
        GuizhouRuleset,
        ChangshaRuleset,
        RiichiRuleset,
        QuanjiaoRuleset,
        NanchangRuleset,
        Contest111Ruleset,
        HebeiRuleset,
        HangzhouRuleset,
        ShiwanRuleset,
        HubeiRuleset,
        WuhanRuleset,
        JipinghuRuleset,
        TuidaohuRuleset,
        HarbinRuleset,
    )
}


def get_ruleset(ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset ``ruleset_id`` built with ``options``; ``RulesetError`` for an unknown id or a bad option."""
    try:
        cls = _RULESETS[ruleset_id]
    except (KeyError, TypeError):
        raise RulesetError(f"unknown ruleset {quoted(ruleset_id)}; known: {', '.join(sorted(_RULESETS))}") from None
    return cls(options)


def all_rulesets() -> list[type[Ruleset]]:
    """Every ruleset class, sorted by id (each has ``id``, ``description``, ``option_specs``, ``describe()``)."""
    return [_RULESETS[key] for key in sorted(_RULESETS)]
