"""The Chinese Official (MCR, 国标) ruleset: fan table, fan families, exclusions, scorer, settlement."""

from engine.rulesets.mcr.ruleset import McrRuleset

__all__ = ["McrRuleset"]
