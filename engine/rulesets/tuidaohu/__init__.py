"""Guangdong 推倒胡 with 鬼牌 and 买马 (``tuidaohu``, wild.md §5)."""

from engine.rulesets.tuidaohu.ruleset import TuidaohuRuleset

__all__ = ["TuidaohuRuleset"]
