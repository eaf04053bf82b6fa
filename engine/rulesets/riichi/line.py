"""A whole ``mjtable settle`` riichi line answered by the compiled core (``engine/_riichi_native.c``, ``settle``):
a decoded request of the plain shape (the scoring options, the hand, melds and winning tile as runs of tiles, the
situation keys of a win) to its answer text, byte for byte the pure path's; None for every other request, which
``engine.settle.answer.settle_object`` then answers (every error message is the pure path's)."""

from __future__ import annotations

from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

from engine.native import RIICHI_NATIVE
from engine.rulesets.riichi.scorer import NO_SHAPE, NO_YAKU
from engine.rulesets.riichi.yakulist import YAKU


def _configured() -> Callable[[Any], str | None] | None:
    """The core's ``settle``, given the yaku names and the reasons of a no-win as JSON strings (its one copy of
    them is the yaku table's); None without the core."""
    if RIICHI_NATIVE is None:
        return None
    names = {key: (encode_basestring(yaku.name_ja), encode_basestring(yaku.name_en)) for key, yaku in YAKU.items()}
    RIICHI_NATIVE.configure(names, (encode_basestring(NO_SHAPE), encode_basestring(NO_YAKU)))
    return RIICHI_NATIVE.settle


settle_text = _configured()
"""``settle_text(request)``: the answer text of a decoded request, or None for the pure path."""
