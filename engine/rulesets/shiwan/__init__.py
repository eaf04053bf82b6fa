"""十万麻将 (fan.md §7): ``tiles`` its own ten-rank tile ids and notation (0 = rank 10), ``shape`` the win check and
meld reader, ``ruleset`` the verdict, the settle answer and the tile set the shared referee plays hands with."""

from engine.rulesets.shiwan.ruleset import ShiwanRuleset

__all__ = ["ShiwanRuleset"]
