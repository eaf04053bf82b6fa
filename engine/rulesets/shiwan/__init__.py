"""十万麻将 (fan.md §7): ``tiles`` its own ten-rank tile ids and notation (0 = rank 10), ``shape`` the win check and
meld reader, ``table`` its own full-hand simulation, ``ruleset`` the verdict and the settle answer."""

from engine.rulesets.shiwan.ruleset import ShiwanRuleset

__all__ = ["ShiwanRuleset"]
