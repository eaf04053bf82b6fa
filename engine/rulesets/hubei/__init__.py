"""Hubei 赖子 (``hubei-laizi``) and Wuhan 红中赖子杠 (``wuhan``), wild.md §2-3: Wuhan is Hubei with overrides."""

from engine.rulesets.hubei.ruleset import HubeiRuleset
from engine.rulesets.hubei.wuhan import WuhanRuleset

__all__ = ["HubeiRuleset", "WuhanRuleset"]
