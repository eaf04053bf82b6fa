"""Japanese riichi mahjong (``riichi``).

``yakulist`` the yaku table; ``reading`` the readings of a winning hand; ``yaku`` and ``fu`` what one reading
scores; ``dora`` the indicators; ``points`` han/fu to points and payments; ``scorer`` the best reading;
``situation`` the settle situation keys; ``answer`` the settle answer; ``draws`` tenpai payments and nagashi
mangan; ``match`` the hanchan (rounds, 連荘, 本場, end, ranking); ``furiten`` the furiten checks; ``table`` one hand's
state (wall, dead wall, players), ``play`` its turn order, ``bots`` the simulated players, ``simulation`` whole
matches for ``mjtable simulate``; ``ruleset`` options and settle queries.
"""

from engine.rulesets.riichi.ruleset import RiichiRuleset

__all__ = ["RiichiRuleset"]
