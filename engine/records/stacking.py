"""What a record says of a hand's set-up, as the referee takes it: the ruleset and options the record implies, and
the wall stacked to deal the record's hands and give its draws, kan replacements and indicators (``engine.stacked``).
"""

from __future__ import annotations

from engine.procedure import NewHand
from engine.records.game import Call, CallKind, Draw, DrawKind, DrawnGame, Format, GameRecord, HandRecord, RecordTile
from engine.rulesets.base import Ruleset
from engine.rulesets.registry import get_ruleset
from engine.stacked import Stacked, stacked_hand

_KANS = frozenset({CallKind.DAIMINKAN, CallKind.KAKAN, CallKind.ANKAN})
_WALL_RAN_OUT = frozenset({DrawKind.EXHAUSTIVE, DrawKind.NAGASHI_MANGAN})
DEALT = 52
"""Tiles dealt before the dealer's first draw: 13 to each seat."""
TENHOU = {
    "multiple_ron": "double",
    "kiriage": False,
    "double_yakuman": False,
    "counted_yakuman": "yakuman",
    "renhou": "none",
    "nagashi_mangan": True,
    "pao": True,
}
"""Tenhou's rules where the riichi ruleset offers a choice: two ron on one discard (three is an abortive draw), no
切り上げ満貫, one yakuman at most per yakuman, 数え役満, no 人和, 流し満貫, 責任払い."""


def record_ruleset(record: GameRecord) -> Ruleset:
    """The ruleset the record was played under: MCR for a Botzone text, else riichi as Tenhou plays it, red fives
    and open tanyao as the record states them."""
    if record.format is Format.BOTZONE:
        return get_ruleset("mcr")
    rules = record.rules
    open_tanyao = True if rules.open_tanyao is None else rules.open_tanyao
    return get_ruleset("riichi", {**TENHOU, "red_fives": rules.red_fives, "open_tanyao": open_tanyao})


def _stacked(tiles: tuple[RecordTile, ...] | list[RecordTile]) -> list[Stacked]:
    return [(tile.kind, tile.red) for tile in tiles]


def stacked_record_hand(ruleset: Ruleset, hand: HandRecord) -> NewHand:
    """The hand dealt as the record has it: each seat's 13, the dealer's first draw his 14th, the later draws from the
    head, a draw after a kan from the tail, the dora indicators and the ura under them. Where the wall ran out, the
    live wall ends with the record's last draw (a Botzone game gives each seat a wall of its own and ends when the
    seat to draw has none left; on Tenhou that is the ruleset's dead wall anyway)."""
    hands = {seat: _stacked(tiles) for seat, tiles in enumerate(hand.deal)}
    draws: list[RecordTile] = []
    replacements: list[RecordTile] = []
    after_kan = False
    for move in hand.moves:
        if isinstance(move, Draw):
            (replacements if after_kan else draws).append(move.tile)
            after_kan = False
        elif isinstance(move, Call):
            after_kan = move.kind in _KANS
    if draws:
        hands[hand.dealer] = [*hands[hand.dealer], *_stacked(draws[:1])]
    ran_out = any(isinstance(move, DrawnGame) and move.kind in _WALL_RAN_OUT for move in hand.moves)
    unplayed = ruleset.tile_set.size - DEALT - len(draws) - len(replacements)
    return stacked_hand(
        ruleset,
        hands,
        hand.dealer,
        draws=_stacked(draws[1:]),
        replacements=_stacked(replacements),
        indicators=_stacked(hand.dora),
        under=_stacked(hand.ura),
        reserved=unplayed if ran_out else None,
    )
