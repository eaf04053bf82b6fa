"""Abortive draws none of the shared records holds, replayed from hands written here: 四風連打 and 三家和 (Tenhou's
rules: two ron on a discard, a third ends the hand drawn), found by the referee as the record says."""

from __future__ import annotations

from engine.records import Discard, Draw, DrawKind, DrawnGame, Format, GameRecord, HandRecord, RecordTile
from engine.records.replay import record_ruleset, replay_hand
from engine.tiles import parse_tile, parse_tiles


def tiles(text: str) -> tuple[RecordTile, ...]:
    return tuple(RecordTile(tile) for tile in parse_tiles(text))


def tile(code: str) -> RecordTile:
    return RecordTile(parse_tile(code))


def replayed(deal: list[str], moves: list, kind: DrawKind) -> dict:
    ended = (*moves, DrawnGame(kind, (0, 0, 0, 0)))
    hand = HandRecord(0, 0, 1, 0, 0, 0, tuple(map(tiles, deal)), ended, dora=tiles("9s"))
    record = GameRecord(Format.TENHOU_XML, (hand,))
    return replay_hand(record_ruleset(record), hand, "written.mjlog").to_dict()


def test_four_winds_discarded_first_end_the_hand():
    deal = ["1z2345m2345p2345s", "1z6789m6789p6789s", "1z11m11p11s2z2z3z3z", "1z99m99p99s4z4z5z5z"]
    moves = []
    for seat, drawn in enumerate(("6z", "6z", "7z", "7z")):
        moves += [Draw(seat, tile(drawn)), Discard(seat, tile("1z"))]
    line = replayed(deal, moves, DrawKind.FOUR_WINDS)
    assert (line["result"], line["agrees"]) == ("abortive", True)


def test_three_ron_on_one_discard_end_the_hand():
    deal = ["5p1m9m1p9p1s9s1z2z3z4z5z6z", "234m678m234p678p5p", "234m678m234s678s5p", "234p678p234s678s5p"]
    moves = [Draw(0, tile("7z")), Discard(0, tile("5p"))]
    line = replayed(deal, moves, DrawKind.TRIPLE_RON)
    assert (line["result"], line["winners"], line["agrees"]) == ("abortive", [], True)
