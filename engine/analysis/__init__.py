"""Hand analysis: winning shapes, decompositions, waits, shanten and wildcards on count vectors.

A hand is a count vector (``engine.tiles.to_counts``) of the concealed tiles only: 14-3k (complete) or 13-3k
(waiting) tiles beside k exposed melds, which are not passed. Every fast path has a slow reference
(``reference_*``) that the tests compare it with.

Rule readings made here (each with the rule text it follows):
* a natural hand never waits on, or counts towards shanten, a fifth copy of a tile it holds four of (PyMahjongGB
  does; the difference is tested to be exactly that); copies in exposed melds are not known here;
* a joker may stand for any face, a fifth copy included (wild.md W-1);
* ``ShapeRules.pair_ranks`` also binds the pair beside a knitted straight; the knitted straight is allowed with
  14 concealed tiles or with 11 beside one exposed meld (rules-B §6 组合龙, anchor hand ``[678s,3]147m369s25pSS8p``).
"""

from engine.analysis.fast import decompositions, is_win, waits
from engine.analysis.reference import (
    reference_decompositions,
    reference_is_win,
    reference_is_win_wild,
    reference_shanten,
    reference_waits,
)
from engine.analysis.shanten import shanten
from engine.analysis.shapes import DEFAULT_SHAPES, MCR_SHAPES, Decomposition, ShapeRules
from engine.analysis.wildcard import is_win_wild, waits_wild, wild_assignments

__all__ = [
    "DEFAULT_SHAPES",
    "MCR_SHAPES",
    "Decomposition",
    "ShapeRules",
    "decompositions",
    "is_win",
    "is_win_wild",
    "reference_decompositions",
    "reference_is_win",
    "reference_is_win_wild",
    "reference_shanten",
    "reference_waits",
    "shanten",
    "waits",
    "waits_wild",
    "wild_assignments",
]
