"""``sichuan`` (成都 / 血战到底, 108.md §1): the fan table (``fans``), the drawn-hand settlement (``drawn``) and
the ruleset (``ruleset``)."""

from engine.rulesets.sichuan.ruleset import SichuanRuleset

__all__ = ["SichuanRuleset"]
