"""Japanese riichi mahjong (``riichi``).

``yakulist`` the yaku table; ``reading`` the readings of a winning hand; ``yaku`` and ``fu`` what one reading
scores; ``dora`` the indicators; ``points`` han/fu to points and payments; ``scorer`` the best reading (the
compiled core's where it answers); ``line`` a whole settle line answered by that core;
``situation`` the settle situation keys; ``answer`` the settle answer; ``draws`` tenpai payments and nagashi
mangan; ``hooks`` what the shared referee asks of riichi (riichi declaration, furiten, dead wall and dora, abortive
draws, nagashi); ``bots`` the simulated players; ``ruleset`` options, settle queries and the match
(``engine.match``: rounds, 連荘, 本場, standings).
"""

from engine.rulesets.riichi.ruleset import RiichiRuleset

__all__ = ["RiichiRuleset"]
