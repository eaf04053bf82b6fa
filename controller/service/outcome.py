"""A finished hand's result line: what the referee and the match say of it, for the journal, the terminal, the display,
the fleet and ``mjtable history``.

Beside the wins and the payments, a match that keeps points (``engine.match.Standings``: riichi) gives the table's
facts a parlor reads on its own board: the round (東1局) and its 本場, each seat's points after the hand, the sticks
left on the table and, once the match is over, the final standings. A ruleset with ready declarations (riichi's 立直)
names the seats that declared; one with bonus indicators (dora) the indicators face up. Each comes from the ruleset's
general mechanisms (``Ruleset.ready_declaration``, ``bonus_indicators``), never from its name.
"""

from __future__ import annotations

from typing import Any

from controller.service.hand import HandState
from engine.match import Match
from engine.referee import Referee
from engine.rulesets.terms import WildcardSource
from engine.tiles import WIND_LETTERS

ROUND_WINDS = "東南西北"


def hand_result(hand: HandState, before: Match, after: Match, match_number: int) -> dict[str, Any]:
    """The result line of ``hand``, played in the match ``before`` and leaving it ``after``."""
    referee, record = hand.referee, hand.record
    assert referee is not None and referee.result is not None
    result: dict[str, Any] = {
        "hand": record.number,
        "match": match_number,
        "seed": record.seed,
        "dealer": record.dealer,
        "round_wind": WIND_LETTERS[record.round_wind],
        "dice": list(hand.dice or ()),
        **({} if hand.dice2 is None else {"dice2": list(hand.dice2)}),
        "actions": len(referee.history),
        **{key: value for key, value in referee.result.to_dict().items() if key != "wins"},
        "wins": win_lines(referee),
        "scores": list(after.scores),
        **table_facts(referee),
    }
    if before.standings is not None:  # the sticks after the hand: at the match's end they went to the first
        number = (record.dealer - before.deal.first_dealer) % 4 + 1
        result |= {"round": f"{ROUND_WINDS[record.round_wind]}{number}局", "honba": record.honba, "on_table": after.pot}
    if after.game_over and after.standings is not None:
        result["final_standings"] = after.final_standings()
    if hand.voided:
        result["voided"] = True
    if hand.void_reason is not None:
        result["void_reason"] = hand.void_reason
    return result


def table_facts(referee: Referee) -> dict[str, Any]:
    """What lies on the table beside the hands, where the ruleset has it (the result line's and the display's): the
    seats whose ready declaration stands (立直) and the stakes on the table, the bonus indicators face up (dora), the
    wildcard indicator turned up and the wildcards it makes (Hubei 赖子, 推倒胡 鬼牌), or Harbin's 宝 lying face down
    (``bao_hidden``) and the 宝 replaced before it, face up (换宝). Only faces the table shows: the face-down 宝 is
    never written, though the simulated referee knows it."""
    ruleset, facts = referee.ruleset, {}
    if ruleset.ready_declaration is not None:
        facts |= {"declared_ready": sorted(referee.ready), "on_table": referee.on_table}
    if ruleset.bonus_indicators is not None:
        faces = (tile for tile in referee.bonus_indicators() if tile is not None)
        facts["bonus_indicators"] = ruleset.format_tiles(faces)
    rule = ruleset.wildcards
    indicators = referee.wall.indicators
    if rule is not None and rule.indicator is not None and indicators:
        if rule.source is WildcardSource.FACE:
            replaced = (tile for tile in indicators[:-1] if tile is not None)
            facts |= {"bao_hidden": True, "bao_replaced": ruleset.format_tiles(replaced)}
        elif indicators[-1] is not None:
            wild = sorted(referee.wildcard_faces())
            facts |= {"wildcard_indicator": ruleset.tile_code(indicators[-1]), "wildcards": ruleset.format_tiles(wild)}
    return facts


def win_lines(referee: Referee) -> list[dict[str, Any]]:
    """Each win of the hand as the result line writes it: in the ruleset's notation, and whether it was self-drawn
    (riichi's notation has no situation block to say so, and the page lays the hand out by it)."""
    format_hand = referee.ruleset.format_hand
    return [{**win.to_dict(format_hand), "self_drawn": win.context.discarder is None} for win in referee.wins]
