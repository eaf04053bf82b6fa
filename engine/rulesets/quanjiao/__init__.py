"""全椒打番 (fan.md §2): ``fans`` the 23 items and their conditions, ``ruleset`` the minimum, the doubling and the
dealer's dice/streak payment formula."""

from engine.rulesets.quanjiao.ruleset import QuanjiaoRuleset

__all__ = ["QuanjiaoRuleset"]
