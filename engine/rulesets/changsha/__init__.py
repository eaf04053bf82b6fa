"""``changsha`` (长沙麻将, 108.md §3): the wins (``hands``), the opening wins (``opening``) and the ruleset."""

from engine.rulesets.changsha.ruleset import ChangshaRuleset

__all__ = ["ChangshaRuleset"]
