"""The Chinese Official (MCR, 国标) ruleset.

``fans`` the fan table (official numbers 1-81, 82 明暗杠, 83-85 optional blessings); ``codes`` tile codes for fan
rules; ``divisions`` readings of the concealed tiles; fan families in ``chows``, ``pungs``, ``traits``,
``waiting``, ``situation``, ``special`` (seven pairs, orphans, 全不靠, nine gates), ``knitted`` (组合龙) and
``blessings``; ``exclusions`` the 不计 tables; ``scorer`` the best reading; ``ruleset`` verdict, options and
competition settlement.
"""

from engine.rulesets.mcr.ruleset import McrRuleset

__all__ = ["McrRuleset"]
