"""A whole ``mjtable score --rules mcr`` line answered by the compiled core (``engine/_mcr_native.c``,
``score_lines``): the notation read, the hand checked against the 144-tile set, its fans counted, the 8 + F
settlement and the answer's text, byte for byte the pure path's (``cli.score_of`` and ``scoretext.ScoreText``); None
for a line it declines (a waiting hand, flower letters, a fifth copy, any error), which the pure path then answers
with its own message. The texts only the ruleset knows (each fan's entry, the false-win answers) are handed to the
core once per ruleset."""

from __future__ import annotations

import json
from collections.abc import Callable

from engine.native import MCR_NATIVE
from engine.rulesets.base import Ruleset
from engine.rulesets.mcr.fans import FANS
from engine.rulesets.mcr.ruleset import McrRuleset, fan_entry

SEATS = range(4)
_dump = json.JSONEncoder(ensure_ascii=False).encode


def _fan_head(fan: int) -> str:
    """A fan entry's answer text up to its count (``'{"id": 59, ..., "count": '``)."""
    text = _dump(fan_entry(fan, 0).to_dict())
    assert text.endswith('"count": 0}'), text  # the core writes the count last
    return text[: -len("0}")]


def score_lines(ruleset: Ruleset) -> Callable[[list[str]], list[str | None]] | None:
    """The core's answers to a chunk of lines under an MCR ruleset's options, None where the pure path must answer;
    None without the core, or for any other ruleset (a subclass of MCR's included: it may read or score otherwise)."""
    if MCR_NATIVE is None or type(ruleset) is not McrRuleset:
        return None
    options = ruleset.scoring_options
    config = (
        ("", *map(_fan_head, range(1, len(FANS) + 1))),
        tuple(_dump(ruleset.no_shape(seat).to_dict()) for seat in SEATS),
        tuple(_dump(ruleset.no_shape(seat).to_dict()["payments"]) for seat in SEATS),
        ruleset.minimum,
        int(options.infer_last_tile),
        int(options.knitted_body_waits),
        int(options.exhausted_waits),
        int(ruleset.options["flowers"]),
    )
    return lambda lines: MCR_NATIVE.score_lines(lines, config)
